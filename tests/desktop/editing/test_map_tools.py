"""The map tools: every gesture is one engine editing command, undoable, saved in the file."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desktop.documents import load_document
from engine.battlemap import CoverGrade, Light, PortalKind, TerrainKind, Wall
from engine.grid import Square
from tests.desktop.editing.conftest import NOISE, double_click_at, drag, press_at
from tests.desktop.tools.conftest import click_at, render_png, view_point

pytestmark = pytest.mark.qt_log_ignore(*NOISE)


def tool(win, key: str):  # type: ignore[no-untyped-def]
    win.menu_actions[f"map_{key}"].trigger()
    return win.view.tool


def test_a_wall_is_drawn_corner_by_corner_snapped_and_undone(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    tool(win, "walls")
    click_at(qtbot, win.view, (1.2, 1.1))  # snaps to (1, 1)
    click_at(qtbot, win.view, (5.9, 0.8))  # (6, 1)
    double_click_at(qtbot, win.view, (6.1, 4.2))  # (6, 4), and the wall ends
    walls = win.controller.state.battlemap.walls
    assert walls == (Wall((1, 1), (6, 1)), Wall((6, 1), (6, 4)))
    render_png(win, "prep-wall-drawn", min_colours=5)
    win.menu_actions["undo"].trigger()
    assert win.controller.state.battlemap.walls == ()


@pytest.mark.parametrize(
    ("index", "sight", "movement"), [(0, True, True), (1, True, False), (2, False, True)]
)
def test_the_wall_kind_from_the_toolbar(qtbot, blank_window, index, sight, movement) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    win.map_toolbar.wall_kind.setCurrentIndex(index)
    tool(win, "walls")
    click_at(qtbot, win.view, (2, 2))
    click_at(qtbot, win.view, (2, 6))
    qtbot.keyClick(win.view, Qt.Key.Key_Return)
    (wall,) = win.controller.state.battlemap.walls
    assert (wall.blocks_sight, wall.blocks_movement) == (sight, movement)


def test_ctrl_snaps_to_edge_midpoints(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    tool(win, "walls")
    ctrl = Qt.KeyboardModifier.ControlModifier
    for point in ((2.4, 2.1), (4.6, 2.1)):
        where = view_point(win.view, point)
        qtbot.mouseClick(win.view.viewport(), Qt.MouseButton.LeftButton, ctrl, where)
    win.view.tool.finish()
    assert win.controller.state.battlemap.walls == (Wall((2.5, 2), (4.5, 2)),)


def walled(qtbot, win) -> None:  # type: ignore[no-untyped-def]
    tool(win, "walls")
    click_at(qtbot, win.view, (0, 4))
    click_at(qtbot, win.view, (8, 4))
    win.view.tool.finish()


@pytest.mark.parametrize("kind", [PortalKind.DOOR, PortalKind.WINDOW])
def test_a_door_or_window_goes_on_a_wall(qtbot, blank_window, kind) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    walled(qtbot, win)
    win.map_toolbar.portal_kind.setCurrentIndex(win.map_toolbar.portal_kind.findData(kind.value))
    tool(win, "portals")
    drag(qtbot, win.view, (3.1, 3.9), (4.9, 4.1))
    (portal,) = win.controller.state.battlemap.portals
    assert (portal.kind, {portal.start, portal.end}) == (kind, {(3, 4), (5, 4)})
    render_png(win, f"prep-{kind.value}", min_colours=5)


def test_a_door_off_any_wall_is_refused_with_the_reason(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    tool(win, "portals")
    drag(qtbot, win.view, (3, 6), (5, 6))
    assert win.controller.state.battlemap.portals == ()
    assert "wall" in win.statusBar().currentMessage()


def test_a_wall_point_is_dragged_and_its_walls_follow(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    tool(win, "walls")
    for point in ((1, 1), (5, 1), (5, 5)):
        click_at(qtbot, win.view, point)
    win.view.tool.finish()
    tool(win, "wall_points")
    drag(qtbot, win.view, (5.1, 1.1), (7, 2))
    assert set(win.controller.state.battlemap.walls) == {
        Wall((1, 1), (7, 2)),
        Wall((7, 2), (5, 5)),
    }


def test_terrain_is_painted_square_by_square(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    tool(win, "terrain")
    drag(qtbot, win.view, (1.5, 1.5), (3.5, 1.5), through=((2.5, 1.5),))
    battlemap = win.controller.state.battlemap
    painted = {s for s in battlemap.squares() if battlemap.terrain_at(s) is TerrainKind.DIFFICULT}
    assert painted == {Square(1, 1), Square(2, 1), Square(3, 1)}


def test_shift_paints_a_rectangle_and_plain_ground_clears_it(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    bar = win.map_toolbar
    bar.terrain_kind.setCurrentIndex(bar.terrain_kind.findData(TerrainKind.IMPASSABLE.value))
    tool(win, "terrain")
    drag(qtbot, win.view, (2.5, 2.5), (4.5, 3.5), Qt.KeyboardModifier.ShiftModifier)
    battlemap = win.controller.state.battlemap
    blocked = {s for s in battlemap.squares() if battlemap.terrain_at(s) is TerrainKind.IMPASSABLE}
    assert blocked == {Square(x, y) for x in (2, 3, 4) for y in (2, 3)}
    render_png(win, "prep-terrain", min_colours=5)
    bar.terrain_kind.setCurrentIndex(bar.terrain_kind.findData("normal"))
    drag(qtbot, win.view, (2.5, 2.5), (4.5, 2.5), Qt.KeyboardModifier.ShiftModifier)
    battlemap = win.controller.state.battlemap
    still = {s for s in battlemap.squares() if battlemap.terrain_at(s) is not None}
    assert still == {Square(x, 3) for x in (2, 3, 4)}


def test_cover_is_placed_with_the_toolbar_grade_and_height(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    bar = win.map_toolbar
    bar.cover_grade.setCurrentIndex(bar.cover_grade.findData("three_quarters"))
    bar.cover_height.setValue(5.5)
    tool(win, "cover")
    drag(qtbot, win.view, (6.5, 2.5), (7.5, 2.5))
    (cover,) = win.controller.state.battlemap.cover
    assert cover.grade is CoverGrade.THREE_QUARTERS and cover.height_ft == 5.5
    assert set(cover.outline) == {(6, 2), (8, 2), (8, 3), (6, 3)}
    render_png(win, "prep-cover", min_colours=5)


def test_a_light_is_placed_at_the_square_centre(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    win.map_toolbar.light_range.setValue(4)
    tool(win, "lights")
    click_at(qtbot, win.view, (3.2, 2.7))
    (light,) = win.controller.state.battlemap.lights
    assert (light.position, light.range) == ((3.5, 2.5), 4.0)
    assert isinstance(light, Light)


def test_erase_takes_away_each_kind_of_thing(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    walled(qtbot, win)
    tool(win, "portals")
    drag(qtbot, win.view, (2, 4), (3, 4))
    tool(win, "cover")
    drag(qtbot, win.view, (6.5, 6.5), (6.5, 6.5))
    tool(win, "lights")
    click_at(qtbot, win.view, (10.5, 1.5))
    battlemap = win.controller.state.battlemap
    assert battlemap.portals and battlemap.cover and battlemap.lights
    tool(win, "erase")
    click_at(qtbot, win.view, (10.5, 1.5))
    assert win.controller.state.battlemap.lights == ()
    click_at(qtbot, win.view, (6.5, 6.5))
    assert win.controller.state.battlemap.cover == ()
    click_at(qtbot, win.view, (2.5, 4.0))
    assert win.controller.state.battlemap.portals == ()
    click_at(qtbot, win.view, (6.5, 4.05))
    assert all(not (w.start[0] <= 6.5 <= w.end[0]) for w in win.controller.state.battlemap.walls)


def test_every_edit_is_saved_in_the_file(qtbot, blank_window, tmp_path) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    walled(qtbot, win)
    tool(win, "terrain")
    drag(qtbot, win.view, (1.5, 6.5), (1.5, 6.5))
    path = tmp_path / "prepared.killbox"
    assert win.save_to(path)
    reopened = load_document(path).state.battlemap
    assert reopened.walls == win.controller.state.battlemap.walls
    assert reopened.terrain_at(Square(1, 6)) is TerrainKind.DIFFICULT


def test_escape_drops_a_wall_in_progress(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    tool(win, "walls")
    click_at(qtbot, win.view, (1, 1))
    press_at(qtbot, win.view, (3, 1))
    qtbot.keyClick(win.view, Qt.Key.Key_Escape)
    assert win.controller.state.battlemap.walls == ()

