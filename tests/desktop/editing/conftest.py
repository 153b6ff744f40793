"""Fixtures for the preparation tools: a window on a blank map, and gesture helpers."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.rules import get_system
from tests.desktop.tools.conftest import TOOL_NOISE, make_window, view_point

NOISE = (*TOOL_NOISE, "This plugin does not support grabbing the keyboard")


def blank_state(system: str = "spycraft", width: int = 12, height: int = 8) -> EncounterState:
    return EncounterState("Prep", system, get_system(system).scale, BattleMap(width, height))


@pytest.fixture
def blank_window(qtbot, tmp_path):  # type: ignore[no-untyped-def]
    return make_window(qtbot, tmp_path, blank_state())


def press_at(
    qtbot,
    view,
    point: tuple[float, float],
    button=Qt.MouseButton.LeftButton,
    modifier=Qt.KeyboardModifier.NoModifier,
) -> QPoint:  # type: ignore[no-untyped-def]
    where = view_point(view, point)
    qtbot.mouseMove(view.viewport(), where)
    qtbot.mousePress(view.viewport(), button, modifier, where)
    return where


def drag(
    qtbot,
    view,
    start: tuple[float, float],
    end: tuple[float, float],
    modifier=Qt.KeyboardModifier.NoModifier,
    through: tuple[tuple[float, float], ...] = (),
) -> None:  # type: ignore[no-untyped-def]
    """Press at ``start``, move through ``through`` to ``end`` and release there."""
    press_at(qtbot, view, start, modifier=modifier)
    for point in (*through, end):
        qtbot.mouseMove(view.viewport(), view_point(view, point))
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, modifier, view_point(view, end))


def double_click_at(qtbot, view, point: tuple[float, float]) -> None:  # type: ignore[no-untyped-def]
    where = view_point(view, point)
    qtbot.mouseMove(view.viewport(), where)
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=where)

