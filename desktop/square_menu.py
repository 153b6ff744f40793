"""What a right click on a square (no token, door or window there) offers: what the acting
token may do aimed at it.

A Foundry VTT or MapTool GM right-clicks where something should happen. A square's menu
held only "Ping" while a token's held every attack on it, so an area action (Suppressive
Fire, a thrown grenade) or a longer move (Run) was found only through the Actions dock.
Now the square lists the acting token's actions aimed at one square or a path ending
there (``desktop.tools.offers.square_offers``), the refused ones greyed with the engine's
reasons. An entry starts the one targeting mode with the square picked, so the preview
card and Confirm follow as for a token's menu; the ordinary move is applied at once, as a
drag's drop is. Every entry goes through the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMenu

from desktop.tools.offers import Offer, square_offers
from engine.grid import Square

if TYPE_CHECKING:
    from desktop.main_window import MainWindow


def add_offer_entries(
    menu: QMenu, offers: list[Offer], start: Callable[[Offer], object], suffix: str = "",
    prefix: str = "",
) -> None:
    """The allowed offers as entries that start them; the refused ones greyed in a "Not
    now…" submenu, each with its reason (the whole reason is the tooltip)."""
    for offer in offers:
        if offer.allowed:
            menu.addAction(prefix + offer.label + suffix, partial(start, offer))
    refused = [o for o in offers if not o.allowed]
    if refused:
        why_not = menu.addMenu("Not now…")
        why_not.setToolTipsVisible(True)
        for offer in refused:
            entry = why_not.addAction(f"{prefix}{offer.label}{suffix}: {offer.short_reason}")
            entry.setToolTip(offer.reason)
            entry.setEnabled(False)


def square_menu(window: MainWindow, square: Square) -> QMenu:
    """The acting token's actions aimed at ``square``, then a separator (empty when no
    token acts or the square is off the map)."""
    menu = QMenu(window)
    menu.setToolTipsVisible(True)
    state = window.controller.state
    actor = window.acting_token(state)
    if actor is None or not state.battlemap.in_bounds(square):
        return menu
    offers = square_offers(window.host, actor, square)
    add_offer_entries(menu, offers, partial(aim, window, actor, square), " here")
    if offers:
        menu.addSeparator()
    return menu


def aim(window: MainWindow, actor: str, square: Square, offer: Offer) -> None:
    """Start ``offer``'s targeting mode with ``square`` picked; the ordinary move goes at once."""
    tool = window.start_action(actor, offer.spec, weapon=offer.weapon)
    tool.pick(square)
    if offer.spec.key == window.controller.system.ordinary_move_key and tool.ready:
        tool.confirm()
