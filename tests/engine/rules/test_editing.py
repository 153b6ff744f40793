"""The GM's editing commands: each is an engine action of every system, checked, previewed,
applied as one undo step, and kept by the .killbox file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.battlemap import (
    BattleMap,
    CoverGrade,
    Light,
    Portal,
    PortalKind,
    PortalState,
    TerrainKind,
    Wall,
)
from engine.encounter import EncounterState
from engine.files import load_encounter
from engine.grid import Square
from engine.rules import get_system, system_names
from engine.rules.base import BadOptions, Command, IllegalCommand, MalformedCommand
from engine.rules.editing import EDIT_ACTIONS
from engine.tokens import Side, Token, Weapon
from engine.turns.session import Encounter
from tests.engine.files.builders import png_bytes

PISTOL = Weapon("pistol", "2d6", 30.0, 10, 10, ("single-shot",))


def room(system: str = "spycraft") -> Encounter:
    """A 10x8 map: a wall x=5 from y=0 to y=4, a door below it, a crate, a light, two tokens."""
    battlemap = BattleMap(
        10,
        8,
        walls=(Wall((5, 0), (5, 4)), Wall((5, 5), (5, 8))),
        portals=(Portal("door-1", (5, 4), (5, 5)),),
        lights=(Light((2.5, 2.5), 4.0),),
    )
    tokens = (
        Token("gunman", "Gunman", Side.ENEMY, Square(7, 2), weapons=(PISTOL,),
              stats={"initiative": 2}),
        Token("kevin", "Kevin", Side.PARTY, Square(1, 1)),
    )
    state = EncounterState("Room", system, get_system(system).scale, battlemap, tokens)
    return Encounter(state)


def cmd(action: str, *, targets: tuple[str, ...] = (), squares: tuple[tuple[int, int], ...] = (),
        **options: object) -> Command:
    return Command.build(action, targets=targets, squares=squares, **options)  # type: ignore[arg-type]


def applied(fight: Encounter, command: Command) -> EncounterState:
    """Apply a command the preview calls legal; check it was one undo step."""
    preview = fight.preview(command)
    assert preview.legal, preview.reasons
    before = fight.state
    fight.apply(command)
    after = fight.state
    fight.undo()
    assert fight.state == before
    fight.redo()
    assert fight.state == after
    return after


def malformed(fight: Encounter, command: Command, problem: str) -> None:
    """A command the option schema refuses: an error naming the option, nothing changed."""
    before = fight.state
    with pytest.raises(BadOptions, match=re.escape(problem)):
        fight.preview(command)
    with pytest.raises(BadOptions, match=re.escape(problem)):
        fight.apply(command)
    assert fight.state == before


def refused(fight: Encounter, command: Command) -> tuple[str, ...]:
    preview = fight.preview(command)
    assert not preview.legal
    with pytest.raises(IllegalCommand):
        fight.apply(command)
    return preview.reasons


# --------------------------------------------------------------------------- every system


@pytest.mark.parametrize("system", system_names())
@pytest.mark.parametrize("spec", EDIT_ACTIONS, ids=lambda spec: spec.key)
def test_every_editing_command_is_an_action_of_every_system(system: str, spec: object) -> None:
    assert get_system(system).action(spec.key) == spec  # type: ignore[attr-defined]


# A legal example of each command on room(), and what it must change.
EXAMPLES: dict[str, tuple[Command, object]] = {
    "add_wall": (cmd("add_wall", points=[(0, 6), (3, 6), (3, 8)], blocks="sight"),
                 lambda s: s.battlemap.walls[-2:] == (
                     Wall((0, 6), (3, 6), True, False), Wall((3, 6), (3, 8), True, False))),
    "remove_wall": (cmd("remove_wall", points=[(5, 4), (5, 0)]),
                    lambda s: s.battlemap.walls == (Wall((5, 5), (5, 8)),)),
    "move_wall_point": (cmd("move_wall_point", at=(5, 4), to=(6, 4)),
                        lambda s: s.battlemap.walls[0].end == (6, 4)
                        and s.battlemap.portal("door-1").start == (6, 4)),
    "add_portal": (cmd("add_portal", points=[(5, 1), (5, 2)], kind="window"),
                   lambda s: s.battlemap.portal("window-1").kind is PortalKind.WINDOW
                   and Wall((5, 0), (5, 1)) in s.battlemap.walls
                   and Wall((5, 2), (5, 4)) in s.battlemap.walls),
    "remove_portal": (cmd("remove_portal", portal="door-1"),
                      lambda s: not s.battlemap.portals
                      and Wall((5, 4), (5, 5)) in s.battlemap.walls),
    "set_terrain": (cmd("set_terrain", rect=[(0, 6), (2, 7)], kind="difficult"),
                    lambda s: s.battlemap.terrain_at(Square(2, 7)) is TerrainKind.DIFFICULT
                    and len(s.battlemap.terrain[0].squares) == 6),
    "add_cover": (cmd("add_cover", rect=[(2, 5), (3, 5)], grade="three_quarters", height=4.0,
                      name="crates"),
                  lambda s: s.battlemap.cover[0].outline == ((2, 5), (4, 5), (4, 6), (2, 6))
                  and s.battlemap.cover[0].grade is CoverGrade.THREE_QUARTERS),
    "remove_cover": (cmd("remove_cover", cover="crate"), lambda s: not s.battlemap.cover),
    "add_light": (cmd("add_light", at=(8.5, 6.5), range=3.0, colour="#ff8800"),
                  lambda s: s.battlemap.lights[-1] == Light((8.5, 6.5), 3.0, "#ff8800")),
    "remove_light": (cmd("remove_light", at=(2.6, 2.4)), lambda s: not s.battlemap.lights),
    "set_background": (cmd("set_background", image="", pixels_per_square=70.5),
                       lambda s: s.battlemap.background is None),
    "set_grid": (cmd("set_grid", width=12, height=9),
                 lambda s: (s.battlemap.width, s.battlemap.height) == (12, 9)),
    "edit_token": (cmd("edit_token", targets=("gunman",), name="Boss", hidden=True,
                       notes="Knows the code", facing=450.0, speed=25.0),
                   lambda s: (s.token("gunman").name, s.token("gunman").hidden,
                              s.token("gunman").notes, s.token("gunman").facing,
                              s.token("gunman").speed) == ("Boss", True, "Knows the code",
                                                           90.0, 25.0)),
    "duplicate_token": (cmd("duplicate_token", targets=("gunman",)),
                        lambda s: s.token("gunman-2").name == "Gunman 2"
                        and s.token("gunman-2").weapons == (PISTOL,)
                        and s.token("gunman-2").stats == {"initiative": 2}),
    "set_fog": (cmd("set_fog", rect=[(1, 1), (2, 2)], mode="reveal"),
                lambda s: s.fog.revealed == {Square(x, y) for x in (1, 2) for y in (1, 2)}),
    "edit_encounter": (cmd("edit_encounter", briefing="They wait for the courier."),
                       lambda s: s.briefing == "They wait for the courier."),
}


def test_there_is_an_example_for_every_editing_command() -> None:
    assert set(EXAMPLES) == {spec.key for spec in EDIT_ACTIONS}


def _with_crate(fight: Encounter) -> None:
    fight.apply(cmd("add_cover", rect=[(2, 5), (2, 5)], id="crate"))


@pytest.mark.parametrize("key", sorted(EXAMPLES))
def test_each_command_applies_undoes_and_survives_the_file(key: str, tmp_path: Path) -> None:
    fight = room()
    if key == "remove_cover":
        _with_crate(fight)
    command, expectation = EXAMPLES[key]
    after = applied(fight, command)
    assert expectation(after)  # type: ignore[operator]
    path = tmp_path / "edited.killbox"
    fight.save(path)
    assert load_encounter(path).state == after


@pytest.mark.parametrize("key", sorted(EXAMPLES))
def test_each_command_refuses_an_unknown_option_by_name(key: str) -> None:
    fight = room()
    command, _ = EXAMPLES[key]
    malformed(fight, command.with_options(colur="red"), "unknown option 'colur'")


#: Values the option schema itself refuses: a word not among the choices, a wrong type.
MALFORMED = [
    ("add_wall", {"points": [(1, 1), (2, 2)], "blocks": "air"}, "option 'blocks' must be one of"),
    ("add_portal", {"points": [(5, 1), (5, 2)], "kind": "hatch"}, "option 'kind' must be one of"),
    ("set_terrain", {"rect": [(0, 0), (1, 1)], "kind": "lava"}, "option 'kind' must be one of"),
    ("add_cover", {"rect": [(1, 1), (1, 1)], "grade": "most"}, "option 'grade' must be one of"),
    ("add_cover", {"rect": [(1, 1), (1, 1)], "height": "tall"}, "option 'height' must be a number"),
    ("add_cover", {"rect": [(1, 1), (1, 1)], "blocks_sight": "yes"},
     "option 'blocks_sight' must be true or false"),
    # Places, stat blocks and records are typed values: their old text forms are refused.
    ("add_wall", {"points": "1,1 2,2"}, "option 'points' must be a list of points (x, y)"),
    ("add_wall", {"points": [(1, 1), (2, float("nan"))]},
     "option 'points' must be a list of points (x, y): (2, nan) is not a point on any map"),
    ("add_wall", {"points": [(1, 1), (2, 2, 3)]},
     "option 'points' must be a list of points (x, y): a point is two numbers"),
    ("add_wall", {"points": [(1, 1), (True, 2)]}, "a point is two numbers (x, y), not (True, 2)"),
    ("move_wall_point", {"at": "5,4", "to": (6, 4)}, "option 'at' must be a point (x, y)"),
    ("add_light", {"at": [(1, 1)]}, "option 'at' must be a point (x, y)"),
    ("set_terrain", {"rect": [(0, 0), (1.5, 1)], "kind": "difficult"},
     "option 'rect' must be a list of squares (x, y): a square is two whole numbers"),
    ("set_fog", {"rect": "0,0 1,1", "mode": "reveal"}, "option 'rect' must be a list of squares"),
    ("edit_token", {"targets": ("gunman",), "stats": '{"defense": 15}'},
     "option 'stats' must be stat names each with a value"),
    ("edit_token", {"targets": ("gunman",), "stats": {"defense": float("inf")}},
     "option 'stats' stat 'defense' must be finite"),
    ("edit_token", {"targets": ("gunman",), "weapons": '[{"name": "knife"}]'},
     "option 'weapons' must be a list of weapon records"),
    ("add_token", {"token": '{"id": "x"}'}, "option 'token' must be a token record"),
]


@pytest.mark.parametrize(("key", "options", "problem"), MALFORMED)
def test_values_the_schema_refuses_are_a_command_error_naming_the_option(
    key: str, options: dict[str, object], problem: str
) -> None:
    malformed(room(), cmd(key, **options), problem)


@pytest.mark.parametrize("options", [{"stats": {"defense": None}}, {"weapons": [{"name": "k"}]},
                                     {"stats": {"defense": [[1, 2], [3]]}}])
def test_values_no_option_can_hold_are_refused_when_the_command_is_built(
    options: dict[str, object]
) -> None:
    name = next(iter(options))
    with pytest.raises(MalformedCommand, match=f"option '{name}' must be"):
        cmd("edit_token", targets=("gunman",), **options)


def test_an_unknown_side_is_a_command_error_naming_the_option() -> None:
    malformed(room(), cmd("edit_token", targets=("gunman",), side="villain"),
              "option 'side' must be one of")


# --------------------------------------------------------------------------- walls


def test_a_wall_through_a_token_is_refused_naming_the_token() -> None:
    reasons = refused(room(), cmd("add_wall", points=[(7.5, 1), (7.5, 4)]))
    assert reasons == ("Gunman would stand in the wall from (7.5,1) to (7.5,4)",)


def test_a_wall_along_a_token_s_edge_is_fine() -> None:
    after = applied(room(), cmd("add_wall", points=[(7, 1), (7, 4)]))
    assert Wall((7, 1), (7, 4)) in after.battlemap.walls


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"points": [(1, 1)]}, "needs at least 2 points"),
        ({"points": [(1, 1), (1, 1)]}, "has no length"),
        ({"points": [(1, 1), (11, 1)]}, "(11,1) is off the map"),
        ({}, "option points= is required"),
    ],
)
def test_bad_walls_are_refused_with_the_problem(options: dict[str, object], problem: str) -> None:
    reasons = refused(room(), cmd("add_wall", **options))
    assert any(problem in reason for reason in reasons), reasons


def test_erasing_a_wall_that_is_not_there_says_so() -> None:
    assert refused(room(), cmd("remove_wall", points=[(1, 1), (2, 1)])) == (
        "there is no wall from (1,1) to (2,1)",
    )


def test_moving_a_corner_onto_the_other_end_of_its_wall_is_refused() -> None:
    reasons = refused(room(), cmd("move_wall_point", at=(5, 0), to=(5, 4)))
    assert "the wall from (5,0) to (5,4) would have no length" in reasons


def test_moving_a_corner_nobody_has_is_refused() -> None:
    assert "no wall, door or window ends at (1,1)" in refused(
        room(), cmd("move_wall_point", at=(1, 1), to=(2, 2))
    )


def test_moving_a_wall_corner_through_a_token_is_refused() -> None:
    reasons = refused(room(), cmd("move_wall_point", at=(5, 0), to=(8, 2)))
    assert any("Gunman would stand in the wall" in reason for reason in reasons)


# --------------------------------------------------------------------------- doors


def test_a_door_in_a_gap_between_walls_is_accepted() -> None:
    fight = room()
    fight.apply(cmd("remove_portal", portal="door-1", fill=False))
    after = applied(fight, cmd("add_portal", points=[(5, 4), (5, 5)], state="locked", id="vault"))
    assert after.battlemap.portal("vault").state is PortalState.LOCKED
    assert after.battlemap.walls == (Wall((5, 0), (5, 4)), Wall((5, 5), (5, 8)))


def test_a_door_in_open_floor_is_refused() -> None:
    reasons = refused(room(), cmd("add_portal", points=[(1, 6), (2, 6)]))
    assert reasons == (
        "a door goes in a wall: no wall runs all along (1,6) to (2,6), and its ends do not "
        "both touch a wall",
    )


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"points": [(5, 1), (5, 2)], "id": "door-1"}, "the id 'door-1' is already used"),
        ({"points": [(5, 1), (5, 2)], "kind": "window", "state": "locked"}, "cannot be locked"),
        ({"points": [(5, 1), (5, 1)]}, "has no length"),
    ],
)
def test_bad_doors_are_refused(options: dict[str, str], problem: str) -> None:
    reasons = refused(room(), cmd("add_portal", **options))
    assert any(problem in reason for reason in reasons), reasons


def test_a_door_on_a_wall_opens_a_way_through_it() -> None:
    from engine.routes import cheapest_route, graph_for

    fight = room()
    fight.apply(cmd("remove_portal", portal="door-1"))  # the wall is whole now
    state = fight.state
    assert cheapest_route(graph_for(state, difficult_cost=2), "kevin", Square(8, 1)) is None
    fight.apply(cmd("add_portal", points=[(5, 1), (5, 2)], state="open"))
    state = fight.state
    assert cheapest_route(graph_for(state, difficult_cost=2), "kevin", Square(8, 1)) is not None


def test_removing_an_unknown_door_is_refused() -> None:
    assert refused(room(), cmd("remove_portal", portal="door-9")) == (
        "there is no door or window 'door-9' (option portal=)",
    )


# --------------------------------------------------------------------------- terrain


def test_painting_a_list_of_squares_then_plain_ground_again() -> None:
    fight = room()
    after = applied(fight, cmd("set_terrain", squares=((0, 7), (1, 7)), kind="impassable"))
    assert after.battlemap.terrain_at(Square(1, 7)) is TerrainKind.IMPASSABLE
    after = applied(fight, cmd("set_terrain", squares=((0, 7),), kind="normal"))
    assert after.battlemap.terrain_at(Square(0, 7)) is None
    assert after.battlemap.terrain_at(Square(1, 7)) is TerrainKind.IMPASSABLE
    after = applied(fight, cmd("set_terrain", squares=((1, 7),), kind="normal"))
    assert after.battlemap.terrain == ()


def test_repainting_squares_moves_them_from_one_kind_to_the_other() -> None:
    fight = room()
    fight.apply(cmd("set_terrain", rect=[(0, 5), (3, 6)], kind="difficult"))
    after = applied(fight, cmd("set_terrain", rect=[(1, 5), (1, 6)], kind="impassable"))
    assert after.battlemap.terrain_at(Square(1, 5)) is TerrainKind.IMPASSABLE
    difficult = next(p for p in after.battlemap.terrain if p.kind is TerrainKind.DIFFICULT)
    assert Square(1, 5) not in difficult.squares and len(difficult.squares) == 6


def test_impassable_ground_under_a_token_is_refused() -> None:
    assert refused(room(), cmd("set_terrain", squares=((7, 2),), kind="impassable")) == (
        "(7,2) is impassable ground",
    )


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"rect": [(0, 0), (10, 0)], "kind": "difficult"}, "(10,0) off the map"),
        ({"kind": "difficult"}, "say which squares"),
    ],
)
def test_bad_terrain_is_refused(options: dict[str, object], problem: str) -> None:
    reasons = refused(room(), cmd("set_terrain", **options))
    assert any(problem in reason for reason in reasons), reasons


# --------------------------------------------------------------------------- cover, lights


def test_cover_with_an_outline_and_its_options() -> None:
    after = applied(room(), cmd("add_cover", points=[(1, 5), (3, 5), (2, 7)], grade="light",
                                height=7.0,
                                blocks_sight=True, blocks_movement=False, name="van"))
    van = after.battlemap.cover[0]
    assert (van.id, van.name, van.grade, van.height_ft, van.blocks_sight,
            van.blocks_movement) == ("cover-1", "van", CoverGrade.LIGHT, 7.0, True, False)


def test_solid_cover_on_a_token_is_refused_low_cover_is_not() -> None:
    reasons = refused(room(), cmd("add_cover", rect=[(7, 2), (7, 2)], name="crate"))
    assert reasons == ("Gunman would stand in the crate",)
    applied(room(), cmd("add_cover", rect=[(7, 2), (7, 2)], blocks_movement=False))


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"points": [(1, 1), (3, 3), (1, 3), (3, 1)]}, "crosses itself"),
        ({"points": [(1, 1), (2, 2)]}, "needs at least 3 points"),
        ({"rect": [(1, 1), (1, 1)], "height": -1.0}, "height= must be more than 0"),
    ],
)
def test_bad_cover_is_refused(options: dict[str, object], problem: str) -> None:
    reasons = refused(room(), cmd("add_cover", **options))
    assert any(problem in reason for reason in reasons), reasons


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        (cmd("add_light", at=(20, 1)), "(20,1) is off the map"),
        (cmd("add_light", at=(1, 1), colour="red"), "colour= must be #rrggbb"),
        (cmd("add_light", at=(1, 1), range=0.0), "range= must be more than 0"),
        (cmd("remove_light", at=(4, 4)), "no light within half a square of (4,4)"),
        (cmd("remove_cover", cover="nope"), "there is no cover object 'nope'"),
    ],
)
def test_bad_cover_and_light_commands_are_refused(command: Command, problem: str) -> None:
    reasons = refused(room(), command)
    assert any(problem in reason for reason in reasons), reasons


# --------------------------------------------------------------------------- picture, grid


def test_a_picture_is_added_then_set_as_background_with_a_fractional_grid(
    tmp_path: Path,
) -> None:
    fight = room()
    name = fight.add_image(png_bytes((64, 48)), "floor plan")
    assert name.startswith("images/floor-plan-") and name.endswith(".png")
    assert fight.add_image(png_bytes((64, 48))) != name  # another stem, same picture: new entry
    after = applied(fight, cmd("set_background", image=name, pixels_per_square=6.4,
                               offset_x=-3.5, offset_y=2.0))
    background = after.battlemap.background
    assert background is not None
    assert (background.pixels_per_square, background.offset_x, background.offset_y) == (
        6.4, -3.5, 2.0)
    after = applied(fight, cmd("set_grid", pixels_per_square=6.25, offset_y=1.0))
    assert after.battlemap.background == background.__class__(name, 6.25, -3.5, 1.0)
    fight.save(tmp_path / "pic.killbox")
    loaded = load_encounter(tmp_path / "pic.killbox")
    assert loaded.state == after
    assert set(loaded.images) == {name}  # the unused copy is not saved


def test_a_picture_the_encounter_does_not_hold_is_refused() -> None:
    fight = room()
    reasons = refused(fight, cmd("set_background", image="images/ghost.png"))
    assert reasons == (
        "the encounter holds no picture 'images/ghost.png' (add it with add_image first)",
    )


def test_a_file_that_is_not_a_picture_is_refused_by_add_image() -> None:
    from engine.rules.base import CommandError

    with pytest.raises(CommandError, match="not a PNG, JPEG or WebP"):
        room().add_image(b"GIF89a....")


def test_the_grid_of_a_map_without_picture_cannot_be_set() -> None:
    assert "the map has no picture whose grid could be set" in refused(
        room(), cmd("set_grid", pixels_per_square=50.0)
    )


def test_shrinking_the_map_over_things_is_refused_naming_them() -> None:
    reasons = refused(room(), cmd("set_grid", width=6))
    assert "(7,2) is off the map (6x8 squares)" in reasons
    assert "the light at (2.5,2.5) would be off the map" not in reasons
    reasons = refused(room(), cmd("set_grid", height=3))
    assert "the wall from (5,0) to (5,4) would be off the map" in reasons


# --------------------------------------------------------------------------- tokens


def test_a_token_edit_changes_side_size_weapons_and_portrait() -> None:
    fight = room()
    picture = fight.add_image(png_bytes((8, 8)), "boss")
    rifle = Weapon("rifle", "2d8", 80.0, 5, 5, ("single-shot",), two_handed=True)
    after = applied(fight, cmd("edit_token", targets=("gunman",), side="neutral", size=2,
                               weapons=[rifle], portrait=picture, stats={"defense": 15}))
    token = after.token("gunman")
    assert (token.side, token.size, token.weapons, token.portrait) == (
        Side.NEUTRAL, 2, (rifle,), picture)
    assert token.stats == {"initiative": 2, "defense": 15}
    after = applied(fight, cmd("edit_token", targets=("gunman",), portrait=""))
    assert after.token("gunman").portrait is None


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"size": 3}, "would stand in the wall"),  # 7..9 x 2..4 crosses nothing, 3 reaches x=10
        ({"name": "  "}, "name= must not be empty"),
        ({"speed": -5.0}, "speed= must be at least 0"),
        ({"stats": {"defense": ["1"]}}, "stat 'defense': must be a whole number"),
        ({"weapons": [Weapon("gun"), Weapon("gun", "2d6")]}, "two weapons are called 'gun'"),
        ({"portrait": "C:/me.png"}, "portrait= must name a picture entry"),
        ({}, "say what to change"),
    ],
)
def test_bad_token_edits_are_refused(options: dict[str, object], problem: str) -> None:
    fight = room()
    fight.apply(cmd("add_wall", points=[(9, 0), (9, 1)]))  # far from gunman; size 3 reaches x=9
    if problem == "would stand in the wall":
        fight.apply(cmd("add_wall", points=[(8.5, 4), (8.5, 5)]))
    reasons = refused(fight, cmd("edit_token", targets=("gunman",), **options))
    assert any(problem in reason for reason in reasons), reasons


def test_a_token_grown_off_the_map_is_refused() -> None:
    fight = room()
    fight.apply(cmd("duplicate_token", targets=("kevin",), squares=((9, 7),)))
    reasons = refused(fight, cmd("edit_token", targets=("kevin-2",), size=2))
    assert "(10,7) is off the map (10x8 squares)" in reasons


def test_editing_a_token_that_is_not_there_is_a_malformed_command() -> None:
    with pytest.raises(MalformedCommand, match="there is no token 'nobody'"):
        room().preview(cmd("edit_token", targets=("nobody",), name="X"))


def test_duplicates_count_on_and_go_to_the_nearest_free_square() -> None:
    fight = room()
    fight.apply(cmd("duplicate_token", targets=("gunman",)))
    fight.apply(cmd("duplicate_token", targets=("gunman",)))
    fight.apply(cmd("duplicate_token", targets=("gunman-2",), squares=((9, 7),)))
    names = {t.id: t.name for t in fight.state.tokens}
    assert names["gunman-2"] == "Gunman 2"
    assert names["gunman-3"] == "Gunman 3"
    assert names["gunman-4"] == "Gunman 4"
    assert fight.state.token("gunman-4").square == (9, 7)
    for token_id in ("gunman-2", "gunman-3"):
        square = fight.state.token(token_id).square
        assert max(abs(square.x - 7), abs(square.y - 2)) == 1


def test_a_duplicate_gets_the_name_and_id_asked_for_without_conditions() -> None:
    from dataclasses import replace

    from engine.tokens import Condition

    fight = room()
    hurt = replace(fight.state.token("gunman"), conditions=(Condition("prone"),))
    fight = Encounter(fight.state.with_token(hurt))
    after = applied(fight, cmd("duplicate_token", targets=("gunman",), name="Sniper",
                               id="sniper", squares=((8, 6),)))
    assert after.token("sniper").name == "Sniper" and after.token("sniper").conditions == ()


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        (cmd("duplicate_token", targets=("gunman",), squares=((5, 9),)), "(5,9) is off the map"),
        (cmd("duplicate_token", targets=("gunman",), squares=((1, 1),)),
         "Kevin already stands on (1,1)"),
        (cmd("duplicate_token", targets=("gunman",), id="kevin"),
         "a token called 'kevin' is already on the map"),
        (cmd("duplicate_token"), "say which token (targets=[id])"),
    ],
)
def test_bad_duplicates_are_refused(command: Command, problem: str) -> None:
    reasons = refused(room(), command)
    assert any(problem in reason for reason in reasons), reasons


def test_the_encounter_name_cannot_be_emptied() -> None:
    assert "name= must not be empty" in refused(room(), cmd("edit_encounter", name=" "))


def test_editing_commands_work_during_a_fight_and_count_as_one_undo_step() -> None:
    fight = room()
    fight.apply(Command("start_combat"))
    started = fight.state
    fight.apply(cmd("add_wall", points=[(0, 6), (2, 6)]))
    assert fight.state.combat == started.combat.__class__(**{
        **{f: getattr(started.combat, f) for f in started.combat.__dataclass_fields__},
        "log": fight.state.combat.log,
    })
    assert fight.state.combat.log[-1].text == "GM draws a wall from (0,6) to (2,6)."
    fight.undo()
    assert fight.state == started


@pytest.mark.parametrize("key", sorted(EXAMPLES))
def test_each_command_declares_the_options_it_reads_with_their_types(key: str) -> None:
    spec = get_system("spycraft").action(key)
    declared = {option.name: option for option in spec.options}
    command, _ = EXAMPLES[key]
    for name, value in command.options:
        assert name in declared, (key, name)
        assert declared[name].problem(value) is None, (key, name, value)


def test_a_misspelt_stat_is_refused_naming_the_stat_the_system_knows() -> None:
    fight = room()
    reasons = refused(fight, cmd("edit_token", targets=("gunman",), stats={"defence": 14}))
    assert reasons == ("stat 'defence': unknown stat (did you mean 'defense'?)",)
    reasons = refused(fight, cmd("edit_token", targets=("gunman",), stats={"defense": -1}))
    assert reasons == ("stat 'defense': must be at least 0, not -1",)
    after = applied(fight, cmd("edit_token", targets=("gunman",), stats={"defense": 16}))
    assert after.token("gunman").stats["defense"] == 16


def test_clear_stats_takes_stats_out_so_the_schema_default_applies() -> None:
    fight = room()
    after = applied(fight, cmd("edit_token", targets=("gunman",), stats={"defense": 16},
                               clear_stats=["initiative"]))
    assert after.token("gunman").stats == {"defense": 16}
    assert get_system("spycraft").stat(after.token("gunman"), "initiative") == get_system(
        "spycraft").stat_spec("initiative").default


@pytest.mark.parametrize(("options", "problem"), [
    ({"clear_stats": ["defense"]}, "Gunman has no stat 'defense' to clear"),
    ({"clear_stats": ["initiative"], "stats": {"initiative": 3}},
     "stat 'initiative' is both set (stats=) and cleared (clear_stats=)"),
])
def test_clearing_what_is_not_there_or_is_also_set_is_refused(
    options: dict[str, object], problem: str
) -> None:
    assert problem in refused(room(), cmd("edit_token", targets=("gunman",), **options))


def test_clear_stats_is_a_list_of_names_not_text() -> None:
    malformed(room(), cmd("edit_token", targets=("gunman",), clear_stats="initiative"),
              "option 'clear_stats' must be a list of words")
