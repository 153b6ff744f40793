"""Hit points as the GM changes them by hand, shared by the systems that count them.

The systems that count hit points keep ``hp`` (each reads it through
its own stat block, with the default declared there) with an
optional ``max_hp`` and put a token at 0 hit points out of the fight with one condition
(their own name for it). Damage goes through :func:`engine.rules.common.lose_hit_points`,
the same path an attack takes; healing stops at ``max_hp`` and brings a downed token back
once it has hit points again.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.encounter import EncounterState
from engine.events import Event, EventKind
from engine.rules import common
from engine.rules.base import Outcome
from engine.rules.gauges import Gauge, condition_flag, maximum_of, points_gauge
from engine.rules.stat_block import DeclaredStat, StatBlock
from engine.tokens import Token
from engine.words import counted

MarkDown = Callable[[EncounterState, str], tuple[EncounterState, Event]]


def gauges(
    stats: StatBlock[DeclaredStat], token: Token, down: str, *extra: tuple[str, str]
) -> tuple[Gauge, ...]:
    """Hit points as a bar, any ``extra`` (stat, label) bars that the token's file gives,
    and the down condition as a flag."""
    shown = [points_gauge(stats, token, "hp", "HP")]
    shown += [points_gauge(stats, token, stat, label)
              for stat, label in extra if stats.given(token, stat)]
    flag = condition_flag(token, down)
    return (*shown, flag) if flag is not None else tuple(shown)


def take_damage(
    stats: StatBlock[DeclaredStat], state: EncounterState, token_id: str, amount: int,
    mark_down: MarkDown, floor: int | None = None,
) -> Outcome:
    token = state.token(token_id)
    if stats.number(token, "hp") <= 0:
        mark_down = _already_down  # no second "is down" line for a token already at 0
    state, events = common.lose_hit_points(stats, state, token_id, amount, mark_down, floor)
    return state, tuple(events)


def _already_down(state: EncounterState, token_id: str) -> tuple[EncounterState, Event]:
    return state, Event(EventKind.NOTE, f"{state.token(token_id).name} stays down.", (token_id,))


def heal(
    stats: StatBlock[DeclaredStat], state: EncounterState, token_id: str, amount: int, down: str
) -> Outcome:
    token = state.token(token_id)
    before = stats.number(token, "hp")
    ceiling = maximum_of(stats, token, "hp")
    after = before + amount if ceiling is None else min(before + amount, max(ceiling, before))
    state = common.set_stat(state, token_id, hp=after)
    events = [
        Event(EventKind.DAMAGE, f"{token.name} heals {counted(after - before, 'hit point')} "
              f"({after} left).", (token_id,))
    ]
    if after > 0 and token.has_condition(down):
        state = common.remove_condition(state, token_id, down)
        events.append(Event(EventKind.CONDITION, f"{token.name} is no longer {down}.",
                            (token_id,)))
    return state, tuple(events)

