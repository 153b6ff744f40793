"""Dice: expressions rolled through the ``d20`` library from a seed kept in the encounter.

``d20`` draws from the global :mod:`random` module. To make rolls reproducible without
touching anybody else's randomness, each roll swaps ``d20.expression.random`` for a
:class:`random.Random` seeded from (encounter seed, roll number) under a lock, so roll n
of an encounter is always the same whatever happened elsewhere in the process.

The GM may roll physical dice instead: :class:`GivenDice` takes what the dice show (the
sum of the dice of one roll, e.g. the d20's face) and adds the expression's modifiers.

>>> dice = SeededDice(seed=7)
>>> first = dice.roll("1d20+5", "initiative")
>>> SeededDice(seed=7).roll("1d20+5", "initiative").total == first.total
True
>>> dice.rolls
1
>>> GivenDice([17]).roll("1d20+5", "initiative").total
22
"""

from __future__ import annotations

import functools
import random
import re
import secrets
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import d20


class DiceError(ValueError):
    """A dice expression that cannot be rolled, or a typed roll that is missing."""


@dataclass(frozen=True, slots=True)
class Roll:
    """The result of one roll: the total, how it came about, and what it was for."""

    expression: str
    total: int
    detail: str
    purpose: str
    given: bool = False
    #: The natural result of the first die (for threats and errors on a d20), if known.
    natural: int | None = None

    def __str__(self) -> str:
        how = "typed in" if self.given else self.detail
        return f"{self.purpose}: {self.total} ({how})"


class Dice(Protocol):
    """Anything that rolls: seeded, typed in by the GM, or a mix."""

    @property
    def rolls(self) -> int:
        """How many rolls have been made so far (the encounter stores it)."""
        ...

    def roll(self, expression: str, purpose: str) -> Roll: ...


_LOCK = threading.Lock()


def _stream(seed: int, index: int) -> random.Random:
    # A string seed is hashed with SHA-512 by random.Random: stable across runs and versions.
    return random.Random(f"killbox:{seed}:{index}")


def _natural(result: d20.RollResult) -> int | None:
    import d20

    groups = [node for node in _walk(result.expr) if isinstance(node, d20.Dice)]
    if not groups or not groups[0].values:
        return None
    return int(groups[0].values[0].number)


def _walk(node: d20.Number | d20.Expression) -> Iterable[d20.Number]:
    yield node
    for child in node.children:
        yield from _walk(child)


@functools.cache
def _readable() -> d20.Stringifier:
    """d20's plain stringifier, the faces as a GM says them: ``1d20 (17) + 5 = 22``, an
    acing die ``1d6 acing (6, 4) = 10``, a die left out ``(2 dropped)`` (d20's own marks
    are Markdown: ``**1**``, ``~~2~~`` and backticks round the total)."""
    import d20

    class Readable(d20.SimpleStringifier):  # type: ignore[misc]  # d20 ships no types
        def _str_dice(self, node: d20.Dice) -> str:
            faces = ", ".join(self._stringify(die) for die in node.values)
            group = dice_words(f"{node.num}d{node.size}{self._str_ops(node.operations)}")
            return f"{group} ({faces})"

        def _str_die(self, node: d20.Die) -> str:
            # An acing die's faces are its rolls; each shows what it came up.
            faces = ", ".join(self._stringify(face) for face in node.values)
            return faces if node.kept else f"{faces} dropped"

        def _str_literal(self, node: d20.Literal) -> str:
            return str(int(node.number))

    return Readable()


def roll_expression(expression: str, stream: random.Random) -> d20.RollResult:
    """Roll an expression with ``d20``, drawing only from ``stream``; the result's text is
    readable (:func:`_readable`)."""
    # Imported on the first roll: building d20's grammar is slow and the map needs no dice.
    import d20
    import d20.expression

    with _LOCK:
        saved = d20.expression.random
        d20.expression.random = stream
        try:
            return d20.roll(expression, stringifier=_readable())
        except d20.RollError as error:
            raise DiceError(f"cannot roll {expression!r}: {error}") from error
        finally:
            d20.expression.random = saved


class SeededDice:
    """Rolls drawn from the encounter's seed; ``rolls`` counts up from ``start``."""

    def __init__(self, seed: int, start: int = 0) -> None:
        self.seed = seed
        self._rolls = start

    @property
    def rolls(self) -> int:
        return self._rolls

    def roll(self, expression: str, purpose: str) -> Roll:
        result = roll_expression(expression, _stream(self.seed, self._rolls))
        self._rolls += 1
        return Roll(expression, int(result.total), str(result), purpose, natural=_natural(result))


_EXPLODING = re.compile(r"(\d*)d(\d+)e\2\b")


def dice_words(expression: str) -> str:
    """An expression as a GM reads it: ``1d6e6+1`` is "1d6 acing+1" (a die rolled again
    and added while it shows its highest face; typed in, it is the faces added up)."""
    return _EXPLODING.sub(r"\1d\2 acing", expression)


def aces(expression: str) -> bool:
    """Whether a die of ``expression`` is rolled again while it shows its highest face."""
    return bool(_EXPLODING.search(expression))


def modifier_of(expression: str) -> tuple[int, int]:
    """(constant modifier, number of dice) of an expression such as ``2d6+3``."""
    import d20

    result = roll_expression(expression, random.Random(0))
    groups = [node for node in _walk(result.expr) if isinstance(node, d20.Dice)]
    dice_sum = sum(int(group.number) for group in groups)
    # The dice asked for, not the dice rolled: an exploding die may add more.
    count = sum(int(group.num) for group in groups)
    return int(result.total) - dice_sum, count


class _Extreme(random.Random):
    """A stream whose every die shows its lowest (or highest) face."""

    def __init__(self, highest: bool) -> None:
        super().__init__(0)
        self.highest = highest

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        faces = range(start) if stop is None else range(start, stop, step)
        return faces[-1] if self.highest else faces[0]


def bounds_of(expression: str) -> tuple[int, int]:
    """The lowest and highest total of a sum of dice and constants (``1d4+1``: 2 and 5)."""
    low = int(roll_expression(expression, _Extreme(highest=False)).total)
    high = int(roll_expression(expression, _Extreme(highest=True)).total)
    return low, high


def draw(dice: Dice, expression: str, purpose: str) -> Roll:
    """A random draw that no die at the table makes (a shuffle's swap of two cards): dice
    with a ``draw`` of their own keep it apart from the rolls, so a GM typing the faces of
    physical dice is never asked for it (:class:`GivenDice`); other dice roll it."""
    own = getattr(dice, "draw", None)
    return own(expression, purpose) if callable(own) else dice.roll(expression, purpose)


class GivenDice:
    """What the GM's physical dice showed, used in order; the engine adds the modifiers.

    Each value is the sum of the dice of one roll (for ``1d20+5`` the d20's face, so a
    typed 17 makes 22; for ``2d6+1`` the two dice together). A single-d20 roll reports
    the typed face as its natural result, so threats and errors work as rolled. When the
    values run out, ``fallback`` rolls the rest (or a :class:`DiceError` names the roll).
    A :func:`draw` takes no typed value: the fallback makes it, when there is one.
    """

    def __init__(self, faces: Iterable[int], fallback: Dice | None = None) -> None:
        self._totals = list(faces)
        self._used = 0
        self._fallback = fallback

    @property
    def rolls(self) -> int:
        return self._used + (self._fallback.rolls if self._fallback else 0)

    def roll(self, expression: str, purpose: str) -> Roll:
        if self._used < len(self._totals):
            face = self._totals[self._used]
            self._used += 1
            modifier, count = modifier_of(expression)
            natural = (
                face if count == 1 and expression.replace(" ", "").startswith("1d20") else None
            )
            total = face + modifier
            detail = f"typed {face}" + (f" {modifier:+d}" if modifier else "") + f" = {total}"
            return Roll(expression, total, detail, purpose, given=True, natural=natural)
        if self._fallback is not None:
            return self._fallback.roll(expression, purpose)
        raise DiceError(
            f"no typed roll left for {purpose} ({expression}); {len(self._totals)} were given"
        )

    def draw(self, expression: str, purpose: str) -> Roll:
        if self._fallback is not None:
            return draw(self._fallback, expression, purpose)
        return self.roll(expression, purpose)  # typed values are all there is


def summed(rolls: Sequence[Roll], purpose: str) -> Roll:
    """Several rolls added up as one (a critical hit's damage dice rolled twice), each one's
    faces kept in the working: ``2d6 (3, 4) = 7; 2d6 (1, 6) = 7; 14 in all``."""
    if len(rolls) == 1:
        return rolls[0]
    total = sum(roll.total for roll in rolls)
    detail = "; ".join(roll.detail for roll in rolls) + f"; {total} in all"
    expression = " + ".join(roll.expression for roll in rolls)
    return Roll(expression, total, detail, purpose, given=all(r.given for r in rolls))


def fresh_seed() -> int:
    """A new random seed for a fight nobody pinned one for (48 bits from the OS)."""
    return secrets.randbits(48)


def check_expression(expression: str) -> None:
    """Raise :class:`DiceError` if ``expression`` is not a dice expression d20 can roll."""
    roll_expression(expression, random.Random(0))


def roll_once(expression: str, purpose: str, stream: random.Random | None = None) -> Roll:
    """One roll outside the fight's seeded stream: the GM's own '3d6' for damage typed by
    hand. Only its total enters the fight (as the amount of a command), so a replay needs
    no seed for it. ``stream`` lets a test fix the faces."""
    result = roll_expression(expression, stream or random.Random(secrets.randbits(64)))
    return Roll(expression, int(result.total), str(result), purpose, natural=_natural(result))
