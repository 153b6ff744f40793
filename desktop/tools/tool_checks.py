"""Which map tool is on, shown as VTT users expect: a Select tool, checked by default.

Every tool entry (the Select tool, the measuring tools, the map-drawing tools) is a
checkable action in one group; the entry of the tool in use is checked whoever started it
(a menu, a shortcut, Escape handing back to Select, a template kind). A tool no entry
stands for (an action being aimed, a roster character being placed) leaves none checked.
Tools stay on until another is picked, as in Foundry VTT: Escape or S returns to Select.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QToolBar

from desktop.tools.base import Tool
from desktop.tools.select_move import SelectMoveTool

#: The Select tool's key: free in every tool (V is the line-of-sight fog, held).
SELECT_SHORTCUT = "S"


class ToolChecks:
    """The group of tool entries, the toolbar that shows them, and which one is checked.

    The toolbar holds Select, then the measuring tools, then the drawing tools, whichever
    of the Tools menu and the Map menu is put in first."""

    def __init__(self, select: Callable[[], object]) -> None:
        """``select`` puts the Select tool (the window's default tool) in use."""
        self.toolbar = QToolBar("Map tools")
        self.toolbar.setObjectName("toolbar-map-tools")
        self.group = QActionGroup(self.toolbar)
        # Optional: an aimed action is no entry's tool, and then none is checked.
        self.group.setExclusionPolicy(QActionGroup.ExclusionPolicy.ExclusiveOptional)
        self._by_type: dict[type[Tool], QAction] = {}
        self.select = self.add(QAction("&Select and move", self.toolbar), SelectMoveTool)
        self.select.setIconText("Select")
        self.select.setShortcut(QKeySequence(SELECT_SHORTCUT))
        self.select.setToolTip(f"Select and move tokens ({SELECT_SHORTCUT}; Escape returns here)")
        self.select.triggered.connect(lambda _checked=False: select())
        self.toolbar.addAction(self.select)
        self.toolbar.addSeparator()
        #: The measuring tools go before it, the drawing tools after it.
        self.measuring_place = self.toolbar.addSeparator()

    def add(self, action: QAction, tool_type: type[Tool]) -> QAction:
        """Make ``action`` the checkable entry of ``tool_type``'s tools."""
        action.setCheckable(True)
        self.group.addAction(action)
        self._by_type[tool_type] = action
        return action

    def add_measuring(self, action: QAction, tool_type: type[Tool], short: str | None) -> None:
        """A measuring tool's entry; on the toolbar too under its ``short`` name, if any."""
        self.add(action, tool_type)
        if short is None:
            return
        action.setIconText(short)
        shortcut = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        plain = action.text().replace("&", "")
        action.setToolTip(f"{plain} ({shortcut})" if shortcut else plain)
        self.toolbar.insertAction(self.measuring_place, action)

    def entry(self, tool: Tool | None) -> QAction | None:
        """The entry standing for ``tool``, if any."""
        if tool is None:
            return None
        for kind in type(tool).__mro__:
            action = self._by_type.get(kind)
            if action is not None:
                return action
        return None

    def show(self, tool: Tool | None) -> None:
        """Check the entry of the tool now in use (or none)."""
        action = self.entry(tool)
        if action is not None:
            action.setChecked(True)
            return
        checked = self.group.checkedAction()
        if checked is not None:
            checked.setChecked(False)

    @property
    def checked(self) -> QAction | None:
        return self.group.checkedAction()
