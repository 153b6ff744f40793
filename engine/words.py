"""Counted nouns for the words a GM reads ("1 square", "3 squares", "1 Wound").

Log lines, reasons and summaries put numbers before nouns; a bare ``f"{n} squares"``
reads "1 squares" whenever n is one.

>>> counted(1, "square"), counted(3, "square"), counted(0, "round")
('1 square', '3 squares', '0 rounds')
>>> counted(2.5, "square"), counted(1, "Benny", "Bennies")
('2.5 squares', '1 Benny')
"""

from __future__ import annotations


def counted(count: float, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, the noun plural unless the count is exactly one (``plural``
    for a noun that does not just take an "s"). Below zero is plural, as the rule books
    write it: "-1 hit points"."""
    word = noun if count == 1 else (plural or f"{noun}s")
    number = str(count) if isinstance(count, int) else f"{count:g}"
    return f"{number} {word}"
