"""Savage Worlds health on the token and by the GM's hand: Wounds, Fatigue and Shaken.

Wounds show as pips up to the three a Wild Card can carry (``max_wounds`` when the token
gives it; an Extra has none: the first Wound takes him out), Fatigue as two pips
(Fatigued, Exhausted: the conditions, see ``fatigue``), Shaken as a flag, and one flag for how far
down it is (Dead, Bleeding Out or Incapacitated). GM damage is a damage total
compared with Toughness, the way a hit is (Shaken on a success, a Wound per raise; see
:func:`engine.rules.savage_worlds.attack_math.apply_damage`). GM healing removes that many
Wounds and lifts Incapacitated once the token is back within its Wound limit.

Its turn (``turn_allowance``): a dead or Incapacitated token has none, except one Bleeding
Out, which gets its Vigor roll and no more (``incapacitation``); a Stunned one gets only its
Vigor roll to recover, and its turn ends if it stays Stunned; one still Shaken after its
Spirit roll moves and takes free actions only.
"""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.events import Event, EventKind
from engine.rules import common
from engine.rules.base import Outcome, TurnAllowance, TurnKind
from engine.rules.gauges import Gauge, GaugeStyle, condition_flag, maximum_of
from engine.rules.savage_worlds import attack_math, board, fatigue, incapacitation
from engine.rules.savage_worlds.conditions import SWCondition
from engine.tokens import Token
from engine.words import counted

WILD_CARD_WOUNDS = 3
#: The Fatigue pips' key: not the old ``fatigue`` stat, so the GM's "Change a count" does not
#: offer it (the level is the Fatigued or Exhausted condition; ``fatigue``).
FATIGUE_GAUGE = "fatigue_level"


def turn_allowance(state: EncounterState, token_id: str) -> TurnAllowance:
    """Asked after the start-of-turn rolls (Spirit for Shaken, Vigor for Stunned)."""
    token = state.token(token_id)
    if token.has_condition(board.DEAD):
        return TurnAllowance(TurnKind.SKIPPED, "is dead")
    if incapacitation.bleeding_out(token):
        return TurnAllowance(TurnKind.ROLL_ONLY, f"is {board.INCAPACITATED} and "
                             f"{SWCondition.BLEEDING_OUT}")
    if board.out_of_fight(token):
        return TurnAllowance(TurnKind.SKIPPED, f"is {board.INCAPACITATED}")
    if token.has_condition(SWCondition.STUNNED):
        return TurnAllowance(TurnKind.ROLL_ONLY, "stays Stunned after the Vigor roll")
    if token.has_condition(SWCondition.SHAKEN):
        return TurnAllowance(TurnKind.LIMITED, "stays Shaken: movement and free actions only")
    return TurnAllowance()


def wound_limit(token: Token) -> int:
    given = maximum_of(board.STATS, token, "wounds")
    if given is not None:
        return given
    return WILD_CARD_WOUNDS if board.is_wild_card(token) else 0


def gauges(state: EncounterState, token: Token) -> tuple[Gauge, ...]:
    shown: list[Gauge] = []
    limit = wound_limit(token)
    if limit > 0:
        shown.append(
            Gauge("wounds", "Wounds", board.wounds(token), limit, GaugeStyle.PIPS, harm=True)
        )
    tired = fatigue.level(token)
    if tired > 0 or board.is_wild_card(token):
        shown.append(Gauge(FATIGUE_GAUGE, "Fatigue", tired, len(fatigue.LEVELS),
                           GaugeStyle.PIPS, harm=True))
    flags = (condition_flag(token, SWCondition.SHAKEN), down_flag(token))
    return (*shown, *(flag for flag in flags if flag is not None))


def down_flag(token: Token) -> Gauge | None:
    """How far down the token is, as one flag: Dead, Bleeding Out or Incapacitated (a
    Bleeding Out left behind when the GM revives the token by hand is not shown)."""
    if token.has_condition(board.DEAD):
        return condition_flag(token, board.DEAD)
    if incapacitation.bleeding_out(token):
        return condition_flag(token, SWCondition.BLEEDING_OUT)
    return condition_flag(token, board.INCAPACITATED)


def take_damage(state: EncounterState, token_id: str, amount: int) -> Outcome:
    state, events = attack_math.apply_damage(state, token_id, amount, dice=None)  # no dice
    return state, tuple(events)


def heal(state: EncounterState, token_id: str, amount: int) -> Outcome:
    token = state.token(token_id)
    before = board.wounds(token)
    after = max(0, before - amount)
    state = common.set_stat(state, token_id, wounds=after)
    events = [
        Event(
            EventKind.DAMAGE,
            f"{token.name} heals {counted(before - after, 'Wound')} (GM); {after} left.",
            (token_id,),
        )
    ]
    if token.has_condition(board.INCAPACITATED) and after <= wound_limit(token):
        state, back = incapacitation.back_in_the_fight(state, token_id, soaked=False)
        events.extend(back)
    if after == 0:
        state, over = incapacitation.heal_injuries(state, token_id)
        events.extend(over)
    return state, tuple(events)
