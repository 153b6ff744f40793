"""Cover from the map raises the target's Defense in every Spycraft attack (issue 5).

Spycraft's row of engine/geometry/cover_grades.json: half cover +4 Defense, total cover
forbids the attack. The attacks are played through the public API with typed d20 faces.
"""

from dataclasses import replace

from engine import Command, new_encounter
from engine.battlemap import BattleMap, CoverGrade, CoverObject, Wall
from engine.tokens import Side
from engine.turns.session import Encounter
from tests.engine.rules.spycraft.builders import SMG, agent, cmd, state

# Kevin (ranged attack +3) at (1,4); the guard (Defense 12) five squares east at (6,4).
CRATE = CoverObject("crate", "crate", ((5.5, 4), (6, 4), (6, 5), (5.5, 5)), CoverGrade.HALF)
BUNKER = CoverObject("bunker", "bunker", ((5.5, 4), (6, 4), (6, 5), (5.5, 5)), CoverGrade.TOTAL)


def fight_on(battlemap: BattleMap, *, guard_square: tuple[int, int] = (6, 4)) -> Encounter:
    kevin = agent("kevin", 1, 4, weapons=(SMG,), str_score=12)
    guard = agent("guard", *guard_square, Side.ENEMY)
    encounter = new_encounter(replace(state(kevin, guard), battlemap=battlemap), seed=3)
    encounter.apply(Command("start_combat"), [20, 1])
    return encounter


def shot(**options: object) -> Command:
    return cmd("standard_attack", "kevin", targets=["guard"], weapon="SMG", **options)


def cover_names(preview) -> list[str]:  # type: ignore[no-untyped-def]
    return [m.name for m in preview.modifiers if "cover" in m.name]


def test_standard_attack_adds_half_cover_to_defense_in_preview_and_roll() -> None:
    fight = fight_on(BattleMap(12, 12, cover=(CRATE,)))
    preview = fight.preview(shot())
    assert preview.legal
    assert cover_names(preview) == ["half cover +4 Defense"]
    assert "against Defense 16" in preview.summary
    # A 12 on the die makes 15: a hit against Defense 12 in the open, a miss behind the crate.
    events = fight.apply(shot(), [12, 5])
    assert any("15 against Defense 16, misses" in e.text for e in events)


def test_open_ground_names_no_cover() -> None:
    fight = fight_on(BattleMap(12, 12))
    preview = fight.preview(shot())
    assert cover_names(preview) == [] and "against Defense 12" in preview.summary


def test_a_wall_half_across_the_line_is_half_cover() -> None:
    # A wall at x = 5.5 from y = 4.5 downward hides the lower half of the guard's square.
    fight = fight_on(BattleMap(12, 12, walls=(Wall((5.5, 4.5), (5.5, 8)),)))
    assert cover_names(fight.preview(shot())) == ["half cover +4 Defense"]


def test_no_attack_through_a_wall_or_total_cover() -> None:
    walled = fight_on(BattleMap(12, 12, walls=(Wall((4, 0), (4, 12)),)))
    blind = walled.preview(shot())
    assert not blind.legal and "Kevin has no line of sight to Guard" in blind.reasons
    bunker = fight_on(BattleMap(12, 12, cover=(BUNKER,))).preview(shot())
    assert not bunker.legal and "Guard has total cover from Kevin" in bunker.reasons


def test_burst_and_called_shot_count_cover_too() -> None:
    fight = fight_on(BattleMap(12, 12, cover=(CRATE,)))
    burst = fight.preview(shot(trick="burst"))
    assert burst.legal and cover_names(burst) == ["half cover +4 Defense"]
    fight.apply(cmd("aim", "kevin", targets=["guard"]))
    called = fight.preview(shot(trick="called_shot"))
    assert called.legal and "against Defense 16" in called.summary


def test_autofire_rolls_against_defense_with_cover() -> None:
    fight = fight_on(BattleMap(12, 12, cover=(CRATE,)))
    autofire = cmd("autofire", "kevin", targets=["guard"], weapon="SMG", volleys=2)
    preview = fight.preview(autofire)
    assert cover_names(preview) == ["half cover +4 Defense"]
    assert "against Defense 16" in preview.summary
    events = fight.apply(autofire, [15])  # 15 + 3 - 2 volleys = 16: hits only just
    assert any("16 against Defense 16, hits" in e.text for e in events)


def test_strafe_names_each_targets_cover() -> None:
    fight = fight_on(BattleMap(12, 12, cover=(CRATE,)))
    strafe = cmd("strafe", "kevin", weapon="SMG", squares=[(6, 3), (6, 4)])
    preview = fight.preview(strafe)
    assert preview.legal, preview.reasons
    assert "Guard: half cover +4 Defense" in [m.name for m in preview.modifiers]
    assert "Defense 16+2" in preview.summary  # the first target swept: +2
    events = fight.apply(strafe, [14])  # 17: would hit Defense 14 in the open
    assert any("Guard at (6,4) (Defense 18): missed" in e.text for e in events)


def suppression(battlemap: BattleMap) -> Encounter:
    """Kevin at (1,5) suppresses (6,3); the guard (Defense 10) will run (6,2) -> (6,3) -> (6,4)."""
    kevin = agent("kevin", 1, 5, weapons=(SMG,), str_score=12)
    guard = agent("guard", 6, 2, Side.ENEMY, defense=10)
    encounter = new_encounter(replace(state(kevin, guard), battlemap=battlemap), seed=3)
    encounter.apply(Command("start_combat"), [20, 1])
    encounter.apply(cmd("suppressive_fire", "kevin", squares=[(6, 3)], weapon="SMG"))
    encounter.apply(Command("end_turn"))
    return encounter


def test_suppressive_fire_final_attack_counts_cover_where_it_meets_him() -> None:
    # A crate west of the suppressed square shields it, not the square where he stops.
    crate = CoverObject("crate", "crate", ((5.2, 3), (5.7, 3), (5.7, 4), (5.2, 4)))
    fight = suppression(BattleMap(12, 12, cover=(crate,)))
    run = cmd("standard_move", "guard", squares=[(6, 3), (6, 4)])
    events = fight.apply(run, [12])  # 12 + 3 - 4 = 11: a hit on Defense 10 in the open
    assert any("11 against Defense 14, misses" in e.text for e in events)


def test_no_suppressive_final_attack_into_total_cover() -> None:
    bunker = CoverObject(
        "bunker", "bunker", ((5.2, 3), (5.7, 3), (5.7, 4), (5.2, 4)), CoverGrade.TOTAL
    )
    fight = suppression(BattleMap(12, 12, cover=(bunker,)))
    events = fight.apply(cmd("standard_move", "guard", squares=[(6, 3), (6, 4)]), [12])
    assert any("no Suppressive Fire final attack" in e.text for e in events)
    assert fight.state.token("kevin").weapon("SMG").ammo == 25  # no shot spent


def test_no_pummel_through_a_wall_between_neighbours() -> None:
    kevin = agent("kevin", 4, 4)
    guard = agent("guard", 5, 4, Side.ENEMY)
    walled = replace(
        state(kevin, guard), battlemap=BattleMap(12, 12, walls=(Wall((5, 0), (5, 12)),))
    )
    fight = new_encounter(walled, seed=3)
    fight.apply(Command("start_combat"), [20, 1])
    refused = fight.preview(cmd("pummel", "kevin", targets=["guard"]))
    assert "Kevin has no line of sight to Guard" in refused.reasons


def test_cover_fire_final_attack_counts_cover() -> None:
    fight = fight_on(BattleMap(12, 12, cover=(CRATE,)))
    pin = cmd("cover_fire", "kevin", targets=["guard"], weapon="SMG", action_die=True)
    # Will save 1 against DC 13 fails by 5 or more: the Action Die buys a final attack,
    # 15 + 3 - 4 = 14, a hit on Defense 12 in the open, a miss behind the crate.
    events = fight.apply(pin, [1, 15])
    assert any("14 against Defense 16, misses" in e.text for e in events)
