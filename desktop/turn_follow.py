"""The window follows the fight, as a VTT's combat tracker does.

When combat starts, the tracker and the Actions dock come to the front (the GM was likely
on the Roster tab, dragging characters in).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.encounter import EncounterState
from engine.turns.combat import Phase

if TYPE_CHECKING:
    from desktop.main_window import MainWindow

#: The docks a fight is run from, brought forward when it starts.
FIGHT_DOCKS = ("Initiative", "Actions")


def fighting(state: EncounterState) -> bool:
    return state.combat.phase in (Phase.ROUND, Phase.SURPRISE)


class TurnFollower:
    """Watches the controller's state for a fight starting."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        state = window.controller.state
        self.was_fighting = fighting(state)
        window.controller.state_changed.connect(self.state_changed)

    def state_changed(self, state: EncounterState) -> None:
        now_fighting = fighting(state)
        if now_fighting and not self.was_fighting:
            self.bring_fight_forward()
        self.was_fighting = now_fighting

    def bring_fight_forward(self) -> None:
        for title in FIGHT_DOCKS:
            dock = self.window.docks.get(title)
            if dock is not None:
                dock.show()
                dock.raise_()
