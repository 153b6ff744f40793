"""The main window driven with the mouse and keyboard: drag, undo/redo, files, autosave."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from desktop.autosave import crashed_sessions
from desktop.main_window import MainWindow
from desktop.movement import plan_drag
from desktop.scene.overlay_items import RouteItem
from desktop.scene.style import SQUARE
from desktop.tools.select_move import SelectMoveTool
from engine.grid import Square
from engine.rules.base import Command
from tests.desktop.conftest import OFFSCREEN_NOISE, distinct_colours
from tests.desktop.window_helpers import (
    answer_next_dialog,
    drop_file,
    restore_as_after_a_crash,
)

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE)]


def centre_of(win: MainWindow, square: Square) -> QPoint:
    point = QPointF((square.x + 0.5) * SQUARE, (square.y + 0.5) * SQUARE)
    return win.view.mapFromScene(point)


def drawn_routes(tool: SelectMoveTool) -> list[RouteItem]:
    """The routes the select tool's drag draws (from the move's preview overlay)."""
    return [item for item in tool.drawn.items if isinstance(item, RouteItem)]


def drag(qtbot, win: MainWindow, start: Square, end: Square, release: bool = True) -> None:  # type: ignore[no-untyped-def]
    viewport = win.view.viewport()
    a, b = centre_of(win, start), centre_of(win, end)
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=a)
    steps = 6
    for i in range(1, steps + 1):
        qtbot.mouseMove(viewport, a + (b - a) * i / steps)
    if release:
        qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=b)


def test_dragging_a_token_in_set_up_places_it_through_the_engine(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    drag(qtbot, window, Square(2, 6), Square(4, 3))
    assert window.controller.state.token("kara").square == Square(4, 3)
    assert window.scene.token_items["kara"].pos() == QPointF(4 * SQUARE, 3 * SQUARE)
    assert "places Kara Voss" in window.controller.state.combat.log[-1].text


def test_a_drag_is_one_undo_step_and_redo_brings_it_back(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    drag(qtbot, window, Square(2, 6), Square(5, 7))
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.controller.state.token("kara").square == Square(2, 6)
    assert window.scene.token_items["kara"].pos() == QPointF(2 * SQUARE, 6 * SQUARE)
    modifiers = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(window, Qt.Key.Key_Z, modifiers)
    assert window.controller.state.token("kara").square == Square(5, 7)


def test_dropping_on_another_token_is_refused_and_the_token_goes_back(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    drag(qtbot, window, Square(2, 6), Square(6, 6))  # Marlow stands there
    assert window.controller.state.token("kara").square == Square(2, 6)
    assert window.scene.token_items["kara"].pos() == QPointF(2 * SQUARE, 6 * SQUARE)
    assert not window.controller.can_undo
    assert "Marlow" in window.statusBar().currentMessage()


def test_the_live_preview_shows_the_reason_while_dragging(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    drag(qtbot, window, Square(2, 6), Square(6, 6), release=False)
    tool = window.default_tool
    assert "Marlow already stands on (6,6)" in tool.tag.text
    routes = drawn_routes(tool)
    assert routes and all(route.scene() is window.scene for route in routes)
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert all(route.scene() is None for route in routes)
    assert window.scene.token_items["kara"].pos() == QPointF(2 * SQUARE, 6 * SQUARE)


def test_in_combat_the_acting_token_moves_along_a_route(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    controller = window.controller
    controller.apply(Command("start_combat"))
    active = controller.state.combat.active
    token = controller.state.token(active)
    goal = next(
        token.square.offset(dx, 0)
        for dx in (2, -2, 1, -1)
        if controller.preview(Command("place", active, squares=(token.square.offset(dx, 0),))).legal
    )
    drag(qtbot, window, token.square, goal, release=False)
    tool = window.default_tool
    assert [route.path().elementCount() >= 2 for route in drawn_routes(tool)] == [True]
    qtbot.mouseRelease(
        window.view.viewport(), Qt.MouseButton.LeftButton, pos=centre_of(window, goal)
    )
    assert controller.state.token(active).square == goal
    assert controller.state.combat.log[-1].text.endswith("moves.")


def test_wheel_zooms_at_the_cursor(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    view = window.view
    view.zoom_by(3)  # the map overflows the view, so there is room to keep the point put
    at = QPoint(300, 200)
    before = view.mapToScene(at)
    zoom = view.zoom
    from PySide6.QtGui import QWheelEvent

    event = QWheelEvent(
        QPointF(at),
        QPointF(view.viewport().mapToGlobal(at)),
        QPoint(0, 0),
        QPoint(0, 240),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(view.viewport(), event)
    assert view.zoom > zoom
    after = view.mapToScene(at)
    assert abs(after.x() - before.x()) < 2 and abs(after.y() - before.y()) < 2


def test_middle_button_pans(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    view = window.view
    view.zoom_by(3)
    before = view.mapToScene(QPoint(100, 100))
    viewport = view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.MiddleButton, pos=QPoint(300, 300))
    qtbot.mouseMove(viewport, QPoint(250, 260))
    qtbot.mouseRelease(viewport, Qt.MouseButton.MiddleButton, pos=QPoint(250, 260))
    after = view.mapToScene(QPoint(100, 100))
    assert after.x() > before.x() and after.y() > before.y()


def test_delete_removes_the_selected_token_and_undo_restores_it(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=centre_of(window, Square(11, 10)))
    assert window.controller.selected == "clerk"
    window.menu_actions["delete"].trigger()
    assert all(t.id != "clerk" for t in window.controller.state.tokens)
    assert "clerk" not in window.scene.token_items
    window.menu_actions["undo"].trigger()
    assert window.controller.state.token("clerk").square == Square(11, 10)


def test_save_then_open_gives_the_same_encounter(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    drag(qtbot, window, Square(2, 6), Square(3, 4))
    path = tmp_path / "fight.killbox"
    assert window.save_to(path)
    assert not window.controller.dirty
    saved = window.controller.state
    new_blank_encounter(window)
    assert window.controller.state.tokens == ()
    assert window.open_path(path)
    assert window.controller.state.tokens == saved.tokens
    assert window.recent_files()[0] == path.resolve()


def test_opening_a_bad_file_reports_it_and_keeps_the_encounter(
    qtbot, window, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "broken.killbox"
    bad.write_bytes(b"not a zip")
    before = window.controller.state
    assert not window.open_path(bad)
    assert window.controller.state is before
    assert "broken.killbox" in window.statusBar().currentMessage()


def test_dropping_a_file_on_the_window_opens_it(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "dropped.killbox"
    window.save_to(path)
    new_blank_encounter(window)
    drop_file(window, path)
    assert window.controller.path == path
    assert len(window.controller.state.tokens) == 6


def test_every_applied_command_is_autosaved_and_offered_after_a_crash(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    folder = window.autosaver.folder
    drag(qtbot, window, Square(2, 6), Square(3, 3))
    restored = restore_as_after_a_crash(window)
    assert restored.encounter is not None
    assert restored.document.state.token("kara").square == Square(3, 3)
    assert restored.encounter.can_undo  # with its undo history
    window.close()
    assert crashed_sessions(folder) == []  # a clean exit leaves nothing to restore


def test_opening_another_file_starts_a_new_history(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "other.killbox"
    window.save_to(path)
    drag(qtbot, window, Square(2, 6), Square(3, 3))
    window.open_path(path)  # the GM chose to discard the moved token
    restored = restore_as_after_a_crash(window)
    assert restored.encounter is not None and not restored.encounter.can_undo
    assert restored.document.state.token("kara").square == Square(2, 6)
    assert restored.document.path == path


def test_undo_keeps_the_autosave_in_step(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    drag(qtbot, window, Square(2, 6), Square(3, 3))
    window.menu_actions["undo"].trigger()
    restored = restore_as_after_a_crash(window)
    assert restored.document.state.token("kara").square == Square(2, 6)
    assert restored.encounter is not None and restored.encounter.can_redo


def test_the_window_renders_the_map(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    drag(qtbot, window, Square(2, 6), Square(6, 6), release=False)  # a live preview on screen
    image: QImage = window.grab().toImage()
    image.save(str(tmp_path / "window.png"))
    assert distinct_colours(image) > 30


@pytest.mark.parametrize("action", ["start_combat"])
def test_the_tracker_shows_the_order_and_the_acting_token(qtbot, window, action: str) -> None:  # type: ignore[no-untyped-def]
    qtbot.mouseClick(window.initiative.start_button, Qt.MouseButton.LeftButton)
    state = window.controller.state
    table = window.initiative.table
    assert table.rowCount() == len(state.tokens)
    active = state.token(state.combat.active)
    assert table.item(0, 1).text() == "▶ " + active.name
    qtbot.mouseClick(window.initiative.next_button, Qt.MouseButton.LeftButton)
    assert window.controller.state.combat.active != active.id
    assert window.log.list.count() == len(window.controller.state.combat.log)


def test_the_player_view_follows_the_gm_and_fogs_the_unseen(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    player = window.show_player_view()
    qtbot.addWidget(player)
    assert not player.scene.token_items["thug-1"].isVisible()  # in the closed office
    drag(qtbot, window, Square(2, 6), Square(9, 3))  # Kara walks up to the office wall
    assert player.scene.token_items["kara"].pos() == QPointF(9 * SQUARE, 3 * SQUARE)
    image = player.view.grab().toImage()
    image.save(str(tmp_path / "player.png"))
    assert distinct_colours(image) > 20


def test_the_palette_enables_legal_actions_and_applies_them(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    window.controller.select("dex")
    buttons = window.action_palette.buttons
    assert buttons["shout"].isEnabled()
    assert not buttons["move"].isEnabled()  # not Dex's turn: the stub says why
    assert "not Dex's turn" in buttons["move"].toolTip()
    qtbot.mouseClick(buttons["shout"], Qt.MouseButton.LeftButton)
    assert window.controller.state.combat.log[-1].text == "Dex shouts."


def test_selecting_a_token_fills_the_inspector(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=centre_of(window, Square(3, 9)))
    fields = window.inspector.fields
    assert fields["Name"].text() == "Dex"
    assert "Shaken" in fields["Conditions"].text()
    assert "0/12" in fields["Weapons"].text()
    assert window.scene.token_items["dex"].selected


def open_warehouse(qtbot, tmp_path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QSettings

    from desktop.documents import default_map_path, load_document

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(
        load_document(default_map_path()), autosave_folder=tmp_path / "auto", settings=settings
    )
    win.confirm_discard = lambda: True  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    qtbot.waitExposed(win)
    return win


def test_a_real_system_moves_the_acting_token_along_the_engine_route(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The bundled warehouse with Spycraft: the drag becomes a Standard Move along a route."""
    win = open_warehouse(qtbot, tmp_path)
    controller = win.controller
    controller.apply(Command("start_combat"))
    actor = controller.state.token(controller.state.combat.active or "")

    def legal_move(goal: Square) -> bool:
        plan = plan_drag(controller.state, controller.system, actor.id, goal)
        return plan.command.action == "standard_move" and controller.preview(plan.command).legal

    steps = ((2, 0), (-2, 0), (0, 2), (0, -2), (1, 1), (-1, -1), (1, 0), (0, 1))
    goal = next(
        actor.square.offset(dx, dy) for dx, dy in steps if legal_move(actor.square.offset(dx, dy))
    )
    win.view.centerOn(QPointF((actor.square.x + 0.5) * SQUARE, (actor.square.y + 0.5) * SQUARE))
    drag(qtbot, win, actor.square, goal, release=False)
    assert " of " in win.default_tool.tag.text  # the route's cost against the speed
    assert [route.path().elementCount() >= 2 for route in drawn_routes(win.default_tool)] == [True]
    qtbot.mouseRelease(win.view.viewport(), Qt.MouseButton.LeftButton, pos=centre_of(win, goal))
    assert controller.state.token(actor.id).square == goal
    assert controller.can_undo
    win.menu_actions["undo"].trigger()
    assert controller.state.token(actor.id).square == actor.square
    win.close()


def test_a_drag_beyond_the_movers_reach_says_there_is_no_route(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The tag and the status say the route search's answer, not the one-square jump's."""
    win = open_warehouse(qtbot, tmp_path)
    controller = win.controller
    controller.apply(Command("start_combat"))
    actor = controller.state.token(controller.state.combat.active or "")
    battlemap = controller.state.battlemap
    far = max(
        (Square(x, y) for x in range(battlemap.width) for y in range(battlemap.height)
         if controller.state.token_at(Square(x, y)) is None),
        key=lambda square: abs(square.x - actor.square.x) + abs(square.y - actor.square.y),
    )
    assert not plan_drag(controller.state, controller.system, actor.id, far).found
    win.view.fit_map()
    drag(qtbot, win, actor.square, far, release=False)
    tag = win.default_tool.tag.text
    assert "no route within" in tag and "do not touch" not in tag, tag
    qtbot.mouseRelease(win.view.viewport(), Qt.MouseButton.LeftButton, pos=centre_of(win, far))
    assert controller.state.token(actor.id).square == actor.square
    assert win.statusBar().currentMessage().startswith("Not moved: no route within")
    win.close()


def test_space_drag_pans_and_does_not_move_tokens(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    view = window.view
    view.zoom_by(3)
    viewport = view.viewport()
    start = centre_of(window, Square(2, 6))  # over Kara: space-drag must pan, not move her
    before = view.mapToScene(QPoint(100, 100))
    qtbot.keyPress(view, Qt.Key.Key_Space)
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(viewport, start + QPoint(-60, -40))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=start + QPoint(-60, -40))
    qtbot.keyRelease(view, Qt.Key.Key_Space)
    after = view.mapToScene(QPoint(100, 100))
    assert after.x() > before.x() and after.y() > before.y()
    assert window.controller.state.token("kara").square == Square(2, 6)
    assert not window.controller.can_undo


def test_the_token_menu_selects_centres_and_removes(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    menu = window.token_menu("clerk")
    actions = {action.text(): action for action in menu.actions() if action.text()}
    actions["Select Clerk"].trigger()
    assert window.controller.selected == "clerk"
    actions["Remove token"].trigger()
    assert all(t.id != "clerk" for t in window.controller.state.tokens)
    assert window.controller.state.combat.log[-1].text == "GM removes Clerk."


def new_blank_encounter(window) -> None:  # type: ignore[no-untyped-def]
    """File > New, answered as a GM would: a blank map of the suggested size."""
    answer_next_dialog(lambda dialog: dialog.buttons.accepted.emit())
    assert window.new_encounter()


# ---- unsaved changes, the remembered layout, the log's newest entry


@contextlib.contextmanager
def real_question(window):  # type: ignore[no-untyped-def]
    """The window's own unsaved-changes question instead of the fixture's "always discard"
    (put back before pytest-qt closes the window, which would otherwise wait on it)."""
    del window.confirm_discard
    try:
        yield window
    finally:
        window.confirm_discard = lambda: True


def _unsaved(window, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    """A file, and a change not saved to it."""
    path = tmp_path / "fight.killbox"
    window.save_to(path)
    window.controller.apply(Command("start_combat"))
    assert window.controller.dirty
    return path


@pytest.mark.parametrize("button", ["Save", "Discard", "Cancel"])
def test_closing_with_unsaved_changes_asks_save_discard_or_cancel(
    qtbot, window, tmp_path: Path, button: str
) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QMessageBox

    from desktop.documents import load_document

    path = _unsaved(window, tmp_path)
    seen: list[object] = []

    def press(dialog: object) -> None:
        assert isinstance(dialog, QMessageBox)
        buttons = dialog.standardButtons()
        save = dialog.button(QMessageBox.StandardButton.Save)
        seen.append((buttons, dialog.defaultButton() is save))
        dialog.button(getattr(QMessageBox.StandardButton, button)).click()

    answer_next_dialog(press)
    with real_question(window):
        closed = window.close()
    wanted = QMessageBox.StandardButton
    assert seen == [(wanted.Save | wanted.Discard | wanted.Cancel, True)]
    assert closed == (button != "Cancel")
    saved_round = load_document(path).state.combat.round
    assert saved_round == (1 if button == "Save" else 0)
    if button == "Cancel":
        assert window.isVisible() and window.controller.dirty


def test_opening_a_file_with_unsaved_changes_asks_first(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QMessageBox

    path = _unsaved(window, tmp_path)
    with real_question(window):
        answer_next_dialog(lambda d: d.button(QMessageBox.StandardButton.Cancel).click())
        assert not window.open_path(path)
        assert window.controller.state.combat.round == 1  # nothing was thrown away
        answer_next_dialog(lambda d: d.button(QMessageBox.StandardButton.Cancel).click())
        assert not window.new_encounter()


def test_the_window_and_dock_layout_come_back_next_time(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QSettings

    from desktop.documents import Document
    from tests.desktop.sample import sample_state
    from tests.desktop.stub_system import StubSystem

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)

    def open_window() -> MainWindow:
        win = MainWindow(
            Document(sample_state()), system=StubSystem(), settings=settings,
            autosave_folder=tmp_path / "auto", ask_dice=False,
        )
        qtbot.addWidget(win)
        win.show()
        qtbot.waitExposed(win)
        return win

    first = open_window()
    first.resize(760, 560)  # the offscreen screen is 800x600
    first.docks["Combat log"].hide()
    first.removeDockWidget(first.docks["Token"])
    first.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, first.docks["Token"])
    first.docks["Token"].show()
    QApplication.processEvents()
    left = first.size()
    assert left != second_default_size(settings, tmp_path)
    assert first.close()
    second = open_window()
    QApplication.processEvents()
    assert second.size() == left
    assert not second.docks["Combat log"].isVisible()
    assert second.dockWidgetArea(second.docks["Token"]) == Qt.DockWidgetArea.LeftDockWidgetArea
    second.close()


def second_default_size(settings, tmp_path: Path):  # type: ignore[no-untyped-def]
    """The size a window takes with no layout remembered (to show the test is not that)."""
    from PySide6.QtCore import QSettings

    from desktop.documents import Document
    from tests.desktop.sample import sample_state

    fresh = MainWindow(
        Document(sample_state()),
        settings=QSettings(str(tmp_path / "fresh.ini"), QSettings.Format.IniFormat),
        autosave_folder=tmp_path / "auto",
    )
    size = fresh.size()
    fresh.autosaver.finish()
    fresh.deleteLater()
    return size


def test_the_log_keeps_the_newest_entry_in_view(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    window.docks["Combat log"].show()
    window.docks["Combat log"].raise_()
    window.controller.apply(Command("start_combat"))
    for _ in range(40):
        window.controller.apply(Command("end_turn"))
        QApplication.processEvents()
    log = window.log.list
    qtbot.waitUntil(lambda: log.verticalScrollBar().maximum() > 0)
    bar = log.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.value() == bar.maximum())
    last = log.item(log.count() - 1)
    assert log.viewport().rect().intersects(log.visualItemRect(last))
