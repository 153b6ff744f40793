"""Spycraft Bull Rush into an obstacle (issue 17, must-have 7): whatever is in the pushed
opponent's way makes a Damage save against damage equal to the pusher's Athletics result;
when it fails the opponent smashes through it, and it is gone from the map."""

from __future__ import annotations

from engine.battlemap import BattleMap, CoverObject, Portal, TerrainKind, TerrainPatch, Wall
from engine.encounter import EncounterState
from engine.grid import FIVE_FOOT, Square
from engine.rules.base import Command
from engine.rules.spycraft import obstacles
from engine.tokens import Side
from engine.turns.session import Encounter
from tests.engine.rules.spycraft.builders import agent

# Kevin (Athletics +4) rushes the guard (+0) from (1,4); a typed 15 against 10 is 19 against
# 10: 9 over, so the guard would go back 1 + 2 squares, to (8,4). The DC of a save is 19.
WON = [15, 10]
RUSH = Command.build("bull_rush", "kevin", targets=["guard"], squares=[(2, 4), (3, 4), (4, 4)])
DOOR = Portal("door", (7.0, 4.0), (7.0, 5.0))  # between (6,4) and (7,4)


def rush_through(battlemap: BattleMap, command: Command = RUSH,
                 save: list[int] | None = None) -> Encounter:
    tokens = (agent("kevin", 1, 4, athletics=4), agent("guard", 5, 4, Side.ENEMY, athletics=0))
    fight = Encounter(EncounterState("Test", "spycraft", FIVE_FOOT, battlemap, tokens), seed=1)
    fight.apply(Command("start_combat"), [20, 1])
    fight.apply(command, [*WON, *(save or []), 2, 2, 2, 2])
    return fight


def test_a_door_that_fails_its_damage_save_breaks_and_the_guard_goes_through() -> None:
    # A door saves at +5: 10 + 5 = 15 against 19 fails.
    fight = rush_through(BattleMap(12, 12, portals=(DOOR,)), save=[10])
    assert fight.state.token("guard").square == Square(8, 4)
    assert fight.state.battlemap.portals == ()
    assert any("Damage save: 15 against 19, it breaks" in e.text for e in fight.log)


def test_a_door_that_makes_its_save_holds_and_stops_the_push() -> None:
    fight = rush_through(BattleMap(12, 12, portals=(DOOR,)), save=[14])  # 14 + 5 = 19 holds
    assert fight.state.token("guard").square == Square(6, 4)
    assert fight.state.battlemap.portals == (DOOR,)
    assert any("Damage save: 19 against 19, it holds" in e.text for e in fight.log)


def test_a_broken_wall_keeps_everything_but_the_gap_the_guard_went_through() -> None:
    wall = Wall((7.0, 0.0), (7.0, 12.0))
    fight = rush_through(BattleMap(12, 12, walls=(wall,)), save=[1])  # 1 + 12 = 13 fails
    assert fight.state.token("guard").square == Square(8, 4)
    pieces = sorted((w.start, w.end) for w in fight.state.battlemap.walls)
    assert pieces == [((7.0, 0.0), (7.0, 4.0)), ((7.0, 5.0), (7.0, 12.0))]


def test_a_smashed_crate_is_gone_and_an_unbroken_one_stays() -> None:
    crate = CoverObject("crate", "Crate", ((7.0, 4.0), (8.0, 4.0), (8.0, 5.0), (7.0, 5.0)))
    broken = rush_through(BattleMap(12, 12, cover=(crate,)), save=[5])  # 5 + 6 = 11 fails
    assert broken.state.battlemap.cover == ()
    assert broken.state.token("guard").square == Square(8, 4)
    kept = rush_through(BattleMap(12, 12, cover=(crate,)), save=[13])  # 13 + 6 = 19 holds
    assert kept.state.battlemap.cover == (crate,)
    assert kept.state.token("guard").square == Square(6, 4)


def test_impassable_scenery_that_breaks_becomes_open_ground() -> None:
    pillar = TerrainPatch("pillar", TerrainKind.IMPASSABLE, frozenset({Square(7, 4),
                                                                       Square(7, 9)}))
    fight = rush_through(BattleMap(12, 12, terrain=(pillar,)), save=[2])  # 2 + 10 fails
    left = fight.state.battlemap.terrain
    assert [p.squares for p in left] == [frozenset({Square(7, 9)})]


def test_the_gm_may_type_the_obstacles_save_bonus() -> None:
    sturdy = Command.build("bull_rush", "kevin", targets=["guard"],
                           squares=[(2, 4), (3, 4), (4, 4)], obstacle_save=18)
    fight = rush_through(BattleMap(12, 12, portals=(DOOR,)), sturdy, save=[1])  # 1 + 18 holds
    assert fight.state.battlemap.portals == (DOOR,)


def test_the_gms_ruling_decides_without_a_roll() -> None:
    ruled = Command.build("bull_rush", "kevin", targets=["guard"],
                          squares=[(2, 4), (3, 4), (4, 4)], obstacle_breaks=True)
    fight = rush_through(BattleMap(12, 12, portals=(DOOR,)), ruled)
    assert fight.state.battlemap.portals == ()
    assert any("By the GM's ruling the door" in e.text for e in fight.log)


def test_the_save_table_has_a_bonus_for_every_kind_of_obstacle() -> None:
    assert set(obstacles.save_bonuses()) == set(obstacles.KINDS)
