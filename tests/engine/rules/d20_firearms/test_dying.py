"""d20 below 0 hit points (d20 Modern's core rules; our texts are silent): Disabled at 0,
dying from -1 (a d% roll on each turn: 10 or less stable, else 1 hit point lost), dead at
-10; the token carries one mark the tracker shows. First aid (Treat Injury) stabilises, a
coup de grace may kill, and the dead are no target and have no turn."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import pytest

from engine.dice import GivenDice
from engine.events import Event
from engine.rules import get_system
from engine.rules.base import Command
from engine.rules.d20_firearms import board
from engine.tokens import Side
from engine.turns.session import Encounter

from .builders import KNIFE, PISTOL, RIFLE, fight, soldier

SYSTEM = get_system("d20-firearms")
MARKS = set(board.DOWN_MARKS)


def texts(events: Iterable[Event]) -> list[str]:
    return [e.text for e in events]


def marks(game: Encounter, token_id: str) -> list[str]:
    return [c.name for c in game.state.token(token_id).conditions if c.name in MARKS]


def hp(game: Encounter, token_id: str) -> int:
    return SYSTEM.stat_block.number(game.state.token(token_id), "hp")


def hurt(game: Encounter, token_id: str, to: int) -> None:
    """Bring the token to ``to`` hit points by the GM's damage (the road of a hit)."""
    game.apply(Command.build("gm_damage", targets=[token_id],
                             amount=hp(game, token_id) - to))


def three() -> Encounter:
    """A (party, active) with B (party) beside it; C the enemy beside B."""
    return fight(soldier("a", Side.PARTY, (1, 1), RIFLE, KNIFE, treat_injury=4),
                 soldier("b", Side.PARTY, (2, 1), fortitude=2),
                 soldier("c", Side.ENEMY, (3, 1), fortitude=2))


@pytest.mark.parametrize(("left", "mark"), [(0, "Disabled"), (-1, "Dying"), (-9, "Dying"),
                                            (-10, "Dead"), (-14, "Dead")])
def test_damage_leaves_one_mark_for_the_hit_points_left(left: int, mark: str) -> None:
    game = three()
    hurt(game, "b", left)
    assert marks(game, "b") == [mark]


def test_the_mark_follows_the_hit_points_down_the_ladder() -> None:
    game = three()
    hurt(game, "b", 0)
    hurt(game, "b", -4)
    assert marks(game, "b") == ["Dying"]  # no longer Disabled
    hurt(game, "b", -10)
    assert marks(game, "b") == ["Dead"]
    assert SYSTEM.gauges(game.state, game.state.token("b"))[-1].label == "Dead"


def test_a_dying_soldier_rolls_d_percent_on_its_turn_and_bleeds_1() -> None:
    game = three()
    hurt(game, "b", -3)
    events = game.apply(Command("end_turn"), GivenDice([11]))  # 11: not stable
    rolled = next(e for e in events if "on d%" in e.text)
    assert rolled.roll is not None and rolled.roll.expression == "1d100"  # the dice dialog
    assert hp(game, "b") == -4 and marks(game, "b") == ["Dying"]
    assert game.state.combat.active == "c"


def test_a_roll_of_10_or_less_makes_it_stable_and_its_turns_then_roll_nothing() -> None:
    game = three()
    hurt(game, "b", -3)
    events = game.apply(Command("end_turn"), GivenDice([10]))
    assert "B rolls 10 on d% (needs 10 or less) and stabilises." in texts(events)
    assert hp(game, "b") == -3 and marks(game, "b") == ["Stable"]
    game.apply(Command("end_turn"))  # c
    events = game.apply(Command("end_turn"), GivenDice([]))  # a's turn: no die for b
    game.apply(Command("end_turn"), GivenDice([]))
    assert hp(game, "b") == -3


def test_a_dying_soldier_at_minus_9_who_bleeds_is_dead_and_has_no_more_turns() -> None:
    game = three()
    hurt(game, "b", -9)
    events = game.apply(Command("end_turn"), GivenDice([99]))
    assert "B is dead (-10 hit points)." in texts(events)
    assert "B is dead; turn skipped." in texts(events)  # said once, as it dies
    assert marks(game, "b") == ["Dead"]
    game.apply(Command("end_turn"))  # c's ends: round 2, a's turn
    events = game.apply(Command("end_turn"), GivenDice([]))  # a's ends: b has none, no die
    assert not [text for text in texts(events) if text.startswith("B ")]  # not every round
    assert game.state.combat.active == "c"


def test_a_stable_soldier_who_is_hit_again_is_dying_again() -> None:
    game = three()
    hurt(game, "b", -3)
    game.apply(Command("end_turn"), GivenDice([1]))
    assert marks(game, "b") == ["Stable"]
    hurt(game, "b", -5)
    assert marks(game, "b") == ["Dying"]


def test_healing_a_dying_soldier_stabilises_it_or_brings_it_back() -> None:
    game = three()
    hurt(game, "b", -6)
    game.apply(Command.build("gm_heal", targets=["b"], amount=2))
    assert hp(game, "b") == -4 and marks(game, "b") == ["Stable"]
    events = game.apply(Command.build("gm_heal", targets=["b"], amount=9))
    assert hp(game, "b") == 5 and marks(game, "b") == []
    assert "B is back in the fight (5 hit points)." in texts(events)


def test_the_dead_are_not_healed_attacked_or_fired_on() -> None:
    game = three()
    hurt(game, "c", -10)
    game.apply(Command.build("gm_heal", targets=["c"], amount=20))
    assert hp(game, "c") == -10 and marks(game, "c") == ["Dead"]
    attack = game.preview(Command.build("attack", "a", targets=["c"], weapon="Assault rifle"))
    assert "C is dead" in attack.reasons
    cone = game.preview(Command.build("covering_fire", "a", squares=[(3, 1)],
                                      weapon="Assault rifle"))
    assert "c" not in cone.targets
    area = game.preview(Command.build("suppressive_fire", "a", squares=[(3, 0)],
                                      weapon="Assault rifle"))
    assert "c" not in area.targets


def test_a_downed_soldier_takes_no_action_saying_why() -> None:
    game = three()
    hurt(game, "a", -2)
    move = game.preview(Command.build("move", "a", squares=[(1, 2)]))
    assert move.reasons == ("A is dying (below 0 hit points)",)


# --------------------------------------------------------------------------- Treat Injury


def test_treat_injury_by_a_friend_beside_a_dying_soldier_stabilises_it() -> None:
    game = three()
    hurt(game, "b", -3)
    treat = Command.build("treat_injury", "a", targets=["b"])
    preview = game.preview(treat)
    assert preview.legal, preview.reasons
    # +4 skill, -4 with no medical kit: a 15 on the die makes DC 15.
    assert [(m.name, m.value) for m in preview.modifiers] == [("Treat Injury", 4),
                                                              ("No medical kit", -4)]
    events = game.apply(treat, GivenDice([15]))
    assert "A tends B: 15 against DC 15, stabilised." in texts(events)
    assert marks(game, "b") == ["Stable"]
    assert game.state.combat.combatant("a").budget["actions"] == 2  # an attack action


def test_treat_injury_that_fails_leaves_it_dying_and_may_be_tried_again() -> None:
    game = three()
    hurt(game, "b", -3)
    game.apply(Command.build("treat_injury", "a", targets=["b"]), GivenDice([14]))
    assert marks(game, "b") == ["Dying"]
    assert game.preview(Command.build("treat_injury", "a", targets=["b"])).legal


def test_a_medical_kit_spares_the_penalty() -> None:
    game = three()
    medic = game.state.token("a")
    game = Encounter(game.state.with_token(replace(medic, stats={**medic.stats,
                                                                  "medical_kit": True})))
    hurt(game, "b", -3)
    preview = game.preview(Command.build("treat_injury", "a", targets=["b"]))
    assert [(m.name, m.value) for m in preview.modifiers] == [("Treat Injury", 4)]


@pytest.mark.parametrize(("left", "why"), [(0, "B is not dying (Disabled)"),
                                           (-10, "B is not dying (dead)")])
def test_treat_injury_is_only_for_the_dying(left: int, why: str) -> None:
    game = three()
    hurt(game, "b", left)
    reasons = game.preview(Command.build("treat_injury", "a", targets=["b"])).reasons
    assert any(r.startswith(why) for r in reasons), reasons


def test_treat_injury_needs_the_medic_beside_the_dying() -> None:
    game = fight(soldier("a", Side.PARTY, (1, 1)), soldier("b", Side.PARTY, (5, 1)))
    hurt(game, "b", -3)
    assert game.preview(Command.build("treat_injury", "a", targets=["b"])).reasons == (
        "B is not beside A",)


# --------------------------------------------------------------------------- coup de grace


def test_a_coup_de_grace_is_an_automatic_critical_and_a_failed_save_kills() -> None:
    game = fight(soldier("c", Side.ENEMY, (3, 1), RIFLE, KNIFE),
                 soldier("b", Side.PARTY, (2, 1), fortitude=2))
    hurt(game, "b", -2)
    coup = Command.build("coup_de_grace", "c", targets=["b"], weapon="Knife")
    preview = game.preview(coup)
    assert preview.legal, preview.reasons
    # The knife's 1d4 twice (x2): 1 + 1 = 2, leaving -4; Fortitude 9 + 2 = 11 < DC 12.
    events = game.apply(coup, GivenDice([1, 1, 9]))
    said = texts(events)
    assert "C delivers a coup de grace to B with the Knife: an automatic critical hit (x2), " \
           "2 damage." in said
    assert "B fails the Fortitude save (11 against DC 12)." in said
    assert marks(game, "b") == ["Dead"]
    assert game.state.combat.combatant("c").budget["actions"] == 0  # a full-round action


def test_a_coup_de_grace_survived_leaves_the_victim_dying() -> None:
    game = fight(soldier("c", Side.ENEMY, (3, 1), RIFLE, KNIFE),
                 soldier("b", Side.PARTY, (2, 1), fortitude=2))
    hurt(game, "b", -2)
    game.apply(Command.build("coup_de_grace", "c", targets=["b"], weapon="Knife"),
               GivenDice([1, 1, 10]))
    assert hp(game, "b") == -4 and marks(game, "b") == ["Dying"]


def test_a_firearm_delivers_it_only_from_the_next_square() -> None:
    game = fight(soldier("c", Side.ENEMY, (4, 1), PISTOL), soldier("b", Side.PARTY, (2, 1)))
    hurt(game, "b", -2)
    far = game.preview(Command.build("coup_de_grace", "c", targets=["b"], weapon="Pistol"))
    assert "B is not within the next square" in far.reasons
    near = fight(soldier("c", Side.ENEMY, (3, 1), PISTOL), soldier("b", Side.PARTY, (2, 1)))
    hurt(near, "b", -2)
    assert near.preview(Command.build("coup_de_grace", "c", targets=["b"],
                                      weapon="Pistol")).legal


@pytest.mark.parametrize(("left", "why"), [(5, "B is not helpless"), (0, "B is not helpless"),
                                           (-10, "B is dead")])
def test_a_coup_de_grace_needs_a_helpless_living_victim(left: int, why: str) -> None:
    game = fight(soldier("c", Side.ENEMY, (3, 1), KNIFE), soldier("b", Side.PARTY, (2, 1)))
    hurt(game, "b", left)
    reasons = game.preview(Command.build("coup_de_grace", "c", targets=["b"],
                                         weapon="Knife")).reasons
    assert any(r.startswith(why) for r in reasons), reasons


# --------------------------------------------------------------------------- the GM's hand


def test_every_mark_counts_as_down_and_a_revive_takes_it_off() -> None:
    game = three()
    hurt(game, "b", -3)
    assert SYSTEM.down_mark(game.state.token("b")) == "Dying"
    knock = game.preview(Command.build("gm_knock_out", targets=["b"]))
    assert knock.reasons == ("B is already Dying",)
    game.apply(Command.build("gm_revive", targets=["b"]))
    assert marks(game, "b") == []


def test_a_helpless_soldier_saves_against_suppressive_fire_with_dexterity_0() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0)),
                 soldier("b", Side.ENEMY, (8, 4), reflex=3, dex_mod=2))
    hurt(game, "b", -2)
    fire = Command.build("suppressive_fire", "a", squares=[(8, 4)], weapon="Assault rifle")
    # 14 - 4 hits the area; B's Reflex is +3 - 2 (its Dexterity) - 5 = -4: 18 makes 14.
    events = game.apply(fire, GivenDice([14, 18, 3]))
    save = next(e for e in events if e.text.startswith("B fails the save"))
    assert save.roll is not None and save.roll.total == 14


def test_the_dead_cannot_be_watched_on_overwatch() -> None:
    game = three()
    game.apply(Command.build("aim", "a", weapon="Assault rifle"))
    hurt(game, "c", -10)
    assert game.preview(Command.build("overwatch", "a", targets=["c"])).reasons == (
        "C is dead",)


def test_first_aid_strains_a_disabled_medic_who_is_then_dying() -> None:
    game = three()
    hurt(game, "a", 0)
    hurt(game, "b", -3)
    events = game.apply(Command.build("treat_injury", "a", targets=["b"]), GivenDice([19]))
    assert marks(game, "b") == ["Stable"]
    assert "A strains while Disabled: 1 damage (-1 hit points, dying)." in texts(events)
    assert hp(game, "a") == -1 and marks(game, "a") == ["Dying"]


def test_hit_points_the_gm_types_show_their_state_on_the_tracker_at_once() -> None:
    game = three()
    game.apply(Command.build("gm_stat", targets=["b"], stat="hp", value=-3))
    assert marks(game, "b") == []  # the mark comes at its turn or its next hit
    flags = [g.label for g in SYSTEM.gauges(game.state, game.state.token("b"))
             if g.style.value == "flag"]
    assert flags == ["Dying"]
    game.apply(Command.build("gm_stat", targets=["b"], stat="hp", value=7))
    assert [g.label for g in SYSTEM.gauges(game.state, game.state.token("b"))] == ["HP"]
