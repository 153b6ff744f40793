"""How a stat's number is written where people read and type it (``StatSpec.notation``).

A number is written as it is; a die size (a trait of 8 is a d8) as the die, "d8", and a
skill of 0 (no die) as "untrained". A form and the inspector show and read stats through
these words, so the desktop names no system: the schema says which stats are dice.
"""

from __future__ import annotations

import re
from enum import Enum


class Notation(Enum):
    NUMBER = "number"
    DIE = "die"


#: The die sizes, smallest first.
DIE_SIZES = (4, 6, 8, 10, 12)
UNTRAINED = "untrained"
_DIE = re.compile(r"^\s*d?\s*(\d+)\s*$", re.IGNORECASE)


def die_words(value: object) -> str:
    """8 -> "d8"; 0 -> "untrained"; anything else as it is."""
    if isinstance(value, int) and not isinstance(value, bool):
        return UNTRAINED if value == 0 else f"d{value}"
    return str(value)


def die_number(text: str) -> int:
    """ "d8", "D8" or "8" -> 8; "untrained", "-" or "0" -> 0. ValueError names the text."""
    cleaned = text.strip().lower()
    if cleaned in {UNTRAINED, "-", "—", "0", "none"}:
        return 0
    match = _DIE.match(cleaned)
    if match is None:
        raise ValueError(f"a die is written d4, d6, d8, d10 or d12, not {text.strip()!r}")
    return int(match.group(1))


def die_choices(minimum: float | None) -> tuple[tuple[str, int], ...]:
    """What a die stat may be set to: ("untrained", 0) when 0 is allowed, then d4 .. d12."""
    zero = ((UNTRAINED, 0),) if minimum is not None and minimum <= 0 else ()
    return (*zero, *((f"d{size}", size) for size in DIE_SIZES))
