"""Start combat: roll or type initiative, and (where the system has one) who is aware for the
surprise round.

The rows are the initiative rolls the engine would make (one per token, or one per side
for a group check), found by a dry run; the surprise widgets only fill in the options the
``start_combat`` command of such a system (``RuleSystem.surprise_round``) documents
(awareness, acting, group_initiative).

A system that deals cards for initiative (the scheme's kind is "cards") shows no dice: the
deck is shuffled from the encounter's dice, and a GM dealing physical cards picks the card
each token drew (the engine's ``cards`` option); tokens left on "from the deck" are dealt.

Every other option the system declares for ``start_combat`` gets a field of its own, built
from its ``OptionSpec`` as the targeting panel builds an action's (``option_fields``).

Whether the options chosen can start the fight is the engine's to say: the dialog previews
its command and shows the reasons it gets back (an ambush with nobody springing it...).
"""

from __future__ import annotations

from functools import partial

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QWidget,
)

from desktop.dialogs.dice import DiceDialog, planned_rolls
from desktop.docks.option_fields import option_field, option_label
from engine.encounter import EncounterState
from engine.rules.base import Command, CommandError, OptionValue, RuleSystem

FROM_DECK = "from the deck"

class StartCombatDialog(DiceDialog):
    def __init__(
        self,
        parent: QWidget | None,
        system: RuleSystem,
        state: EncounterState,
        physical: bool = False,
    ) -> None:
        self.system = system
        self.state = state
        self.sides = sorted({token.side.value for token in state.tokens})
        super().__init__(
            parent, "Start combat", (), system.initiative_scheme.summary, physical=physical
        )
        self.awareness = QComboBox()
        self.acting: dict[str, QCheckBox] = {}
        self.grouped: dict[str, QCheckBox] = {}
        self.problem = QLabel()
        self.card_boxes: dict[str, QComboBox] = {}
        self.deals_cards = system.initiative_scheme.kind == "cards"
        if self.deals_cards:
            self._card_widgets()
        if system.surprise_round:
            self._surprise_widgets()
        #: The declared options without a widget of their own above: name -> value set.
        self.option_values: dict[str, OptionValue] = {}
        self.option_fields: dict[str, QWidget] = {}
        self._option_widgets()
        self.extra.addWidget(self.problem)
        self.refresh()

    def _surprise_widgets(self) -> None:
        # The choices and their words are the system's (its start_combat option schema).
        spec = next(o for o in self.system.options_of("start_combat") if o.name == "awareness")
        for choice in spec.choices:
            self.awareness.addItem(spec.words_for(choice), choice)
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

    def own_options(self) -> set[str]:
        """The options the widgets above fill in."""
        own = {"cards"} if self.deals_cards else set()
        if self.system.surprise_round:
            own |= {"awareness", "acting", "group_initiative"}
        return own

    def _option_widgets(self) -> None:
        own = self.own_options()
        rest = [o for o in self.system.options_of("start_combat") if o.name not in own]
        if not rest:
            return
        group = QGroupBox("Options")
        form = QFormLayout(group)
        for option in rest:
            field = option_field(
                option, None, partial(self._set_option, option.name), self.state
            )
            form.addRow(option_label(option), field)
            self.option_fields[option.name] = field
        self.extra.addWidget(group)

    def _set_option(self, name: str, value: OptionValue | None) -> None:
        if value is None:
            self.option_values.pop(name, None)
        else:
            self.option_values[name] = value
        self.refresh()  # the engine may now refuse, or allow, what is chosen

    def _card_widgets(self) -> None:
        self.roll_button.setText("Deal from the shuffled deck")
        self.roll_button.setToolTip("Shuffle the Action Deck with the encounter's dice and deal")
        self.typed_button.setText("Use these cards")
        self.typed_button.setToolTip("Each token gets the card picked; the rest are dealt")
        dealt = QGroupBox("Cards dealt at the table (optional)")
        form = QFormLayout(dealt)
        for token in self.state.tokens:
            box = QComboBox()
            box.addItem(FROM_DECK, "")
            for code in self._card_codes():
                box.addItem(code, code)
            box.currentIndexChanged.connect(self._card_typed)
            form.addRow(token.name, box)
            self.card_boxes[token.id] = box
        self.extra.addWidget(dealt)

    def _card_codes(self) -> tuple[str, ...]:
        """The cards a GM may say a token drew: the choices the system declares for its
        ``cards`` option (the desktop keeps no deck of its own)."""
        spec = next(o for o in self.system.options_of("start_combat") if o.name == "cards")
        return tuple(str(code) for code in spec.choices)

    def _card_typed(self) -> None:
        self.typed = any(box.currentData() for box in self.card_boxes.values())
        self.typed_button.setEnabled(self.typed)
        self._mark_default()

    def cards(self) -> dict[str, str]:
        """Token id -> the card picked for it (the tokens left "from the deck" are dealt)."""
        return {token_id: str(box.currentData())
                for token_id, box in self.card_boxes.items() if box.currentData()}

    def choose_typed(self) -> None:
        if not self.deals_cards:
            super().choose_typed()
            return
        self.answer = None  # the shuffle still comes from the seed; the cards ride in options
        self.accept()

    def command(self) -> Command:
        options: dict[str, OptionValue | dict[str, str] | list[str]] = dict(self.option_values)
        if self.deals_cards and self.answer is None and self.typed:
            options["cards"] = self.cards()
        awareness = self.awareness.currentData()
        if awareness:
            options["awareness"] = str(awareness)
        acting = [side for side, box in self.acting.items() if box.isChecked()]
        if acting:
            options["acting"] = acting
        grouped = [side for side, box in self.grouped.items() if box.isChecked()]
        if grouped:
            options["group_initiative"] = grouped
        return Command("start_combat").with_options(**options)

    def reasons(self) -> list[str]:
        """Why the engine would refuse to start the fight with the choices made (none: it
        may start)."""
        try:
            return list(self.system.preview(self.state, self.command()).reasons)
        except CommandError as error:  # an option the engine cannot read at all
            return [str(error)]

    def refresh(self) -> None:
        reasons = self.reasons()
        self.problem.setText("\n".join(reasons))
        self.problem.setVisible(bool(reasons))
        self.roll_button.setEnabled(not reasons)
        if reasons:
            self.set_rolls(())
            return
        if self.deals_cards:
            self.set_rolls(())  # a shuffle is 53 draws: nobody types those
            self._card_typed()
            return
        self.set_rolls(planned_rolls(self.system, self.state, self.command()))
