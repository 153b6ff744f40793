"""Stunned in play: the GM stuns a token from the map, the turn engine keeps it from acting,
attackers get the Vulnerable bonus, and a Vigor roll at the start of its turn ends it."""

from __future__ import annotations

from engine.dice import GivenDice
from engine.rules.base import Command
from engine.tokens import Expiry, ExpiryPoint, Side
from engine.turns.session import Encounter

from .builders import fight, fighter


def stunned_b() -> Encounter:
    """a acts first, b (Vigor d6, not a Wild Card) second; the GM stuns b in a's turn."""
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (4, 0)))
    game.apply(Command.build("gm_condition", targets=["b"], condition="Stunned"))
    return game


def vulnerable_ends(game: Encounter, token_id: str) -> list[Expiry | None]:
    return [c.expires for c in game.state.token(token_id).conditions if c.name == "Vulnerable"]


def test_the_gms_stun_knocks_the_token_prone_and_distracts_it_to_the_end_of_its_next_turn(
) -> None:
    game = stunned_b()
    b = game.state.token("b")
    assert b.has_condition("Stunned") and b.has_condition("Prone")
    distracted = [c.expires for c in b.conditions if c.name == "Distracted"]
    assert distracted == [Expiry(1, ExpiryPoint.END_OF_TURN, "b")]  # b has not acted yet
    assert any("Stunned: prone, Distracted, Vulnerable" in e.text for e in game.log)


def test_an_attack_on_a_stunned_token_gets_the_vulnerable_bonus() -> None:
    game = stunned_b()
    shot = game.preview(Command.build("shooting", "a", targets=["b"], weapon="Pistol"))
    assert ("Vulnerable target", 2) in [(m.name, m.value) for m in shot.modifiers]


def test_a_token_still_stunned_after_its_vigor_roll_has_its_turn_ended_for_it() -> None:
    game = stunned_b()
    events = game.apply(Command("end_turn"), GivenDice([3]))  # b: Vigor 3 - 2 Distracted fails
    assert game.state.token("b").has_condition("Stunned")
    assert "B stays Stunned after the Vigor roll; the turn ends." in [e.text for e in events]
    assert (game.state.combat.round, game.state.combat.active) == (2, "a")


def test_a_stunned_token_can_neither_act_nor_move() -> None:
    game = stunned_b()
    game.apply(Command("end_turn"), GivenDice([3]))  # b's turn: Vigor 3 - 2 Distracted fails
    assert game.state.token("b").has_condition("Stunned")
    for command in (Command.build("shooting", "b", targets=["a"], weapon="Pistol"),
                    Command.build("move", "b", squares=[(5, 0)]),
                    Command.build("go_prone", "b")):
        preview = game.preview(command)
        assert not preview.legal and "B is Stunned and can do nothing" in preview.reasons


def test_the_first_vigor_roll_carries_distracted_and_a_failure_keeps_the_token_stunned() -> None:
    game = stunned_b()
    events = game.apply(Command("end_turn"), GivenDice([5]))  # 5 - 2 = 3: fails
    assert game.state.token("b").has_condition("Stunned")
    assert any("B rolls Vigor 3" in e.text and "stays Stunned" in e.text for e in events)


def test_a_vigor_success_ends_stunned_and_leaves_vulnerable_to_the_end_of_the_next_turn(
) -> None:
    game = stunned_b()
    game.apply(Command("end_turn"), GivenDice([1]))  # round 1, b: 1 - 2 fails, turn over
    assert game.state.combat.active == "a"  # round 2 (Distracted went with b's turn)
    game.apply(Command("end_turn"), GivenDice([4]))  # b's turn: Vigor 4 succeeds
    b = game.state.token("b")
    assert game.state.combat.round == 2 and game.state.combat.active == "b"
    assert not b.has_condition("Stunned") and b.has_condition("Prone")
    assert vulnerable_ends(game, "b") == [Expiry(3, ExpiryPoint.END_OF_TURN, "b")]
    assert game.preview(Command.build("shooting", "b", targets=["a"], weapon="Pistol")).legal
    game.apply(Command("end_turn"))
    assert game.state.token("b").has_condition("Vulnerable")  # into round 3


def test_a_vigor_raise_keeps_vulnerable_only_to_the_end_of_this_turn() -> None:
    game = stunned_b()
    game.apply(Command("end_turn"), GivenDice([10]))  # 10 - 2 = 8: a raise
    assert not game.state.token("b").has_condition("Stunned")
    assert vulnerable_ends(game, "b") == [Expiry(1, ExpiryPoint.END_OF_TURN, "b")]
    game.apply(Command("end_turn"))
    assert not game.state.token("b").has_condition("Vulnerable")


def test_a_stunned_holder_loses_the_hold_and_the_turn() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (4, 0)))
    game.apply(Command("hold", "a"))
    assert game.state.combat.active == "b"
    events = game.apply(Command.build("gm_condition", targets=["a"], condition="Stunned"))
    assert not game.state.token("a").has_condition("On Hold")
    assert any("loses the Hold" in e.text for e in events)
    assert not game.preview(Command("act_from_hold", "a")).legal


def test_a_condition_the_gm_gives_lasts_as_its_rule_says() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (4, 0)))
    game.apply(Command.build("gm_condition", targets=["b"], condition="Distracted"))
    game.apply(Command("end_turn"))  # b's turn: still Distracted
    assert game.state.token("b").has_condition("Distracted")
    game.apply(Command("end_turn"))  # the end of b's turn ends it
    assert not game.state.token("b").has_condition("Distracted")


def gang_up_of(game: Encounter) -> int:
    fighting = game.preview(Command.build("fighting", "a", targets=["b"], weapon="Knife"))
    return sum(m.value for m in fighting.modifiers if m.name == "Gang Up")


def test_a_stunned_foe_beside_the_target_adds_no_gang_up_but_a_shaken_one_does() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (1, 0)),
                 fighter("c", Side.PARTY, (2, 0)))
    assert gang_up_of(game) == 1
    game.apply(Command.build("gm_condition", targets=["c"], condition="Shaken"))
    assert gang_up_of(game) == 1
    game.apply(Command.build("gm_condition", targets=["c"], condition="Stunned"))
    assert gang_up_of(game) == 0
