"""Every catalogue action of every registered system, performed through the UI.

For each (system, action): the shared legal set-up (tests/engine/rules/legal_setups.py)
gives a position where the action is legal and a legal command. The test opens that
position in one shared main window, starts the action as a GM would (a token's right-click
menu for actions aimed at a token, else the palette), clicks the squares on the map,
fills the options form, confirms with Enter and types the dice in the "roll or type the
dice" dialog. The command the UI applied must be the set-up's command, the preview it
showed legal, and the new state exactly what the engine makes of that command with the
same typed dice.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QSettings, Qt
from PySide6.QtWidgets import QApplication, QDialog

from desktop.dialogs.dice import DiceDialog, planned_rolls
from desktop.docks.actions import needs_targeting
from desktop.documents import Document
from desktop.main_window import MainWindow
from desktop.tools.action_tool import ActionTool
from engine.rules.base import Command, Need
from engine.turns.session import Encounter
from tests.desktop.tools.conftest import TOOL_NOISE, view_point
from tests.desktop.window_helpers import answer_next_dialog
from tests.engine.rules.legal_setups import LegalSetUp, every_action, legal_setup

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]

CASES = every_action()


@pytest.fixture(scope="module")
def shared_window(qapp, tmp_path_factory) -> Iterator[MainWindow]:  # type: ignore[no-untyped-def]
    """One main window for the whole module (opening a document per test is cheap)."""
    folder: Path = tmp_path_factory.mktemp("every-action")
    first = legal_setup(*CASES[0])
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(
        Document(first.state, {}, None),
        autosave_folder=folder / "autosave",
        settings=settings,
        ask_dice=True,
        physical_dice=True,
    )
    window.confirm_discard = lambda: True  # type: ignore[method-assign]
    window.resize(1200, 800)
    window.show()
    yield window
    window.autosaver.finish()
    window.close()
    # Delete the window and its menus while the QApplication lives: left to the interpreter's
    # exit, Qt deleted a shared object twice and the process died with a segfault.
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    qapp.processEvents()


def type_the_faces(typed: list[list[int]]):  # type: ignore[no-untyped-def]
    """Answer the dice dialog as a GM with physical dice: type each face (here the ones the
    dialog proposes, so the result is known) and press "Apply my faces"."""

    def choose(dialog: QDialog) -> None:
        assert isinstance(dialog, DiceDialog)
        faces = [box.value() for box in dialog.face_boxes]
        for box, face in zip(dialog.face_boxes, faces, strict=True):
            box.setValue(face)
        typed.append(faces)
        dialog.typed_button.click()

    return choose


def setup_preview(state, command: Command) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    return Encounter(state).preview(command).rolls


def open_position(window: MainWindow, setup: LegalSetUp) -> None:
    window.load(Document(setup.state, {}, None))
    window.view.fit_map()
    window.action_palette.filter.clear()


def choose_actor(window: MainWindow, actor: str) -> None:
    """Pick the acting token in the palette's "Acting" list when it is not the turn's."""
    palette = window.action_palette
    if palette.actor(window.controller.state) != actor:
        palette.acting.setCurrentIndex(palette.acting.findData(actor))
        palette.acting.activated.emit(palette.acting.currentIndex())
    assert palette.actor(window.controller.state) == actor


def start_from_token_menu(qtbot, window: MainWindow, command: Command) -> bool:  # type: ignore[no-untyped-def]
    """Right-click the target and choose the action (with its weapon) if the menu lists it."""
    spec = window.controller.system.action(command.action)
    label = f"{spec.name} with the {command.weapon}" if command.weapon else spec.name
    menu = window.token_menu(str(command.target))
    entries = {a.text(): a for a in menu.actions() if a.isEnabled()}
    if label not in entries:
        return False
    entries[label].trigger()
    return True


def click_square(
    qtbot, window: MainWindow, square, modifier=Qt.KeyboardModifier.NoModifier
) -> None:  # type: ignore[no-untyped-def]
    point = view_point(window.view, (square.x + 0.5, square.y + 0.5))
    qtbot.mouseMove(window.view.viewport(), point)
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, modifier, point)


def pick_on_map(qtbot, window: MainWindow, tool: ActionTool, command: Command) -> None:  # type: ignore[no-untyped-def]
    state = window.controller.state
    for index, target in enumerate(command.targets):
        if target in tool.targets:
            continue
        extra = Qt.KeyboardModifier.ControlModifier if index else Qt.KeyboardModifier.NoModifier
        click_square(qtbot, window, state.token(target).square, extra)
    needs = tool.spec.needs
    for square in command.squares:
        shift = (
            Qt.KeyboardModifier.ShiftModifier
            if Need.PATH in needs
            else Qt.KeyboardModifier.NoModifier
        )
        click_square(qtbot, window, square, shift)


def fill_form(window: MainWindow, tool: ActionTool, command: Command) -> None:
    panel = window.action_palette.targeting
    if Need.WEAPON in tool.spec.needs:  # no weapon box for the others
        panel.set_field("weapon", command.weapon)
    for name, value in command.options:
        panel.set_field(name, value)


@pytest.mark.parametrize(("system", "action"), CASES, ids=[f"{s}-{a}" for s, a in CASES])
def test_every_action_through_the_ui(qtbot, shared_window, system: str, action: str) -> None:  # type: ignore[no-untyped-def]
    window = shared_window
    setup = legal_setup(system, action)
    command = setup.command
    open_position(window, setup)
    QApplication.processEvents()
    map_width = window.view.width()
    spec = window.controller.system.action(action)
    before = window.controller.state
    choose_actor(window, str(command.actor))
    typed: list[list[int]] = []
    if planned_rolls(window.controller.system, before, command, setup_preview(before, command)):
        answer_next_dialog(type_the_faces(typed))  # only when a dialog will come
    if not needs_targeting(window.controller, str(command.actor), spec):
        button = window.action_palette.buttons[action]
        assert button.isEnabled(), button.toolTip()
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        applied = command
    else:
        via_menu = command.target is not None and start_from_token_menu(qtbot, window, command)
        if not via_menu:
            button = window.action_palette.buttons[action]
            assert button.isEnabled(), button.toolTip()
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        tool = window.view.tool
        assert isinstance(tool, ActionTool) and tool.spec.key == action
        fill_form(window, tool, command)
        pick_on_map(qtbot, window, tool, command)
        QApplication.processEvents()
        assert window.view.width() == map_width, "aiming widened a dock and shrank the map"
        assert tool.build() == command  # what the clicks and the form picked
        shown = tool.ask(command)
        assert shown.legal and tool.ready, shown.reasons
        qtbot.keyClick(window.view, Qt.Key.Key_Return)
        assert tool.applied is not None, window.statusBar().currentMessage()
        applied, preview = tool.applied
        assert preview == shown
        assert window.view.tool is window.default_tool
    qtbot.waitUntil(lambda: window.controller.state is not before, timeout=3000)
    assert applied == command
    expected = Encounter(before, system=window.controller.system)
    expected.apply(command, typed[0] if typed else None)
    assert len(typed) <= 1
    assert window.controller.state == expected.state
    assert window.controller.state != before
