"""The dice dialog asks for die faces and shows the total each face makes."""

from __future__ import annotations

from desktop.dialogs.dice import FACE_HELP, DiceDialog, planned_rolls
from engine.dice import SeededDice, dice_words
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
