"""The Tools menu: the map's inspection tools, and the acting token's actions on the map.

``install_tools_menu`` adds a Tools menu (Alt+digit shortcuts, so single keys stay free for
the tools themselves and for typing in the docks), its tools checkable beside the Select
tool and the main ones on the toolbar too (``desktop.tools.tool_checks``). The inspection
tools (sight, templates, range bands, the Deviation Diagram) ask engine.geometry and
engine.routes questions that belong to no action. The "Act on the map" submenu lists, for
the system in play, each catalogue action that picks squares, a path or an area; it starts
the one targeting mode (``MainWindow.start_action``) for the acting token, so the menu never
offers an action the system does not have.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtGui import QAction, QKeySequence

from desktop.tools.base import Tool, ToolHost
from desktop.tools.deviation_tool import DeviationTool
from desktop.tools.fog_tool import FogTool
from desktop.tools.range_tool import RangeTool
from desktop.tools.ruler_tool import RulerTool
from desktop.tools.sight_tool import SightTool
from desktop.tools.template_tool import TemplateTool
from desktop.tools.tool_checks import ToolChecks
from engine.rules.base import ActionSpec, Need

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMenu, QMenuBar

    from engine.encounter import EncounterState

Factory = type[Tool]

#: (menu key, label, shortcut, factory) in menu order.
TOOLS: tuple[tuple[str, str, str, Factory], ...] = (
    ("sight", "Line of &sight (hold V: fog)", "Alt+1", SightTool),
    ("template", "&Template", "Alt+2", TemplateTool),
    ("ruler", "&Ruler (drag; Space: waypoint)", "Alt+3", RulerTool),
    ("fog", "&Fog by hand (drag: reveal; Shift: hide; Ctrl: to sight)", "Alt+4", FogTool),
    ("range", "Range ba&nds", "Alt+6", RangeTool),
    ("deviation", "&Deviation Diagram", "", DeviationTool),
)

#: The measuring tools the toolbar shows too, by menu key, under a short name.
TOOLBAR_NAMES = {"sight": "Sight", "template": "Template", "ruler": "Ruler", "range": "Range"}

#: Needs that make an action one to aim on the map (rather than at a token).
MAP_PICKS = (Need.SQUARE, Need.PATH, Need.AREA)


class HasTools(Protocol):
    host: ToolHost
    menu_actions: dict[str, QAction]
    tool_checks: ToolChecks

    def menuBar(self) -> QMenuBar: ...

    def set_tool(self, tool: Tool) -> None: ...

    def start_action(self, actor: str, spec: ActionSpec) -> object: ...

    def acting_token(self, state: EncounterState) -> str | None: ...


def map_actions(specs: tuple[ActionSpec, ...]) -> tuple[ActionSpec, ...]:
    """The catalogue actions aimed at squares, a path or an area."""
    return tuple(spec for spec in specs if set(spec.needs) & set(MAP_PICKS))


def install_tools_menu(window: HasTools) -> None:
    """Add the Tools menu (with its Templates and Act on the map submenus) to a window."""
    menu = window.menuBar().addMenu("&Tools")
    menu.addAction(window.tool_checks.select)
    menu.addSeparator()
    for key, label, shortcut, factory in TOOLS:
        action = QAction(label, menu)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _checked=False, f=factory: window.set_tool(f(window.host)))
        menu.addAction(action)
        window.menu_actions[f"tool_{key}"] = action
        window.tool_checks.add_measuring(action, factory, TOOLBAR_NAMES.get(key))
    templates = menu.addMenu("Template &kind")
    templates.aboutToShow.connect(lambda: _fill_template_kinds(window, templates))
    window.menu_actions["template_kind"] = templates.menuAction()
    acting = menu.addMenu("&Act on the map")
    acting.aboutToShow.connect(lambda: _fill_map_actions(window, acting))
    window.menu_actions["act_on_map"] = acting.menuAction()


def _fill_template_kinds(window: HasTools, menu: QMenu) -> None:
    """The templates of the system in play (built when the menu opens)."""
    menu.clear()
    for kind in window.host.controller.system.templates:
        action = menu.addAction(kind.label)
        action.triggered.connect(
            lambda _checked=False, k=kind.key: window.set_tool(TemplateTool(window.host, k))
        )


def _fill_map_actions(window: HasTools, menu: QMenu) -> None:
    """The system's map actions for the acting token (built when the menu opens)."""
    menu.clear()
    controller = window.host.controller
    actor = window.acting_token(controller.state)
    for spec in map_actions(controller.system.catalogue):
        action = menu.addAction(spec.name)
        action.setEnabled(actor is not None)
        if actor is not None:
            action.triggered.connect(
                lambda _checked=False, s=spec, a=actor: window.start_action(a, s)
            )
    if actor is None:
        menu.addAction("Select a token first").setEnabled(False)
