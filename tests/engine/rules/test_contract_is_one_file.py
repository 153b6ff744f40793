"""The contract is one file: a system written from ``engine/rules/base.py`` alone imports
nothing else of the engine (issue 13, must-have 1).

Tiny Skirmish (test_fifth_system.py) and the desktop's stub system are held to that: they
import from ``engine.rules.base`` and register through ``engine.rules``, nothing more. What
base.py re-exports for them is listed, with what it is for, in its docstring's toolkit.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import engine.rules.base as base

ROOT = Path(__file__).resolve().parents[3]
SYSTEMS_FROM_THE_CONTRACT = (
    ROOT / "tests" / "engine" / "rules" / "test_fifth_system.py",
    ROOT / "tests" / "desktop" / "stub_system.py",
)
#: What a system may take from ``engine.rules`` itself: the registry.
REGISTRY = {"register_system", "unregister_system", "get_system"}


def engine_imports(source: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """Every import of an ``engine`` module in ``source`` (in functions too): line, module,
    names taken (empty for ``import engine.x``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, ()) for alias in node.names
                      if alias.name.split(".")[0] == "engine"]
        elif (isinstance(node, ast.ImportFrom) and node.module and node.level == 0
              and node.module.split(".")[0] == "engine"):
            found.append((node.lineno, node.module, tuple(a.name for a in node.names)))
    return found


def contract_problems(source: str) -> list[str]:
    """Each import that reaches past the contract, as 'line N: what'."""
    problems = []
    for line, module, names in engine_imports(source):
        if module == "engine.rules.base" and names:
            continue
        if module == "engine.rules" and names and set(names) <= REGISTRY:
            continue
        what = f"from {module} import {', '.join(names)}" if names else f"import {module}"
        problems.append(f"line {line}: {what}")
    return problems


@pytest.mark.parametrize("path", SYSTEMS_FROM_THE_CONTRACT, ids=lambda p: p.name)
def test_a_system_from_the_contract_imports_only_base_and_the_registry(path: Path) -> None:
    problems = contract_problems(path.read_text(encoding="utf-8"))
    assert not problems, f"{path.relative_to(ROOT)} reaches past engine.rules.base: {problems}"


def test_the_check_catches_each_way_of_reaching_past_the_contract() -> None:
    source = (
        "from engine.rules.base import Command\n"
        "from engine.rules import register_system\n"
        "from engine.grid import Square\n"
        "import engine.dice\n"
        "from engine.rules import spycraft\n"
        "def later():\n"
        "    from engine.turns.combat import Phase\n"
    )
    assert contract_problems(source) == [
        "line 3: from engine.grid import Square",
        "line 4: import engine.dice",
        "line 5: from engine.rules import spycraft",
        "line 7: from engine.turns.combat import Phase",
    ]


def _toolkit_text() -> str:
    doc = base.__doc__ or ""
    return doc[doc.index("Everything else a system works with"):]


def _reexported() -> set[str]:
    """Names base.py imports from elsewhere and hands on under the same name."""
    tree = ast.parse(Path(base.__file__).read_text(encoding="utf-8"))
    return {alias.name for node in tree.body if isinstance(node, ast.ImportFrom)
            for alias in node.names if alias.asname == alias.name}


def test_every_name_the_toolkit_lists_is_there() -> None:
    listed = re.findall(r"^  ((?:``\w+``(?:, )?)+)", _toolkit_text(), flags=re.MULTILINE)
    names = {name for entry in listed for name in re.findall(r"``(\w+)``", entry)}
    assert len(names) > 20
    assert [name for name in sorted(names) if not hasattr(base, name)] == []


@pytest.mark.parametrize("path", SYSTEMS_FROM_THE_CONTRACT, ids=lambda p: p.name)
def test_what_a_system_takes_from_elsewhere_is_in_the_toolkit(path: Path) -> None:
    """A re-exported name the example systems use is listed with what it is for."""
    taken = {name for _, module, names in engine_imports(path.read_text(encoding="utf-8"))
             if module == "engine.rules.base" for name in names}
    documented = set(re.findall(r"``(\w+)``", _toolkit_text()))
    assert sorted((taken & _reexported()) - documented) == []
