"""Spycraft Action Dice: each character's pool, the GM's pool, and what spends them.

What the texts say Action Dice do: boost an Initiative check (only then: a count cannot be
boosted once combat begins); a Refresh spends and rolls one to heal; Cover Fire may spend
one for a final attack; a critical miss or failure costs -2 fluid Initiative per Action Die
spent on it. The Action Dice chapter itself is not among the texts; our readings:

- A character's pool is the stat ``action_dice`` (dice left; the GM sets it, default 3;
  ``max_action_dice`` is the pool's size when the file gives one) and his die is
  ``action_die`` (1d4). The pool shows on the token and in the tracker (a gauge). A
  standard character (``special`` false) whose file gives no pool draws on the GM's.
- A threat becomes a critical success when the character spends a die (option
  ``action_die=True``): it is spent only when the roll does threaten.
- The GM has a pool too (``start_combat`` option ``gm_action_dice``, default 0; the GM's
  Change a count sets it later): an error becomes a critical failure when the GM spends
  one (option ``activate_error=True``), spent only when the roll does err, and the
  character who erred loses 2 fluid Initiative.
- Option ``boost`` at ``start_combat`` (token ids) spends one die of each named character
  to add its roll to his Initiative check.
- A command that would need a die from an empty pool is refused.

Where a die is spent, the action returns a marker event (:func:`spent`, :func:`gm_spent`);
the system settles them after the action (:func:`settle`), so the pools change in one place.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

from engine.encounter import EncounterState
from engine.rules.base import Command, Event, EventKind
from engine.rules.gauges import Gauge, GaugeStyle, maximum_of
from engine.rules.spycraft import board
from engine.tokens import Token

POOL_STAT = "action_dice"
DIE_STAT = "action_die"
GM_POOL = "gm_action_dice"
ERROR_FLUID = -2


@dataclass(frozen=True, slots=True)
class SpentActionDie(Event):
    """Marker: ``tokens[0]`` spent one of his Action Dice (settled by :func:`settle`)."""


@dataclass(frozen=True, slots=True)
class SpentGmActionDie(Event):
    """Marker: the GM spent an Action Die on an error of ``tokens[0]``."""


def draws_on_gm(token: Token) -> bool:
    """A standard character with no pool of his own spends the GM's dice."""
    return not board.STATS.flag(token, "special") and not board.STATS.given(token, POOL_STAT)


def pool(token: Token) -> int:
    """The character's own pool."""
    return board.stat_int(token, POOL_STAT)


def gm_pool(state: EncounterState) -> int:
    value = state.combat.data.get(GM_POOL, 0)
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def available(state: EncounterState, token: Token) -> int:
    """Dice the character can spend: his pool, or the GM's for a standard character."""
    return gm_pool(state) if draws_on_gm(token) else pool(token)


def with_gm_pool(state: EncounterState, size: int) -> EncounterState:
    data = {**state.combat.data, GM_POOL: max(0, size)}
    return replace(state, combat=replace(state.combat, data=data))


def spent(actor: Token, why: str) -> SpentActionDie:
    return SpentActionDie(EventKind.NOTE, f"{actor.name} spends an Action Die: {why}.",
                          (actor.id,))


def gm_spent(token: Token, why: str) -> SpentGmActionDie:
    return SpentGmActionDie(EventKind.NOTE, f"The GM spends an Action Die: {why} for "
                            f"{token.name} ({ERROR_FLUID:+d} fluid Initiative).", (token.id,))


def reasons(state: EncounterState, command: Command, declared: Collection[str]) -> list[str]:
    """Why a command cannot count on the Action Dice it asks for (``declared``: the options
    its action takes; an action without ``action_die`` or ``activate_error`` asks for none)."""
    found: list[str] = []
    if "action_die" in declared and command.actor is not None and command.option(
            "action_die", False):
        actor = state.token(command.actor)
        if available(state, actor) < 1:
            found.append(f"{actor.name} has no Action Dice left")
    if "activate_error" in declared and command.option("activate_error", False) and \
            gm_pool(state) < 1:
        found.append("the GM has no Action Dice left to activate an error")
    return found


def spend_from(state: EncounterState, token_id: str) -> EncounterState:
    """Take one die out of the character's pool, or the GM's (never below 0)."""
    token = state.token(token_id)
    if draws_on_gm(token):
        return with_gm_pool(state, gm_pool(state) - 1)
    return state.with_token(board.with_stats(token, **{POOL_STAT: max(0, pool(token) - 1)}))


def settle(state: EncounterState, events: tuple[Event, ...]) -> tuple[EncounterState,
                                                                        tuple[Event, ...]]:
    """Take the dice the action's markers name out of the pools, as plain events."""
    plain: list[Event] = []
    for event in events:
        if isinstance(event, SpentActionDie):
            state = spend_from(state, event.tokens[0])
        elif isinstance(event, SpentGmActionDie):
            state = with_gm_pool(state, gm_pool(state) - 1)
            state = board.add_fluid(state, event.tokens[0], ERROR_FLUID)
        else:
            plain.append(event)
            continue
        plain.append(Event(event.kind, event.text, event.tokens, event.roll))
    return state, tuple(plain)


def gauges(token: Token) -> tuple[Gauge, ...]:
    """The pool, as pips against its size when the file gives one (none for a standard
    character on the GM's dice)."""
    if draws_on_gm(token):
        return ()
    size = maximum_of(board.STATS, token, POOL_STAT)
    return (Gauge(POOL_STAT, "Action Dice", pool(token), size,
                  GaugeStyle.PIPS if size else GaugeStyle.BAR),)
