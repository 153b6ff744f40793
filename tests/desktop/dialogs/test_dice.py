"""The dice dialog asks for die faces and shows the total each face makes."""

from __future__ import annotations

from desktop.dialogs.dice import ACING_HELP, FACE_HELP, DiceDialog, dry_run, planned_rolls
from engine.dice import SeededDice, dice_words
from engine.events import EventKind
from engine.turns.session import Encounter
from tests.engine.rules.legal_setups import legal_setup


def test_each_row_asks_for_the_die_face_and_shows_the_total_it_makes(qtbot) -> None:  # type: ignore[no-untyped-def]
    setup = legal_setup("spycraft", "standard_attack")
    fight = Encounter(setup.state)
    rolls = planned_rolls(
        fight.system, setup.state, setup.command, fight.preview(setup.command).rolls
    )
    assert rolls, "a Standard Attack rolls"
    dialog = DiceDialog(None, "Standard Attack", rolls)
    qtbot.addWidget(dialog)
    assert "die face" in FACE_HELP and dialog.face_help.text() == FACE_HELP
    first, box, total = rolls[0], dialog.face_boxes[0], dialog.total_labels[0]
    assert box.prefix() == "die face " and box.minimum() == first.dice
    box.setValue(7)
    expected = 7 + first.modifier
    assert total.text().startswith(f"= {expected}")
    # The total shown is the one the engine makes from the typed face.
    dialog.choose_typed()
    events = fight.apply(setup.command, dialog.answer)  # type: ignore[arg-type]
    made = [e.roll for e in events if e.roll is not None]
    assert made and made[0].total == expected


def test_each_row_is_named_by_the_roll_it_stands_for_wild_die_included() -> None:
    """A Wild Card's shot makes more rolls than the preview names (the Wild Die): every row
    carries the purpose of the roll the engine then makes with the same dice."""
    setup = legal_setup("savage-worlds", "shooting")
    fight = Encounter(setup.state)
    rolls = planned_rolls(fight.system, setup.state, setup.command)
    combat = setup.state.combat
    seeded = SeededDice(combat.seed, combat.rolls)
    made: list[str] = []

    class Watching:
        rolls = 0

        def roll(self, expression: str, purpose: str):  # type: ignore[no-untyped-def]
            made.append(f"{purpose} ({dice_words(expression)})")
            return seeded.roll(expression, purpose)

    fight.system.apply(setup.state, setup.command, Watching())  # type: ignore[arg-type]
    assert any("Wild Die" in planned.label for planned in rolls)
    assert [planned.label for planned in rolls] == made
    assert any("acing" in planned.label for planned in rolls)  # Savage Worlds dice ace


def test_a_typed_hit_adds_the_damage_row_and_a_typed_miss_takes_it_away(qtbot) -> None:  # type: ignore[no-untyped-def]
    """The seeded attack misses, so the dry run rolls no damage; a GM rolling physical dice
    who types a hit must be asked for the damage too, not have it rolled behind their back."""
    setup = legal_setup("cities-without-number", "ranged_attack")
    fight = Encounter(setup.state)
    system, state, command = fight.system, setup.state, setup.command
    rolls = planned_rolls(system, state, command)
    assert len(rolls) == 1, "the seeded shot misses: one roll"
    dialog = DiceDialog(
        None, "Ranged attack", rolls,
        replan=lambda typed: planned_rolls(system, state, command, typed=typed),
    )
    qtbot.addWidget(dialog)
    dialog.face_boxes[0].setValue(20)
    assert len(dialog.face_boxes) == 2 and "damage" in dialog.planned[1].label
    dialog.face_boxes[1].setValue(5)
    dialog.face_boxes[0].setValue(19)  # still a hit: the typed damage stays
    assert dialog.faces() == [19, 5]
    dialog.choose_typed()
    events = fight.apply(command, dialog.answer)  # type: ignore[arg-type]
    assert events[0].roll is not None and events[0].roll.given
    assert any(f"takes {5 + dialog.planned[1].modifier} damage" in e.text for e in events)
    dialog.face_boxes[0].setValue(1)  # a miss: no damage to ask for
    assert len(dialog.face_boxes) == 1


def test_the_dialog_says_what_the_faces_shown_would_do_before_they_are_used(qtbot) -> None:  # type: ignore[no-untyped-def]
    """A GM rolling physical dice sees the hit or miss, and the damage, of the faces typed
    before pressing "Apply my faces", in the words the combat log will then show."""
    setup = legal_setup("cities-without-number", "ranged_attack")
    fight = Encounter(setup.state)
    system, state, command = fight.system, setup.state, setup.command
    dialog = DiceDialog(
        None, "Ranged attack", planned_rolls(system, state, command),
        replan=lambda typed: planned_rolls(system, state, command, typed=typed),
        outcome=lambda faces: dry_run(system, state, command, typed=faces).outcome,
    )
    qtbot.addWidget(dialog)
    dialog.face_boxes[0].setValue(20)
    dialog.face_boxes[1].setValue(5)
    shown = dialog.outcome_label.text()
    assert not dialog.outcome_label.isHidden() and shown.startswith("With these faces:")
    dialog.choose_typed()
    logged = [e.text for e in fight.apply(command, dialog.answer) if e.kind is not EventKind.ROLL]  # type: ignore[arg-type]
    assert logged and shown.splitlines()[1:] == logged
    dialog.face_boxes[0].setValue(1)
    missed = dialog.outcome_label.text()
    assert missed != shown and "damage" not in missed


def test_an_acing_die_says_to_type_all_its_faces_added_up(qtbot) -> None:  # type: ignore[no-untyped-def]
    """A typed face is the whole die's result: a GM whose d6 aced types 6 + 4, not 6."""
    setup = legal_setup("savage-worlds", "shooting")
    fight = Encounter(setup.state)
    rolls = planned_rolls(fight.system, setup.state, setup.command)
    dialog = DiceDialog(None, "Shooting", rolls)
    qtbot.addWidget(dialog)
    assert dialog.face_help.text() == FACE_HELP + ACING_HELP
