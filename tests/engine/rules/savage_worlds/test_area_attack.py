"""Savage Worlds Area Effect Attacks: everyone under the template is hit and rolls their own
damage, a missed blast deviates, cover from the blast's centre counts as Armor, a cone
starts at the attacker, and each throw spends a grenade."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from engine.battlemap import CoverGrade, CoverObject, Wall
from engine.dice import GivenDice
from engine.files.encounter_file import EncounterFile, load_encounter, save_encounter
from engine.grid import Square
from engine.overlay import Role, ShapeKind, Tone
from engine.rules.base import Command, Event, IllegalCommand
from engine.rules.savage_worlds import area_attack, board, templates
from engine.tokens import Side, Weapon
from engine.turns.session import Encounter
from tests.engine.rules.savage_worlds.builders import KNIFE, fight, fighter

GRENADE = Weapon("Frag grenade", "3d6", 5.0, ammo=2, capacity=2,
                 traits=("Range 5/10/20", "Medium Blast", "thrown"))
LAUNCHER = Weapon("Grenade launcher", "3d6", 24.0, ammo=1, capacity=1,
                  traits=("Range 24/48/96", "Medium Blast"))
FLAMER = Weapon("Flamethrower", "2d12", 0.0, ammo=10, capacity=10, traits=("Cone",))


def throw(aim: tuple[int, int], weapon: str = "Frag grenade") -> Command:
    return Command.build("area_attack", "t", squares=[Square(*aim)], weapon=weapon)


def _per_token(events: tuple[Event, ...], pattern: str) -> dict[str, int]:
    """token id -> the number ``pattern`` finds in the log line about it."""
    found = {}
    for event in events:
        match = re.search(pattern, event.text)
        if match:
            found[event.tokens[0]] = int(match.group(1))
    return found


def damage_taken(events: tuple[Event, ...]) -> dict[str, int]:
    """token id -> the damage the log says it took."""
    return _per_token(events, r"takes (\d+) damage against Toughness")


def toughness_against(events: tuple[Event, ...]) -> dict[str, int]:
    return _per_token(events, r"against Toughness (\d+)")


def crowd() -> Encounter:
    """The thrower at (3,5); around (8,5): two foes and a friend; a foe well outside."""
    return fight(
        fighter("t", Side.PARTY, (3, 5), GRENADE, LAUNCHER, FLAMER, KNIFE),
        fighter("e1", Side.ENEMY, (8, 5), toughness=20),
        fighter("e2", Side.ENEMY, (9, 6), toughness=20),
        fighter("a2", Side.PARTY, (7, 4), toughness=20),
        fighter("e3", Side.ENEMY, (12, 5), toughness=20),
        width=16,
    )


def test_everyone_under_the_blast_is_hit_and_rolls_their_own_damage() -> None:
    encounter = crowd()
    preview = encounter.preview(throw((8, 5)))
    assert preview.legal, preview.reasons
    assert set(preview.targets) == {"e1", "e2", "a2"}  # the friend too; e3 is outside
    # Athletics 4 (a hit, no raise); then 3d6 for each target in map order, each its own.
    events = encounter.apply(throw((8, 5)), GivenDice([4, 1, 2, 3, 4, 5, 6, 2, 2, 2]))
    assert damage_taken(events) == {"e1": 6, "e2": 15, "a2": 6}  # rolled apart


def test_a_raise_adds_the_bonus_die_to_each_target() -> None:
    encounter = crowd()
    hit = encounter.apply(throw((8, 5)), GivenDice([4, *([1] * 20)]))
    encounter.undo()
    raised = encounter.apply(throw((8, 5)), GivenDice([8, *([1] * 20)]))
    assert set(damage_taken(hit).values()) == {3}
    assert set(damage_taken(raised).values()) == {4}


def test_a_missed_blast_deviates_by_the_range_band_and_hits_where_it_lands() -> None:
    """Aimed 8 squares off (Medium range for a 5/10/20 grenade): a miss, d8 3 (east),
    1d6 shows 1, doubled for Medium range: it lands two squares east of the aim."""
    encounter = crowd()
    events = encounter.apply(throw((11, 5)), GivenDice([2, 3, 1, *([1] * 20)]))
    text = " ".join(e.text for e in events)
    assert "misses" in text and "x2 (Medium range)" in text and "lands at (13,5)" in text
    landed = templates.blast(encounter.state, Square(13, 5).centre, "medium")
    assert set(damage_taken(events)) == set(landed.token_ids()) == {"e3"}


@pytest.mark.parametrize(("tall", "lands"), [
    (False, "lands at (13,5)."),  # over the car
    (True, "lands at (11,5), stopped by (12,5), which blocks movement."),
])
def test_a_deviating_blast_flies_over_low_cover_and_stops_at_tall(tall: bool,
                                                                  lands: str) -> None:
    """Aimed at (11,5), missed: d8 3 (east), 1d6 1 doubled (Medium range): two squares
    east, over a car in (12,5) but not over a stack of crates that hides what is behind."""
    encounter = crowd()
    block = CoverObject("c1", "crates" if tall else "car",
                        ((12.0, 5.0), (13.0, 5.0), (13.0, 6.0), (12.0, 6.0)),
                        CoverGrade.THREE_QUARTERS, blocks_sight=tall)
    state = encounter.state
    encounter = Encounter(replace(state, battlemap=replace(state.battlemap, cover=(block,))))
    events = encounter.apply(throw((11, 5)), GivenDice([2, 3, 1, *([1] * 20)]))
    assert lands in " ".join(e.text for e in events)


def test_a_deviation_goes_at_most_half_the_way_to_the_aim_point() -> None:
    encounter = crowd()
    events = encounter.apply(throw((7, 5)), GivenDice([2, 7, 6, *([1] * 20)]))
    text = " ".join(e.text for e in events)
    # 4 squares away: at most 2 back towards the thrower (west), not 6; it lands close
    # enough to catch the thrower.
    assert "held to 2 squares" in text and "lands at (5,5)" in text
    assert "t" in damage_taken(events)


def marks_of(encounter: Encounter) -> dict[str, Square]:
    """label -> square of the marks the map keeps drawing after the command."""
    lasting = encounter.system.lasting_overlay(encounter.state)
    return {mark.label: mark.square for mark in lasting.marks}


def test_where_a_missed_blast_landed_stays_marked_on_the_map(tmp_path: Path) -> None:
    encounter = crowd()
    encounter.apply(throw((11, 5)), GivenDice([2, 3, 1, *([1] * 20)]))  # lands at (13,5)
    assert marks_of(encounter) == {"aim": Square(11, 5), "fell": Square(13, 5)}
    lasting = encounter.system.lasting_overlay(encounter.state)
    fell = templates.blast(encounter.state, Square(13, 5).centre, "medium")
    assert [a.squares for a in lasting.areas] == [fell.squares]
    assert all(part.tone is Tone.INFO for part in (*lasting.marks, *lasting.areas))
    assert "(aimed at (11,5))" in lasting.marks[1].reason
    # Kept in the fight state: a saved fight shows it again, undo takes it back.
    save_encounter(tmp_path / "blast.killbox", EncounterFile(encounter.state))
    loaded = Encounter(load_encounter(tmp_path / "blast.killbox").state)
    assert loaded.state == encounter.state and marks_of(loaded) == marks_of(encounter)
    encounter.undo()
    assert marks_of(encounter) == {}


def test_a_miss_stopped_at_once_is_marked_once_where_it_fell() -> None:
    encounter = crowd()
    state = encounter.state
    wall = Wall((12.0, 0.0), (12.0, 10.0))  # just east of the aim square
    encounter = Encounter(replace(state, battlemap=replace(state.battlemap, walls=(wall,))))
    events = encounter.apply(throw((11, 5)), GivenDice([2, 3, 1, *([1] * 20)]))  # east
    assert "lands at (11,5), stopped by a wall" in " ".join(e.text for e in events)
    assert marks_of(encounter) == {"fell": Square(11, 5)}


def test_a_blast_that_lands_where_aimed_leaves_no_mark_and_a_mark_lasts_to_the_next_turn() -> None:
    encounter = crowd()
    encounter.apply(throw((8, 5)), GivenDice([4, *([1] * 20)]))
    assert marks_of(encounter) == {}
    encounter.undo()
    encounter.apply(throw((11, 5)), GivenDice([2, 3, 1, *([1] * 20)]))
    for _ in range(4):  # e1, e2, a2 and e3 take their turns: the mark stays
        encounter.apply(Command("end_turn"), GivenDice([6] * 10))
        assert marks_of(encounter)["fell"] == Square(13, 5)
    encounter.apply(Command("end_turn"), GivenDice([6] * 60))  # round 2: t's turn begins
    assert encounter.state.combat.active == "t" and marks_of(encounter) == {}


def test_a_launched_blast_deviates_2d6_and_the_map_edge_stops_it() -> None:
    encounter = crowd()
    events = encounter.apply(throw((8, 1), "Grenade launcher"),
                             GivenDice([2, 1, 12, *([1] * 20)]))
    text = " ".join(e.text for e in events)
    # North from (8,1), held to 2 squares (half of 5), and the map ends after one.
    assert "2d6 12\"" in text and "lands at (8,0), stopped by the edge of the map" in text
    assert area_attack.deviation_distance(12, "Long", 100, 1.0).squares == 36
    assert area_attack.deviation_distance(3, "Extreme", 100, 1.0).squares == 12


def test_cover_between_the_centre_and_a_target_counts_as_armor() -> None:
    """A low wall between the blast's centre and e2 gives e2 its cover penalty as Armor;
    e1, with nothing between it and the centre, gets none."""
    encounter = crowd()
    wall = CoverObject("wall", "Low wall",
                       ((9.55, 4.5), (9.75, 4.5), (9.75, 6.5), (9.55, 6.5)),
                       CoverGrade.HALF, blocks_movement=False)
    state = encounter.state.with_token(replace(encounter.state.token("e2"), square=Square(10, 5)))
    state = replace(state, battlemap=replace(state.battlemap, cover=(wall,)))
    encounter = Encounter(state)
    preview = encounter.preview(throw((8, 5)))
    mods = {t.token_id: t.modifiers for t in preview.overlay.tokens if t.role is Role.AFFECTED}
    assert mods["e1"] == () and [m.value for m in mods["e2"]] == [4]
    events = encounter.apply(throw((8, 5)), GivenDice([4, *([1] * 20)]))
    assert toughness_against(events)["e1"] == 20 and toughness_against(events)["e2"] == 24


def test_the_overlay_draws_the_template_and_every_token_under_it() -> None:
    preview = crowd().preview(throw((10, 5)))  # 7 squares: Medium range
    overlay = preview.overlay
    assert overlay.token_ids(Role.ACTOR) == ("t",)
    assert set(overlay.token_ids(Role.AFFECTED)) == {"e1", "e2", "e3"}
    assert set(overlay.squares()) == set(preview.squares) and (10, 5) in overlay.squares()
    assert [(m.name, m.value) for m in overlay.tokens[0].modifiers] == [("Medium range", -2)]
    assert overlay.shapes[0].origin == Square(10, 5).centre


def walled_off(encounter: Encounter) -> Encounter:
    """A full-height wall across the room at x = 6 from the top to y = 7 (the thrower at
    (3,5) sees nothing beyond it except round its end, below y = 7)."""
    wall = Wall((6.0, 0.0), (6.0, 7.0))
    state = encounter.state
    return Encounter(replace(state, battlemap=replace(state.battlemap, walls=(wall,))))


def test_a_blast_cannot_be_aimed_at_a_square_the_thrower_cannot_see() -> None:
    encounter = walled_off(crowd())
    preview = encounter.preview(throw((8, 5)))
    assert not preview.legal
    assert preview.reasons == ("T cannot see (8,5), where the blast is aimed (blocked by a "
                               "wall): a blast is aimed at a square in sight",)
    lines = [s for s in preview.overlay.shapes if s.kind is ShapeKind.LINE]
    assert len(lines) == 1 and lines[0].tone is Tone.REFUSED
    assert lines[0].origin == (3.5, 5.5)
    with pytest.raises(IllegalCommand):
        encounter.apply(throw((8, 5)), GivenDice([4, *([1] * 20)]))
    launched = encounter.preview(throw((8, 5), "Grenade launcher"))
    assert not launched.legal and "cannot see (8,5)" in launched.reasons[0]


def test_a_square_seen_round_the_end_of_the_wall_can_be_aimed_at() -> None:
    encounter = walled_off(crowd())
    seen = encounter.preview(throw((7, 8)))  # below the wall's end
    assert seen.legal, seen.reasons
    assert not [s for s in seen.overlay.shapes if s.kind is ShapeKind.LINE]


def test_a_cone_needs_no_sight_of_its_square_it_only_points_there() -> None:
    # The wall cuts the cone itself; the square only gives the direction.
    preview = walled_off(crowd()).preview(throw((8, 5), "Flamethrower"))
    assert preview.legal, preview.reasons


def test_a_cone_starts_at_the_attacker_and_a_miss_does_nothing() -> None:
    encounter = crowd()
    preview = encounter.preview(throw((8, 5), "Flamethrower"))
    assert preview.legal, preview.reasons
    assert "t" not in preview.targets and {"e1", "e2", "a2"} <= set(preview.targets)
    missed = encounter.apply(throw((8, 5), "Flamethrower"), GivenDice([2]))
    assert damage_taken(missed) == {} and "comes to nothing" in missed[-1].text


def test_each_throw_spends_a_grenade_and_an_empty_hand_is_refused() -> None:
    encounter = crowd()
    encounter.apply(throw((8, 5)), GivenDice([4, *([1] * 20)]))
    thrower = encounter.state.token("t")
    assert thrower.weapon("Frag grenade").ammo == 1
    empty = tuple(w.with_ammo(0) if w.name == "Frag grenade" else w for w in thrower.weapons)
    encounter = Encounter(encounter.state.with_token(replace(thrower, weapons=empty)))
    refused = encounter.preview(throw((8, 5)))
    assert not refused.legal and "none left" in " ".join(refused.reasons)
    with pytest.raises(IllegalCommand):
        encounter.apply(throw((8, 5)))


def test_a_grenade_cannot_be_thrown_to_extreme_range_nor_a_pistol_used() -> None:
    encounter = fight(fighter("t", Side.PARTY, (0, 0), GRENADE, KNIFE),
                      fighter("e1", Side.ENEMY, (25, 0)), width=30)
    far = encounter.preview(throw((25, 0)))
    assert not far.legal and "Extreme" in " ".join(far.reasons)
    pistol = encounter.preview(throw((3, 0), "Knife"))
    assert not pistol.legal


def test_an_area_weapon_is_not_fired_at_one_target_nor_sprayed() -> None:
    encounter = crowd()
    shot = encounter.preview(Command.build("shooting", "t", targets=["e1"],
                                           weapon="Frag grenade"))
    sprayed = encounter.preview(Command.build("suppressive_fire", "t", squares=[Square(8, 5)],
                                              weapon="Flamethrower"))
    for preview in (shot, sprayed):
        assert not preview.legal and "Area Effect Attack" in " ".join(preview.reasons)


def test_wounds_past_incapacitated_stop_at_the_block_ceiling_and_the_fight_still_saves(
        tmp_path: Path) -> None:
    # Found by random play: a blast on a Wild Card already at 5 Wounds left 9, which the
    # stat block refuses, so the fight could no longer be saved.
    encounter = fight(
        fighter("t", Side.PARTY, (3, 5), GRENADE, KNIFE),
        fighter("e1", Side.ENEMY, (8, 5), wild_card=True, wounds=5),
        width=16,
    )
    events = encounter.apply(throw((8, 5)), GivenDice([4, 6, 6, 6, 2, 3, 2]))  # Vigor 3 - 3
    assert damage_taken(events) == {"e1": 18}  # three raises over Toughness 5: 5 + 3 Wounds
    wounded = encounter.state.token("e1")
    assert wounded.stat("wounds") == board.WOUND_CEILING == 6
    assert wounded.has_condition(board.INCAPACITATED)
    save_encounter(tmp_path / "after.killbox", EncounterFile(encounter.state))
    assert load_encounter(tmp_path / "after.killbox").state.token("e1").stat("wounds") == 6
