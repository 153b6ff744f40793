"""A module name means the same job in every bundled system package (issue 13, must-have 5).

The jobs are declared once, in the table "Module names in a system package" of
docs/ARCHITECTURE.md. Here every name two systems share must be in that table, every row must
still be shared, and each row's job is checked on every package that has the module: what it
defines, where handlers are registered, and which modules it may not import.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

import engine.rules
from engine.geometry import CoverTable, RangeTable
from engine.rules import get_system, system_names
from engine.rules.base import ActionSpec, RuleSystem, StatSpec
from engine.turns import system_state

ROOT = Path(__file__).resolve().parents[3]
RULES = Path(engine.rules.__file__).parent
ACTIONS_SUFFIX = "_actions"


def _declared_roles() -> dict[str, str]:
    """module name -> job, from the ARCHITECTURE.md table (`*_actions` stays a pattern)."""
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("### Module names in a system package", 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| `([\w*]+)` \| (.+) \|$", section, flags=re.MULTILINE)
    return dict(rows)


def _packages() -> dict[str, RuleSystem]:
    """Each bundled system package's dotted name -> its registered system."""
    by_package = {type(get_system(n)).__module__.rsplit(".", 1)[0]: get_system(n)
                  for n in system_names()}
    found = {f"engine.rules.{m.name}" for m in pkgutil.iter_modules([str(RULES)]) if m.ispkg}
    assert found == set(by_package), "every package under engine/rules is one registered system"
    return by_package


def _modules(package: str) -> list[str]:
    folder = RULES / package.rsplit(".", 1)[1]
    return sorted(m.name for m in pkgutil.iter_modules([str(folder)]) if not m.ispkg)


def _role_of(name: str) -> str:
    return "*_actions" if name.endswith(ACTIONS_SUFFIX) else name


def _tree(package: str, name: str) -> ast.Module:
    path = RULES / package.rsplit(".", 1)[1] / f"{name}.py"
    return ast.parse(path.read_text(encoding="utf-8"))


def _imported_siblings(package: str, name: str) -> set[str]:
    """The modules of its own package that a module imports, at any depth of its code."""
    found: set[str] = set()
    for node in ast.walk(_tree(package, name)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(package):
            rest = node.module[len(package):].lstrip(".")
            found |= {rest.split(".")[0]} if rest else {a.name for a in node.names}
    return found


def _registered_keys(package: str, name: str) -> set[str]:
    """Action keys a module registers a handler for at its top level: ``register(key, ...)``
    calls, ``@handles(key)`` class decorators and ``handles(key)(cls)`` in a top-level loop
    (a key named by a constant or a loop variable is looked up)."""
    module = importlib.import_module(f"{package}.{name}")
    calls: list[tuple[ast.Call, dict[str, object]]] = []
    for node in _tree(package, name).body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            calls.append((node.value, {}))
        if isinstance(node, ast.ClassDef):
            calls += [(d, {}) for d in node.decorator_list if isinstance(d, ast.Call)]
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            values = eval(compile(ast.Expression(node.iter), name, "eval"), vars(module))
            for value in values:
                calls += [(s.value, {node.target.id: value}) for s in node.body
                          if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)]
    keys: set[str] = set()
    for call, loop in calls:
        while isinstance(call.func, ast.Call):  # handles(key)(cls)
            call = call.func
        func = call.func
        called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if called not in ("register", "handles") or not call.args:
            continue
        key = call.args[0]
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            keys.add(key.value)
        elif isinstance(key, ast.Name):
            keys.add(str(loop[key.id] if key.id in loop else getattr(module, key.id)))
    return keys


HANDLER_LAYER = frozenset({"system", "actions", "handlers", "examples"})


def _below_handlers(package: str, name: str) -> list[str]:
    above = {m for m in _imported_siblings(package, name)
             if m in HANDLER_LAYER or m.endswith(ACTIONS_SUFFIX)}
    return [f"imports {m}, a module of the handler layer" for m in sorted(above)]


def _defines(module: ModuleType, *names: str) -> list[str]:
    return [f"defines no {n}" for n in names if not hasattr(module, n)]


# ------------------------------------------------------------------- what each declared role is

Check = Callable[[RuleSystem, str, ModuleType], list[str]]


def _system(system: RuleSystem, package: str, module: ModuleType) -> list[str]:
    return [] if type(system).__module__ == module.__name__ else ["the system's class is elsewhere"]


def _catalogue(system: RuleSystem, package: str, module: ModuleType) -> list[str]:
    actions = getattr(module, "ACTIONS", ())
    if not all(isinstance(a, ActionSpec) for a in actions):
        return ["ACTIONS holds something other than ActionSpecs"]
    same = [a.key for a in actions] == [a.key for a in system.catalogue]
    return _defines(module, "action_spec") + ([] if same else ["ACTIONS is not the catalogue"])


def _options(system: RuleSystem, package: str, module: ModuleType) -> list[str]:
    problems = _defines(module, "OPTIONS", "ENGINE_OPTIONS")
    keys = {a.key for a in system.catalogue}
    stray = set(getattr(module, "OPTIONS", {})) - keys
    return problems + [f"OPTIONS names {k!r}, no catalogue action" for k in sorted(stray)]


def _schema(system: RuleSystem, package: str, module: ModuleType) -> list[str]:
    stats = getattr(module, "STATS", None)
    if not (isinstance(stats, tuple) and all(isinstance(s, StatSpec) for s in stats)):
        return ["STATS is not a tuple of StatSpecs"]
    return [] if stats == system.stats else ["STATS is not the system's stat block"]


def _tables(system: RuleSystem, package: str, module: ModuleType) -> list[str]:
    problems = _defines(module, "DIFFICULT_TERRAIN_COST") + _below_handlers(package, "tables")
    if not isinstance(getattr(module, "COVER", None), CoverTable):
        problems.append("COVER is no CoverTable")
    if not isinstance(getattr(module, "RANGES", None), RangeTable):
        problems.append("RANGES is no RangeTable")
    if getattr(module, "COVER", None) is not system.cover_table:
        problems.append("the system's cover table is not COVER")
    return problems


def _handlers(system: RuleSystem, package: str, module: ModuleType) -> list[str]:
    table = getattr(module, "HANDLERS", {})
    missing = [a.key for a in system.catalogue if a.key not in table]
    return [f"HANDLERS lacks {k!r}" for k in missing] + _below_actions(package, "handlers")


def _below_actions(package: str, name: str) -> list[str]:
    return [f"imports {m}" for m in sorted(_imported_siblings(package, name))
            if m.endswith(ACTIONS_SUFFIX) or m in ("actions", "system")]


def _actions(system: RuleSystem, package: str, module: ModuleType) -> list[str]:
    groups = {m for m in _modules(package) if m.endswith(ACTIONS_SUFFIX)}
    missing = groups - _imported_siblings(package, "actions")
    return [f"does not import {m}" for m in sorted(missing)]


def _action_group(system: RuleSystem, package: str, module: ModuleType) -> list[str]:
    name = module.__name__.rsplit(".", 1)[1]
    return [] if _registered_keys(package, name) else ["registers no handler"]


def _examples(system: RuleSystem, package: str, module: ModuleType) -> list[str]:
    return _defines(module, "example_commands")


def _pure(*names: str, stateless: bool = False) -> Check:
    """A rule-number or state module: defines ``names``, imports no handler module (and, if
    ``stateless``, never sees the encounter state)."""

    def check(system: RuleSystem, package: str, module: ModuleType) -> list[str]:
        name = module.__name__.rsplit(".", 1)[1]
        problems = _defines(module, *names) + _below_handlers(package, name)
        if stateless and "EncounterState" in vars(module):
            problems.append("reads the encounter state")
        return problems

    return check


def _combat_state(system: RuleSystem, package: str, module: ModuleType) -> list[str]:
    kinds = [v for v in vars(module).values()
             if isinstance(v, type) and v.__module__ == module.__name__]
    registered = [k for k in kinds if _registered_state(k) == system.name]
    return _below_handlers(package, "combat_state") + (
        [] if registered else ["defines no state registered for the system"])


def _registered_state(kind: type) -> str | None:
    try:
        return system_state.system_of(object.__new__(kind))
    except TypeError:
        return None


def _version_1(system: RuleSystem, package: str, module: ModuleType) -> list[str]:
    hooked = getattr(type(system), "upgrade_state", None) is getattr(module, "upgrade", False)
    return _pure("upgrade")(system, package, module) + (
        [] if hooked else ["upgrade is not the system's upgrade_state"])


ROLE_CHECKS: dict[str, Check] = {
    "system": _system,
    "catalogue": _catalogue,
    "options": _options,
    "schema": _schema,
    "tables": _tables,
    "handlers": _handlers,
    "actions": _actions,
    "*_actions": _action_group,
    "examples": _examples,
    "board": _pure("add_condition"),
    "attack_math": _pure("roll_attack", "apply_damage"),
    "combat_rules": _pure(stateless=True),
    "economy": _pure("refusal", "spend", stateless=True),
    "movement": _pure(),
    "suppressive_fire": _pure(),
    "health": _pure("gauges", "take_damage", "heal"),
    "combat_state": _combat_state,
    "version_1": _version_1,
}


def test_every_declared_role_has_a_check_and_every_check_a_declared_role() -> None:
    assert set(_declared_roles()) == set(ROLE_CHECKS)


def test_a_name_two_systems_share_is_declared_and_a_declared_name_is_shared() -> None:
    users: dict[str, set[str]] = {}
    for package in _packages():
        for name in _modules(package):
            if name != "__init__":
                users.setdefault(_role_of(name), set()).add(package)
    shared = {role for role, packages in users.items() if len(packages) > 1}
    declared = set(_declared_roles())
    assert shared - declared == set(), "shared module names with no declared job"
    assert declared - shared == set(), "declared jobs that no two systems share any more"


@pytest.mark.parametrize("package", sorted(_packages()))
def test_each_module_does_its_declared_job(package: str) -> None:
    system = _packages()[package]
    problems = []
    for name in _modules(package):
        check = ROLE_CHECKS.get(_role_of(name))
        if check is not None:
            module = importlib.import_module(f"{package}.{name}")
            problems += [f"{name}: {p}" for p in check(system, package, module)]
    assert problems == []


@pytest.mark.parametrize("package", sorted(_packages()))
def test_handlers_are_registered_in_action_modules_only(package: str) -> None:
    system = _packages()[package]
    where = {name: _registered_keys(package, name) for name in _modules(package)}
    # The scan must see every registration, or "nowhere else" would prove nothing.
    assert set().union(*where.values()) == {a.key for a in system.catalogue}
    elsewhere = {n: keys for n, keys in where.items() if keys and not n.endswith(ACTIONS_SUFFIX)}
    assert elsewhere == {}


def test_a_drifted_module_is_caught() -> None:
    """The checks can fail: Spycraft's handler module read as if it were a board module."""
    package = "engine.rules.spycraft"
    system = _packages()[package]
    handlers = importlib.import_module(f"{package}.melee_actions")
    assert ROLE_CHECKS["board"](system, package, handlers) != []
    board = importlib.import_module(f"{package}.board")
    assert ROLE_CHECKS["*_actions"](system, package, board) == ["registers no handler"]
