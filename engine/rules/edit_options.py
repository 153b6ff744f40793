"""Reading an editing command's options: typed, checked, every problem said in words.

Command options are plain scalars (text, numbers, true/false), so places on the map travel as
text: a point is ``"x,y"`` and a line of points ``"x,y x,y ..."``, in square units with grid
corners at whole numbers (``"0,0 5,0 5,3"``). :func:`points_text` writes that form.

An :class:`Options` reader collects every problem instead of stopping at the first. Which
options a command may carry is its catalogue entry's declared options: the rule system's one
option check (``RuleSystem.check_options``) refuses a misspelt or ill-typed one before any
editing command runs, so this reader only reads values and checks what the schema cannot
(points, ranges).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import TypeVar

from engine.grid import Point, Square
from engine.rules.base import Command, OptionValue

E = TypeVar("E", bound=StrEnum)

_SEPARATOR = re.compile(r"[\s;]+")


class Refused(Exception):
    """An editing command that cannot be carried out; ``reasons`` says why, one per problem."""

    def __init__(self, *reasons: str) -> None:
        super().__init__("; ".join(reasons))
        self.reasons = tuple(reasons)


def points_text(points: Iterable[Sequence[float]]) -> str:
    """Points as option text: ``points_text([(0, 0), (5, 2.5)])`` -> ``"0,0 5,2.5"``."""
    return " ".join(f"{x:g},{y:g}" for x, y in points)


def parse_points(text: str) -> tuple[Point, ...]:
    """``"0,0 5,2.5"`` -> ``((0.0, 0.0), (5.0, 2.5))``; ValueError says what is wrong."""
    points: list[Point] = []
    for part in _SEPARATOR.split(text.strip()):
        if not part:
            continue
        pieces = part.split(",")
        if len(pieces) != 2:
            raise ValueError(f"{part!r} is not a point written x,y")
        try:
            x, y = float(pieces[0]), float(pieces[1])
        except ValueError:
            raise ValueError(f"{part!r} is not a point written x,y with numbers") from None
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError(f"{part!r} is not a finite point")
        points.append((x, y))
    return tuple(points)


class Options:
    """Typed access to one command's options; problems pile up in :attr:`problems`."""

    def __init__(self, command: Command) -> None:
        self.command = command
        self.problems: list[str] = []
        self._given = dict(command.options)

    def has(self, name: str) -> bool:
        return name in self._given

    def _raw(self, name: str) -> OptionValue | None:
        return self._given.get(name)

    def text(self, name: str, default: str = "") -> str:
        value = self._raw(name)
        if value is None:
            return default
        if not isinstance(value, str):
            self.problems.append(f"{name}= must be text, not {value!r}")
            return default
        return value

    def flag(self, name: str, default: bool) -> bool:
        value = self._raw(name)
        if value is None:
            return default
        if not isinstance(value, bool):
            self.problems.append(f"{name}= must be true or false, not {value!r}")
            return default
        return value

    def number(
        self, name: str, default: float, *, minimum: float | None = None, above: float | None = None
    ) -> float:
        value = self._raw(name)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(
            value
        ):
            self.problems.append(f"{name}= must be a number, not {value!r}")
            return default
        if minimum is not None and value < minimum:
            self.problems.append(f"{name}= must be at least {minimum:g}, not {value:g}")
        if above is not None and value <= above:
            self.problems.append(f"{name}= must be more than {above:g}, not {value:g}")
        return float(value)

    def whole(self, name: str, default: int, *, minimum: int | None = None) -> int:
        value = self._raw(name)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            self.problems.append(f"{name}= must be a whole number, not {value!r}")
            return default
        if minimum is not None and value < minimum:
            self.problems.append(f"{name}= must be at least {minimum}, not {value}")
        return value

    def choice(self, name: str, kind: type[E], default: E) -> E:
        value = self._raw(name)
        if value is None:
            return default
        try:
            return kind(str(value)) if isinstance(value, str) else kind("\x00")
        except ValueError:
            allowed = ", ".join(member.value for member in kind)
            self.problems.append(f"{name}= must be one of {allowed}, not {value!r}")
            return default

    def points(self, name: str, *, at_least: int, at_most: int | None = None) -> tuple[Point, ...]:
        """A line of points (``"x,y x,y"``) with a count in range; () after a problem."""
        if not self.has(name):
            self.problems.append(f"say where with {name}= (points written \"x,y x,y ...\")")
            return ()
        try:
            points = parse_points(self.text(name))
        except ValueError as error:
            self.problems.append(f"{name}=: {error}")
            return ()
        if len(points) < at_least or (at_most is not None and len(points) > at_most):
            wanted = f"{at_least}" if at_most == at_least else f"at least {at_least}"
            if at_most is not None and at_most != at_least:
                wanted = f"{at_least} to {at_most}"
            self.problems.append(f"{name}= needs {wanted} points, found {len(points)}")
            return ()
        return points

    def point(self, name: str) -> Point | None:
        points = self.points(name, at_least=1, at_most=1)
        return points[0] if points else None

    def squares(self) -> tuple[Square, ...]:
        return self.command.squares

    def rect_squares(self) -> set[Square]:
        """The squares of option ``rect="x1,y1 x2,y2"`` (corner squares, inclusive)."""
        if not self.has("rect"):
            return set()
        corners = self.points("rect", at_least=2, at_most=2)
        if not corners:
            return set()
        if any(not float(v).is_integer() for corner in corners for v in corner):
            self.problems.append("rect= names two squares by whole numbers: \"x1,y1 x2,y2\"")
            return set()
        (x1, y1), (x2, y2) = ((int(x), int(y)) for x, y in corners)
        return {
            Square(x, y)
            for x in range(min(x1, x2), max(x1, x2) + 1)
            for y in range(min(y1, y2), max(y1, y2) + 1)
        }

    def done(self) -> None:
        """Raise :class:`Refused` with every problem found while reading."""
        if self.problems:
            raise Refused(*self.problems)
