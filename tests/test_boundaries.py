"""The layers' promises: engine/ never imports Qt or desktop/; desktop/ never decides geometry."""

from __future__ import annotations

import ast
import copy
import functools
import pkgutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest
from importlinter.application import use_cases
from importlinter.configuration import configure
from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.independence import IndependenceContract
from importlinter.contracts.layers import LayersContract
from importlinter.domain.contract import Contract

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN_IN_ENGINE = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "desktop")
FORBIDDEN_IN_DESKTOP = ("networkx",)
#: The one desktop module allowed to touch Shapely: it turns shapes into QPainterPaths.
SHAPELY_ADAPTER = "desktop/shapes.py"


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_engine_never_imports_qt_or_desktop() -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_roots(path) & set(FORBIDDEN_IN_ENGINE))
        for path in (ROOT / "engine").rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_desktop_leaves_routes_and_geometry_to_the_engine() -> None:
    offenders = {}
    for path in (ROOT / "desktop").rglob("*.py"):
        rel = path.relative_to(ROOT).as_posix()
        bad = set(FORBIDDEN_IN_DESKTOP)
        if rel != SHAPELY_ADAPTER:
            bad.add("shapely")
        found = sorted(imported_roots(path) & bad)
        if found:
            offenders[rel] = found
    assert offenders == {}


def test_import_linter_contract_holds() -> None:
    """The same promise, checked on the real import graph by import-linter's contract."""
    lint_imports = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint_imports), "--config", str(ROOT / "pyproject.toml")],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


# ---------------------------------------------------------------- the layers, contract by contract
#
# Each import-linter contract in pyproject.toml is checked on the real import graph, and then
# on the same graph with one forbidden import added, which must break exactly that contract:
# a contract that cannot fail (a misspelt module, a layer left out) fails the suite here.

SYSTEM_PACKAGES = (
    "engine.rules.spycraft",
    "engine.rules.savage_worlds",
    "engine.rules.cities_without_number",
    "engine.rules.d20_firearms",
)

#: contract name -> (importer, imported): an import that contract exists to forbid.
VIOLATIONS = {
    "engine never imports Qt or desktop": ("engine.grid", "PySide6"),
    "engine layers: session > files > rules > routes > geometry > model": (
        "engine.geometry.los", "engine.routes.graph"),
    "rules: systems > common > base": ("engine.rules.base", "engine.rules.common"),
    "the four rule systems are independent of each other": (
        "engine.rules.d20_firearms.attack_math", "engine.rules.spycraft.attack_math"),
    "desktop imports no rule system's package": (
        "desktop.controller", "engine.rules.savage_worlds.deck"),
    "engine.dice imports no engine module, not even engine.events": (
        "engine.dice", "engine.events"),
    "engine.events and engine.dice are leaves (events imports only engine.dice)": (
        "engine.events", "engine.tokens"),
    "no import cycles among the modules of any engine package": (
        "engine.rules.spycraft.board", "engine.rules.spycraft.flow"),
}

#: More imports each layer must refuse, one per boundary (upper layer, lower importer).
LAYER_VIOLATIONS = [
    ("engine.files.uvtt", "engine.turns.session"),
    ("engine.rules.base", "engine.files.encounter_file"),
    ("engine.rules.common", "engine.files"),
    ("engine.routes.search", "engine.rules.base"),
    ("engine.geometry.cover", "engine.routes.search"),
    ("engine.geometry.areas", "engine.rules.spycraft.geometry_bridge"),
    ("engine.encounter", "engine.geometry"),
    ("engine.turns.order", "engine.rules.base"),
    ("engine.events", "engine.rules.base"),
    ("engine.grid", "engine.routes"),
]


@functools.cache
def _real_graph() -> grimp.ImportGraph:
    return grimp.build_graph("engine", "desktop", include_external_packages=True, cache_dir=None)


#: import-linter's own contract classes by the ``type`` a pyproject contract names (its
#: documented extension interface: a contract is built from its options and checks a graph).
CONTRACT_TYPES: dict[str, type[Contract]] = {
    "forbidden": ForbiddenContract,
    "layers": LayersContract,
    "independence": IndependenceContract,
    "acyclic_siblings": AcyclicSiblingsContract,
}


def _contract_results(graph_change: tuple[str, str] | None = None) -> dict[str, bool]:
    """Every contract's name -> kept, on the real graph (plus one added import if given)."""
    configure()
    options = use_cases.read_user_options(str(ROOT / "pyproject.toml"))
    assert options.session_options["root_packages"] == ["engine", "desktop"]
    results: dict[str, bool] = {}
    for contract_options in options.contracts_options:
        graph = copy.deepcopy(_real_graph())
        if graph_change is not None:
            graph.add_import(importer=graph_change[0], imported=graph_change[1])
        kind = CONTRACT_TYPES[contract_options["type"]]
        contract = kind(str(contract_options["name"]), options.session_options,
                        contract_options)
        results[contract.name] = contract.check(graph, verbose=False).kept
    return results


def test_every_contract_in_pyproject_is_tested_here_and_kept() -> None:
    results = _contract_results()
    assert set(results) == set(VIOLATIONS)
    assert all(results.values()), results


@pytest.mark.parametrize("contract", sorted(VIOLATIONS))
def test_a_forbidden_import_breaks_its_contract(contract: str) -> None:
    results = _contract_results(VIOLATIONS[contract])
    assert results[contract] is False


@pytest.mark.parametrize(("importer", "imported"), LAYER_VIOLATIONS)
def test_each_layer_refuses_imports_from_above(importer: str, imported: str) -> None:
    results = _contract_results((importer, imported))
    assert results["engine layers: session > files > rules > routes > geometry > model"] is False


def system_packages_on_disk() -> set[str]:
    """Every package under engine/rules/: each is a rule system's."""
    rules = str(ROOT / "engine" / "rules")
    return {f"engine.rules.{m.name}" for m in pkgutil.iter_modules([rules]) if m.ispkg}


def test_every_system_package_is_held_by_the_contracts_that_keep_systems_apart() -> None:
    """A package added under engine/rules/ is held by the same contracts as the bundled four
    (above common, independent of the others, out of desktop's reach), not left outside."""
    configure()
    options = use_cases.read_user_options(str(ROOT / "pyproject.toml"))
    contracts = {str(c["name"]): c for c in options.contracts_options}
    on_disk = system_packages_on_disk()
    independent = contracts["the four rule systems are independent of each other"]["modules"]
    out_of_reach = contracts["desktop imports no rule system's package"]["forbidden_modules"]
    top_layer = str(contracts["rules: systems > common > base"]["layers"][0])
    assert set(independent) == on_disk
    assert set(out_of_reach) == on_disk
    assert {f"engine.rules.{name.strip()}" for name in top_layer.split("|")} == on_disk
    assert set(SYSTEM_PACKAGES) == on_disk


@pytest.mark.parametrize("package", SYSTEM_PACKAGES)
def test_each_system_is_kept_apart_from_the_others_and_from_desktop(package: str) -> None:
    other = next(p for p in SYSTEM_PACKAGES if p != package)
    assert _contract_results((package, other))[
        "the four rule systems are independent of each other"] is False
    assert _contract_results(("desktop.fight", package))[
        "desktop imports no rule system's package"] is False


def test_rule_modules_import_only_at_the_top() -> None:
    """No import inside a function to dodge a cycle: within engine/rules an import of an
    engine module in a function may only name engine.routes (loaded on first use, for the
    start-up time)."""
    offenders = []
    for path in sorted((ROOT / "engine" / "rules").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom):
                    names = [node.module or ""]
                elif isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                else:
                    continue
                for name in names:
                    if name.split(".")[0] == "engine" and not name.startswith("engine.routes"):
                        rel = path.relative_to(ROOT).as_posix()
                        offenders.append(f"{rel}:{node.lineno} imports {name}")
    assert offenders == []
