"""Savage Worlds: Support reaches whatever Trait it was given to, and the Joker's +2 goes
with the defender's rolls too (issue 17, must-have 2). Dice are typed: non-Wild-Card tokens
roll one Trait die, so each value below is one die face (an ace rolls again)."""

from __future__ import annotations

from dataclasses import replace

from engine.dice import GivenDice
from engine.rules.base import Command, IllegalCommand
from engine.tokens import Condition, Side, Token
from engine.turns.session import Encounter

from .builders import fight, fighter


def supported(token: Token, trait: str, value: int) -> Token:
    return replace(token, conditions=(*token.conditions, Condition("Supported", None, trait,
                                                                   value)))


def support_left(game: Encounter, token_id: str, trait: str) -> int:
    return sum(c.value for c in game.state.token(token_id).conditions
               if c.name == "Supported" and c.source == trait)


def test_support_given_to_strength_reaches_the_pushers_strength_roll() -> None:
    # Support: the ally's roll earns +1 (or +2 with a raise) on the Trait it names.
    helper = fighter("h", Side.PARTY, (0, 1), athletics=8)
    pusher = fighter("p", Side.PARTY, (0, 0), strength=6)
    foe = fighter("f", Side.ENEMY, (1, 0), strength=6)
    game = fight(helper, pusher, foe)
    # Athletics 9 is a raise: +2 on the pusher's Strength.
    game.apply(Command.build("support", "h", targets=["p"], trait="strength", skill="athletics"),
               GivenDice([8, 1]))
    assert support_left(game, "p", "strength") == 2
    game.apply(Command("end_turn", "h"))
    # Strength 4 + 2 = 6 beats the foe's 5; without the Support 4 would lose.
    game.apply(Command.build("push", "p", targets=["f"]), GivenDice([4, 5, 4]))
    assert game.state.token("f").square.x == 2
    # It helped that roll and is used up.
    assert support_left(game, "p", "strength") == 0


def test_support_on_athletics_reaches_breaking_free() -> None:
    held = supported(fighter("a", Side.PARTY, (0, 0), athletics=6), "athletics", 1)
    held = replace(held, conditions=(*held.conditions, Condition("Entangled", None, "b")))
    game = fight(held, fighter("b", Side.ENEMY, (1, 0)))
    # Athletics 5, -2 for being held, +1 Support = 4: a success frees an Entangled character
    # (without the Support, 3 would fail).
    game.apply(Command("break_free", "a"), GivenDice([5]))
    assert not game.state.token("a").has_condition("Entangled")


def test_support_on_athletics_reaches_the_pushed_foes_footing_roll() -> None:
    # Support works for a roll made outside the recipient's own turn as well.
    foe = supported(fighter("f", Side.ENEMY, (1, 0), athletics=6), "athletics", 2)
    game = fight(fighter("p", Side.PARTY, (0, 0), strength=6), foe)
    # Push 5 against 4: a win; Athletics 2 + 2 Support = 4 keeps the foe on its feet.
    game.apply(Command.build("push", "p", targets=["f"]), GivenDice([5, 4, 2]))
    assert not game.state.token("f").has_condition("Prone")
    assert support_left(game, "f", "athletics") == 0


def test_support_on_spirit_reaches_the_roll_to_recover_from_shaken() -> None:
    shaken = supported(fighter("a", Side.PARTY, (0, 0), spirit=6), "spirit", 1)
    shaken = replace(shaken, conditions=(*shaken.conditions, Condition("Shaken")))
    game = fight(fighter("b", Side.ENEMY, (5, 5)), shaken)
    game.apply(Command("end_turn", "b"), GivenDice([3]))  # Spirit 3 + 1 = 4: recovers
    assert not game.state.token("a").has_condition("Shaken")


def test_support_on_fighting_reaches_a_touch_attack() -> None:
    toucher = supported(fighter("a", Side.PARTY, (0, 0), fighting=6), "fighting", 1)
    game = fight(toucher, fighter("b", Side.ENEMY, (1, 0), parry=7))
    preview = game.preview(Command.build("touch_attack", "a", targets=["b"]))
    assert ("Support (fighting)", 1) in [(m.name, m.value) for m in preview.modifiers]
    game.apply(Command.build("touch_attack", "a", targets=["b"]), GivenDice([4]))  # 4+2+1 = 7
    assert any("touches" in e.text and "fails" not in e.text for e in game.log)


def test_support_on_one_trait_does_not_reach_another() -> None:
    game = fight(supported(fighter("a", Side.PARTY, (0, 0)), "notice", 2),
                 fighter("b", Side.ENEMY, (1, 0)))
    preview = game.preview(Command.build("fighting", "a", targets=["b"], weapon="Knife"))
    assert not any("Support" in m.name for m in preview.modifiers)
    assert support_left(game, "a", "notice") == 2


def test_support_goes_at_the_end_of_the_recipients_turn_used_or_not() -> None:
    helper = fighter("h", Side.PARTY, (0, 1), fighting=8)
    game = fight(helper, fighter("a", Side.PARTY, (0, 0)), fighter("z", Side.ENEMY, (9, 9)))
    game.apply(Command.build("support", "h", targets=["a"], trait="notice", skill="fighting"),
               GivenDice([5]))
    game.apply(Command("end_turn", "h"))
    assert support_left(game, "a", "notice") == 1  # kept until the recipient's turn ends
    game.apply(Command("end_turn", "a"))
    assert support_left(game, "a", "notice") == 0


def test_the_jokers_plus_two_counts_on_the_defenders_opposed_roll() -> None:
    # A Joker adds +2 to every Trait roll of its holder, resisting included.
    joker = replace(fighter("f", Side.ENEMY, (1, 0), strength=6),
                    conditions=(Condition("Joker"),))
    plain = fighter("g", Side.ENEMY, (1, 0), strength=6)
    pusher = fighter("p", Side.PARTY, (0, 0), strength=6)
    # Push 5 against 4: wins against the plain foe, loses against 4 + 2 = 6.
    against_plain = fight(pusher, plain)
    against_plain.apply(Command.build("push", "p", targets=["g"]), GivenDice([5, 4, 5]))
    assert against_plain.state.token("g").square.x == 2
    against_joker = fight(pusher, joker)
    against_joker.apply(Command.build("push", "p", targets=["f"]), GivenDice([5, 4, 5]))
    assert against_joker.state.token("f").square.x == 1


def test_push_moves_the_foe_up_to_the_distance_the_pusher_chooses() -> None:
    # Push sends the foe back *up to* 1" (2" with a raise): the pusher may stop short.
    game = fight(fighter("p", Side.PARTY, (0, 0), strength=12), fighter("f", Side.ENEMY, (1, 0)))
    # Strength 9 against 4 is a raise (2" allowed); the pusher wants 1".
    game.apply(Command.build("push", "p", targets=["f"], distance=1), GivenDice([9, 4, 5]))
    assert game.state.token("f").square.x == 2


def test_push_never_goes_past_what_the_roll_allows() -> None:
    game = fight(fighter("p", Side.PARTY, (0, 0), strength=12), fighter("f", Side.ENEMY, (1, 0)))
    # A plain win (5 against 4): 1" at most, however far the pusher wished.
    game.apply(Command.build("push", "p", targets=["f"], distance=5), GivenDice([5, 4, 5]))
    assert game.state.token("f").square.x == 2


def test_push_refuses_a_negative_distance() -> None:
    game = fight(fighter("p", Side.PARTY, (0, 0)), fighter("f", Side.ENEMY, (1, 0)))
    preview = game.preview(Command.build("push", "p", targets=["f"], distance=-1))
    assert not preview.legal and "distance" in " ".join(preview.reasons)
    try:
        game.apply(Command.build("push", "p", targets=["f"], distance=-1), GivenDice([5, 4]))
    except IllegalCommand:
        pass
    else:
        raise AssertionError("a negative push distance was applied")
