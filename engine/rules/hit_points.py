"""Hit points as the GM changes them by hand, shared by the systems that count them.

Cities Without Number and the d20 firearms rules both keep ``hp`` (10 if unset) with an
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
from engine.rules.gauges import Gauge, condition_flag, points_gauge
from engine.tokens import Token

DEFAULT_HP = 10

MarkDown = Callable[[EncounterState, str], tuple[EncounterState, Event]]


def gauges(token: Token, down: str, *extra: tuple[str, str]) -> tuple[Gauge, ...]:
    """Hit points as a bar, any ``extra`` (stat, label) bars that the token carries, and
    the down condition as a flag."""
    shown = [points_gauge(token, "hp", "HP", DEFAULT_HP)]
    shown += [points_gauge(token, stat, label) for stat, label in extra if stat in token.stats]
    flag = condition_flag(token, down)
    return (*shown, flag) if flag is not None else tuple(shown)


def take_damage(state: EncounterState, token_id: str, amount: int, mark_down: MarkDown) -> Outcome:
    token = state.token(token_id)
    if common.stat_int(token, "hp", DEFAULT_HP) <= 0:
        mark_down = _already_down  # no second "is down" line for a token already at 0
    state, events = common.lose_hit_points(state, token_id, amount, mark_down)
    return state, tuple(events)


def _already_down(state: EncounterState, token_id: str) -> tuple[EncounterState, Event]:
    return state, Event(EventKind.NOTE, f"{state.token(token_id).name} stays down.", (token_id,))


def heal(state: EncounterState, token_id: str, amount: int, down: str) -> Outcome:
    token = state.token(token_id)
    before = common.stat_int(token, "hp", DEFAULT_HP)
    ceiling = common.stat_int(token, "max_hp", before + amount) if "max_hp" in token.stats else None
    after = before + amount if ceiling is None else min(before + amount, max(ceiling, before))
    state = common.set_stat(state, token_id, hp=after)
    events = [
        Event(EventKind.DAMAGE, f"{token.name} heals {after - before} hit points "
              f"({after} left).", (token_id,))
    ]
    if after > 0 and token.has_condition(down):
        state = common.remove_condition(state, token_id, down)
        events.append(Event(EventKind.CONDITION, f"{token.name} is no longer {down}.",
                            (token_id,)))
    return state, tuple(events)

