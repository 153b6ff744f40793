"""Dice at the table: Enter keeps typed faces, each fight gets a fresh seed unless pinned,
and Savage Worlds deals cards without asking for a shuffle's 53 numbers."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desktop.dialogs.dice import DiceDialog, PlannedRoll, dry_run
from desktop.dialogs.start_combat import StartCombatDialog
from desktop.documents import load_document
from engine.rules.base import Command
from engine.rules.gm_overrides import seed_pinned
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.test_fight import open_map
from tests.desktop.window_helpers import MAPS, answer_next_dialog

pytestmark = pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE, "This plugin does not support raise()")

ROLLS = [PlannedRoll("Kestrel initiative", "1d20+4", 7), PlannedRoll("Guard", "1d20+1", 12)]


def dialog(qtbot) -> DiceDialog:  # type: ignore[no-untyped-def]
    shown = DiceDialog(None, "Start combat", ROLLS)
    qtbot.addWidget(shown)
    shown.show()
    return shown


def test_enter_after_typing_a_face_uses_the_typed_faces(qtbot) -> None:
    shown = dialog(qtbot)
    box = shown.face_boxes[0]
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, "20")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert shown.result() == DiceDialog.DialogCode.Accepted
    assert shown.answer == [20, 12]


def test_enter_without_typing_rolls(qtbot) -> None:
    shown = dialog(qtbot)
    shown.face_boxes[1].setFocus()
    qtbot.keyClick(shown.face_boxes[1], Qt.Key.Key_Enter)
    assert shown.result() == DiceDialog.DialogCode.Accepted
    assert shown.answer is None


def test_the_buttons_read_apart_and_the_default_follows_what_was_typed(qtbot) -> None:
    """"Roll" and "Use these dice" read alike; the default marked is what Enter does."""
    shown = dialog(qtbot)
    assert (shown.roll_button.text(), shown.typed_button.text()) == (
        "Roll for me", "Apply my faces")
    assert shown.roll_button.isDefault() and not shown.typed_button.isDefault()
    shown.face_boxes[0].setValue(19)  # a face typed: Enter now applies it
    assert shown.typed_button.isDefault() and not shown.roll_button.isDefault()
    for button in (shown.roll_button, shown.typed_button):
        assert not button.autoDefault()  # focus on a button never moves the default


def test_a_gm_rolling_physical_dice_applies_the_faces_with_enter(qtbot) -> None:
    shown = DiceDialog(None, "Shoot", ROLLS, physical=True)
    qtbot.addWidget(shown)
    shown.show()
    assert shown.typed_button.isDefault() and not shown.roll_button.isDefault()
    shown.face_boxes[0].setFocus()
    qtbot.keyClick(shown.face_boxes[0], Qt.Key.Key_Return)
    assert shown.result() == DiceDialog.DialogCode.Accepted
    assert shown.answer == [7, 12]  # the faces shown, not a roll of Killbox's


def test_each_fight_gets_a_fresh_seed_stored_in_the_file(qtbot, tmp_path) -> None:
    seeds = []
    for run in range(2):
        win = open_map(qtbot, tmp_path / str(run), "warehouse")
        assert not seed_pinned(win.controller.state)
        answer_next_dialog(lambda d: d.roll_button.click())
        win.initiative.start_button.click()
        state = win.controller.state
        assert seed_pinned(state)
        assert state.combat.log[0].text.startswith("Fresh dice for this fight (seed ")
        seeds.append(state.combat.seed)
        saved = tmp_path / f"fight-{run}.killbox"
        win.save_to(saved)
        assert load_document(saved).state.combat.seed == state.combat.seed
        win.close()
    assert seeds[0] != seeds[1]


def test_a_pinned_seed_is_kept_and_rolls_the_same(qtbot, tmp_path) -> None:
    counts = []
    for run in range(2):
        win = open_map(qtbot, tmp_path / str(run), "warehouse")
        answer_next_dialog(lambda d: (d.setIntValue(4242), d.accept()))
        win.menu_actions["seed"].trigger()
        assert win.controller.state.combat.seed == 4242
        answer_next_dialog(lambda d: d.roll_button.click())
        win.initiative.start_button.click()
        assert win.controller.state.combat.seed == 4242
        counts.append([c.initiative for c in win.controller.state.combat.order])
        win.close()
    assert counts[0] == counts[1]


def test_savage_worlds_asks_for_cards_not_54_numbers(qtbot, tmp_path) -> None:
    win = open_map(qtbot, tmp_path, "night_street")
    seen: list[StartCombatDialog] = []
    first = win.controller.state.tokens[0]

    def deal_by_hand(shown: StartCombatDialog) -> None:
        seen.append(shown)
        assert shown.face_boxes == []
        assert shown.face_help.isHidden()  # no dice to type: no word about die faces
        assert shown.sizeHint().height() < 700  # fits a 1366x768 screen with its buttons
        box = shown.card_boxes[first.id]
        box.setCurrentIndex(box.findData("AS"))
        shown.typed_button.click()

    answer_next_dialog(deal_by_hand)
    win.initiative.start_button.click()
    assert seen
    assert win.controller.state.combat.combatant(first.id).data["card"] == "AS"
    others = [c.data["card"] for c in win.controller.state.combat.order if c.token_id != first.id]
    assert "AS" not in others and all(others)


def test_savage_worlds_deals_from_the_shuffled_deck(qtbot, tmp_path) -> None:
    win = open_map(qtbot, tmp_path, "night_street")
    answer_next_dialog(lambda d: d.roll_button.click())
    win.initiative.start_button.click()
    cards = [c.data["card"] for c in win.controller.state.combat.order]
    assert all(cards) and len(set(cards)) == len(cards)


def test_a_typed_card_that_is_not_a_card_is_refused() -> None:
    from engine.rules.base import CommandError
    from engine.turns.session import Encounter

    fight = Encounter(load_document(MAPS / "night_street.killbox").state)
    first = fight.state.tokens[0].id
    # The option schema lists the deck's codes, so the refusal names them all.
    with pytest.raises(CommandError, match=r"must have one of RJ, BJ, AS, .* not 'ZZ'"):
        fight.apply(Command.build("start_combat", cards={first: "ZZ"}))


def test_a_long_dialog_scrolls_and_keeps_its_buttons_on_the_screen(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Sixty tokens' initiative rolls are taller than a laptop screen: the rows scroll,
    the Roll button stays where the GM can click it."""
    rolls = [PlannedRoll(f"Goon {n} initiative", "1d20+1", 7) for n in range(60)]
    shown = DiceDialog(None, "Start combat", rolls)
    qtbot.addWidget(shown)
    shown.show()
    room = shown.screen().availableGeometry()
    assert shown.height() <= room.height()
    button = shown.roll_button
    corner = button.mapTo(shown, button.rect().bottomRight())
    assert shown.rect().contains(corner)
    assert shown.scroller.verticalScrollBar().maximum() > 0  # the rest is a scroll away


def test_the_dialog_grows_with_what_the_faces_would_do(qtbot) -> None:  # type: ignore[no-untyped-def]
    """A typed face that turns a miss into a hit with damage, Wounds and a Shaken added
    outcome lines the dialog kept in its old height: the rows were squeezed into a scroll."""
    said = {1: ["Razor misses."]}
    hit = [f"Razor is hit by the shotgun blast and takes Wound {n} of the fight's worst "
           "night, and is Shaken on top of it until a Spirit roll says otherwise."
           for n in range(6)]

    def outcome(faces):  # type: ignore[no-untyped-def]
        return said.get(faces[0], hit)

    rolls = [PlannedRoll("Det. Rosa Vega Shooting (1d8)", "1d8", 1),
             PlannedRoll("Det. Rosa Vega Shooting (Wild Die) (1d6)", "1d6", 1)]
    shown = DiceDialog(None, "Shooting", rolls, outcome=outcome)
    qtbot.addWidget(shown)
    shown.show()
    qtbot.waitExposed(shown)
    before = shown.height()
    shown.face_boxes[0].setValue(8)  # a hit: six long lines more
    bar = shown.scroller.verticalScrollBar()
    qtbot.waitUntil(lambda: shown.height() > before)
    qtbot.wait(50)
    assert bar.maximum() == 0  # everything in view, nothing a scroll away
    assert shown.height() <= shown.screen().availableGeometry().height()


def test_soak_says_what_its_faces_would_do(qapp) -> None:  # type: ignore[no-untyped-def]
    """Soak's dice dialog had no "With these faces" line: its one log line was the roll,
    which the rows show. The engine now says what the soak does on a line of its own."""
    from engine.rules import get_system
    from tests.engine.rules.savage_worlds.test_soak import SOAK, shot_twice_wounded

    game = shot_twice_wounded()
    system = get_system("savage-worlds")
    assert dry_run(system, game.state, SOAK, (), [5, 1]).outcome == [
        "B soaks 1 of the hit's 2 Wounds."]
    assert dry_run(system, game.state, SOAK, (), [2, 1]).outcome == [
        "B soaks 0 of the hit's 2 Wounds."]
    shown = DiceDialog(None, "Soak", dry_run(system, game.state, SOAK).rolls,
                       outcome=lambda faces: dry_run(system, game.state, SOAK, (), faces).outcome)
    assert shown.outcome_label.isVisibleTo(shown)
    assert "soaks" in shown.outcome_label.text()
