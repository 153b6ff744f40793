"""Doors and windows: the GM opens, closes or locks them through the engine's set_portal.

One click on a door's on-map button (``desktop.scene.door_button``, shown with the select
tool) or a double-click on the door toggles open and closed, as in Foundry VTT; a locked
door stays shut until the GM unlocks it from the right-click menu (so a click never springs
a lock).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QMenu, QWidget

from desktop.controller import EncounterController
from engine.battlemap import Portal, PortalState
from engine.rules.base import Command, CommandError, Event

#: Right-click entries, in menu order.
MENU = (
    (PortalState.OPEN, "Open"),
    (PortalState.CLOSED, "Close"),
    (PortalState.LOCKED, "Lock"),
)


def set_portal(
    controller: EncounterController, portal_id: str, state: PortalState
) -> tuple[Event, ...]:
    """One undo step; raises the engine's CommandError with its reasons when not allowed."""
    return controller.apply(Command.build("set_portal", portal=portal_id, state=state.value))


def toggle(controller: EncounterController, portal: Portal) -> str:
    """Open a closed door or window, close an open one; the sentence for the status bar."""
    if portal.state is PortalState.LOCKED:
        return f"The {portal.label} is locked: right-click to unlock it"
    wanted = PortalState.CLOSED if portal.state is PortalState.OPEN else PortalState.OPEN
    try:
        events = set_portal(controller, portal.id, wanted)
    except CommandError as error:
        return str(error)
    return " ".join(event.text for event in events)


def portal_menu(
    parent: QWidget,
    controller: EncounterController,
    portal: Portal,
    report: Callable[[str], None],
) -> QMenu:
    """Open / Close / Lock (Unlock for a locked door), the current state greyed out."""
    menu = QMenu(parent)
    menu.setTitle(portal.label.capitalize())
    for state, label in MENU:
        if state is PortalState.CLOSED and portal.state is PortalState.LOCKED:
            label = "Unlock (close)"
        action = menu.addAction(label)
        action.setObjectName(f"portal-{state.value}")
        action.setEnabled(state is not portal.state)
        action.triggered.connect(lambda _=False, s=state: report(_chosen(controller, portal.id, s)))
    return menu


def _chosen(controller: EncounterController, portal_id: str, state: PortalState) -> str:
    try:
        events = set_portal(controller, portal_id, state)
    except CommandError as error:
        return str(error)
    return " ".join(event.text for event in events)
