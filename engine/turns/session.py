"""An encounter in play: the current state, its rule system, undo and redo, dice, the log.

The history is a stack of immutable states, so undo is exact by construction: undoing
every step gives back the very first state (seed, roll counter and log included). A new
command clears the redo stack; :meth:`Encounter.step` groups several applies (a drag) into
one undo step.

The stacks do not keep a copy of the combat log per state: a stored state holds an empty
log and the length of its own, and the entries live once in a shared list
(:class:`_History`), so each command adds a bounded amount to the history rather than a
copy of the whole log.
"""

from __future__ import annotations

import hashlib
import operator
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace

from engine import limits
from engine.dice import Dice, GivenDice, Roll, SeededDice, draw
from engine.encounter import EncounterState
from engine.rules import get_system
from engine.rules.base import (
    ActionSpec,
    Command,
    CommandError,
    Event,
    IllegalCommand,
    Preview,
    RuleSystem,
)
from engine.rules.editing import images_named
from engine.turns.combat import LogEntry

DiceInput = Dice | Sequence[int] | None


class NothingToUndo(CommandError):
    """Undo or redo with an empty stack."""


class _Counting:
    """Counts the rolls a command makes so the encounter's roll counter moves on."""

    def __init__(self, inner: Dice) -> None:
        self.inner = inner
        self.count = 0

    @property
    def rolls(self) -> int:
        return self.count

    def roll(self, expression: str, purpose: str) -> Roll:
        self.count += 1
        return self.inner.roll(expression, purpose)

    def draw(self, expression: str, purpose: str) -> Roll:
        self.count += 1
        return draw(self.inner, expression, purpose)


def log_text(event: Event) -> str:
    """An event as one log line; a roll's working is added in brackets."""
    if event.roll is None:
        return event.text
    return f"{event.text} [{event.roll.detail}]"


def _kept_log(log: tuple[LogEntry, ...]) -> tuple[LogEntry, ...]:
    """The log, its oldest lines dropped once it passes what a file may hold.

    A file keeps at most engine.limits.MAX_LOG_ENTRIES lines, so a longer log could never
    be saved (nor autosaved); the GM could not shorten it. The oldest tenth goes at once,
    so the log the undo history shares is started afresh once in many thousand lines.
    """
    if len(log) <= limits.MAX_LOG_ENTRIES:
        return log
    return log[len(log) - limits.MAX_LOG_ENTRIES * 9 // 10 :]


@dataclass(frozen=True, slots=True)
class _Stored:
    """A state on the undo or redo stack: the state with an empty log, and its log as the
    first ``length`` entries of ``entries`` (a list shared by the states of one line of
    play), or its own log when it shares none."""

    state: EncounterState
    entries: list[LogEntry]
    length: int

    def restore(self) -> EncounterState:
        log = tuple(self.entries[: self.length])
        return replace(self.state, combat=replace(self.state.combat, log=log))


class _History:
    """The log entries the stored states share, appended to as play goes on."""

    def __init__(self) -> None:
        self.entries: list[LogEntry] = []

    def store(self, state: EncounterState, stacks: Sequence[Sequence[_Stored]]) -> _Stored:
        log = state.combat.log
        shared = self.entries
        common = len(shared) if len(log) >= len(shared) else len(log)
        if not all(map(operator.is_, log[:common], shared)):
            # Play went another way (a log rewritten): entries past the common start are no
            # one's but the states that still name them, so a new list starts if needed.
            common = next(
                i for i, pair in enumerate(zip(log, shared, strict=False)) if pair[0] is not pair[1]
            )
            needed = max(
                (kept.length for stack in stacks for kept in stack if kept.entries is shared),
                default=0,
            )
            if needed > common:
                self.entries = shared = list(log[:common])
            else:
                del shared[common:]
        if len(log) > len(shared):
            shared.extend(log[len(shared) :])
        emptied = replace(state, combat=replace(state.combat, log=()))
        return _Stored(emptied, shared, len(log))


class Encounter:
    """A fight being played. Wraps an :class:`EncounterState` and its rule system.

    >>> from engine.battlemap import BattleMap
    >>> from engine.grid import FIVE_FOOT
    >>> from engine.rules import DEFAULT_SYSTEM
    >>> state = EncounterState("Demo", DEFAULT_SYSTEM, FIVE_FOOT, BattleMap(4, 4))
    >>> fight = Encounter(state)
    >>> fight.system.name == DEFAULT_SYSTEM
    True
    >>> fight.can_undo
    False
    """

    def __init__(
        self,
        state: EncounterState,
        system: RuleSystem | None = None,
        *,
        seed: int | None = None,
        images: Mapping[str, bytes] | None = None,
    ) -> None:
        if seed is not None:
            state = replace(state, combat=replace(state.combat, seed=seed))
        self.system = system if system is not None else get_system(state.system)
        self._undo: list[_Stored] = []
        self._redo: list[_Stored] = []
        self._history = _History()
        self._state = state
        self._grouping = 0
        self._group_saved = False
        #: Pictures the encounter file carries (kept so that save writes them back), and
        #: those added since (:meth:`add_image`), by entry name.
        self._images: dict[str, bytes] = dict(images or {})
        self._added: set[str] = set()

    # ---- pictures

    @property
    def images(self) -> Mapping[str, bytes]:
        """Every picture the encounter holds, by entry name (``images/...``)."""
        return self._images

    def add_image(self, data: bytes, stem: str = "picture") -> str:
        """Keep a PNG, JPEG or WebP picture; returns its entry name for a command to give.

        The name holds a digest of the bytes, so the same picture is stored once and an
        entry never changes: undo and redo need no picture history. A picture no state
        names is left out when the encounter is saved. CommandError says why a picture is
        refused (not an image, too large, damaged).
        """
        from engine.files.images import ImageProblem, check_image

        try:
            kind, _ = check_image(bytes(data))
        except ImageProblem as problem:
            raise CommandError(f"the picture is refused: {problem}") from problem
        safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in stem)[:40] or "picture"
        digest = hashlib.sha256(data).hexdigest()[:16]
        extension = {"PNG": "png", "JPEG": "jpg", "WEBP": "webp"}[kind]
        name = f"images/{safe}-{digest}.{extension}"
        if name not in self._images:
            self._images[name] = bytes(data)
            self._added.add(name)
        return name

    def _missing_images(self, command: Command) -> tuple[str, ...]:
        return tuple(
            f"the encounter holds no picture {name!r} (add it with add_image first)"
            for name in images_named(command)
            if name not in self._images
        )

    # ---- files

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, seed: int | None = None) -> Encounter:
        """Load an encounter file (``.killbox``); its rule system is found by name."""
        from engine.files import load_encounter

        loaded = load_encounter(path)
        return cls(loaded.state, seed=seed, images=loaded.images)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Save the current state (combat, dice position and log included), atomically."""
        from engine.files import EncounterFile, referenced_images, save_encounter

        named = set(referenced_images(self._state).values())
        kept = {
            name: data
            for name, data in self._images.items()
            if name in named or name not in self._added
        }
        save_encounter(path, EncounterFile(self._state, kept))

    # ---- reading

    @property
    def state(self) -> EncounterState:
        return self._state

    @property
    def initial_state(self) -> EncounterState:
        """The state the encounter started from (the bottom of the undo stack)."""
        return self._undo[0].restore() if self._undo else self._state

    @property
    def log(self) -> tuple[LogEntry, ...]:
        return self._state.combat.log

    @property
    def undo_depth(self) -> int:
        """How many steps undo can go back (a journal records it to check a replay)."""
        return len(self._undo)

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def legal_actions(self, token_id: str) -> tuple[ActionSpec, ...]:
        """Actions ``token_id`` may take now."""
        return self.system.legal_actions(self._state, token_id)

    def example_commands(self, token_id: str) -> Iterator[Command]:
        return self.system.example_commands(self._state, token_id)

    def preview(self, command: Command) -> Preview:
        """What ``command`` would do; nothing changes."""
        preview = self.system.preview(self._state, command)
        missing = self._missing_images(command)
        if missing:
            return replace(preview, legal=False, reasons=(*preview.reasons, *missing))
        return preview

    # ---- changing

    def dice_for(self, dice: DiceInput) -> Dice:
        """The dice a command rolls with: the encounter's seed, typed totals, or yours."""
        combat = self._state.combat
        if dice is None:
            return SeededDice(combat.seed, combat.rolls)
        if isinstance(dice, Sequence):
            totals = [int(v) for v in dice]
            return GivenDice(totals, SeededDice(combat.seed, combat.rolls + len(totals)))
        return dice

    def apply(
        self, command: Command, dice: DiceInput = None, *, join: bool = False
    ) -> tuple[Event, ...]:
        """Apply a legal command; raises :class:`~engine.rules.base.IllegalCommand` if not.

        ``dice``: None rolls from the encounter's seed; a list of ints is what the GM
        rolled at the table (used in the order the preview's ``rolls`` lists, the rest
        rolled from the seed); or any :class:`~engine.dice.Dice`. ``join``: the command
        is part of the last undo step (as inside :meth:`step`; a journal's replay uses it).
        """
        missing = self._missing_images(command)
        if missing:
            raise IllegalCommand(command, missing)
        counting = _Counting(self.dice_for(dice))
        new_state, events = self.system.apply(self._state, command, counting)
        combat = new_state.combat
        entries = tuple(
            LogEntry(combat.round, event.kind.value, log_text(event), event.tokens)
            for event in events
        )
        new_state = replace(
            new_state,
            combat=replace(
                combat, rolls=self._state.combat.rolls + counting.count,
                log=_kept_log(combat.log + entries),
            ),
        )
        self._push(new_state, join)
        return events

    def _push(self, new_state: EncounterState, join: bool = False) -> None:
        if join and self._undo:
            pass  # the previous step grows
        elif not self._grouping or not self._group_saved:
            self._undo.append(self._store(self._state))
            self._group_saved = bool(self._grouping)
        self._redo.clear()
        self._state = new_state

    def _store(self, state: EncounterState) -> _Stored:
        return self._history.store(state, (self._undo, self._redo))

    @contextmanager
    def step(self) -> Iterator[Encounter]:
        """Group every apply inside the block into one undo step (a drag)."""
        self._grouping += 1
        try:
            yield self
        finally:
            self._grouping -= 1
            if not self._grouping:
                self._group_saved = False

    def undo(self) -> EncounterState:
        """Go back one step; returns the state now current."""
        if not self._undo:
            raise NothingToUndo("nothing to undo: this is the start of the encounter")
        self._redo.append(self._store(self._state))
        self._state = self._undo.pop().restore()
        return self._state

    def redo(self) -> EncounterState:
        if not self._redo:
            raise NothingToUndo("nothing to redo")
        self._undo.append(self._store(self._state))
        self._state = self._redo.pop().restore()
        return self._state

    def undo_all(self) -> EncounterState:
        while self._undo:
            self.undo()
        return self._state
