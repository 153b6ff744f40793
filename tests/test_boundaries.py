"""The layers' promises: engine/ never imports Qt or desktop/; desktop/ never decides geometry."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

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
