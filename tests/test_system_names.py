"""Shared code names no rule system: desktop/ and engine/ (but each system's own package and
the registry) take a system's parts as parameters or from its RuleSystem (issue 13), so no
file there, comments and data included, may mention one by name, title, module spelling or a
usual short form."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.rules import get_system, system_names

ROOT = Path(__file__).resolve().parents[1]
SHARED = ("desktop", "engine/geometry", "engine/routes")
#: Where no system is named: the desktop and the engine (a system's scale comes from its
#: RuleSystem; a map names no system, the caller says which)...
NAMED_NOWHERE = ("desktop", "engine")
#: ...but for the files whose job is to name one: each system's own package, the registry
#: (it lists the bundled ones), the scripting API's runnable examples (they open bundled
#: maps) and the dice module (its library is called d20).
MAY_NAME = (
    *(f"engine/rules/{get_system(name).__module__.split('.')[2]}" for name in system_names()),
    "engine/rules/__init__.py",
    "engine/__init__.py",
    "engine/dice.py",
)
#: Files that are not text (the compiled sight kernel, caches).
BINARY_SUFFIXES = (".so", ".pyd", ".pyc", ".dll", ".dylib", ".png", ".jpg", ".webp")
#: Usual ways of writing each bundled system beyond its registered name and title.
SHORT_FORMS: dict[str, tuple[str, ...]] = {
    "spycraft": (r"spycraft",),
    "savage-worlds": (r"savage", r"\bswade\b"),
    "cities-without-number": (r"\bcwn", r"without[\s_-]*number"),
    "d20-firearms": (r"(?<![0-9])d20(?![0-9])",),
}


def spellings(name: str) -> re.Pattern[str]:
    """Every spelling of a system: its name with any separator, its title, its short forms."""
    words = re.split(r"[-_\s]+", name)
    forms = [r"[\s_-]*".join(map(re.escape, words)), re.escape(get_system(name).title)]
    forms += SHORT_FORMS.get(name, ())
    return re.compile("|".join(f"(?:{form})" for form in forms), re.IGNORECASE)


def shared_files(
    root: Path = ROOT, places: tuple[str, ...] = SHARED, but: tuple[str, ...] = ()
) -> list[Path]:
    """The text files under ``places``, leaving out those under ``but``."""
    found = []
    for place in places:
        target = root / place
        for path in [target] if target.is_file() else sorted(target.rglob("*")):
            text = path.is_file() and not path.name.endswith(BINARY_SUFFIXES)
            left_out = any(path.is_relative_to(root / other) for other in but)
            if text and "__pycache__" not in path.parts and not left_out:
                found.append(path)
    return found


def unnamed_files(root: Path = ROOT) -> list[Path]:
    """Every file that may name no system."""
    return shared_files(root, NAMED_NOWHERE, MAY_NAME)


def mentions(pattern: re.Pattern[str], files: list[Path], root: Path = ROOT) -> list[str]:
    """``file:line: text`` for every line of ``files`` that matches ``pattern``."""
    hits = []
    for path in files:
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            if pattern.search(line):
                hits.append(f"{path.relative_to(root).as_posix()}:{number}: {line.strip()}")
    return hits


@pytest.mark.parametrize(
    "place", ["desktop", "engine/geometry", "engine/routes", "engine/grid.py", "engine/files",
              "engine/turns", "engine/battlemap.py", "engine/rules/base.py"]
)
def test_each_shared_place_has_files_to_check(place: str) -> None:
    assert any(path.is_relative_to(ROOT / place) for path in unnamed_files())


@pytest.mark.parametrize("place", MAY_NAME)
def test_each_place_that_may_name_a_system_is_there_and_left_out(place: str) -> None:
    assert (ROOT / place).exists()
    assert not any(path.is_relative_to(ROOT / place) for path in unnamed_files())


def test_files_other_than_python_are_checked_too() -> None:
    assert "engine/geometry/_kernel.c" in {p.relative_to(ROOT).as_posix() for p in shared_files()}


@pytest.mark.parametrize("name", system_names())
def test_no_shared_file_names_the_system(name: str) -> None:
    assert mentions(spellings(name), unnamed_files()) == []


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("spycraft", "# Spycraft's Strafe"),
        ("savage-worlds", '"savage_worlds": 1'),
        ("savage-worlds", "class SavagePush:"),
        ("savage-worlds", "Savage Worlds Adventure Edition"),
        ("cities-without-number", "CWN Run"),
        ("cities-without-number", "from engine.rules.cities_without_number import x"),
        ("d20-firearms", "(d20's grazing rule)"),
        ("d20-firearms", "system='d20-firearms'"),
    ],
)
def test_each_spelling_is_caught(name: str, text: str, tmp_path: Path) -> None:
    planted = tmp_path / "engine" / "routes" / "planted.json"
    planted.parent.mkdir(parents=True)
    planted.write_text(f"first line\n{text}\n", encoding="utf-8")
    (tmp_path / "desktop").mkdir()
    (tmp_path / "engine" / "geometry").mkdir()
    found = mentions(spellings(name), shared_files(tmp_path), tmp_path)
    assert found == [f"engine/routes/planted.json:2: {text}"]


def test_a_name_is_caught_anywhere_in_the_engine_but_where_it_may_be(tmp_path: Path) -> None:
    for place in ("engine/turns/combat.py", "engine/rules/base.py", *MAY_NAME):
        planted = tmp_path / place / "planted.py" if "." not in place else tmp_path / place
        planted.parent.mkdir(parents=True, exist_ok=True)
        planted.write_text("# Spycraft-style surprise round\n", encoding="utf-8")
    (tmp_path / "desktop").mkdir()
    found = mentions(spellings("spycraft"), unnamed_files(tmp_path), tmp_path)
    assert [hit.split(":")[0] for hit in found] == [
        "engine/rules/base.py", "engine/turns/combat.py"
    ]


def test_a_die_is_not_a_system() -> None:
    assert not spellings("d20-firearms").search("roll 1d20 + 4, or 2d20 and keep one")



#: A quoted dice expression ("1d4+1", '2d6'): how far or how many is a system's number.
DICE_LITERAL = re.compile(r"""["'][0-9]+d[0-9]+(?:\s*[-+]\s*[0-9]+)?["']""")
#: The one die the shared code rolls itself: the d8 that picks one of the eight neighbours.
NEIGHBOUR_DIE = '"1d8"'


def dice_literals(files: list[Path], root: Path = ROOT) -> list[str]:
    """``file:line: expression`` for every quoted dice expression but the neighbour d8."""
    hits = []
    for path in files:
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            for match in DICE_LITERAL.finditer(line):
                if match.group() != NEIGHBOUR_DIE:
                    hits.append(f"{path.relative_to(root).as_posix()}:{number}: {match.group()}")
    return hits


def test_no_shared_file_rolls_a_systems_dice() -> None:
    """Rule numbers live in the systems' packages: the shared code is handed its dice."""
    assert dice_literals(shared_files()) == []


def test_a_dice_literal_is_caught(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text('direction = roll("1d8")\ndistance = roll("1d4+1")\n', encoding="utf-8")
    assert dice_literals([planted], tmp_path) == ['planted.py:2: "1d4+1"']


#: Reading a token's stat block: its names and defaults are a system's schema.
STAT_READ = re.compile(r"\.stats?\b")


def test_routes_and_geometry_read_no_stat_block() -> None:
    """A stat the shared code needs (a Charge's reach, say) is handed over by the system,
    read through its declared schema, so an undeclared stat cannot silently default."""
    engine_shared = [p for p in shared_files() if p.suffix == ".py" and "desktop" not in p.parts]
    assert mentions(STAT_READ, engine_shared) == []


def test_a_stat_read_is_caught(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text('reach = int(charger.stat("reach", 1))\nn = len(t.stats)\n')
    assert len(mentions(STAT_READ, [planted], tmp_path)) == 2


#: A length conversion written out (feet or yards in metres, a tabletop inch in yards): what a
#: unit measures is the model's (``engine.grid.Unit.metres``), asked, never restated.
LENGTH_CONVERSION = re.compile(r"0\.3048|0\.9144|1\.8288|3\.2808")


def test_routes_and_geometry_convert_no_length_themselves() -> None:
    engine_shared = [p for p in shared_files() if p.suffix == ".py" and "desktop" not in p.parts]
    assert mentions(LENGTH_CONVERSION, engine_shared) == []


def test_a_length_conversion_is_caught(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text('units = {"m": 1.0, "ft": 0.3048, "in": 2 * 0.9144}\n')
    found = mentions(LENGTH_CONVERSION, [planted], tmp_path)
    assert found == [f"planted.py:1: {planted.read_text().strip()}"]
