"""The GM's overrides from the token's right-click menu and the inspector; health in the
tracker; the inspector never widens its dock (the map does not jump)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QInputDialog, QMenu

from desktop.dialogs.amount import AmountDialog
from desktop.main_window import MainWindow
from desktop.tools.template_tool import TemplateTool
from engine.rules import get_system, system_names
from engine.rules.base import Command
from engine.tokens import Side
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.test_fight import open_map
from tests.desktop.tools.conftest import click_at
from tests.desktop.tools.test_square_menu import POPUP_NOISE, right_click_menu
from tests.desktop.window_helpers import answer_next_dialog

pytestmark = pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE, "This plugin does not support raise()")


def entry(menu: QMenu, text: str):  # type: ignore[no-untyped-def]
    """The action whose text starts with ``text``, searching submenus too."""
    for action in menu.actions():
        if action.text().startswith(text):
            return action
        if action.menu() is not None:
            found = entry(action.menu(), text)
            if found is not None:
                return found
    return None


def type_number(value: int):  # type: ignore[no-untyped-def]
    def choose(dialog: QInputDialog | AmountDialog) -> None:
        if isinstance(dialog, AmountDialog):
            dialog.set_value(value)
        else:
            dialog.setIntValue(value)
        dialog.accept()

    return choose


def first_party(win: MainWindow) -> str:
    return next(t.id for t in win.controller.state.tokens if t.side is Side.PARTY)


def test_apply_damage_from_the_right_click_menu_logs_and_undoes(qtbot, tmp_path) -> None:
    win = open_map(qtbot, tmp_path, "office_floor")
    token_id = first_party(win)
    before = int(win.controller.state.token(token_id).stats["hp"])
    menu = win.token_menu(token_id)
    answer_next_dialog(type_number(5))
    entry(menu, "Apply damage").trigger()
    assert win.controller.state.token(token_id).stats["hp"] == before - 5
    name = win.controller.state.token(token_id).name
    assert win.log.list.item(win.log.list.count() - 2).text() == f"GM deals 5 damage to {name}."
    assert win.scene.token_items[token_id].gauges[0].value == before - 5
    win.undo()
    assert win.controller.state.token(token_id).stats["hp"] == before


def test_conditions_ammunition_and_knock_out_from_the_menu(qtbot, tmp_path) -> None:
    win = open_map(qtbot, tmp_path, "night_street")
    token_id = first_party(win)
    entry(win.token_menu(token_id), "Add condition").menu()
    entry(entry(win.token_menu(token_id), "Add condition").menu(), "Shaken").trigger()
    token = win.controller.state.token(token_id)
    assert token.has_condition("Shaken")
    assert "Shaken" in [g.key for g in win.scene.token_items[token_id].gauges]
    entry(entry(win.token_menu(token_id), "Remove condition").menu(), "Shaken").trigger()
    assert not win.controller.state.token(token_id).has_condition("Shaken")
    weapon = next(w for w in token.weapons if w.uses_ammunition)
    answer_next_dialog(type_number(2))
    entry(win.token_menu(token_id), f"{weapon.name} (").trigger()
    assert win.controller.state.token(token_id).weapon(weapon.name).ammo == 2
    entry(win.token_menu(token_id), "Knock out").trigger()
    assert win.controller.state.token(token_id).has_condition("Incapacitated")
    entry(win.token_menu(token_id), "Revive").trigger()
    assert not win.controller.state.token(token_id).has_condition("Incapacitated")
    texts = [win.log.list.item(i).text() for i in range(win.log.list.count())]
    name = token.name
    assert f"GM makes {name} Shaken." in texts
    assert f"GM sets {name}'s {weapon.name} to 2 rounds." in texts
    assert f"GM knocks {name} out of the fight." in texts


def test_a_condition_from_the_menu_brings_what_its_rule_brings(qtbot, tmp_path) -> None:
    """The night street's rules knock a Stunned token prone as well: the menu sends the GM's
    command and the rule system decides what the condition brings along."""
    win = open_map(qtbot, tmp_path, "night_street")
    token_id = first_party(win)
    entry(entry(win.token_menu(token_id), "Add condition").menu(), "Stunned").trigger()
    token = win.controller.state.token(token_id)
    assert token.has_condition("Stunned") and token.has_condition("Prone")
    win.undo()
    assert not win.controller.state.token(token_id).conditions


def test_change_a_count_from_the_inspector(qtbot, tmp_path) -> None:
    win = open_map(qtbot, tmp_path, "night_street")
    token_id = first_party(win)
    win.controller.select(token_id)
    assert win.inspector.gm_button.isEnabled()
    win.inspector.gm_menu.aboutToShow.emit()
    answer_next_dialog(type_number(1))
    entry(win.inspector.gm_menu, "Wounds (0)").trigger()
    assert win.controller.state.token(token_id).stats["wounds"] == 1
    assert "Wounds 1/3" in win.inspector.fields["Health"].text()


@pytest.mark.parametrize("system", system_names())
def test_change_a_count_offers_each_gauge_that_is_a_declared_stat(qtbot, tmp_path, system):  # type: ignore[no-untyped-def]
    """The system's schema says which gauges are counts the GM may set, even one a token's
    file leaves at its default; the desktop names no stat of its own."""
    from dataclasses import replace

    from tests.desktop.sample import sample_state
    from tests.desktop.tools.conftest import make_window

    rules = get_system(system)
    state = replace(sample_state(), system=system, scale=rules.scale)
    win = make_window(qtbot, tmp_path, state)
    token = win.controller.state.token("kara")  # no stats in her file: every one a default
    declared = {spec.name for spec in rules.stats}
    counts = [g for g in rules.gauges(win.controller.state, token) if g.key in declared]
    assert counts, f"{system} shows no count on a token"
    menu = win.token_menu("kara")
    for gauge in counts:
        assert entry(menu, f"{gauge.label} ({gauge.value})…") is not None, gauge


def test_the_tracker_shows_each_combatants_health(qtbot, tmp_path) -> None:
    win = open_map(qtbot, tmp_path, "warehouse")
    win.controller.apply(Command("start_combat"))
    token_id = first_party(win)
    win.controller.apply(Command.build("gm_damage", targets=[token_id], amount=7))
    table = win.initiative.table
    headings = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    health_column = headings.index("Health")
    row = next(
        r for r in range(table.rowCount()) if table.item(r, 0).data(256) == token_id  # UserRole
    )
    token = win.controller.state.token(token_id)
    expected = " · ".join(
        g.text for g in win.controller.system.gauges(win.controller.state, token)
    )
    assert table.item(row, health_column).text() == expected
    assert f"Vitality {int(token.stats['max_vitality']) - 7}/" in expected


def test_selecting_a_token_never_moves_the_map(qtbot, tmp_path) -> None:
    win = open_map(qtbot, tmp_path, "warehouse")
    QApplication.processEvents()
    before = win.view.viewport().geometry()
    centre = win.view.mapToScene(win.view.viewport().rect().center())
    for token in win.controller.state.tokens:
        win.controller.select(token.id)
        QApplication.processEvents()
        qtbot.wait(5)
        assert win.view.viewport().geometry() == before, token.name
    assert win.view.mapToScene(win.view.viewport().rect().center()) == centre


@pytest.mark.parametrize(
    ("map_name", "amount"), [("night_street", 12), ("office_floor", 5), ("compound", 9)]
)
def test_the_damage_dialog_says_what_the_amount_would_do_before_ok(
    qtbot, tmp_path, map_name: str, amount: int
) -> None:  # type: ignore[no-untyped-def]
    """'Damage: 1' said nothing of what a number means in the system (hit points off, or a
    total against Toughness that may Shake, wound or drop the token): the dialog now shows
    the engine's words for the amount typed, the very lines the log then gets."""
    win = open_map(qtbot, tmp_path, map_name)
    token_id = first_party(win)
    shown: list[str] = []

    def type_and_read(dialog: AmountDialog) -> None:
        dialog.set_value(amount)
        shown.extend(dialog.outcome.text().splitlines())
        dialog.accept()

    before = win.log.list.count()
    answer_next_dialog(type_and_read)
    entry(win.token_menu(token_id), "Apply damage").trigger()
    logged = [win.log.list.item(i).text() for i in range(before, win.log.list.count())]
    assert len(shown) >= 2  # more than the GM's own line: what the damage did
    assert len(logged) == len(shown)  # (the log puts the round in front in a fight)
    assert all(line.endswith(text) for line, text in zip(logged, shown, strict=True))


def test_fatigue_from_the_token_menu_shows_on_the_token_and_in_the_inspector(qtbot,
                                                                             tmp_path) -> None:
    """The night street's Fatigue is a condition: the GM adds and removes it from the token's
    menu, and the pips on the token and the inspector read it from the engine's state."""
    win = open_map(qtbot, tmp_path, "night_street")
    token_id = first_party(win)
    win.controller.select(token_id)
    entry(entry(win.token_menu(token_id), "Add condition").menu(), "Exhausted").trigger()
    pips = {g.key: g.value for g in win.scene.token_items[token_id].gauges}
    assert pips["fatigue_level"] == 2
    assert "Fatigue 2/2" in win.inspector.fields["Health"].text()
    assert "Exhausted" in win.inspector.fields["Conditions"].text()
    entry(entry(win.token_menu(token_id), "Remove condition").menu(), "Exhausted").trigger()
    assert "Fatigue 0/2" in win.inspector.fields["Health"].text()
    assert not win.controller.state.token(token_id).has_condition("Exhausted")


@pytest.mark.qt_log_ignore(POPUP_NOISE, "does not support raise")
def test_a_placed_template_damages_everyone_it_touches_in_one_undo_step(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Playtest: Cities Without Number has no grenade in our texts, so the GM laid a burst
    template over the guards and then damaged each by hand, a right click and a dialog apiece.
    A right click on the map with the template placed damages all it touches at once."""
    win = open_map(qtbot, tmp_path, "office_floor")
    state = win.controller.state
    tool = TemplateTool(win.host, "burst")
    win.set_tool(tool)
    tool.size = 40  # wide enough to catch several tokens
    centre = state.tokens[0].square
    click_at(qtbot, win.view, (centre.x + 0.5, centre.y + 0.5))
    touched = tool.touched_ids()
    assert tool.placed and len(touched) >= 2
    before = {t: int(state.token(t).stats["hp"]) for t in touched}
    menu = right_click_menu(win, centre)
    first = menu.actions()[0]
    assert first.text().startswith("Damage everyone it touches (")
    answer_next_dialog(type_number(2))
    first.trigger()
    after = win.controller.state
    assert all(int(after.token(t).stats["hp"]) == max(hp - 2, 0) for t, hp in before.items())
    win.undo()  # one step for the lot
    assert all(int(win.controller.state.token(t).stats["hp"]) == hp for t, hp in before.items())


def test_an_injury_shows_on_the_token_and_in_the_inspector_and_slows_the_pace(qtbot,
                                                                              tmp_path) -> None:
    """An Injury Table result is a condition: on the token's badges, in the inspector with its
    end, and the engine's rules read it (a Leg injury: a Pace less next turn)."""
    win = open_map(qtbot, tmp_path, "night_street")
    token_id = first_party(win)
    win.controller.select(token_id)
    entry(entry(win.token_menu(token_id), "Add condition").menu(), "Injury: Leg").trigger()
    assert "Injury: Leg" in win.inspector.fields["Conditions"].text()
    assert "Injury: Leg" in {c.name for c in win.scene.token_items[token_id].token.conditions}
    token = win.controller.state.token(token_id)
    budget = win.controller.system.fresh_budget(win.controller.state, token_id)
    assert budget["pace"] == int(token.speed) - 1
