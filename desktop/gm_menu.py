"""The GM's overrides as a menu (token right-click and the inspector): engine commands only.

Each entry asks for a number or a name with a plain Qt input dialog (damage and healing
with their own, which shows what the amount would do) and applies the
engine's ``gm_*`` command (engine.rules.gm_overrides), so it is checked, logged in words
and undone like any action. What the numbers mean is the rule system's business; the
menu offers the stats the system reports as gauges and the conditions it lists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial

from PySide6.QtWidgets import QInputDialog, QMenu, QWidget

from desktop.controller import EncounterController
from desktop.dialogs.amount import AmountDialog
from desktop.dialogs.dice import dry_run
from engine.rules.base import Command, CommandError, OptionValue
from engine.tokens import Token

#: The largest number a GM types into an override (a guard against a slipped finger).
MOST = 9999


class GmMenu:
    """Builds the GM submenu for one token; ``report`` shows refusals (the status bar)."""

    def __init__(
        self, parent: QWidget, controller: EncounterController, report: Callable[[str], None]
    ) -> None:
        self.parent = parent
        self.controller = controller
        self.report = report

    def build(self, token_id: str, title: str = "GM") -> QMenu:
        token = self.controller.state.token(token_id)
        menu = QMenu(title, self.parent)
        menu.addAction("Apply damage…", lambda: self.amount(token_id, "gm_damage", "Damage"))
        menu.addAction("Heal…", lambda: self.amount(token_id, "gm_heal", "Heal by"))
        self._conditions(menu, token)
        self._ammunition(menu, token)
        self._counts(menu, token)
        down = self.controller.system.down_condition
        if down:
            mark = self.controller.system.down_mark(token)
            if mark:
                revive = lambda: self.send("gm_revive", token_id)  # noqa: E731
                menu.addAction(f"Revive (no longer {mark})", revive)
            else:
                knock_out = lambda: self.send("gm_knock_out", token_id)  # noqa: E731
                menu.addAction(f"Knock out ({down})", knock_out)
        return menu

    # ---- entries

    def _conditions(self, menu: QMenu, token: Token) -> None:
        adding = menu.addMenu("Add condition")
        present = {c.name for c in token.conditions}
        for spec in self.controller.system.conditions:
            if spec.name not in present:
                action = adding.addAction(
                    spec.name, partial(self.condition, token.id, spec.name, True)
                )
                action.setToolTip(spec.summary)
        adding.addSeparator()
        adding.addAction("Other…", lambda: self.other_condition(token.id))
        removing = menu.addMenu("Remove condition")
        removing.setEnabled(bool(token.conditions))
        for condition in token.conditions:
            removing.addAction(
                condition.name, partial(self.condition, token.id, condition.name, False)
            )

    def _ammunition(self, menu: QMenu, token: Token) -> None:
        loaded = [w for w in token.weapons if w.uses_ammunition]
        if not loaded:
            return
        ammo = menu.addMenu("Set ammunition")
        for weapon in loaded:
            ammo.addAction(
                f"{weapon.name} ({weapon.ammo}/{weapon.capacity})…",
                partial(self.ammunition, token.id, weapon.name),
            )

    def _counts(self, menu: QMenu, token: Token) -> None:
        state = self.controller.state
        counts = menu.addMenu("Change a count")
        system = self.controller.system
        declared = {spec.name for spec in system.stats}
        for gauge in system.gauges(state, token):
            if gauge.key in declared:  # a count the GM may set (gm_stat); not a condition
                counts.addAction(
                    f"{gauge.label} ({gauge.value})…",
                    partial(self.stat, token.id, gauge.key, gauge.label, gauge.value),
                )
        if state.combat.has(token.id):
            combatant = state.combat.combatant(token.id)
            counts.addSeparator()
            counts.addAction(
                f"Initiative ({combatant.initiative})…",
                lambda: self.number(
                    token.id, "gm_initiative", "Initiative", combatant.initiative, -MOST
                ),
            )
            cards = self.controller.system.card_choices(state, token.id)
            if cards:  # a system that deals initiative cards: swap the one dealt
                counts.addAction("Card…", lambda: self.card(token.id, cards))
            for pool, left in combatant.budget.items():
                counts.addAction(
                    f"{pool} left ({left})…",
                    partial(self.number, token.id, "gm_budget", f"{pool} left", left, 0, pool=pool),
                )
        counts.setEnabled(not counts.isEmpty())

    # ---- asking and sending

    def amount(self, token_id: str, action: str, label: str) -> None:
        """Damage or healing: the amount, with what the engine says it would do."""
        self.amount_to_all((token_id,), action, label)

    def amount_to_all(self, token_ids: Sequence[str], action: str, label: str) -> None:
        """The same damage or healing to each of ``token_ids`` (a grenade's template): one
        amount, what the engine says it would do to each, one undo step for them all."""
        state, system = self.controller.state, self.controller.system
        names = ", ".join(state.token(t).name for t in token_ids)

        def foresee(amount: int) -> list[str]:
            return [
                line for t in token_ids
                for line in dry_run(
                    system, state, Command.build(action, targets=[t], amount=amount)
                ).outcome
            ]

        dialog = AmountDialog(self.parent, f"{names}: {label}", f"{label}:", foresee, 1, 1, MOST)
        if not dialog.exec():
            return
        with self.controller.session.step():
            for token_id in token_ids:
                self.send(action, token_id, {"amount": dialog.value()})

    def number(
        self,
        token_id: str,
        action: str,
        label: str,
        value: int,
        minimum: int,
        key: str = "value",
        **options: OptionValue,
    ) -> None:
        name = self.controller.state.token(token_id).name
        chosen, ok = QInputDialog.getInt(
            self.parent, f"{name}: {label}", f"{label}:", value, minimum, MOST
        )
        if ok:
            self.send(action, token_id, {**options, key: chosen})

    def stat(self, token_id: str, stat: str, label: str, value: int) -> None:
        self.number(token_id, "gm_stat", label, value, -MOST, stat=stat)

    def card(self, token_id: str, cards: tuple[tuple[str, str], ...]) -> None:
        name = self.controller.state.token(token_id).name
        words = [f"{text} ({code})" for code, text in cards]
        chosen, ok = QInputDialog.getItem(
            self.parent, f"{name}: another card", "Card:", words, 0, False
        )
        if ok and chosen in words:
            self.send("gm_card", token_id, {"card": cards[words.index(chosen)][0]})

    def ammunition(self, token_id: str, weapon: str) -> None:
        token = self.controller.state.token(token_id)
        held = token.weapon(weapon)
        chosen, ok = QInputDialog.getInt(
            self.parent, f"{token.name}: {weapon}", "Rounds:", held.ammo, 0, held.capacity
        )
        if ok:
            self.send("gm_ammo", token_id, {"ammo": chosen}, weapon=weapon)

    def other_condition(self, token_id: str) -> None:
        name = self.controller.state.token(token_id).name
        text, ok = QInputDialog.getText(self.parent, f"{name}: add a condition", "Condition:")
        if ok and text.strip():
            self.condition(token_id, text.strip(), True)

    def condition(self, token_id: str, name: str, present: bool) -> None:
        self.send("gm_condition", token_id, {"condition": name, "present": present})

    def send(
        self,
        action: str,
        token_id: str,
        options: Mapping[str, OptionValue] | None = None,
        weapon: str | None = None,
    ) -> None:
        command = Command.build(action, targets=[token_id], weapon=weapon)
        command = command.with_options(**(options or {}))
        try:
            self.controller.apply(command)
        except CommandError as error:
            self.report(str(error))
