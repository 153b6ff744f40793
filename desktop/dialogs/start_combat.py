"""Start combat: roll or type initiative, and (Spycraft) who is aware for the surprise round.

The rows are the initiative rolls the engine would make (one per token, or one per side
for a group check), found by a dry run; the surprise widgets only fill in the options the
Spycraft ``start_combat`` command documents (awareness, acting, group_initiative).
"""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QGroupBox, QHBoxLayout, QLabel, QWidget

from desktop.dialogs.dice import DiceDialog, planned_rolls
from engine.encounter import EncounterState
from engine.rules.base import Command, RuleSystem

#: Systems whose start_combat reads the surprise options (engine/rules/spycraft/flow.py).
SURPRISE_SYSTEMS = ("spycraft",)
AWARENESS = (
    ("all", "Everyone is aware: no surprise round"),
    ("some", "An ambush: the ticked sides try to act first"),
    ("none", "Nobody is aware: team stealth checks decide"),
)


class StartCombatDialog(DiceDialog):
    def __init__(self, parent: QWidget | None, system: RuleSystem, state: EncounterState) -> None:
        self.system = system
        self.state = state
        self.sides = sorted({token.side.value for token in state.tokens})
        super().__init__(parent, "Start combat", (), system.initiative_scheme.summary)
        self.awareness = QComboBox()
        self.acting: dict[str, QCheckBox] = {}
        self.grouped: dict[str, QCheckBox] = {}
        self.problem = QLabel()
        if system.name in SURPRISE_SYSTEMS:
            self._surprise_widgets()
        self.extra.addWidget(self.problem)
        self.refresh()

    def _surprise_widgets(self) -> None:
        for key, text in AWARENESS:
            self.awareness.addItem(text, key)
        self.awareness.currentIndexChanged.connect(self.refresh)
        surprise = QGroupBox("Surprise round")
        rows = QHBoxLayout(surprise)
        rows.addWidget(self.awareness)
        self.extra.addWidget(surprise)
        ambush = QGroupBox("Ambushing sides / one Initiative check per side")
        line = QHBoxLayout(ambush)
        for side in self.sides:
            acting = QCheckBox(f"{side} ambushes")
            grouped = QCheckBox(f"{side} as a group")
            for box in (acting, grouped):
                box.toggled.connect(self.refresh)
                line.addWidget(box)
            self.acting[side], self.grouped[side] = acting, grouped
        self.extra.addWidget(ambush)

    def command(self) -> Command:
        options: dict[str, str] = {}
        awareness = self.awareness.currentData()
        if awareness and awareness != "all":
            options["awareness"] = str(awareness)
        acting = [side for side, box in self.acting.items() if box.isChecked()]
        if awareness == "some" and acting:
            options["acting"] = ",".join(acting)
        grouped = [side for side, box in self.grouped.items() if box.isChecked()]
        if grouped:
            options["group_initiative"] = ",".join(grouped)
        return Command.build("start_combat", **options)

    def refresh(self) -> None:
        missing = self.awareness.currentData() == "some" and not any(
            box.isChecked() for box in self.acting.values()
        )
        self.problem.setText("Tick the side that springs the ambush." if missing else "")
        self.problem.setVisible(missing)
        self.roll_button.setEnabled(not missing)
        if missing:
            self.set_rolls(())
            return
        self.set_rolls(planned_rolls(self.system, self.state, self.command()))
