"""Action palette: the acting token's actions, grouped by the system's categories.

The acting token is the one whose turn it is (the palette follows the turn, whatever token
is selected); before combat, or for an out-of-turn action, the "Acting" list picks another.
Typing in the filter box narrows the buttons; Enter starts the first one shown whose name
holds the words typed (else the first shown), and that button is marked as the default. Only
actions the engine allows are enabled; a greyed button's tooltip says why not. Choosing an
action that needs targets, squares or options asks for the targeting mode; one that needs
nothing is applied at once (with "roll or type the dice").
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGroupBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desktop.controller import EncounterController
from desktop.docks.option_fields import narrow_combo_box
from desktop.docks.targeting import TargetingPanel
from desktop.fight import act
from desktop.tools.action_tool import option_specs
from engine.encounter import EncounterState
from engine.rules.base import ActionSpec, Command, CommandError


def needs_targeting(controller: EncounterController, actor: str, spec: ActionSpec) -> bool:
    """Whether choosing ``spec`` for ``actor`` starts the targeting mode (it needs picks,
    or its form has options for the GM to set); else it is applied at once."""
    return bool(spec.needs) or bool(option_specs(controller, actor, spec))


class ActionPalette(QWidget):
    """Buttons for the catalogue, one group per category, with a filter and the panel."""

    #: (token id, ActionSpec): the main window starts the targeting mode.
    action_requested = Signal(str, object)

    def __init__(self, controller: EncounterController) -> None:
        super().__init__()
        self.controller = controller
        self.targeting = TargetingPanel()
        self.title = QLabel()
        self.title.setWordWrap(True)
        # Sized by the dock, not by the longest name: hidden while an action is aimed, a
        # combo sized by "Razor crew gunman with the very long night-shift name" let the
        # dock shrink and the map shift under the cursor.
        self.acting = narrow_combo_box()
        self.acting.setToolTip("Who acts: the token whose turn it is, or pick another")
        self.acting.activated.connect(self._actor_picked)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Type to find an action (Ctrl+K)…")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        self.filter.returnPressed.connect(self._start_first_shown)
        #: Said when the filter hides every action, so an empty list is never a mystery.
        self.no_match = QLabel()
        self.no_match.setWordWrap(True)
        self.no_match.setVisible(False)
        self.buttons: dict[str, QPushButton] = {}
        self.groups: dict[str, QGroupBox] = {}
        self._chosen_actor: str | None = None
        self._turn: tuple[int, str | None] = (0, None)
        self._inner_layout = QVBoxLayout()
        self._inner_layout.setAlignment(Qt.AlignmentFlag.AlignTop)
        inner = QWidget()
        inner.setLayout(self._inner_layout)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(inner)
        layout = QVBoxLayout(self)
        for widget in (self.targeting, self.title, self.acting, self.filter, self.no_match, scroll):
            layout.addWidget(widget)
        # While an action is aimed the card says who acts and with what: the list's own
        # header gives its room to the card's options (the filter stays, to start another).
        self.targeting.aiming.connect(self._aiming)
        # While an action is aimed its fields and preview come first: the list below takes
        # what room is left (all of it when nothing is aimed).
        scroll.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Ignored)
        layout.setStretchFactor(scroll, 1)
        controller.state_changed.connect(self.refresh)
        controller.selection_changed.connect(lambda _id: self.refresh(controller.state))
        self.refresh(controller.state)

    def _aiming(self, on: bool) -> None:
        for widget in (self.title, self.acting):
            widget.setHidden(on)

    # ---- who acts

    def actor(self, state: EncounterState) -> str | None:
        """The token the GM picked in "Acting" this turn, else the one whose turn it is,
        else (no fight running) the selected token."""
        ids = {t.id for t in state.tokens}
        for chosen in (self._chosen_actor, state.combat.active, self.controller.selected):
            if chosen and chosen in ids:
                return chosen
        return None

    def _actor_picked(self, _index: int) -> None:
        self._chosen_actor = self.acting.currentData()
        self.refresh(self.controller.state)

    # ---- building the buttons

    def refresh(self, state: EncounterState) -> None:
        turn = (state.combat.round, state.combat.active)
        if turn != self._turn:  # a new turn: follow the token whose turn it is
            self._turn, self._chosen_actor = turn, None
            # with all its actions: "supp" typed for the gunner hid all but one from the
            # next token, whose list looked broken.
            self.filter.blockSignals(True)
            self.filter.clear()
            self.filter.blockSignals(False)
        while self._inner_layout.count():
            taken = self._inner_layout.takeAt(0)
            widget = taken.widget() if taken is not None else None
            if widget is not None:
                widget.deleteLater()
        self.buttons, self.groups = {}, {}
        actor = self.actor(state)
        self._fill_acting(state, actor)
        if actor is None:
            self.title.setText("Select a token to see its actions")
            return
        self.title.setText(f"Actions of {state.token(actor).name}")
        system = self.controller.system
        try:
            legal = {spec.key for spec in self.controller.session.legal_actions(actor)}
        except CommandError:
            legal = set()
        for spec in system.catalogue:
            group = self.groups.get(spec.category)
            if group is None:
                group = QGroupBox(spec.category.capitalize())
                group.setLayout(QVBoxLayout())
                self.groups[spec.category] = group
                self._inner_layout.addWidget(group)
            rows = group.layout()
            assert rows is not None  # every group is made with its layout just above
            button = QPushButton(spec.name)
            allowed = self._allowed(spec, actor, legal)
            button.setEnabled(allowed)
            button.setToolTip(self._tooltip(spec, actor, allowed))
            button.clicked.connect(lambda _=False, s=spec, a=actor: self._chosen(a, s))
            rows.addWidget(button)
            self.buttons[spec.key] = button
        self._apply_filter(self.filter.text())

    def _fill_acting(self, state: EncounterState, actor: str | None) -> None:
        self.acting.blockSignals(True)
        self.acting.clear()
        for token in state.tokens:
            mark = " (their turn)" if token.id == state.combat.active else ""
            self.acting.addItem(token.name + mark, token.id)
        if actor is not None:
            self.acting.setCurrentIndex(self.acting.findData(actor))
        self.acting.blockSignals(False)

    def _apply_filter(self, text: str) -> None:
        words = text.lower().split()
        system = self.controller.system
        for key, button in self.buttons.items():
            spec = system.action(key)
            haystack = f"{spec.name} {spec.category} {spec.summary}".lower()
            button.setVisible(all(word in haystack for word in words))
        for group in self.groups.values():
            shown = any(not b.isHidden() for b in group.findChildren(QPushButton))
            group.setVisible(shown)
        self._names_first(words)
        target = self.enter_target() if words else None
        for button in self.buttons.values():
            button.setDefault(button is target)
        nothing = bool(self.buttons) and all(b.isHidden() for b in self.buttons.values())
        self.no_match.setText(
            f"No action matches “{text.strip()}”: the search reads each action's name, "
            "category and summary." if nothing else ""
        )
        self.no_match.setVisible(nothing)

    def _names_first(self, words: list[str]) -> None:
        """While the GM types, the actions whose names hold the words come first, their
        groups too ("aim" listed Suppressive Fire, whose summary says aim, above Aim); with
        nothing typed, the catalogue's order."""
        system = self.controller.system

        def named(key: str) -> bool:
            return bool(words) and all(w in system.action(key).name.lower() for w in words)

        keys = [spec.key for spec in system.catalogue if spec.key in self.buttons]
        groups = sorted(self.groups, key=lambda c: not any(
            named(k) for k in keys if system.action(k).category == c))
        for index, category in enumerate(groups):
            group = self.groups[category]
            self._inner_layout.removeWidget(group)
            self._inner_layout.insertWidget(index, group)
            rows = group.layout()
            assert isinstance(rows, QVBoxLayout)  # every group is made with one
            mine = [k for k in keys if system.action(k).category == category]
            for row, key in enumerate(sorted(mine, key=lambda k: not named(k))):
                rows.removeWidget(self.buttons[key])
                rows.insertWidget(row, self.buttons[key])

    def enter_target(self) -> QPushButton | None:
        """What Enter in the filter starts: the first shown, enabled action whose name holds
        every word typed, else the first shown and enabled. ("hold" matched Crush and
        Break Free by their summaries, ahead of Go on Hold in the catalogue's order.)"""
        words = self.filter.text().lower().split()
        shown = [b for b in self.in_view_order() if not b.isHidden() and b.isEnabled()]
        named = [b for b in shown if all(word in b.text().lower() for word in words)]
        first = named or shown
        return first[0] if first else None

    def in_view_order(self) -> list[QPushButton]:
        """The buttons top to bottom as the GM sees them: group by group, each as laid out
        (name matches first while the GM types). Enter took the catalogue's first, so
        "supp" started Support, shown below Suppressive Fire."""
        found: list[QPushButton] = []
        for index in range(self._inner_layout.count()):
            item = self._inner_layout.itemAt(index)
            group = item.widget() if item is not None else None
            rows = group.layout() if group is not None else None
            if rows is None:
                continue
            for row in range(rows.count()):
                cell = rows.itemAt(row)
                button = cell.widget() if cell is not None else None
                if isinstance(button, QPushButton):
                    found.append(button)
        return found

    def _start_first_shown(self) -> None:
        """Enter in the search: ``enter_target``; when every action shown is greyed, say
        why the first is not allowed now instead of doing nothing."""
        target = self.enter_target()
        if target is not None:
            target.click()
            return
        shown = [b for b in self.in_view_order() if not b.isHidden()]
        actor = self.actor(self.controller.state)
        if shown and actor is not None:
            key = next(k for k, b in self.buttons.items() if b is shown[0])
            spec = self.controller.system.action(key)
            self.no_match.setText(f"{spec.name}: not now, {self._why_not(spec, actor)}")
            self.no_match.setVisible(True)

    def _allowed(self, spec: ActionSpec, actor: str, legal: set[str]) -> bool:
        """An action that needs nothing picked is the whole command: the engine's preview
        of it decides; one that needs picks is enabled when the engine lists it as legal
        for the token now (the targeting mode previews each choice). One whose only picks
        are options is also enabled when its command with every option left to its
        default is legal."""
        if needs_targeting(self.controller, actor, spec) and (spec.key in legal or spec.needs):
            return spec.key in legal
        try:
            return self.controller.preview(Command(spec.key, actor)).legal
        except CommandError:
            return False

    def _tooltip(self, spec: ActionSpec, actor: str, allowed: bool) -> str:
        lines = [f"<b>{spec.name}</b> ({spec.time})", spec.summary]
        if not allowed:
            lines.append(f"<i>Not now: {self._why_not(spec, actor)}</i>")
        return "<br>".join(lines)

    def _why_not(self, spec: ActionSpec, actor: str) -> str:
        """The engine's reasons the action is not allowed for ``actor`` now."""
        try:
            reasons = self.controller.preview(Command(spec.key, actor)).reasons
        except CommandError as error:
            reasons = (str(error),)
        return "; ".join(reasons) or "not available"

    def _chosen(self, actor: str, spec: ActionSpec) -> None:
        if needs_targeting(self.controller, actor, spec):
            self.action_requested.emit(actor, spec)
            return
        try:
            act(self, self.controller, Command(spec.key, actor))
        except CommandError as error:
            self.title.setText(str(error))
