"""Savage Worlds on the turn engine: scale, Action Deck initiative, Jokers, Hold, and the
special actions played through the public session API."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine.battlemap import BattleMap, CoverGrade, CoverObject
from engine.dice import GivenDice
from engine.encounter import EncounterState
from engine.grid import DiagonalRule, GridScale, Square, Unit
from engine.rules import get_system
from engine.rules.base import BadOptions, Command, CommandError, IllegalCommand, TurnStanding
from engine.rules.savage_worlds import templates
from engine.rules.savage_worlds.combat_state import deck_of
from engine.rules.savage_worlds.deck import Card
from engine.rules.savage_worlds.tables import SCALE as SAVAGE_INCH
from engine.tokens import Condition, Side, Weapon
from engine.turns.journal import command_from_json, command_to_json
from engine.turns.session import Encounter

from .builders import KNIFE, PISTOL, SMG, fight, fighter
from .cone_oracle import cone

# A Fisher-Yates shuffle that keeps every card in place: the deck deals Red Joker, Black
# Joker, Ace of spades, Ace of hearts...
UNSHUFFLED = [i + 1 for i in range(53, 0, -1)]


def test_scale_is_one_inch_two_yards_and_every_diagonal_counts_one() -> None:
    system = get_system("savage-worlds")
    assert system.scale == SAVAGE_INCH
    assert system.scale.describe(3) == '3" (6 yd)'
    game = fight(fighter("a", Side.PARTY, (1, 1)), fighter("b", Side.ENEMY, (9, 9)))
    diagonal = Command.build("move", "a", squares=[(2, 2), (3, 3), (4, 4), (5, 5), (6, 6),
                                                   (7, 7)])
    assert game.preview(diagonal).legal  # 6 diagonals = 6" = the whole Pace
    seventh = Command.build("move", "a", squares=[(2, 2), (3, 3), (4, 4), (5, 5), (6, 6),
                                                  (7, 7), (8, 8)])
    assert "Pace" in " ".join(game.preview(seventh).reasons)


def test_medium_blast_is_scaled_to_the_maps_grid() -> None:
    one_inch = EncounterState("m", "savage-worlds", SAVAGE_INCH, BattleMap(12, 12))
    two_inch = replace(one_inch, scale=GridScale(2.0, Unit.INCHES, DiagonalRule.ONE))
    big = templates.blast(one_inch, (6.0, 6.0), "medium")
    small = templates.blast(two_inch, (6.0, 6.0), "medium")
    assert len(big.squares) > len(small.squares)
    assert Square(7, 5) in big.squares and Square(8, 6) not in small.squares
    assert len(templates.blast(one_inch, (6.0, 6.0), "large").squares) > len(big.squares)
    covered = cone(one_inch, (0.5, 6.0), 0.0).squares
    assert Square(8, 6) in covered and Square(11, 6) not in covered


def start_with_deck(*tokens_: object) -> Encounter:
    tokens = tuple(tokens_)
    state = EncounterState("Deck", "savage-worlds", SAVAGE_INCH, BattleMap(12, 10),
                           tokens)  # type: ignore[arg-type]
    game = Encounter(state, seed=4)
    game.apply(Command("start_combat"), GivenDice(UNSHUFFLED))
    return game


def test_action_deck_deals_each_a_card_and_acts_high_to_low() -> None:
    game = start_with_deck(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (5, 5)),
                           fighter("c", Side.PARTY, (2, 0)), fighter("d", Side.ENEMY, (7, 5)))
    cards = {c.token_id: Card.from_code(str(c.get("card"))) for c in game.state.combat.order}
    assert [c.code for c in cards.values()] == ["RJ", "BJ", "AS", "AH"]
    assert [c.token_id for c in game.state.combat.order] == ["a", "b", "c", "d"]
    # Ace of spades acts before the Ace of hearts: suits break ties.
    assert cards["c"].sort_key > cards["d"].sort_key
    assert game.state.combat.active == "a"


def test_cards_dealt_by_hand_go_to_ids_of_any_character() -> None:
    awkward = 'b, "x"|y=z;w:v'
    state = EncounterState("Deck", "savage-worlds", SAVAGE_INCH, BattleMap(12, 10),
                           (fighter("a", Side.PARTY, (0, 0)), fighter(awkward, Side.ENEMY, (5, 5))))
    start = Command.build("start_combat", cards={awkward: "AS", "a": "10H"})
    assert command_from_json(json.loads(json.dumps(command_to_json(start)))) == start
    game = Encounter(state, seed=4)
    game.apply(start)
    assert game.state.combat.combatant(awkward).get("card") == "AS"
    assert game.state.combat.combatant("a").get("card") == "10H"
    assert [c.token_id for c in game.state.combat.order] == [awkward, "a"]
    with pytest.raises(BadOptions, match="option 'cards' must be token ids each with text"):
        Encounter(state).apply(Command.build("start_combat", cards=f"{awkward}=AS"))
    with pytest.raises(CommandError, match="cards=: there is no token 'c'"):
        Encounter(state).apply(Command.build("start_combat", cards={"c": "AS"}))


def test_joker_gives_plus_two_to_trait_and_damage_and_reshuffles_after_the_round() -> None:
    game = start_with_deck(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (1, 0)))
    assert game.state.token("a").has_condition("Joker")
    shot = game.preview(Command.build("fighting", "a", targets=["b"], weapon="Knife"))
    assert ("Joker", 2, "attack") in [(m.name, m.value, m.applies_to) for m in shot.modifiers]
    assert ("Joker", 2, "damage") in [(m.name, m.value, m.applies_to) for m in shot.modifiers]
    deck = deck_of(game.state)
    assert deck.joker_dealt and len(deck.draw_pile) == 52
    game.apply(Command("end_turn"))
    events = game.apply(Command("end_turn"))  # round 2: reshuffled, then dealt two
    assert any("shuffled" in e.text for e in events)
    deck = deck_of(game.state)
    assert len(deck.draw_pile) == 52 and deck.discards == ()
    # The round-1 Joker has run out with its round.
    assert not any(c.name == "Joker" and c.expires is not None and c.expires.round == 1
                   for c in game.state.token("a").conditions)


def test_hold_skips_the_deal_and_lasts_into_the_next_round() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (5, 5)))
    game.apply(Command("hold", "a"))
    assert game.state.combat.active == "b"
    game.apply(Command("end_turn"))  # round 2
    assert game.state.combat.round == 2
    holder = game.state.combat.combatant("a")
    assert holder.get("card") == "" and holder.acted
    assert game.state.token("a").has_condition("On Hold")
    assert game.state.combat.active == "b"


def test_acting_from_hold_before_anyone_acts_needs_no_roll() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (5, 5)),
                 fighter("c", Side.ENEMY, (7, 5)))
    game.apply(Command("hold", "a"))
    events = game.apply(Command("act_from_hold", "a"))
    assert game.state.combat.active == "a"
    assert not any("Athletics" in e.text for e in events)
    game.apply(Command("end_turn"))
    assert game.state.combat.active == "b"  # b resumes its turn


def test_interrupting_needs_opposed_athletics_and_a_loser_acts_after() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (5, 5)),
                 fighter("c", Side.ENEMY, (9, 9)))
    game.apply(Command("hold", "a"))
    game.apply(Command.build("move", "b", squares=[(5, 4)]))
    events = game.apply(Command("act_from_hold", "a"), GivenDice([3, 5]))  # a 3, b 5
    assert any("Athletics" in e.text for e in events)
    assert game.state.combat.active == "b"
    assert not game.state.token("a").has_condition("On Hold")
    game.apply(Command("end_turn"))
    assert game.state.combat.active == "a"  # right after the one it failed to interrupt


def test_winning_the_interrupt_acts_first() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (5, 5)))
    game.apply(Command("hold", "a"))
    game.apply(Command.build("move", "b", squares=[(5, 4)]))
    game.apply(Command("act_from_hold", "a"), GivenDice([5, 2]))
    assert game.state.combat.active == "a"


def test_shaken_while_on_hold_loses_the_hold() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0), toughness=3),
                 fighter("b", Side.ENEMY, (0, 1), KNIFE))
    game.apply(Command("hold", "a"))
    # b hits (5 against Parry 5) for 3 damage against Toughness 3: Shaken.
    events = game.apply(Command.build("fighting", "b", targets=["a"], weapon="Knife"),
                        GivenDice([5, 3]))
    assert game.state.token("a").has_condition("Shaken")
    assert not game.state.token("a").has_condition("On Hold")
    assert any("loses the Hold" in e.text for e in events)
    assert not game.preview(Command("act_from_hold", "a")).legal


def test_aim_then_shoot_with_plus_two_on_the_first_action() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (8, 0)))
    game.apply(Command.build("aim", "a", targets=["b"], weapon="Pistol", choice="+2"))
    assert not game.preview(Command.build("move", "a", squares=[(1, 0)])).legal
    game.apply(Command("end_turn"))
    game.apply(Command("end_turn"))  # round 2, a again
    shot = game.preview(Command.build("shooting", "a", targets=["b"], weapon="Pistol"))
    assert ("Aim", 2) in [(m.name, m.value) for m in shot.modifiers]


def test_aim_ignores_range_penalty_up_to_four() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (30, 0)),
                 width=40)
    game.apply(Command.build("aim", "a", targets=["b"], weapon="Pistol"))
    game.apply(Command("end_turn"))
    game.apply(Command("end_turn"))
    mods = {m.name: m.value for m in game.preview(
        Command.build("shooting", "a", targets=["b"], weapon="Pistol")).modifiers}
    assert mods["Long range"] == -4  # 30" with a 12" Short range
    assert mods["Aim"] == 4  # cancels up to 4 points


def test_called_shot_head_is_minus_four_plus_four_damage() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (3, 0)))
    preview = game.preview(Command.build("called_shot", "a", targets=["b"], weapon="Pistol",
                                         location="head or vitals"))
    mods = {(m.name, m.applies_to): m.value for m in preview.modifiers}
    assert mods[("Called Shot (head or vitals)", "attack")] == -4
    assert mods[("Called Shot (head or vitals)", "damage")] == 4


def test_called_shot_hand_can_disarm() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (3, 0), PISTOL))
    # Shooting 6 aces into 8 (typed as 8), -4 for the hand = 4: a hit; damage 3+3 = 6
    # against Toughness 5 Shakes; the Strength roll 1-4 = -3 fails, so the pistol falls.
    events = game.apply(Command.build("called_shot", "a", targets=["b"], weapon="Pistol",
                                      location="hand"), GivenDice([8, 3, 3, 1]))
    assert game.state.token("b").weapons == ()
    assert any("drops" in e.text for e in events)


def test_defend_adds_four_parry_until_the_next_turn() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (0, 1), KNIFE))
    game.apply(Command("defend", "a"))
    assert not game.preview(Command.build("fighting", "a", targets=["b"], weapon="Knife")).legal
    assert game.preview(Command.build("move", "a", squares=[(1, 0)])).legal
    attack = game.preview(Command.build("fighting", "b", targets=["a"], weapon="Knife"))
    assert "against 9" in attack.summary  # Parry 5 + 4
    game.apply(Command("end_turn"))
    game.apply(Command("end_turn"))  # a's next turn starts: Defend is over
    assert not game.state.token("a").has_condition("Defending")


def test_desperate_and_wild_attack() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (0, 1)))
    mods = {(m.name, m.applies_to): m.value for m in game.preview(Command.build(
        "desperate_attack", "a", targets=["b"], weapon="Knife", step=4)).modifiers}
    assert mods == {("Desperate Attack", "attack"): 4, ("Desperate Attack", "damage"): -4}
    game.apply(Command.build("wild_attack", "a", targets=["b"], weapon="Knife"),
               GivenDice([2]))
    vulnerable = next(c for c in game.state.token("a").conditions if c.name == "Vulnerable")
    assert vulnerable.expires is not None and vulnerable.expires.round == 2
    assert not game.preview(Command.build("desperate_attack", "a", targets=["b"],
                                          weapon="Knife")).legal


def test_touch_attack_adds_two() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (0, 1)))
    mods = {m.name: m.value for m in game.preview(
        Command.build("touch_attack", "a", targets=["b"])).modifiers}
    assert mods["Touch Attack"] == 2


def test_grapple_entangles_then_binds_and_crush() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0), athletics=8),
                 fighter("b", Side.ENEMY, (0, 1)))
    game.apply(Command.build("grapple", "a", targets=["b"]), GivenDice([5, 4]))
    assert game.state.token("b").has_condition("Entangled")
    # Second action (-2): 7-2 = 5 against the Entangled (Distracted) foe's 4-2: a win.
    game.apply(Command.build("grapple", "a", targets=["b"]), GivenDice([7, 4]))
    assert game.state.token("b").has_condition("Bound")
    assert game.state.token("a").has_condition("Vulnerable")  # while holding a Bound foe
    assert game.preview(Command.build("crush", "a", targets=["b"])).legal


def test_grapple_size_limit() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (0, 1), size=3))
    assert "Sizes larger" in " ".join(game.preview(
        Command.build("grapple", "a", targets=["b"])).reasons)


def test_push_shoves_the_foe_back_and_may_knock_it_prone() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0), strength=12),
                 fighter("b", Side.ENEMY, (1, 0)))
    # Strength 9 against 4: a raise, 2" back; Athletics 2-2 = 0 fails: prone.
    game.apply(Command.build("push", "a", targets=["b"]), GivenDice([9, 4, 2]))
    assert game.state.token("b").square == Square(3, 0)
    assert game.state.token("b").has_condition("Prone")


def test_support_caps_at_four() -> None:
    game = fight(fighter("b", Side.PARTY, (1, 0), shooting=12), fighter("a", Side.PARTY, (0, 0)))
    # Three Supports in one turn (Multi-Action -2, -4): 10, 11-2 = 9, 11-4 = 7 give +2, +2, +1.
    for face in (10, 11, 11):
        game.apply(Command.build("support", "b", targets=["a"], trait="shooting"),
                   GivenDice([face]))
    support = next(c for c in game.state.token("a").conditions if c.name == "Supported")
    assert support.value == 4


def test_support_for_strength_has_no_cap() -> None:
    game = fight(fighter("b", Side.PARTY, (1, 0), strength=12), fighter("a", Side.PARTY, (0, 0)))
    for face in (10, 11, 11):
        game.apply(Command.build("support", "b", targets=["a"], trait="strength"),
                   GivenDice([face]))
    support = next(c for c in game.state.token("a").conditions if c.name == "Supported")
    assert support.value == 5


def test_suppressive_fire_distracts_on_success_hits_on_raise_and_spends_triple() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0), SMG, shooting=8),
                 fighter("b", Side.ENEMY, (6, 5)),
                 fighter("c", Side.ENEMY, (7, 5)))
    preview = game.preview(Command.build("suppressive_fire", "a", squares=[(6, 5)],
                                         weapon="SMG"))
    assert preview.legal and set(preview.targets) == {"b", "c"} and preview.shots == 30
    game.apply(Command.build("suppressive_fire", "a", squares=[(6, 5)], weapon="SMG"),
               GivenDice([6]))  # 6 - 2 recoil = 4: success, no raise
    assert game.state.token("b").has_condition("Distracted")
    assert game.state.token("c").has_condition("Distracted")
    assert game.state.token("a").weapon("SMG").ammo == 2


def test_test_makes_the_foe_distracted_or_vulnerable() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0), taunt=8), fighter("b", Side.ENEMY, (5, 5)))
    game.apply(Command.build("test", "a", targets=["b"], skill="taunt", effect="Vulnerable"),
               GivenDice([6, 3]))
    assert game.state.token("b").has_condition("Vulnerable")


def test_a_test_with_extra_dice_rolls_them_all_and_keeps_only_the_best() -> None:
    # Three Shooting dice (the SMG's Rate of Fire): 1, 5 and 2; the 5 alone beats Agility 3.
    game = fight(fighter("a", Side.PARTY, (0, 0), SMG), fighter("b", Side.ENEMY, (5, 5)))
    events = game.apply(Command.build("test", "a", targets=["b"], skill="shooting",
                                      effect="Vulnerable", dice=3), GivenDice([1, 5, 2, 3]))
    b = game.state.token("b")
    assert b.has_condition("Vulnerable") and not b.has_condition("Shaken")
    assert any("best of 3 dice" in e.text and "A 5 " in e.text for e in events)


def test_a_wild_cards_wild_die_is_one_of_the_test_dice() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0), SMG, wild_card=True),
                 fighter("b", Side.ENEMY, (5, 5)))
    # Shooting 1 and 2, Wild Die 9: a raise over Agility 3 (9 against 4), so Shaken too.
    game.apply(Command.build("test", "a", targets=["b"], skill="shooting", dice=2),
               GivenDice([1, 2, 9, 3]))
    b = game.state.token("b")
    assert b.has_condition("Distracted") and b.has_condition("Shaken")


def test_a_test_previews_its_roll_and_takes_the_gms_modifier() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0), SMG), fighter("b", Side.ENEMY, (5, 5)))
    command = Command.build("test", "a", targets=["b"], skill="shooting", dice=3, modifier=4,
                            cover=2)
    preview = game.preview(command)
    assert preview.legal and "Shooting +2, best of 3 dice against B's Agility" in preview.summary
    assert {("GM modifier", 4), ("Cover", -2)} <= {(m.name, m.value) for m in preview.modifiers}
    # Shooting 1, 2 and 2, +4 from the GM and -2 cover: 4 against Agility 3 wins.
    game.apply(command, GivenDice([1, 2, 2, 3]))
    assert game.state.token("b").has_condition("Distracted")


def test_a_trip_that_wins_with_a_raise_may_knock_the_foe_prone_instead_of_shaking_it() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (1, 0)))
    trip = Command.build("test", "a", targets=["b"], skill="athletics", on_raise="Prone")
    assert "a raise knocks it prone too" in game.preview(trip).summary
    game.apply(trip, GivenDice([9, 3]))  # Athletics 9 against Agility 3: a raise
    b = game.state.token("b")
    assert b.has_condition("Distracted") and b.has_condition("Prone")
    assert not b.has_condition("Shaken")


def test_a_test_rolls_at_least_one_die() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (5, 5)))
    assert game.preview(Command.build("test", "a", targets=["b"], dice=2)).legal
    with pytest.raises(BadOptions, match=r"dice.* at least 1"):
        game.preview(Command.build("test", "a", targets=["b"], dice=0))


def test_finishing_move_needs_a_helpless_foe() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (0, 1)))
    finish = Command.build("finishing_move", "a", targets=["b"], weapon="Knife")
    assert not game.preview(finish).legal
    state = game.state.with_token(replace(game.state.token("b"),
                                          conditions=(Condition("Bound"),)))
    game = Encounter(state)
    game.apply(finish)
    assert game.state.token("b").has_condition("Incapacitated")


def test_distracted_lasts_until_the_end_of_the_victims_next_turn() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0), taunt=8), fighter("b", Side.ENEMY, (5, 5)))
    game.apply(Command.build("test", "a", targets=["b"], skill="taunt", effect="Distracted"),
               GivenDice([6, 3]))
    game.apply(Command("end_turn"))  # b's turn (round 1): still Distracted during it
    assert game.state.token("b").has_condition("Distracted")
    game.apply(Command("end_turn"))  # end of b's turn: gone
    assert not game.state.token("b").has_condition("Distracted")


def test_shaken_recovers_with_spirit_at_the_start_of_the_turn() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0), toughness=3),
                 fighter("b", Side.ENEMY, (0, 1), KNIFE))
    game.apply(Command("end_turn"))
    game.apply(Command.build("fighting", "b", targets=["a"], weapon="Knife"),
               GivenDice([5, 3]))
    assert game.state.token("a").has_condition("Shaken")
    assert not game.preview(Command.build("shooting", "a", targets=["b"],
                                          weapon="Pistol")).legal
    game.apply(Command("end_turn"), GivenDice([5]))  # round 2: a rolls Spirit 5
    assert game.state.combat.round == 2 and game.state.combat.active == "a"
    assert not game.state.token("a").has_condition("Shaken")


def test_three_actions_at_most_and_multi_action_penalty() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (5, 0)))
    shot = Command.build("shooting", "a", targets=["b"], weapon="Pistol")
    for _ in range(2):
        game.apply(shot, GivenDice([1, 1, 1, 1]))
    mods = {m.name: m.value for m in game.preview(shot).modifiers}
    assert mods["Multi-Action"] == -4
    game.apply(shot, GivenDice([1, 1, 1, 1]))
    with pytest.raises(IllegalCommand, match="no actions left"):
        game.apply(shot)


def test_the_tracker_budget_counts_down_the_actions_left() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (5, 0)))
    shot = Command.build("shooting", "a", targets=["b"], weapon="Pistol")

    def left() -> int:
        return game.state.combat.combatant("a").budget["actions"]

    assert left() == 3
    game.apply(shot, GivenDice([1, 1, 1, 1]))
    assert left() == 2
    game.apply(Command.build("go_prone", "a"))  # free: nothing spent
    assert left() == 2
    game.apply(shot, GivenDice([1, 1, 1, 1]))
    assert left() == 1
    game.undo()
    assert left() == 2


def test_a_whole_turn_action_leaves_no_actions() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (8, 0)))
    game.apply(Command.build("aim", "a", targets=["b"], weapon="Pistol", choice="+2"))
    assert game.state.combat.combatant("a").budget["actions"] == 0


def test_shots_count_cover_from_the_map_and_a_prone_target_as_medium_cover() -> None:
    crate = CoverObject("crate", "Crate", ((5.1, 0.0), (6.0, 0.0), (6.0, 1.0), (5.1, 1.0)),
                        CoverGrade.HALF)
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (6, 0)))
    state = replace(game.state, battlemap=replace(game.state.battlemap, cover=(crate,)))
    covered = Encounter(state)
    shot = Command.build("shooting", "a", targets=["b"], weapon="Pistol")
    assert {m.name: m.value for m in covered.preview(shot).modifiers}["Half cover"] == -4
    prone = game.state.with_token(replace(game.state.token("b"),
                                          conditions=(Condition("Prone"),)))
    mods = {m.name: m.value for m in Encounter(prone).preview(shot).modifiers}
    assert mods["Prone target (Medium Cover)"] == -4


def test_a_joker_holder_cuts_in_without_an_athletics_roll() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (5, 5)))
    joker = Condition("Joker")
    game = Encounter(game.state.with_token(replace(game.state.token("a"), conditions=(joker,))))
    game.apply(Command("hold", "a"))
    game.apply(Command.build("move", "b", squares=[(5, 4)]))
    events = game.apply(Command("act_from_hold", "a"))
    assert not any("Athletics" in e.text for e in events)
    assert any("Joker" in e.text for e in events)
    assert game.state.combat.active == "a"


def test_disarm_by_striking_the_weapon_itself() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (0, 1), PISTOL))
    # Fighting 6 aces to 6+3 = 9 (typed as 9), -4 for a pistol-sized item: 5 against Parry
    # 5 hits; the Knife's d4 rolls 3; b's Strength 2 does not reach 3, so the pistol falls.
    events = game.apply(Command.build("disarm", "a", targets=["b"], weapon="Knife",
                                      location="item", scale=-4), GivenDice([9, 3, 2]))
    assert game.state.token("b").weapons == ()
    assert any("Disarm" in e.text for e in events)


def test_armor_piercing_and_a_weapons_own_shooting_bonus() -> None:
    shotgun = Weapon("Shotgun", "1d6", 12, ammo=6, capacity=6,
                     traits=("+2 Shooting", "AP 2"))
    game = fight(fighter("a", Side.PARTY, (0, 0), shotgun),
                 fighter("b", Side.ENEMY, (3, 0), toughness=5, armor=2))
    mods = {m.name: m.value for m in game.preview(Command.build(
        "shooting", "a", targets=["b"], weapon="Shotgun")).modifiers}
    assert mods["Shotgun"] == 2
    # Shooting 2+2 = 4 hits; 5 damage against Toughness 7 less 2 AP = 5: Shaken.
    game.apply(Command.build("shooting", "a", targets=["b"], weapon="Shotgun"),
               GivenDice([2, 5]))
    assert game.state.token("b").has_condition("Shaken")


def _hurt(game: Encounter, token_id: str) -> bool:
    token = game.state.token(token_id)
    return token.has_condition("Shaken") or int(token.stats.get("wounds", 0)) > 0


#: A token id holding every separator a packed string split on.
AWKWARD = 'c, "the|second"=x;y:z'


@pytest.mark.parametrize("second", ["c", AWKWARD])
def test_suppressive_fire_lets_the_shooter_pick_whom_the_raise_hits(second: str) -> None:
    # Maximum Casualties: at most Rate of Fire targets are hit, and the attacker chooses them.
    def spray(**options: list[str]) -> Encounter:
        game = fight(fighter("a", Side.PARTY, (0, 0), PISTOL, shooting=12),
                     fighter("b", Side.ENEMY, (6, 5)), fighter(second, Side.ENEMY, (7, 5)))
        game.apply(Command.build("suppressive_fire", "a", squares=[(6, 5)], weapon="Pistol",
                                 **options), GivenDice([11, 3, 3, 3, 3]))  # 11 - 2 = 9: raises
        return game

    first = spray()
    assert _hurt(first, "b") and not _hurt(first, second)
    picked = spray(hit_first=[second])
    assert _hurt(picked, second) and not _hurt(picked, "b")
    assert picked.state.token("b").has_condition("Distracted")


def test_suppressive_fire_refuses_a_pick_outside_the_template() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0), PISTOL), fighter("b", Side.ENEMY, (6, 5)),
                 fighter("z", Side.ENEMY, (11, 0)))
    preview = game.preview(Command.build("suppressive_fire", "a", squares=[(6, 5)],
                                         weapon="Pistol", hit_first=["z"]))
    assert not preview.legal and "hit_first names 'z'" in preview.reasons[0]
    with pytest.raises(BadOptions, match="option 'hit_first' must be a list of token ids"):
        game.preview(Command.build("suppressive_fire", "a", squares=[(6, 5)],
                                   weapon="Pistol", hit_first="b,z"))


def test_the_tracker_reads_a_holder_as_on_hold_with_the_card_it_was_dealt() -> None:
    """A holder passed its card's place without acting: the tracker showed it done (✓)
    with no card ("—"), as if its turn were spent."""
    tokens = (fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (5, 5)),
              fighter("c", Side.ENEMY, (7, 5)))
    game = Encounter(EncounterState("Hold", "savage-worlds", SAVAGE_INCH, BattleMap(12, 10),
                                    tokens))
    game.apply(Command.build("start_combat", cards={"a": "KS", "b": "QH", "c": "2C"}))
    first, dealt = "a", "KS"
    assert game.state.combat.active == first
    game.apply(Command("hold", first))
    system = get_system("savage-worlds")
    entry = system.tracker_entry(game.state, game.state.combat.combatant(first))
    assert (entry.standing, entry.note, entry.initiative) == (
        TurnStanding.HOLDING, "On Hold", dealt)
    acting = system.tracker_entry(game.state, game.state.combat.combatant(game.state.combat.active))
    assert acting.standing is TurnStanding.ACTING and not acting.note
    game.apply(Command("act_from_hold", first))
    entry = system.tracker_entry(game.state, game.state.combat.combatant(first))
    assert entry.standing is TurnStanding.ACTING and not entry.note
    # At the round's end the held card goes to the discards with the others (it was lost
    # from the deck until the next shuffle when going on Hold threw it away).
    assert not deck_of(game.state).joker_dealt  # no Joker: the deck is not shuffled
    while game.state.combat.round == 1:
        game.apply(Command("end_turn"))
    assert Card.from_code(str(dealt)) in deck_of(game.state).discards
