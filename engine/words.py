"""Counted nouns and condition lines for the words a GM reads ("1 square", "3 squares",
"1 Wound"; "Vale is Prone.", "Vale takes Total Defense.").

Log lines, reasons and summaries put numbers before nouns; a bare ``f"{n} squares"``
reads "1 squares" whenever n is one.

>>> counted(1, "square"), counted(3, "square"), counted(0, "round")
('1 square', '3 squares', '0 rounds')
>>> counted(2.5, "square"), counted(1, "Benny", "Bennies")
('2.5 squares', '1 Benny')
"""

from __future__ import annotations

from collections.abc import Iterable


def counted(count: float, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, the noun plural unless the count is exactly one (``plural``
    for a noun that does not just take an "s"). Below zero is plural, as the rule books
    write it: "-1 hit points"."""
    word = noun if count == 1 else (plural or f"{noun}s")
    number = str(count) if isinstance(count, int) else f"{count:g}"
    return f"{number} {word}"


def condition_given(who: str, condition: str, actions: Iterable[str] = ()) -> str:
    """The log line for a condition ``who`` gains: "Vale is Prone.", but a condition named
    after one of ``actions`` (the action that gives it) is taken, as "Vale is Total
    Defense." did not read.

    >>> condition_given("Vale", "Prone", ("Total Defense",))
    'Vale is Prone.'
    >>> condition_given("Vale", "Total Defense", ("Total Defense",))
    'Vale takes Total Defense.'
    """
    taken = condition.casefold() in {action.casefold() for action in actions}
    return f"{who} {'takes' if taken else 'is'} {condition}."
