"""The window follows the fight, as a VTT's combat tracker does.

When combat starts, the tracker and the Actions dock come to the front (the GM was likely
on the Roster tab, dragging characters in). When the turn passes, the acting token becomes
the selection, so the Token dock (unless the GM pinned another token there) and the
palette show it, and the map scrolls to it if it is out of view ("pan to token").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.encounter import EncounterState
from engine.turns.combat import Phase

if TYPE_CHECKING:
    from desktop.main_window import MainWindow

#: The docks a fight is run from, brought forward when it starts.
FIGHT_DOCKS = ("Initiative", "Actions")

#: Scene units kept round a token the view scrolls to (about half a square).
PAN_MARGIN = 32


def fighting(state: EncounterState) -> bool:
    return state.combat.phase in (Phase.ROUND, Phase.SURPRISE)


class TurnFollower:
    """Watches the controller's state for a fight starting and a turn passing."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        state = window.controller.state
        self.was_fighting = fighting(state)
        self.was_active = state.combat.active
        window.controller.state_changed.connect(self.state_changed)

    def state_changed(self, state: EncounterState) -> None:
        now_fighting = fighting(state)
        if now_fighting and not self.was_fighting:
            self.bring_fight_forward()
        self.was_fighting = now_fighting
        active = state.combat.active
        if active is not None and active != self.was_active:
            self.follow(active)
        self.was_active = active

    def bring_fight_forward(self) -> None:
        for title in FIGHT_DOCKS:
            dock = self.window.docks.get(title)
            if dock is not None:
                dock.show()
                dock.raise_()

    def follow(self, token_id: str) -> None:
        """Select the acting token and scroll the map to it when it is out of view."""
        self.window.controller.select(token_id)
        item = self.window.scene.token_items.get(token_id)
        if item is not None:
            self.window.view.ensureVisible(item, PAN_MARGIN, PAN_MARGIN)
