"""The Map menu and the Map toolbar: pick a map tool and what it draws.

The toolbar starts with the Select tool (S, checked by default; Escape returns to it),
then the measuring tools (added with the Tools menu), then the drawing tools. The drawing
tools' shortcuts are Shift+letter so single letters stay free for the tools (hold V for
fog) and for typing in the docks.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLabel,
    QMainWindow,
    QMenuBar,
    QToolBar,
)

from desktop.editing.map_tools import (
    PLAIN_GROUND,
    CoverTool,
    EditTool,
    EraseTool,
    LightTool,
    MapToolSettings,
    PortalTool,
    TerrainTool,
    WallPointTool,
    WallTool,
)
from desktop.tools.base import Tool, ToolHost
from desktop.tools.tool_checks import ToolChecks
from engine.battlemap import CoverGrade, PortalKind, TerrainKind

ToolFactory = type[EditTool]

#: (key, menu label, shortcut, tool) in menu order.
MAP_TOOLS: tuple[tuple[str, str, str, ToolFactory], ...] = (
    ("walls", "Draw &walls", "Shift+W", WallTool),
    ("portals", "&Doors and windows", "Shift+D", PortalTool),
    ("wall_points", "&Move wall points", "Shift+M", WallPointTool),
    ("terrain", "Paint &terrain", "Shift+T", TerrainTool),
    ("cover", "Place &cover", "Shift+C", CoverTool),
    ("lights", "Place &lights", "Shift+L", LightTool),
    ("erase", "&Erase", "Shift+E", EraseTool),
)

WALL_KINDS = (
    ("Blocks sight and movement", True, True),
    ("Blocks sight only", True, False),
    ("Blocks movement only", False, True),
)
TERRAIN_CHOICES = (
    *[(k.value.capitalize(), k.value) for k in TerrainKind],
    ("Plain ground", PLAIN_GROUND),
)
COVER_LABELS = {
    CoverGrade.LIGHT: "Light (¼)",
    CoverGrade.HALF: "Half",
    CoverGrade.THREE_QUARTERS: "Three quarters",
    CoverGrade.TOTAL: "Total",
}


class HasMapTools(Protocol):
    host: ToolHost
    menu_actions: dict[str, QAction]
    tool_checks: ToolChecks

    def menuBar(self) -> QMenuBar: ...

    def set_tool(self, tool: Tool) -> None: ...


class MapToolbar(QToolBar):
    """The tool buttons and, beside them, the boxes that say what the tools draw."""

    def __init__(self, settings: MapToolSettings) -> None:
        super().__init__("Map")
        self.setObjectName("toolbar-map")
        self.settings = settings
        self.wall_kind = QComboBox()
        for label, sight, movement in WALL_KINDS:
            self.wall_kind.addItem(label, (sight, movement))
        self.wall_kind.currentIndexChanged.connect(self._wall_kind)
        self.portal_kind = self._combo([(k.value.capitalize(), k.value) for k in PortalKind])
        self.portal_kind.currentIndexChanged.connect(
            lambda: setattr(settings, "portal_kind", self.portal_kind.currentData())
        )
        self.terrain_kind = self._combo(list(TERRAIN_CHOICES))
        self.terrain_kind.currentIndexChanged.connect(
            lambda: setattr(settings, "terrain_kind", self.terrain_kind.currentData())
        )
        self.cover_grade = self._combo([(label, g.value) for g, label in COVER_LABELS.items()])
        self.cover_grade.setCurrentIndex(self.cover_grade.findData(settings.cover_grade))
        self.cover_grade.currentIndexChanged.connect(
            lambda: setattr(settings, "cover_grade", self.cover_grade.currentData())
        )
        self.cover_height = self._spin(0.5, 100.0, settings.cover_height_ft, " ft high")
        self.cover_height.valueChanged.connect(
            lambda value: setattr(settings, "cover_height_ft", value)
        )
        self.cover_hides = QCheckBox("hides")
        self.cover_hides.setToolTip("Taller than a standing person: blocks sight too")
        self.cover_hides.toggled.connect(lambda on: setattr(settings, "cover_blocks_sight", on))
        self.light_range = self._spin(0.5, 100.0, settings.light_range, " squares")
        self.light_range.valueChanged.connect(lambda value: setattr(settings, "light_range", value))

    def add_settings(self) -> None:
        for index, (caption, widgets) in enumerate(
            (
                ("Wall", (self.wall_kind,)),
                ("Opening", (self.portal_kind,)),
                ("Terrain", (self.terrain_kind,)),
                ("Cover", (self.cover_grade, self.cover_height, self.cover_hides)),
                ("Light", (self.light_range,)),
            )
        ):
            if index:
                self.addSeparator()
            self.addWidget(QLabel(f" {caption} "))
            for widget in widgets:
                self.addWidget(widget)

    def _combo(self, items: list[tuple[str, str]]) -> QComboBox:
        box = QComboBox()
        for label, value in items:
            box.addItem(label, value)
        return box

    def _spin(self, low: float, high: float, value: float, suffix: str) -> QDoubleSpinBox:
        box = QDoubleSpinBox()
        box.setRange(low, high)
        box.setDecimals(1)
        box.setValue(value)
        box.setSuffix(suffix)
        return box

    def _wall_kind(self) -> None:
        sight, movement = self.wall_kind.currentData()
        self.settings.wall_sight, self.settings.wall_movement = sight, movement


def install_map_menu(window: HasMapTools) -> MapToolbar:
    """Add the Map menu, the map tools' toolbar and, on the row below, the toolbar of what
    they draw (one row is too narrow for both); returns the settings toolbar."""
    settings = MapToolSettings()
    menu = window.menuBar().addMenu("&Map")
    checks = window.tool_checks
    tools = checks.toolbar
    menu.addAction(checks.select)
    menu.addSeparator()
    toolbar = MapToolbar(settings)
    for key, label, shortcut, factory in MAP_TOOLS:
        action = checks.add(QAction(label, tools), factory)
        action.setShortcut(QKeySequence(shortcut))
        action.setToolTip(f"{label.replace('&', '')} ({shortcut})")
        action.triggered.connect(
            lambda _checked=False, f=factory: window.set_tool(f(window.host, settings))
        )
        menu.addAction(action)
        tools.addAction(action)
        window.menu_actions[f"map_{key}"] = action
    toolbar.add_settings()
    if isinstance(window, QMainWindow):
        window.addToolBar(tools)
        window.addToolBarBreak()
        window.addToolBar(toolbar)
    return toolbar
