"""Counted nouns: "1 square", never "1 squares", in every line the engine writes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.words import counted

ENGINE = Path(__file__).resolve().parents[2] / "engine"

#: A number put straight before a plural noun in an f-string ("{n} squares"), or "(s)".
BARE_PLURAL = re.compile(
    # A named constant ({MAX_SIDE}) is never one; a width by a height ({w}x{h}) is a size.
    r"(?<!x)\{(?![\w.]*\b[A-Z][A-Z0-9_]+(:[^{}]*)?\})[^{}]+\}\s+"
    r"(squares|rounds|shots|wounds|Wounds|points|hit points|tokens|lines"
    r"|increments|actions|half actions|attack actions|times|places|assailants|teammates"
    r"|volleys)\b"
    r"|(square|round|shot|wound|Wound|point|token|action|die|target)\(s\)"
)

#: Lines the pattern finds that are right as they are, by file and a piece of the line.
RIGHT_AS_THEY_ARE = {
    ("engine/words.py", "a bare"): "the docstring shows the mistake",
    ("engine/rules/command_shape.py", "more than the map holds"): "only ever many",
    ("engine/routes/reach_compiled.py", "ReachCosts("): "a debugging repr",
    ("engine/routes/withdraw.py", "square(s)"): "a docstring: one square or several",
    ("engine/rules/spycraft/melee_actions.py", 'f"{condition} rounds"'): "a roll's purpose",
}


@pytest.mark.parametrize(
    ("count", "noun", "plural", "words"),
    [
        (1, "square", None, "1 square"),
        (2, "square", None, "2 squares"),
        (0, "round", None, "0 rounds"),
        (-1, "hit point", None, "-1 hit points"),
        (-3, "hit point", None, "-3 hit points"),
        (2.5, "square", None, "2.5 squares"),
        (1.0, "square", None, "1 square"),
        (1_000_000, "square", None, "1000000 squares"),
        (2, "Benny", "Bennies", "2 Bennies"),
    ],
)
def test_a_noun_is_plural_unless_one(
    count: float, noun: str, plural: str | None, words: str
) -> None:
    assert counted(count, noun, plural) == words


def test_no_engine_line_puts_a_bare_count_before_a_plural() -> None:
    """The log said "pushed 1 square(s)", "runs 1 squares", "1 rounds fired": each count
    before a noun goes through ``counted``."""
    found = [
        f"{path.relative_to(ENGINE.parent)}:{number}: {line.strip()}"
        for path in sorted(ENGINE.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if BARE_PLURAL.search(line) and not line.lstrip().startswith("#")
        and not any(str(path).endswith(file) and piece in line
                    for file, piece in RIGHT_AS_THEY_ARE)
    ]
    assert not found, "\n".join(found)
