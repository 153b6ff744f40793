"""Reading the text version-1 files kept where a system's state is now typed.

A system's :meth:`~engine.rules.base.RuleSystem.upgrade_state` reads it with these, once, when
a file loads: ids joined by commas, a square as ``"x,y"``, whole numbers, a record as JSON
inside a string. Each reader raises :class:`~engine.rules.base.OldStateError` naming the place
and what is wrong, so a damaged file is refused rather than half read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

from pydantic import TypeAdapter, ValidationError

from engine.grid import Square
from engine.rules.base import OldStateError

T = TypeVar("T")

#: Where a value is, as keys from the encounter down.
Place = Sequence[str | int]

# As version 1 wrote them: an optional minus and at most nine digits (no "+", "_" or spaces).
_WHOLE = re.compile(r"-?\d{1,9}")


def text_at(value: object, place: Place, what: str) -> str:
    """``value`` when it is text; else the place is refused as not ``what``."""
    if not isinstance(value, str):
        raise OldStateError(place, f"should be {what} as text, found {_show(value)}")
    return value


def ids_in(value: object, place: Place) -> tuple[str, ...]:
    """Token ids joined by commas (empty pieces skipped, as version 1 read them)."""
    return tuple(piece for piece in text_at(value, place, "ids joined by commas").split(",")
                 if piece)


def whole_number(text: str, place: Place, what: str) -> int:
    if not _WHOLE.fullmatch(text):
        raise OldStateError(place, f"{what} should be a whole number, found {_show(text)}")
    return int(text)


def square_in(text: str, place: Place) -> Square:
    """A square written ``"x,y"``."""
    x, comma, y = text.partition(",")
    if not (comma and _WHOLE.fullmatch(x) and _WHOLE.fullmatch(y)):
        raise OldStateError(place, f"should name a square as 'x,y' in whole numbers, "
                                   f"found {_show(text)}")
    return Square(int(x), int(y))


def record_in(adapter: TypeAdapter[T], value: object, place: Place, what: str) -> T:
    """A record written as JSON inside a string, validated as strictly as a file is."""
    text = text_at(value, place, f"{what} in JSON")
    try:
        return adapter.validate_json(text, strict=True)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        inside = ".".join(str(key) for key in error["loc"])
        where = f" at {inside}" if inside else ""
        raise OldStateError(place, f"is not {what} in JSON{where}: {error['msg']}") from None


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
