"""Small reads and writes over the encounter state that the Savage Worlds actions share.

Token stats read here (all optional): Attribute and skill dice as die sizes (``agility``,
``smarts``, ``spirit``, ``strength``, ``vigor``, ``fighting``, ``shooting``, ``athletics``,
4..12, a missing skill rolls d4-2), ``parry`` (default 2 + half Fighting), ``toughness``
(5), ``armor`` (0), ``wounds`` (0), ``wild_card`` (party tokens default to true), ``size``
and ``scale`` (0 = Normal).
"""

from __future__ import annotations

from dataclasses import replace

from engine.encounter import EncounterState
from engine.rules import common
from engine.rules.base import Event, EventKind
from engine.rules.savage_worlds import conditions as cond
from engine.rules.savage_worlds import hold, injuries
from engine.rules.savage_worlds.catalogue import ACTIONS
from engine.rules.savage_worlds.schema import STATS as STATS  # read as board.STATS
from engine.tokens import Condition, Side, Token, are_opponents
from engine.words import condition_given

INCAPACITATED = "Incapacitated"
#: Killed (a Finishing Move, a failed Incapacitation or Bleeding Out roll): out for good.
DEAD = "Dead"
UNSKILLED_DIE = 4
UNSKILLED_PENALTY = -2
MAX_WOUND_PENALTY = 3


#: A whole-number stat through the schema (its default when the token has none).
stat_int = STATS.number

#: Distance in this system's unit, nearest square to nearest square.
inches_between = common.distance_between


def trait_die(token: Token, trait: str) -> tuple[int, int]:
    """(die, modifier) for a Trait; an untrained skill rolls d4-2. An injury may lower the
    die (``injuries``)."""
    die = stat_int(token, trait)
    if die == 0:
        return UNSKILLED_DIE, UNSKILLED_PENALTY
    return injuries.lowered_die(token, trait, die), 0


def is_wild_card(token: Token) -> bool:
    given = STATS.value(token, "wild_card")  # None: party tokens are, others not
    return token.side is Side.PARTY if given is None else bool(given)


def wounds(token: Token) -> int:
    return stat_int(token, "wounds")


#: The most Wounds a token's block can hold (the schema's bound): a hit past Incapacitated
#: adds no more, so a fight can always be saved and loaded again.
WOUND_CEILING = int(next(spec.maximum for spec in STATS
                         if spec.name == "wounds" and spec.maximum is not None))


def wound_penalty(token: Token) -> int:
    return -min(wounds(token), MAX_WOUND_PENALTY)


def parry(token: Token) -> int:
    base = STATS.optional_number(token, "parry")
    if base is None:
        base = 2 + stat_int(token, "fighting") // 2
    return base + cond.parry_modifier(token)


def toughness(token: Token, armor_piercing: int = 0, extra_armor: int = 0) -> int:
    """Toughness with Armor (and ``extra_armor``: cover counting as Armor against a blast);
    Armor Piercing takes off up to that much of the Armor."""
    armor = stat_int(token, "armor") + extra_armor
    return stat_int(token, "toughness") + max(0, armor - max(0, armor_piercing))


def scale(token: Token) -> int:
    """The token's Scale rank (0, Normal, when its file gives none)."""
    return STATS.optional_number(token, "scale") or 0


def out_of_fight(token: Token) -> bool:
    return token.has_condition(INCAPACITATED) or token.has_condition(DEAD)


def gang_up(state: EncounterState, attacker: Token, target: Token) -> int:
    """+1 per other foe of the target beside it (besides the attacker), at most +4. A Stunned
    foe does not count (the edition's Stunned); a Shaken one, still on its feet, does."""
    others = [
        t for t in state.tokens
        if t.id not in (attacker.id, target.id)
        and are_opponents(t.side, target.side)
        and common.adjacent(t, target)
        and not t.has_condition(cond.SWCondition.STUNNED)
        and not out_of_fight(t)
    ]
    return min(len(others), 4)


# --- writing ------------------------------------------------------------------------------


def add_condition(
    state: EncounterState, token_id: str, name: cond.SWCondition, *, value: int = 0,
    source: str | None = None,
) -> tuple[EncounterState, list[Event]]:
    """Give a condition with its rule duration; a holder who is Shaken or Stunned loses the
    Hold and the turn."""
    token = state.token(token_id)
    new = cond.condition(name, state.combat.round, token_id, _acted(state, token_id),
                         value=value, source=source)
    line = condition_given(token.name, name, (a.name for a in ACTIONS))  # "takes Wild Attack"
    return _given(state, cond.with_condition(token, new), line)


def stun(state: EncounterState, token_id: str) -> tuple[EncounterState, list[Event]]:
    """Stun a token (a stun gun, a power, a shock: the GM's call): Stunned, Distracted to the
    end of its next turn and prone; a holder loses the Hold and the turn."""
    token = state.token(token_id)
    stunned = cond.stun(token, state.combat.round, _acted(state, token_id))
    return _given(state, stunned, f"{token.name} is Stunned: prone, Distracted, Vulnerable "
                  "and unable to act until a Vigor roll at the start of a turn (Stunned).")


def _given(state: EncounterState, token: Token, said: str) -> tuple[EncounterState, list[Event]]:
    """Put the token with its new conditions back, ending a Hold that Shaken or Stunned ends."""
    events = [Event(EventKind.CONDITION, said, (token.id,))]
    checked = hold.check_hold(token)
    if checked.lost_turn:
        events.append(Event(EventKind.CONDITION,
                            f"{token.name} loses the Hold and the turn (Hold).", (token.id,)))
    return common.put(state, checked.token), events


def plain_condition(state: EncounterState, token_id: str, name: str) -> EncounterState:
    token = state.token(token_id)
    kept = tuple(c for c in token.conditions if c.name != name)
    return common.put(state, replace(token, conditions=(*kept, Condition(name))))


def _acted(state: EncounterState, token_id: str) -> bool:
    combat = state.combat
    if not combat.has(token_id):
        return False
    return combat.combatant(token_id).acted or combat.active == token_id


