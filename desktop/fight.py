"""Running the fight: apply a command after asking the GM to roll or type its dice.

``controller.ask_dice`` off (scripts, most tests) applies with the encounter's seeded dice.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from desktop.controller import EncounterController
from desktop.dialogs.dice import DiceDialog, planned_rolls
from desktop.dialogs.start_combat import StartCombatDialog
from engine.rules.base import Command, Event


def act(
    parent: QWidget | None, controller: EncounterController, command: Command
) -> tuple[Event, ...] | None:
    """Apply ``command``; when it rolls, ask Roll / Type dice first. None: the GM cancelled."""
    if not controller.ask_dice:
        return controller.apply(command)
    preview = controller.preview(command)
    rolls = planned_rolls(controller.system, controller.state, command, preview.rolls)
    if not rolls:
        return controller.apply(command)
    dialog = DiceDialog(
        parent, preview.summary or controller.system.action(command.action).name, rolls
    )
    if not dialog.exec():
        return None
    return controller.apply(command, dialog.answer if isinstance(dialog.answer, list) else None)


def start_combat(
    parent: QWidget | None, controller: EncounterController
) -> tuple[Event, ...] | None:
    """Start combat after the initiative (and surprise) dialog; None: cancelled."""
    if not controller.ask_dice:
        return controller.apply(Command("start_combat"))
    dialog = StartCombatDialog(parent, controller.system, controller.state)
    if not dialog.exec():
        return None
    typed = dialog.answer if isinstance(dialog.answer, list) else None
    return controller.apply(dialog.command(), typed)
