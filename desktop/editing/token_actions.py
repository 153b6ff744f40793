"""Adding, editing and duplicating tokens from the map: the gestures behind the token editor.

Double-click an empty square: a new token there, in the editor. Double-click a token: the
editor on it. Ctrl+D: a duplicate with the same stats and weapons and a new name. The
engine checks each (a token inside a wall or off the map is refused with the reason, which
stays in the open editor so nothing the GM typed is lost).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from desktop.editing import commands
from desktop.editing.token_editor import TokenEditor
from engine.grid import Square
from engine.rules.base import Command, CommandError
from engine.rules.presets import weapon_presets
from engine.tokens import Side, Token

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from desktop.controller import EncounterController

#: How an editor is shown: tests replace it to fill the form instead of waiting on a person.
RunEditor = Callable[[TokenEditor, Callable[[Token], list[str]]], bool]


def unique_id(name: str, taken: set[str]) -> str:
    """A token id from a name ("Gunman 2" -> "gunman-2"), numbered when taken."""
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "token"
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}-{number}", number + 1
    return candidate


def run_modal(editor: TokenEditor, check: Callable[[Token], list[str]]) -> bool:
    """Show the editor until the GM cancels or the engine accepts what it holds."""
    editor.engine_check = check
    return bool(editor.exec())


class TokenEditing:
    """The token editor's gestures for one window (its controller and its status line)."""

    def __init__(
        self,
        controller: EncounterController,
        parent: QWidget,
        status: Callable[[str], None],
        run_editor: RunEditor = run_modal,
    ) -> None:
        self.controller = controller
        self.parent = parent
        self.status = status
        self.run_editor = run_editor

    def editor_for(self, token: Token) -> TokenEditor:
        system = self.controller.system
        return TokenEditor(
            token,
            stat_specs=system.stats,
            presets=weapon_presets(system),
            weapon_fields=system.weapon_fields,
            scale=self.controller.state.scale,
            images=self.controller.images,
            add_image=self.controller.add_image,
            parent=self.parent,
        )

    def fresh_token(self, square: Square) -> Token:
        """A new token at a square: the system's stats for a new token, the next free name."""
        state = self.controller.state
        names = {t.name for t in state.tokens}
        number = 1
        while f"Token {number}" in names:
            number += 1
        name = f"Token {number}"
        return Token(
            unique_id(name, {t.id for t in state.tokens}),
            name,
            Side.ENEMY,
            square,
            speed=self.controller.system.default_speed,
            stats=self.controller.system.new_token_stats(),
        )

    def add_at(self, square: Square) -> Token | None:
        """Open the editor on a new token at ``square``; returns the token added, or None."""
        return self._edit_and_apply(self.fresh_token(square), commands.add_token)

    def edit(self, token_id: str) -> Token | None:
        """Open the editor on a token; returns the token as changed, or None if cancelled."""
        token = self.controller.state.token(token_id)
        return self._edit_and_apply(token, lambda after: commands.edit_token(token, after))

    def duplicate(self, token_id: str) -> bool:
        return self._apply(commands.duplicate_token(token_id))

    def _edit_and_apply(self, token: Token, build: Callable[[Token], Command]) -> Token | None:
        editor = self.editor_for(token)
        accepted: list[Token] = []

        def check(candidate: Token) -> list[str]:
            """The engine's word on the edited token; applies it when it is legal."""
            try:
                self.controller.apply(build(candidate))
            except CommandError as error:
                return [str(error)]
            accepted.append(candidate)
            return []

        if not self.run_editor(editor, check) or not accepted:
            return None
        self.status(f"{accepted[0].name} is on the map")
        return accepted[0]

    def _apply(self, command: Command) -> bool:
        try:
            events = self.controller.apply(command)
        except CommandError as error:
            self.status(str(error))
            return False
        if events:
            self.status(events[-1].text)
        return True
