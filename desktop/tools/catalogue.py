"""Which rule tool to start: the Tools menu entries and the palette's actions.

``install_tools_menu`` adds a Tools menu (Alt+digit shortcuts, so single keys stay free
for the tools themselves and for typing in the docks) to a main window. ``tool_for_action``
picks the tool for a palette action that needs a target, squares or an area, or None.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtGui import QAction, QKeySequence

from desktop.tools.base import Tool, ToolHost
from desktop.tools.charge_tool import ChargeTool
from desktop.tools.cone_tool import ConeTool
from desktop.tools.deviation_tool import DeviationTool
from desktop.tools.push_tool import PushTool
from desktop.tools.range_tool import RangeTool
from desktop.tools.run_tool import RunTool
from desktop.tools.sight_tool import SightTool
from desktop.tools.strafe_tool import StrafeTool
from desktop.tools.suppression_tool import SuppressionTool
from desktop.tools.template_tool import KINDS, TemplateTool
from desktop.tools.withdraw_tool import WithdrawTool

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMenuBar

Factory = Callable[[ToolHost], Tool]

#: (menu key, label, shortcut, factory) in menu order.
TOOLS: tuple[tuple[str, str, str, Factory], ...] = (
    ("sight", "Line of &sight (hold V: fog)", "Alt+1", SightTool),
    ("template", "&Template", "Alt+2", TemplateTool),
    ("strafe", "St&rafe", "Alt+3", StrafeTool),
    ("suppressive_fire", "Su&ppressive Fire", "Alt+4", SuppressionTool),
    ("brace", "&Brace cone", "Alt+5", lambda host: ConeTool(host, "brace")),
    ("aim", "&Aiming cone", "", lambda host: ConeTool(host, "aim")),
    ("covering_fire", "&Covering Fire cone", "", lambda host: ConeTool(host, "covering_fire")),
    ("range", "Range ba&nds", "Alt+6", RangeTool),
    ("charge", "C&harge", "Alt+7", ChargeTool),
    ("withdraw", "&Withdraw", "Alt+8", WithdrawTool),
    ("run", "R&un", "Alt+9", RunTool),
    ("push", "Bull Rush / &Push", "Alt+0", PushTool),
    ("deviation", "&Deviation Diagram", "", DeviationTool),
)


class HasTools(Protocol):
    host: ToolHost
    actions: dict[str, QAction]

    def menuBar(self) -> QMenuBar: ...

    def set_tool(self, tool: Tool) -> None: ...


def install_tools_menu(window: HasTools) -> None:
    """Add the Tools menu (and a Templates submenu) to a main window."""
    menu = window.menuBar().addMenu("&Tools")
    for key, label, shortcut, factory in TOOLS:
        action = QAction(label, menu)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _checked=False, f=factory: window.set_tool(f(window.host)))
        menu.addAction(action)
        window.actions[f"tool_{key}"] = action
    templates = menu.addMenu("Template &kind")
    for kind in KINDS:
        action = QAction(kind.label, templates)
        action.triggered.connect(
            lambda _checked=False, k=kind.key: window.set_tool(TemplateTool(window.host, k))
        )
        templates.addAction(action)
        window.actions[f"template_{kind.key}"] = action


#: Palette action key -> how to start its tool for an actor (and weapon).
_BY_ACTION: dict[str, Callable[[ToolHost, str], Tool]] = {
    "strafe": lambda host, actor: StrafeTool(host, actor),
    "suppressive_fire": lambda host, actor: SuppressionTool(host, actor),
    "charge": lambda host, actor: ChargeTool(host, actor),
    "withdraw": lambda host, actor: WithdrawTool(host, actor),
    "run": lambda host, actor: RunTool(host, actor),
    "bull_rush": lambda host, actor: PushTool(host, actor),
    "push": lambda host, actor: PushTool(host, actor),
    "brace": lambda host, actor: ConeTool(host, "brace", actor),
    "covering_fire": lambda host, actor: ConeTool(host, "covering_fire", actor),
}


def tool_for_action(host: ToolHost, actor_id: str, action_key: str) -> Tool | None:
    """The tool that picks the targets or squares of a palette action, if there is one."""
    if action_key == "aim" and host.controller.state.system == "d20-firearms":
        return ConeTool(host, "aim", actor_id)  # d20 Aiming is aimed at a square
    make = _BY_ACTION.get(action_key)
    return make(host, actor_id) if make is not None else None
