"""Running the fight: apply a command, asking the GM for its dice's faces when the GM rolls
physical dice (``controller.physical_dice``, the GM's preference); else Killbox rolls and
the log shows the faces.

``controller.ask_dice`` off (scripts, most tests) asks nothing: the encounter's seeded dice.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import QInputDialog, QWidget

from desktop.controller import EncounterController
from desktop.dialogs.dice import DiceDialog, dry_run, planned_rolls
from desktop.dialogs.start_combat import StartCombatDialog
from engine.dice import fresh_seed
from engine.rules.base import Command, Event
from engine.rules.gm_overrides import seed_pinned

#: Seeds the GM may type (the engine takes any whole number; a spin box needs a range).
MOST_SEED = 2_000_000_000


def act(
    parent: QWidget | None, controller: EncounterController, command: Command
) -> tuple[Event, ...] | None:
    """Apply ``command``; when it rolls and the GM rolls physical dice, ask for the faces
    first. None: the GM cancelled."""
    if not (controller.ask_dice and controller.physical_dice):
        return controller.apply(command)
    preview = controller.preview(command)
    rolls = planned_rolls(controller.system, controller.state, command, preview.rolls)
    if not rolls:
        return controller.apply(command)
    system, state = controller.system, controller.state
    dialog = DiceDialog(
        parent,
        preview.summary or system.action(command.action).name,
        rolls,
        replan=lambda typed: planned_rolls(system, state, command, preview.rolls, typed),
        outcome=lambda faces: dry_run(system, state, command, preview.rolls, faces).outcome,
        physical=True,
    )
    if not dialog.exec():
        return None
    return controller.apply(command, dialog.answer if isinstance(dialog.answer, list) else None)


def start_combat(
    parent: QWidget | None, controller: EncounterController
) -> tuple[Event, ...] | None:
    """Start combat after the initiative (and surprise) dialog; None: cancelled.

    A fight whose file pins no seed draws a fresh one (logged, and pinned in the state the
    file saves), so two fights never roll alike and a replay rolls the same. The dialog
    plans its faces with that seed; drawing it and starting are one undo step, and a
    cancelled dialog changes nothing.
    """
    state = controller.state
    seed = None if seed_pinned(state) else fresh_seed()
    planning = state if seed is None else replace(state, combat=replace(state.combat, seed=seed))
    command, typed = Command("start_combat"), None
    if controller.ask_dice:
        dialog = StartCombatDialog(
            parent, controller.system, planning, physical=controller.physical_dice
        )
        if not dialog.exec():
            return None
        command = dialog.command()
        typed = dialog.answer if isinstance(dialog.answer, list) else None
    with controller.session.step():
        if seed is not None:
            controller.apply(Command.build("gm_seed", seed=seed, fresh=True))
        return controller.apply(command, typed)


def pin_seed(parent: QWidget | None, controller: EncounterController) -> bool:
    """Ask the GM for a dice seed and pin it (the engine's gm_seed); False: cancelled."""
    seed, ok = QInputDialog.getInt(
        parent,
        "Dice seed",
        "Seed (the same seed rolls the same dice):",
        min(controller.state.combat.seed, MOST_SEED),
        0,
        MOST_SEED,
    )
    if ok:
        controller.apply(Command.build("gm_seed", seed=seed))
    return ok
