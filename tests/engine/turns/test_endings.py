"""A condition's end in words names the token whose turn counts and a real round."""

from __future__ import annotations

from dataclasses import replace

from engine.rules.base import Command
from engine.tokens import Condition, Expiry, ExpiryPoint
from engine.turns.endings import ending_words
from engine.turns.session import Encounter
from tests.engine.rules.test_portal_command import doorway


def with_condition(expiry: Expiry) -> Encounter:
    state = doorway("spycraft")
    guard = replace(state.token("b"), conditions=(Condition("dazed", expiry),))
    return Encounter(state.with_token(guard))


def words(fight: Encounter) -> str:
    guard = fight.state.token("b")
    dazed = next(c for c in guard.conditions if c.name == "dazed")
    return ending_words(fight.state, guard, dazed)


def test_before_the_fight_round_zero_reads_as_round_one() -> None:
    fight = with_condition(Expiry(0, ExpiryPoint.START_OF_TURN, "a"))
    assert words(fight) == "until Agent's next turn, round 1"


def test_names_the_token_and_moves_on_once_its_turn_has_started() -> None:
    fight = with_condition(Expiry(1, ExpiryPoint.END_OF_TURN, "a"))
    fight.apply(Command("start_combat"))
    if fight.state.combat.active != "a":
        fight.apply(Command("end_turn"))
    assert fight.state.combat.active == "a"
    assert words(fight) == "until the end of Agent's turn, round 1"


def test_own_turn_end_and_round_end() -> None:
    fight = with_condition(Expiry(3, ExpiryPoint.END_OF_TURN))
    assert words(fight) == "until the end of Guard's turn, round 3"
    fight = with_condition(Expiry(2, ExpiryPoint.END_OF_ROUND))
    assert words(fight) == "until the end of round 2"


def test_no_expiry_no_words() -> None:
    state = doorway("spycraft")
    guard = replace(state.token("b"), conditions=(Condition("prone"),))
    assert ending_words(state, guard, guard.conditions[0]) == ""
