"""Strafe: pick a chain of squares by clicks or a drag; the engine numbers and checks it.

Each square shows its place in the chain and, where a target stands, the Defense bonus
the engine gives it; squares the engine objects to are red with its reason as tooltip.
Backspace or a right click drops the last square, F counts the bonuses from the other
end, Enter (or a double click) fires through the session's ``strafe`` action.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent

from desktop.scene.rule_overlays import AREA, AREA_BAD, AreaItem, SquareMarkItem, squares_path
from desktop.tools.base import ToolHost, square_at
from desktop.tools.rule_tool import RuleTool
from engine.geometry import StrafeResult, check_strafe
from engine.grid import Square
from engine.rules.base import Command

_SQUARE_IN_TEXT = re.compile(r"\((-?\d+),(-?\d+)\)")


def reasons_by_square(reasons: tuple[str, ...]) -> dict[Square, list[str]]:
    """The engine's reasons, filed under the first square each one names."""
    found: dict[Square, list[str]] = {}
    for reason in reasons:
        match = _SQUARE_IN_TEXT.search(reason)
        if match:
            square = Square(int(match.group(1)), int(match.group(2)))
            found.setdefault(square, []).append(reason)
    return found


class StrafeTool(RuleTool):
    name = "Strafe"
    action_key = "strafe"

    def __init__(
        self, host: ToolHost, actor_id: str | None = None, weapon: str | None = None
    ) -> None:
        super().__init__(host, actor_id, weapon)
        self.chain: list[Square] = []
        self.from_end = False
        self.result: StrafeResult | None = None
        self._dragging = False

    # ---- gestures

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() == Qt.MouseButton.RightButton:
            self.drop_last()
            return True
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self._dragging = True
        self.add(square_at(scene_pos))
        return True

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if not self._dragging:
            return False
        square = square_at(scene_pos)
        if len(self.chain) >= 2 and square == self.chain[-2]:
            self.drop_last()  # dragging back undoes the last square
        else:
            self.add(square)
        return True

    def mouse_release(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self._dragging = False
        return True

    def mouse_double_click(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        self._dragging = False
        self.fire()
        return True

    def key_press(self, event: QKeyEvent) -> bool:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.fire()
            return True
        if key == Qt.Key.Key_Backspace:
            self.drop_last()
            return True
        if key == Qt.Key.Key_F:
            self.from_end = not self.from_end
            self.refresh()
            return True
        return super().key_press(event)

    # ---- the chain

    def add(self, square: Square) -> None:
        if self.chain and self.chain[-1] == square:
            return
        self.chain.append(square)
        self.refresh()

    def drop_last(self) -> None:
        if self.chain:
            self.chain.pop()
            self.refresh()

    def cancel(self) -> bool:
        had = bool(self.chain)
        self.chain = []
        self.result = None
        self.clear_overlay()
        return had

    def command(self) -> Command | None:
        actor = self.actor()
        if actor is None:
            return None
        weapon = self.weapon(actor)
        return Command(
            "strafe", actor.id, squares=tuple(self.chain), weapon=weapon.name if weapon else None
        )

    def fire(self) -> bool:
        command = self.command()
        if command is None or not self.chain:
            return False
        if not self.system_has("strafe"):
            self.host.show_status(f"{self.host.controller.system.title} has no Strafe action")
            return False
        if self.confirm(command):
            self.chain = []
            self.refresh()
            return True
        return False

    # ---- drawing

    def refresh(self) -> None:
        self.clear_overlay()
        self.result = None
        actor = self.actor()
        if actor is None or not self.chain:
            return
        weapon = self.weapon(actor)
        if weapon is None:
            self.host.show_status(f"{actor.name} has no weapon to strafe with")
            return
        result = check_strafe(self.state, actor.id, self.chain, weapon.name, from_end=self.from_end)
        self.result = result
        bad = reasons_by_square(result.reasons)
        bonus = {t.square: t for t in result.targets}
        self.add_overlay(AreaItem(squares_path(result.squares), AREA, 0, dashed=True))
        for index, square in enumerate(result.squares, start=1):
            target = bonus.get(square)
            label = f"{index}" if target is None else f"{index}\n+{target.defense_bonus}"
            reasons = bad.get(square)
            if reasons:
                label = label.replace(f"{index}", f"{index} ✕", 1)
            colour = AREA_BAD if reasons else AREA
            self.add_overlay(
                SquareMarkItem(
                    square, colour, label, "\n".join(reasons or ()), 150 if reasons else 90
                )
            )
        state = self.state
        lines = [
            f"Strafe, {weapon.name}: {len(result.squares)} squares, "
            f"{result.shots} shots of {weapon.ammo}"
        ]
        lines += [
            f"{state.token(t.token_id).name} at {t.square}: +{t.defense_bonus} Defense"
            for t in result.targets
        ]
        lines += list(result.warnings) + list(result.reasons)
        lines.append("Enter fires, Backspace drops, F flips the count")
        area = squares_path(result.squares).boundingRect()
        colour = QColor("#ffffff") if result.legal else AREA_BAD
        self.show_info(lines, area, colour)
