"""The token editor: every field, the stat form from the schema, weapons, pictures, the engine."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QDialogButtonBox

from desktop.editing.stat_form import StatForm, parse_stat
from desktop.editing.token_editor import TokenEditor
from desktop.editing.weapons_table import weapon_from_cells
from engine.battlemap import Wall
from engine.grid import Square
from engine.rules import get_system
from engine.rules.base import StatSpec
from engine.tokens import Side, Weapon
from tests.desktop.editing.conftest import NOISE, double_click_at

pytestmark = pytest.mark.qt_log_ignore(*NOISE)

SYSTEMS = ["spycraft", "savage-worlds", "cities-without-number", "d20-firearms"]


def fill_and_ok(fill):  # type: ignore[no-untyped-def]
    """A run_editor that fills the form in (as a GM would) and presses OK once."""
    seen: list[TokenEditor] = []

    def run(editor: TokenEditor, check) -> bool:  # type: ignore[no-untyped-def]
        editor.engine_check = check
        seen.append(editor)
        fill(editor)
        editor.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
        return editor.result() == TokenEditor.DialogCode.Accepted

    return run, seen


def test_double_click_on_an_empty_square_adds_a_token_there(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window

    def fill(editor: TokenEditor) -> None:
        editor.name_edit.setText("Gunman")
        editor.side_box.setCurrentIndex(editor.side_box.findData("enemy"))
        editor.speed_box.setValue(25)
        editor.facing_box.setValue(90)
        editor.stats.set_text("defense", "14")
        editor.weapons.add_weapon(Weapon("Pistol", "2d6", 30, ammo=10, capacity=10))

    win.token_editing.run_editor, seen = fill_and_ok(fill)
    double_click_at(qtbot, win.view, (4.5, 3.5))
    (token,) = win.controller.state.tokens
    assert (token.name, token.side, token.square) == ("Gunman", Side.ENEMY, Square(4, 3))
    assert (token.speed, token.facing, token.stats["defense"]) == (25, 90, 14)
    assert token.weapon("Pistol").capacity == 10
    assert not seen[0].isVisible()


def test_double_click_on_a_token_edits_it_and_undo_restores_it(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    win.token_editing.run_editor, _ = fill_and_ok(lambda e: e.name_edit.setText("Guard"))
    double_click_at(qtbot, win.view, (2.5, 2.5))

    def fill(editor: TokenEditor) -> None:
        assert editor.name_edit.text() == "Guard"
        assert editor.size_box.text() == "1 square across"
        editor.name_edit.setText("Sergeant")
        editor.size_box.setValue(2)
        assert editor.size_box.text() == "2 squares across"
        editor.hidden_box.setChecked(True)
        editor.notes_edit.setPlainText("Has the vault key.")

    win.token_editing.run_editor, _ = fill_and_ok(fill)
    double_click_at(qtbot, win.view, (2.5, 2.5))
    (token,) = win.controller.state.tokens
    assert (token.name, token.size, token.hidden, token.notes) == (
        "Sergeant",
        2,
        True,
        "Has the vault key.",
    )
    win.menu_actions["undo"].trigger()
    assert win.controller.state.tokens[0].name == "Guard"


def test_a_token_inside_a_wall_is_refused_with_the_reason_and_the_editor_stays(
    qtbot, blank_window
) -> None:  # type: ignore[no-untyped-def]
    from desktop.editing import commands

    win = blank_window
    win.controller.apply(commands.add_walls([(3, 0), (3, 8)], True, True))
    win.token_editing.run_editor, seen = fill_and_ok(lambda e: e.size_box.setValue(2))
    double_click_at(qtbot, win.view, (2.5, 2.5))  # a 2-square token would straddle the wall
    assert win.controller.state.tokens == ()
    assert "wall" in seen[0].problem.text()
    assert seen[0].result() != TokenEditor.DialogCode.Accepted
    assert win.controller.state.battlemap.walls == (Wall((3, 0), (3, 8)),)


@pytest.mark.parametrize(
    ("stat", "text", "reason"),
    [
        ("defense", "twelve", "must be a whole number"),
        ("defense", "99", "must be at most"),
        ("initiative", "-31", "must be at least"),
    ],
)
def test_a_bad_stat_is_refused_in_the_form_with_the_reason(
    qtbot, blank_window, stat, text, reason
) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    editor = win.token_editing.editor_for(win.token_editing.fresh_token(Square(1, 1)))
    qtbot.addWidget(editor)
    editor.stats.set_text(stat, text)
    assert reason in editor.problem.text()
    assert editor.stats.reasons[stat].isVisibleTo(editor.stats)
    assert not editor.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    editor.stats.set_text(stat, "12")
    assert editor.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()


def test_a_stat_of_names_takes_one_name_per_line_each_whole(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    names = ("Colt, .45", 'Uzi|"9mm"=;:', "strafe")
    win = blank_window
    win.token_editing.run_editor, _ = fill_and_ok(
        lambda e: e.stats.set_text("not_proficient", "\n".join(names) + "\n  \n"))
    double_click_at(qtbot, win.view, (4.5, 3.5))
    (token,) = win.controller.state.tokens
    assert token.stats["not_proficient"] == names

    def unchanged(editor: TokenEditor) -> None:
        assert editor.stats.values()["not_proficient"] == names

    win.token_editing.run_editor, seen = fill_and_ok(unchanged)
    double_click_at(qtbot, win.view, (4.5, 3.5))
    assert seen and win.controller.state.tokens[0].stat("not_proficient") == names


@pytest.mark.parametrize(
    "system", ["spycraft", "savage-worlds", "cities-without-number", "d20-firearms"]
)
def test_the_stat_form_has_a_row_for_every_declared_stat(qtbot, system: str) -> None:
    from desktop.editing.stat_form import StatForm

    specs = get_system(system).stats
    form = StatForm(specs, {})
    qtbot.addWidget(form)
    assert list(form.boxes) == [spec.name for spec in specs]
    assert form.problems() == [] or any(spec.required for spec in specs)


def test_parse_stat_asks_the_schema() -> None:
    spec = StatSpec("pace", int, 6, minimum=0, maximum=24, label="Pace")
    assert parse_stat(spec, "8") == (8, "")
    assert parse_stat(spec, "") == (None, "")
    assert parse_stat(spec, "30")[1] == "Pace must be at most 24, not 30"
    required = StatSpec("toughness", int, None, required=True, label="Toughness")
    assert parse_stat(required, " ")[1] == "Toughness is required"


def test_weapon_rows_are_checked_by_the_engine() -> None:
    cells = ["SMG", "2d6", "40", "30", "30", "single-shot, burst, full auto", "1", "", "9 mm"]
    weapon = weapon_from_cells(cells)
    assert weapon.modes == ("single-shot", "burst", "full auto") and weapon.capacity == 30
    with pytest.raises(ValueError, match="capacity"):
        weapon_from_cells(["SMG", "2d6", "40", "31", "30", "", "1", "", ""])
    with pytest.raises(ValueError, match=r"Range incr\. must be a number"):
        weapon_from_cells(["SMG", "2d6", "far", "0", "0", "", "1", "", ""])


def test_a_picture_is_cropped_to_a_disc_and_stored_in_the_file(
    qtbot, blank_window, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    from desktop.documents import load_document

    wide = QImage(300, 200, QImage.Format.Format_RGB32)
    wide.fill(QColor("#c0392b"))
    picture = tmp_path / "face.jpg"
    wide.save(str(picture))
    win = blank_window
    win.token_editing.run_editor, _ = fill_and_ok(
        lambda e: e.set_picture_file(str(picture)) or e.name_edit.setText("Face")
    )
    double_click_at(qtbot, win.view, (5.5, 5.5))
    (token,) = win.controller.state.tokens
    assert token.portrait is not None
    disc = QImage.fromData(win.controller.images[token.portrait])
    assert (disc.width(), disc.height()) == (256, 256)
    assert disc.pixelColor(0, 0).alpha() == 0  # outside the disc
    assert disc.pixelColor(128, 128).red() > 150  # the picture inside it
    path = tmp_path / "with-picture.killbox"
    assert win.save_to(path)
    assert token.portrait in load_document(path).images


def test_ctrl_d_duplicates_the_selected_token_with_its_stats(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window

    def fill(editor: TokenEditor) -> None:
        editor.name_edit.setText("Gunman")
        editor.stats.set_text("defense", "15")

    win.token_editing.run_editor, _ = fill_and_ok(fill)
    double_click_at(qtbot, win.view, (6.5, 4.5))
    win.controller.select(win.controller.state.tokens[0].id)
    win.menu_actions["duplicate"].trigger()
    first, copy = win.controller.state.tokens
    assert copy.name == "Gunman 2" and copy.stats == first.stats and copy.id != first.id
    assert copy.square != first.square


@pytest.mark.parametrize("system", SYSTEMS)
def test_weapons_come_from_the_systems_presets(qtbot, tmp_path, system: str) -> None:  # type: ignore[no-untyped-def]
    from engine.rules.presets import weapon_presets
    from tests.desktop.editing.conftest import blank_state
    from tests.desktop.tools.conftest import make_window

    win = make_window(qtbot, tmp_path, blank_state(system))
    editor = win.token_editing.editor_for(win.token_editing.fresh_token(Square(1, 1)))
    qtbot.addWidget(editor)
    presets = weapon_presets(system)
    assert presets and editor.weapons.preset_box.count() == len(presets) + 1
    editor.weapons.add_preset(presets[0].name)
    (weapon,) = editor.weapons.weapons()[0]
    assert weapon == presets[0]


def test_the_weapons_table_shows_only_the_fields_the_system_reads(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Cities Without Number has no range increments, fire modes or rate of fire: its table
    reads 'Normal range (m)' and 'Magazine' and hides the rest; a preset keeps its values."""
    from engine.rules.presets import weapon_presets
    from tests.desktop.editing.conftest import blank_state
    from tests.desktop.tools.conftest import make_window

    win = make_window(qtbot, tmp_path, blank_state("cities-without-number"))
    editor = win.token_editing.editor_for(win.token_editing.fresh_token(Square(1, 1)))
    qtbot.addWidget(editor)
    table = editor.weapons.table
    shown = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())
             if not table.isColumnHidden(c)]
    assert shown == ["Name", "Damage", "Normal range (m)", "Ammo", "Magazine", "Melee", "Traits"]
    rifle = next(p for p in weapon_presets("cities-without-number") if p.name == "Combat rifle")
    assert "burst" not in rifle.modes and not any("burst" in t for t in rifle.traits)
    editor.weapons.add_preset(rifle.name)
    assert editor.weapons.weapons()[0] == (rifle,)
    spy = make_window(qtbot, tmp_path / "spy", blank_state("spycraft"))
    spy_editor = spy.token_editing.editor_for(spy.token_editing.fresh_token(Square(1, 1)))
    qtbot.addWidget(spy_editor)
    spy_table = spy_editor.weapons.table
    assert not any(spy_table.isColumnHidden(c) for c in range(spy_table.columnCount()))
    assert spy_table.horizontalHeaderItem(2).text() == "Range incr."


def test_the_inspector_names_fire_modes_only_where_the_rules_read_them(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from engine.tokens import Side, Token, Weapon
    from tests.desktop.editing.conftest import blank_state
    from tests.desktop.tools.conftest import make_window

    smg = Weapon("SMG", "1d8", 30, 30, 30, modes=("single", "burst"))
    for system, shown in (("cities-without-number", False), ("spycraft", True)):
        token = Token("a", "Ana", Side.ENEMY, Square(1, 1), weapons=(smg,))
        state = blank_state(system)
        win = make_window(qtbot, tmp_path / system, replace(state, tokens=(token,)))
        win.controller.select("a")
        assert ("single/burst" in win.inspector.fields["Weapons"].text()) is shown


def test_awkward_names_go_through_the_editor_and_the_autosave_typed(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    """Names with commas, quotes, =, | and unicode, from the GM's forms and tools to the
    autosave journal (JSON values, never JSON inside text) and back after a crash."""
    import json

    from tests.desktop.editing.test_map_tools import tool
    from tests.desktop.tools.conftest import click_at
    from tests.desktop.window_helpers import restore_as_after_a_crash

    colt, uzi = Weapon("Colt, .45", "2d6", 30, 6, 6), Weapon('Uzi|"9mm"=;:', "2d6", 20, 20, 20)
    name = 'Ann "Ace" Ünal, = | ;'
    win = blank_window

    def add(editor: TokenEditor) -> None:
        editor.name_edit.setText(name)
        editor.stats.set_text("not_proficient", "Colt, .45\na|b")
        editor.weapons.add_weapon(colt)

    win.token_editing.run_editor, _ = fill_and_ok(add)
    double_click_at(qtbot, win.view, (4.5, 3.5))
    win.token_editing.run_editor, _ = fill_and_ok(lambda e: e.weapons.add_weapon(uzi))
    double_click_at(qtbot, win.view, (4.5, 3.5))
    tool(win, "walls")
    click_at(qtbot, win.view, (1, 1))
    double_click_at(qtbot, win.view, (1, 5))
    (token,) = win.controller.state.tokens
    assert (token.name, token.weapons, token.stat("not_proficient")) == (
        name, (colt, uzi), ("Colt, .45", "a|b"))
    win.autosaver.wait()
    lines = (win.autosaver.session_folder / "journal-1.jsonl").read_text().splitlines()
    options = [dict(json.loads(line)["command"]["options"]) for line in lines]
    assert options[0]["token"]["name"] == name
    assert options[0]["token"]["stats"]["not_proficient"] == ["Colt, .45", "a|b"]
    assert [w["name"] for w in options[1]["weapons"]] == ["Colt, .45", 'Uzi|"9mm"=;:']
    assert options[2]["points"] == [[1, 1], [1, 5]]
    restored = restore_as_after_a_crash(win)
    assert restored.document.state == win.controller.state


def test_a_stat_box_the_gm_empties_takes_the_stat_out(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    win.token_editing.run_editor, _ = fill_and_ok(lambda e: e.stats.set_text("defense", "14"))
    double_click_at(qtbot, win.view, (4.5, 3.5))
    assert win.controller.state.tokens[0].stats["defense"] == 14
    win.token_editing.run_editor, _ = fill_and_ok(lambda e: e.stats.set_text("defense", ""))
    double_click_at(qtbot, win.view, (4.5, 3.5))
    assert "defense" not in win.controller.state.tokens[0].stats
    win.menu_actions["undo"].trigger()
    assert win.controller.state.tokens[0].stats["defense"] == 14


def test_a_yes_no_stat_the_rules_derive_stays_unset_through_the_editor(
    qtbot, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    """A party token is a Wild Card unless told otherwise: opening the editor and pressing
    OK must not write "no" for it (a tick box could only say yes or no)."""
    from tests.desktop.editing.conftest import blank_state
    from tests.desktop.tools.conftest import make_window

    win = make_window(qtbot, tmp_path, blank_state("savage-worlds"))

    def party(editor: TokenEditor) -> None:
        editor.name_edit.setText("Detective")
        editor.side_box.setCurrentIndex(editor.side_box.findData("party"))

    win.token_editing.run_editor, _ = fill_and_ok(party)
    double_click_at(qtbot, win.view, (4.5, 3.5))
    assert "wild_card" not in win.controller.state.tokens[0].stats
    for answer, stored in (("no", False), ("yes", True)):
        win.token_editing.run_editor, _ = fill_and_ok(
            lambda e, a=answer: e.stats.set_text("wild_card", a)
        )
        double_click_at(qtbot, win.view, (4.5, 3.5))
        assert win.controller.state.tokens[0].stats["wild_card"] is stored
    win.token_editing.run_editor, _ = fill_and_ok(lambda e: e.stats.set_text("wild_card", ""))
    double_click_at(qtbot, win.view, (4.5, 3.5))
    assert "wild_card" not in win.controller.state.tokens[0].stats


def test_a_number_typed_the_table_way_is_refused_saying_how_to_write_it() -> None:
    spec = StatSpec("shooting", int, 0, 0, 12, label="Shooting", help="Skill die (8 = d8).")
    reason = parse_stat(spec, "d8")[1]
    assert reason == "Shooting must be a whole number, not 'd8' (Skill die (8 = d8).)"


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_new_token_moves_like_the_systems_own_characters(qtbot, tmp_path, system: str) -> None:  # type: ignore[no-untyped-def]
    """A token made on the map had 30 whatever the unit: 30 inches of Pace where the sample
    characters have 6."""
    from engine.files.roster import Roster
    from tests.desktop.editing.conftest import blank_state
    from tests.desktop.tools.conftest import make_window

    win = make_window(qtbot, tmp_path, blank_state(system))
    win.token_editing.run_editor, _ = fill_and_ok(lambda editor: None)
    double_click_at(qtbot, win.view, (4.5, 3.5))
    speeds = {entry.token.speed for entry in Roster(tmp_path, system).load().characters}
    assert speeds == {win.controller.state.tokens[0].speed}


def test_an_attribute_modifier_is_labelled_apart_from_its_score() -> None:
    """Spycraft's form had "Str" (the modifier) and "Str score": a GM typed 14 into "Dex"
    for a +2 Dexterity and the token hit like a giant."""
    labels = {spec.name: spec.label for spec in get_system("spycraft").stats}
    assert labels["str_score"] == "Str score"
    for name in ("str", "dex", "con", "int", "wis", "cha"):
        assert labels[name] == f"{name.title()} mod"


def test_a_new_spycraft_token_starts_with_vitality_and_wounds(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A Spycraft token made on the map had the schema's 0 vitality and 0 wounds, so the
    first hit knocked it out: it now starts with the engine's stats for a new token."""
    from tests.desktop.editing.conftest import blank_state
    from tests.desktop.tools.conftest import make_window

    win = make_window(qtbot, tmp_path, blank_state("spycraft"))
    win.token_editing.run_editor, _ = fill_and_ok(lambda editor: None)
    double_click_at(qtbot, win.view, (4.5, 3.5))
    (token,) = win.controller.state.tokens
    health = ("vitality", "max_vitality", "wounds", "max_wounds")
    expected = get_system("spycraft").new_token_stats()
    assert {stat: token.stats[stat] for stat in health} == {stat: expected[stat] for stat in health}
    assert token.stats["wounds"] == 10 and token.stats["vitality"] == 9


@pytest.mark.parametrize("system", ["cities-without-number", "d20-firearms"])
def test_full_hit_points_follow_the_maximum_the_gm_types(qtbot, system: str) -> None:  # type: ignore[no-untyped-def]
    """A new token's Max HP typed as 7 leaves it at 7 of 7, not at the default 10 of 7."""
    from desktop.editing.stat_form import StatForm

    form = StatForm(get_system(system).stats, {})
    qtbot.addWidget(form)
    form.set_text("max_hp", "")
    form.set_text("max_hp", "7")
    assert (form.values()["hp"], form.values()["max_hp"]) == (7, 7)


def test_hit_points_the_gm_set_below_the_maximum_stay_when_it_changes(qtbot) -> None:  # type: ignore[no-untyped-def]
    from desktop.editing.stat_form import StatForm

    form = StatForm(get_system("d20-firearms").stats, {"hp": 4, "max_hp": 10})
    qtbot.addWidget(form)
    form.set_text("max_hp", "12")
    assert (form.values()["hp"], form.values()["max_hp"]) == (4, 12)
    form.set_text("hp", "12")
    form.set_text("max_hp", "15")  # full again: the points follow
    assert form.values()["hp"] == 15


def test_the_stat_form_puts_the_fight_first_and_folds_the_skills(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Cities Without Number: HP, AC and attack first (the schema's order); the nineteen
    skills under their own folded heading that names the ones given; a refused skill
    unfolds it."""
    from PySide6.QtWidgets import QFormLayout

    from engine.rules import get_system

    specs = get_system("cities-without-number").stats
    form = StatForm(specs, {"shoot": 1, "punch": 0, "hp": 9, "max_hp": 9})
    qtbot.addWidget(form)
    form.show()
    main = form.layout().itemAt(0).layout()
    assert isinstance(main, QFormLayout)
    first = [main.itemAt(row, QFormLayout.ItemRole.LabelRole).widget().text()
             for row in range(5)]
    assert first == ["HP", "Max HP", "AC melee", "AC ranged", "Atk"]
    skills = form.sections["Skills"]
    assert not skills.body.isVisible() and len(skills.names) == 19
    assert skills.button.text() == "Skills (19): Punch 0, Shoot 1"
    form.set_text("stab", "7")
    assert skills.body.isVisible()  # the refused value is shown, with its reason
    assert form.problems() == ["Stab must be at most 4, not 7"]
    assert "Stab 7" in skills.button.text()


def test_die_stats_read_and_are_set_as_dice(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Savage Worlds traits are dice: the form lists d4 .. d12 (untrained for a skill), keeps
    the die's sides, and the inspector writes 'Fighting d8', not 'fighting 8'."""
    from PySide6.QtWidgets import QComboBox

    from engine.rules import get_system
    from engine.tokens import Side, Token
    from tests.desktop.editing.conftest import blank_state
    from tests.desktop.tools.conftest import make_window

    specs = get_system("savage-worlds").stats
    form = StatForm(specs, {"fighting": 8, "agility": 6})
    qtbot.addWidget(form)
    fighting, agility = form.boxes["fighting"], form.boxes["agility"]
    assert isinstance(fighting, QComboBox) and isinstance(agility, QComboBox)
    assert fighting.currentText() == "d8"
    assert [fighting.itemText(i) for i in range(fighting.count())] == [
        "untrained", "d4", "d6", "d8", "d10", "d12"]
    assert [agility.itemText(i) for i in range(agility.count())] == [
        "d4", "d6", "d8", "d10", "d12"]  # an attribute is never untrained
    assert form.boxes["shooting"].currentText() == "untrained"
    form.set_text("fighting", "d10")
    fighting.setCurrentIndex(fighting.findText("d12"))
    assert form.values()["fighting"] == 12 and form.values()["shooting"] == 0
    assert form.problems() == []
    token = Token("a", "Ana", Side.ENEMY, Square(1, 1), stats={"fighting": 8, "parry": 6})
    win = make_window(qtbot, tmp_path, replace(blank_state("savage-worlds"), tokens=(token,)))
    win.controller.select("a")
    assert win.inspector.fields["Stats"].text() == "Fighting d8, Parry 6"
