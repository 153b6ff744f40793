"""Reading an editing command's options: typed, checked, every problem said in words.

Places on the map are typed option values in square units, grid corners at whole numbers:
a point is ``(x, y)`` and a line of points ``[(x, y), (x, y), ...]``
(``points=[(0, 0), (5, 0), (5, 3)]``); a stat block is a mapping and weapons and tokens are
records (:mod:`engine.rules.option_kinds`), never text to split.

An :class:`Options` reader collects every problem instead of stopping at the first. Which
options a command may carry, and of which kind, is its catalogue entry's declared options:
the rule system's one option check (``RuleSystem.check_options``) refuses a misspelt or
ill-typed one before any editing command runs, so this reader only reads values and checks
what the schema cannot (how many points, ranges, whether they lie on the map).
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import TypeVar

from engine.grid import Point, Square
from engine.rules.base import Command, OptionValue
from engine.tokens import StatNames, StatValue, Weapon

E = TypeVar("E", bound=StrEnum)


class Refused(Exception):
    """An editing command that cannot be carried out; ``reasons`` says why, one per problem."""

    def __init__(self, *reasons: str) -> None:
        super().__init__("; ".join(reasons))
        self.reasons = tuple(reasons)


def _as_point(value: object) -> Point | None:
    if (isinstance(value, tuple) and len(value) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)):
        return float(value[0]), float(value[1])
    return None


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
        """A line of points (``[(x, y), ...]``) with a count in range; () after a problem."""
        if not self.has(name):
            self.problems.append(f"say where with {name}= (points [(x, y), ...])")
            return ()
        value = self._raw(name)
        points = tuple(_as_point(v) for v in value) if isinstance(value, tuple) else (None,)
        if None in points:
            self.problems.append(f"{name}= must be a list of points (x, y), not {value!r}")
            return ()
        if len(points) < at_least or (at_most is not None and len(points) > at_most):
            wanted = f"{at_least}" if at_most == at_least else f"at least {at_least}"
            if at_most is not None and at_most != at_least:
                wanted = f"{at_least} to {at_most}"
            noun = "point" if at_most == at_least == 1 else "points"
            self.problems.append(f"{name}= needs {wanted} {noun}, found {len(points)}")
            return ()
        return points  # type: ignore[return-value]

    def point(self, name: str) -> Point | None:
        """One point (``(x, y)``); None after a problem."""
        if not self.has(name):
            self.problems.append(f"say where with {name}= (a point (x, y))")
            return None
        point = _as_point(self._raw(name))
        if point is None:
            self.problems.append(f"{name}= must be a point (x, y), not {self._raw(name)!r}")
        return point

    def squares(self) -> tuple[Square, ...]:
        return self.command.squares

    def rect_squares(self) -> set[Square]:
        """The squares of option ``rect=[(x1, y1), (x2, y2)]`` (corner squares, inclusive;
        the option schema has made sure they are whole numbers)."""
        if not self.has("rect"):
            return set()
        corners = self.points("rect", at_least=2, at_most=2)
        if not corners:
            return set()
        (x1, y1), (x2, y2) = ((int(x), int(y)) for x, y in corners)
        return {
            Square(x, y)
            for x in range(min(x1, x2), max(x1, x2) + 1)
            for y in range(min(y1, y2), max(y1, y2) + 1)
        }

    def stats(self, name: str) -> dict[str, StatValue | StatNames]:
        """A stat block given as a mapping (stat name -> a value or names)."""
        value = self._raw(name)
        found: dict[str, StatValue | StatNames] = {}
        for pair in value if isinstance(value, tuple) else (value,):
            if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)
                    and not isinstance(pair[1], Square)):
                self.problems.append(f"{name}= must be stat names each with a value, "
                                     f"not {value!r}")
                return {}
            found[pair[0]] = pair[1]
        return found

    def weapons(self, name: str) -> tuple[Weapon, ...]:
        """Weapon records in order."""
        value = self._raw(name)
        if not (isinstance(value, tuple) and all(isinstance(v, Weapon) for v in value)):
            self.problems.append(f"{name}= must be a list of weapon records, not {value!r}")
            return ()
        return value  # type: ignore[return-value]

    def done(self) -> None:
        """Raise :class:`Refused` with every problem found while reading."""
        if self.problems:
            raise Refused(*self.problems)
