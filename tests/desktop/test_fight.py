"""Run the fight from the UI: start combat (roll or type initiative), act, end turns, round 2."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desktop.dialogs.dice import DiceDialog
from desktop.dialogs.start_combat import StartCombatDialog
from desktop.docks.actions import needs_targeting
from desktop.documents import load_document
from desktop.main_window import MainWindow
from engine.turns.combat import Phase
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.tools.conftest import make_window
from tests.desktop.window_helpers import MAPS, answer_next_dialog, grab_png

pytestmark = pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE, "This plugin does not support raise()")

BUNDLED = {
    "spycraft": "warehouse",
    "savage-worlds": "night_street",
    "cities-without-number": "office_floor",
    "d20-firearms": "compound",
}


def open_map(  # type: ignore[no-untyped-def]
    qtbot, tmp_path, name: str, physical_dice: bool | None = None
) -> MainWindow:
    """The bundled map with its dialogs; ``physical_dice``: every roll asked for (None: as
    a fresh preference says, Killbox rolls)."""
    document = load_document(MAPS / f"{name}.killbox")
    return make_window(
        qtbot, tmp_path, document.state, document.images, ask_dice=True,
        physical_dice=physical_dice,
    )


def click(qtbot, button) -> None:  # type: ignore[no-untyped-def]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def roll(dialog) -> None:  # type: ignore[no-untyped-def]
    dialog.roll_button.click()


def type_faces(face: int):  # type: ignore[no-untyped-def]
    def choose(dialog) -> None:  # type: ignore[no-untyped-def]
        for box in dialog.face_boxes:
            box.setValue(face)
        dialog.typed_button.click()

    return choose


def simple_action(win: MainWindow) -> str | None:
    """An enabled palette action of the active token that needs nothing picked on the map
    (it applies at once, or after Confirm on its options form left to the defaults)."""
    system = win.controller.system
    for key, button in win.action_palette.buttons.items():
        if button.isEnabled() and not system.action(key).needs:
            return key
    return None


@pytest.mark.parametrize("system", sorted(BUNDLED))
def test_one_round_of_each_system_from_the_ui(qtbot, tmp_path, system: str) -> None:
    win = open_map(qtbot, tmp_path, BUNDLED[system])
    controller = win.controller
    assert controller.state.system == system
    dialogs: list = []
    answer_next_dialog(roll, dialogs)
    click(qtbot, win.initiative.start_button)
    assert isinstance(dialogs[0], StartCombatDialog)
    state = controller.state
    assert state.combat.phase is Phase.ROUND and state.combat.round == 1
    assert state.combat.active is not None
    heading = win.initiative.table.horizontalHeaderItem(0).text()
    kind = controller.system.initiative_scheme.kind
    assert heading == {"count": "Count", "cards": "Card", "sides": "Side"}[kind]
    first = win.initiative.table.item(0, 0).text()
    if kind == "cards":  # the tracker shows the dealt Action Card, e.g. "QH"
        assert first == str(state.combat.order[0].data["card"]) and first != "—"
    grab_png(win, f"fight-{system}-round-1")

    acted_with: list[str] = []
    for _ in range(60):
        if controller.state.combat.round >= 2:
            break
        active = controller.state.combat.active
        assert active is not None
        key = simple_action(win) if active not in acted_with else None
        if key is not None:
            acted_with.append(active)
            answer_next_dialog(roll)  # when the action rolls dice (gives up otherwise)
            before = len(controller.state.combat.log)
            click(qtbot, win.action_palette.buttons[key])
            system = controller.system
            if needs_targeting(controller, active, system.action(key)):  # its form is open
                click(qtbot, win.action_palette.targeting.confirm_button)
            assert len(controller.state.combat.log) > before, f"{key} did nothing"
            if controller.state.combat.active == active:
                continue
        answer_next_dialog(roll)  # the next turn's start-of-turn roll, if it has one
        click(qtbot, win.initiative.next_button)
    assert controller.state.combat.round == 2
    assert acted_with, "no token took an action from the palette"
    assert controller.state.combat.phase is Phase.ROUND
    assert "Round 2" in win.initiative.heading.text()
    grab_png(win, f"fight-{system}-round-2")


def test_typed_initiative_goes_in_as_die_faces(qtbot, tmp_path) -> None:
    win = open_map(qtbot, tmp_path, "warehouse")
    dialogs: list = []
    answer_next_dialog(type_faces(20), dialogs)
    click(qtbot, win.initiative.start_button)
    dialog = dialogs[0]
    tokens = win.controller.state.tokens
    assert len(dialog.face_boxes) >= len(tokens)  # one initiative roll per token at least
    log = "\n".join(entry.text for entry in win.controller.state.combat.log)
    assert "typed 20" in log
    for combatant in win.controller.state.combat.order:
        token = win.controller.state.token(combatant.token_id)
        bonus = win.controller.system.stat_block.number(token, "initiative")
        # Fluid initiative has not moved yet: the count is the typed face plus the bonus.
        assert combatant.initiative == 20 + bonus


def test_spycraft_surprise_round_from_the_dialog(qtbot, tmp_path) -> None:
    win = open_map(qtbot, tmp_path, "warehouse")
    stealth_rows: list[str] = []

    def ambush(dialog) -> None:  # type: ignore[no-untyped-def]
        assert isinstance(dialog, StartCombatDialog)
        dialog.awareness.setCurrentIndex(dialog.awareness.findData("some"))
        assert not dialog.roll_button.isEnabled()  # nobody ticked as the ambusher yet
        dialog.acting["party"].setChecked(True)
        assert dialog.roll_button.isEnabled()
        form = dialog.rolls_layout
        labels = [
            form.itemAt(row, form.ItemRole.LabelRole).widget().text()
            for row in range(form.rowCount())
        ]
        # Initiative faces stay as prefilled; the party's team stealth check shows 20, others 1.
        for box, label in zip(dialog.face_boxes, labels, strict=True):
            if "stealth" in label:
                stealth_rows.append(label)
                box.setValue(20 if "(party)" in label else 1)
        dialog.typed_button.click()

    answer_next_dialog(ambush)
    click(qtbot, win.initiative.start_button)
    combat = win.controller.state.combat
    assert len(stealth_rows) >= 2  # one team stealth check per side, listed in the dialog
    assert combat.phase is Phase.SURPRISE
    assert "Surprise round" in win.initiative.heading.text()
    grab_png(win, "fight-spycraft-surprise")


def test_an_action_asks_roll_or_type_and_typed_faces_reach_the_engine(qtbot, tmp_path) -> None:
    from desktop.fight import act

    win = open_map(qtbot, tmp_path, "warehouse", physical_dice=True)
    answer_next_dialog(roll)
    click(qtbot, win.initiative.start_button)
    controller = win.controller
    active = controller.state.combat.active or ""
    rolling = next(
        command
        for command in controller.session.example_commands(active)
        if controller.preview(command).legal and controller.preview(command).rolls
    )
    dialogs: list = []
    answer_next_dialog(type_faces(7), dialogs)
    act(win, controller, rolling)
    dialog = dialogs[0]
    assert isinstance(dialog, DiceDialog)
    form = dialog.rolls_layout
    labels = [form.itemAt(row, form.ItemRole.LabelRole).widget().text()
              for row in range(form.rowCount())]
    assert labels and len(labels) == len(dialog.face_boxes)
    assert any("typed 7" in entry.text for entry in controller.state.combat.log)


def test_cancelling_the_start_dialog_changes_nothing(qtbot, tmp_path) -> None:
    win = open_map(qtbot, tmp_path, "night_street")
    before = win.controller.state
    answer_next_dialog(lambda dialog: dialog.reject())
    click(qtbot, win.initiative.start_button)
    assert win.controller.state is before


def test_condition_badges_name_their_end_and_go_when_the_engine_drops_them(qtbot, tmp_path) -> None:
    from desktop.scene.token_item import describe_token

    win = open_map(qtbot, tmp_path, "warehouse")
    answer_next_dialog(roll)
    click(qtbot, win.initiative.start_button)
    state = win.controller.state
    first = state.combat.active or ""
    items = win.scene.token_items
    # Spycraft: everyone starts flat-footed until the start of his first turn.
    assert not any(c.name == "flat-footed" for c in items[first].token.conditions)
    waiting = [c.token_id for c in state.combat.order if c.token_id != first]
    following = waiting[0]
    badge = items[following].toolTip()
    name = state.token(following).name
    assert f"flat-footed — until {name}'s next turn, round 1" in badge
    assert "round 0" not in badge
    grab_png(win, "fight-condition-badges")
    click(qtbot, win.initiative.next_button)
    assert win.controller.state.combat.active == following
    assert not any(c.name == "flat-footed" for c in items[following].token.conditions)
    assert "flat-footed" not in describe_token(items[following].token)
    assert any(c.name == "flat-footed" for c in items[waiting[-1]].token.conditions)


def test_a_token_on_hold_cuts_in_from_its_own_right_click(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A held token's Act from Hold was only in the palette, after picking that token in
    its Acting list; its right-click menu offered only what the acting token may do to it."""
    from engine.rules.base import Command
    from tests.desktop.test_gm_overrides_ui import entry
    from tests.desktop.tools.conftest import make_window as plain_window

    document = load_document(MAPS / "night_street.killbox")
    win = plain_window(qtbot, tmp_path, document.state, document.images)
    win.controller.apply(Command("start_combat"))
    holder = win.controller.state.combat.active
    assert holder is not None
    win.controller.apply(Command("hold", holder))
    acting = win.controller.state.combat.active
    assert acting not in (None, holder)
    name = win.controller.state.token(holder).name
    other = next(t for t in win.controller.state.tokens if t.id not in (holder, acting))
    assert entry(win.token_menu(other.id), f"{other.name}:") is None  # not on Hold
    entry(win.token_menu(holder), f"{name}: Act from Hold").trigger()
    tool = win.view.tool
    assert tool.actor_id == holder and tool.spec.key == "act_from_hold"
    tool.confirm()
    assert win.controller.state.combat.active == holder


def test_a_teammates_right_click_offers_only_what_it_may_do_out_of_turn(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """With side initiative a teammate of the acting token may do everything now; its
    right click listed all fifteen of its actions, burying the acting token's offers."""
    from engine.rules.base import Command
    from tests.desktop.tools.conftest import make_window as plain_window

    document = load_document(MAPS / "office_floor.killbox")
    win = plain_window(qtbot, tmp_path, document.state, document.images)
    win.controller.apply(Command("start_combat"))
    state = win.controller.state
    active = state.token(str(state.combat.active))
    mate = next(t for t in state.tokens if t.side is active.side and t.id != active.id)
    own = [a.text() for a in win.token_menu(mate.id).actions() if a.text().startswith(mate.name)]
    names = {spec.name: spec.key for spec in win.controller.system.catalogue}
    keys = [names[text.split(": ", 1)[1]] for text in own]
    assert keys and all(win.controller.system.handler(k).out_of_turn for k in keys)
