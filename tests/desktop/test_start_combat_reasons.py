"""The start-combat dialog shows the engine's reasons for refusing the choices made, and
holds none of its own: whether an ambush can start without an ambushing side is a rule."""

from __future__ import annotations

from dataclasses import replace

import pytest

from desktop.dialogs.start_combat import StartCombatDialog
from engine.encounter import EncounterState
from engine.rules import get_system, system_names
from engine.rules.base import Command, RuleSystem
from tests.desktop.sample import sample_state

pytestmark = pytest.mark.gui


def _state_of(system: RuleSystem) -> EncounterState:
    return replace(sample_state(), system=system.name, scale=system.scale)


@pytest.mark.parametrize("name", system_names())
def test_the_dialog_shows_whatever_the_engine_refuses_and_only_that(
    qtbot, monkeypatch, name: str  # type: ignore[no-untyped-def]
) -> None:
    system = get_system(name)
    refusing = "the engine refuses this start for a reason of its own"

    def refuse(_self: RuleSystem, _state: EncounterState, _command: Command) -> list[str]:
        return [refusing]

    monkeypatch.setattr(type(system), "start_combat_reasons", refuse)
    dialog = StartCombatDialog(None, system, _state_of(system))
    qtbot.addWidget(dialog)
    assert dialog.problem.text() == refusing and not dialog.problem.isHidden()
    assert not dialog.roll_button.isEnabled() and not dialog.face_boxes
    monkeypatch.undo()
    dialog.refresh()
    assert dialog.problem.text() == "" and dialog.problem.isHidden()
    assert dialog.roll_button.isEnabled()


@pytest.mark.parametrize("name", [n for n in system_names() if get_system(n).surprise_round])
def test_an_ambush_with_nobody_springing_it_shows_the_engines_reason(
    qtbot, name: str  # type: ignore[no-untyped-def]
) -> None:
    system = get_system(name)
    state = _state_of(system)
    dialog = StartCombatDialog(None, system, state)
    qtbot.addWidget(dialog)
    dialog.awareness.setCurrentIndex(dialog.awareness.findData("some"))
    said = system.preview(state, dialog.command()).reasons
    assert said and dialog.problem.text() == "\n".join(said)
    assert not dialog.roll_button.isEnabled()
    next(iter(dialog.acting.values())).setChecked(True)
    assert system.preview(state, dialog.command()).legal
    assert dialog.problem.text() == "" and dialog.roll_button.isEnabled()
