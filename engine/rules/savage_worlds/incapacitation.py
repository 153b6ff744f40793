"""Incapacitation and Bleeding Out: what becomes of a Wild Card whose Wounds take it out.

Our rule text (002) holds only the Special Actions, so this is the edition's core rule as
published, in our own words, with these choices (the numbers are named below):

* **The Incapacitation roll.** A Wild Card that a hit takes out (more Wounds than it can
  carry) rolls Vigor at once, through the encounter's dice, with its Wound penalty (at
  most -3) and its other standing modifiers (Distracted, the Joker, Support on Vigor): a
  critical failure kills it; a failure leaves it Bleeding Out; a success or a raise leaves
  it Incapacitated but stable. Every outcome but death then rolls on the Injury Table
  (``injuries``): the injury is a condition on the token, permanent after a failure.
* An **Extra** makes no Incapacitation roll: it is out of the fight, and what became of it
  is for the GM to settle after the fight, as the book advises.
* The **GM's damage** takes a token out with no roll (a GM command has no dice): the log
  says so, and the GM gives Bleeding Out by hand when the table rolls and fails.
* A hit on a token already Incapacitated makes no new roll (attacks refuse such a target,
  blasts and Suppressive Fire pass it by).
* **Bleeding Out.** At the start of each of its turns the token rolls Vigor with the same
  modifiers: a failure (a critical one too) kills it, a success keeps it bleeding, a raise
  stabilises it; then its turn ends. A token Bleeding Out is still dealt a card for that
  roll (the book deals every Incapacitated character in; we deal only the bleeding ones,
  since a stable or dead token's turn would only be skipped).
* **Stabilise.** Anyone beside it may spend an action on a Healing roll (untrained d4-2)
  with the healer's own modifiers and the patient's Wound penalty; a success stops the
  bleeding. The GM's modifier covers the rest (no healer's kit, a shaking hand).
* **Soak.** A Benny that takes back the Wounds of the hit that took a Wild Card out takes
  back its Incapacitation roll too (in the book the Soak comes first): Bleeding Out goes,
  and so do a death by that roll and the injury it rolled.
* **Healing by the GM** that brings the token back within its Wound limit ends
  Incapacitated and Bleeding Out (``health.heal``); it does not raise the dead.
"""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.events import Event, EventKind
from engine.rules import common
from engine.rules.savage_worlds import board, injuries, rerolls, trait_bonuses
from engine.rules.savage_worlds import conditions as cond
from engine.rules.savage_worlds.conditions import SWCondition
from engine.rules.savage_worlds.traits import TraitResult, outcome, trait_roll
from engine.tokens import Condition, Token

#: The Trait rolled to survive being taken out, and each turn while bleeding.
SURVIVAL_TRAIT = "vigor"
#: The skill an ally rolls to stop the bleeding.
STABILISE_SKILL = "healing"
#: Raises a Bleeding Out roll needs to stabilise on its own.
STABILISING_RAISES = 1
#: The combatant's record of what its last hit's Incapacitation roll did (for a Soak).
LAST_HIT_FATE = "last_hit_fate"
#: The combatant's record of the injury its last hit left (for a Soak).
LAST_HIT_INJURY = "last_hit_injury"
#: What keeps the injury of an Incapacitation roll failed, made or made with a raise.
_INJURY_LASTS = ("permanent", "until every Wound is healed",
                 "24 hours or until every Wound is healed")


class Fate(StrEnum):
    """What an Incapacitation or Bleeding Out roll leaves."""

    DEAD = "dead"
    BLEEDING = "bleeding"
    STABLE = "stable"


def bleeding_out(token: Token) -> bool:
    """Incapacitated and still bleeding (a GM who lifts Incapacitated ends the bleeding)."""
    return board.out_of_fight(token) and token.has_condition(SWCondition.BLEEDING_OUT) \
        and not token.has_condition(board.DEAD)


def dealt_in(token: Token) -> bool:
    """Whether the token is dealt a card: everyone still fighting, and the bleeding."""
    return not board.out_of_fight(token) or bleeding_out(token)


def incapacitation_fate(roll: TraitResult) -> Fate:
    if roll.critical_failure:
        return Fate.DEAD
    return Fate.STABLE if outcome(roll.total).success else Fate.BLEEDING


def bleeding_fate(roll: TraitResult) -> Fate:
    return bleeding_fate_of(roll.total)


def bleeding_fate_of(total: int) -> Fate:
    """A Bleeding Out roll's total read: a failure dies, a raise stabilises."""
    result = outcome(total)
    if not result.success:
        return Fate.DEAD
    return Fate.STABLE if result.raises >= STABILISING_RAISES else Fate.BLEEDING


def _vigor(token: Token, dice: Dice, why: str) -> tuple[Token, TraitResult, rerolls.RollMade]:
    """A Vigor roll with the token's Wounds, Distracted, Joker and Support (spent), and
    the roll as a Benny would roll it again."""
    die, untrained = board.trait_die(token, SURVIVAL_TRAIT)
    modifier = untrained + trait_bonuses.resisting_total(token, SURVIVAL_TRAIT)
    roll = trait_roll(die, dice, modifier=modifier, wild_card=board.is_wild_card(token),
                      purpose=f"{token.name} Vigor {why}")
    made = rerolls.RollMade(SURVIVAL_TRAIT, die, modifier, roll.total, roll.critical_failure)
    return trait_bonuses.without_support(token, SURVIVAL_TRAIT), roll, made


def _meet(state: EncounterState, token: Token, fate: Fate) -> EncounterState:
    """The token put back with what ``fate`` leaves: dead, bleeding or stable."""
    token = cond.without_condition(token, SWCondition.BLEEDING_OUT)
    if fate is Fate.BLEEDING:
        token = cond.with_condition(token, cond.condition(
            SWCondition.BLEEDING_OUT, state.combat.round, token.id, False))
    state = common.put(state, token)
    if fate is Fate.DEAD:
        state = board.plain_condition(state, token.id, board.DEAD)
    return state


_TAKEN_OUT_WORDS = {
    Fate.DEAD: "a critical failure: dies",
    Fate.BLEEDING: "fails: Bleeding Out (Vigor at the start of each turn; Healing from "
                   "someone beside can stabilise)",
    Fate.STABLE: "stable, out of the fight until healed",
}
_BLEEDING_WORDS = {
    Fate.DEAD: "fails and dies",
    Fate.BLEEDING: "holds on, still Bleeding Out",
    Fate.STABLE: "stabilises: no longer Bleeding Out, still Incapacitated",
}


def taken_out(state: EncounterState, token_id: str, dice: Dice | None) -> tuple[
        EncounterState, list[Event]]:
    """The token is Incapacitated now; a Wild Card rolls to survive it (no dice: the GM's
    damage, no roll)."""
    state = board.plain_condition(state, token_id, board.INCAPACITATED)
    token = state.token(token_id)
    events = [Event(EventKind.CONDITION, f"{token.name} is Incapacitated.", (token_id,))]
    if not board.is_wild_card(token):
        return state, events
    if dice is None:
        events.append(Event(EventKind.NOTE, f"{token.name} makes no Incapacitation roll (the "
                            "GM's damage): give Bleeding Out by hand if the table rolls and "
                            "fails it.", (token_id,)))
        return state, events
    token, roll, made = _vigor(token, dice, "against Incapacitation")
    fate = incapacitation_fate(roll)
    state = _meet(state, token, fate)
    if fate is not Fate.STABLE:  # a Benny may reroll it (not a critical failure: refused)
        state = rerolls.keep(state, token_id, rerolls.RollKind.INCAPACITATION, made)
    if state.combat.has(token_id):  # what a Soak of this hit takes back (soak_actions)
        state = common.set_data(state, token_id, **{LAST_HIT_FATE: str(fate)})
    # A condition event, not a roll: the dice dialog lists rolls as rows and shows what the
    # rest does, so the GM sees the fate before committing to the faces.
    events.append(Event(EventKind.CONDITION, f"{token.name} rolls Vigor {roll} against "
                        f"Incapacitation: {_TAKEN_OUT_WORDS[fate]}.", (token_id,)))
    if fate is not Fate.DEAD:
        lasts = 0 if fate is Fate.BLEEDING else min(1 + outcome(roll.total).raises, 2)
        state, injured = _injure(state, token_id, dice, lasts)
        events.append(injured)
    return state, events


def _injure(state: EncounterState, token_id: str, dice: Dice, lasts: int) -> tuple[
        EncounterState, Event]:
    """A roll on the Injury Table; ``lasts`` indexes ``_INJURY_LASTS`` (0: permanent)."""
    token = state.token(token_id)
    injury = injuries.roll(dice, token.name)
    kept = Condition(str(injury), None, injuries.SOURCE, int(lasts == 0))
    state = common.put(state, cond.with_condition(token, kept))
    if state.combat.has(token_id):
        state = common.set_data(state, token_id, **{LAST_HIT_INJURY: str(injury)})
    rule = injuries.RULES[injury]
    return state, Event(EventKind.CONDITION, f"{token.name} rolls on the Injury Table: "
                        f"{rule.place}: {rule.effect} ({_INJURY_LASTS[lasts]}).", (token_id,))


def heal_injuries(state: EncounterState, token_id: str) -> tuple[EncounterState, list[Event]]:
    """Every Wound healed: the injuries that last only until then go."""
    token = state.token(token_id)
    gone = [c.name for c in token.conditions if c.source == injuries.SOURCE and not c.value]
    if not gone:
        return state, []
    kept = tuple(c for c in token.conditions if c.name not in gone)
    state = common.put(state, replace(token, conditions=kept))
    return state, [Event(EventKind.CONDITION, f"{token.name} is over {', '.join(gone)} "
                         "(every Wound healed).", (token_id,))]


def bleed(state: EncounterState, token_id: str, dice: Dice) -> tuple[EncounterState,
                                                                      list[Event]]:
    """The start-of-turn Vigor roll of a token Bleeding Out."""
    token, roll, made = _vigor(state.token(token_id), dice, "while Bleeding Out")
    fate = bleeding_fate(roll)
    state = _meet(state, token, fate)
    if fate is not Fate.STABLE:  # a Benny may reroll it (a raise would stabilise)
        state = rerolls.keep(state, token_id, rerolls.RollKind.BLEEDING, made)
    return state, [Event(EventKind.CONDITION, f"{token.name} rolls Vigor {roll} while Bleeding "
                         f"Out: {_BLEEDING_WORDS[fate]}.", (token_id,))]


def killed_by_last_hit(state: EncounterState, token_id: str) -> bool:
    """Whether the token died by its last hit's Incapacitation roll (a Soak takes it back)."""
    return common.data(state, token_id, LAST_HIT_FATE, "") == Fate.DEAD


def beyond_soaking(state: EncounterState, token_id: str) -> EncounterState:
    """A death no Soak takes back (a Finishing Move): forget the last hit's roll."""
    if not state.combat.has(token_id):
        return state
    return common.set_data(state, token_id, **{LAST_HIT_FATE: ""})


def refate(state: EncounterState, token_id: str, fate: Fate) -> EncounterState:
    """A better roll read again: the token dead, bleeding or stable as ``fate`` says now
    (a death by the first roll taken back)."""
    token = state.token(token_id)
    alive = replace(token, conditions=tuple(c for c in token.conditions if c.name != board.DEAD))
    return _meet(state, alive, fate)


def stabilised(state: EncounterState, token_id: str) -> EncounterState:
    token = state.token(token_id)
    return common.put(state, cond.without_condition(token, SWCondition.BLEEDING_OUT))


def back_in_the_fight(state: EncounterState, token_id: str, *, soaked: bool) -> tuple[
        EncounterState, list[Event]]:
    """Incapacitated lifted (Wounds healed or soaked back within the limit): the bleeding
    stops with it; a Soak also takes back a death by the same hit's roll."""
    token = state.token(token_id)
    events = [Event(EventKind.CONDITION, f"{token.name} is no longer Incapacitated.",
                    (token_id,))]
    undone = soaked and killed_by_last_hit(state, token_id)
    if token.has_condition(board.DEAD) and not undone:  # the dead stay dead
        return state, [Event(EventKind.NOTE, f"{token.name} is dead: healing does not bring "
                             "him back.", (token_id,))]
    token = cond.without_condition(token, SWCondition.BLEEDING_OUT)
    names = {board.INCAPACITATED, *((board.DEAD,) if undone else ())}
    if soaked and state.combat.has(token_id):  # the soaked hit's injury goes with it
        names.add(str(common.data(state, token_id, LAST_HIT_INJURY, "")))
    kept = tuple(c for c in token.conditions if c.name not in names)
    state = common.put(state, replace(token, conditions=kept))
    if state.combat.has(token_id):
        state = common.set_data(state, token_id, **{LAST_HIT_FATE: "", LAST_HIT_INJURY: ""})
        state = rerolls.forget(state, token_id, rerolls.RollKind.INCAPACITATION)
    if undone:
        events.append(Event(EventKind.CONDITION, f"{token.name} did not die after all "
                            "(the soaked hit's Incapacitation roll is taken back).",
                            (token_id,)))
    return state, events
