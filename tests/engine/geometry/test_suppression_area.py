"""The shared Suppressive Fire value carries only what the running code reads: a field that
only a system sets and nothing reads is a rule that looks applied and is not."""

from __future__ import annotations

import ast
from dataclasses import fields
from pathlib import Path

from engine.geometry.suppression import SuppressionArea

ROOT = Path(__file__).resolve().parents[3]


def attributes_read(
    root: Path = ROOT, folders: tuple[str, ...] = ("engine", "desktop")
) -> set[str]:
    """Every ``something.name`` the code loads (a keyword argument is a write, not a read)."""
    names: set[str] = set()
    for folder in folders:
        for path in (root / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                    names.add(node.attr)
    return names


def test_every_field_of_a_suppression_area_is_read_by_the_running_code() -> None:
    read = attributes_read()  # once: parsing the tree is the slow part
    unread = [f.name for f in fields(SuppressionArea) if f.name not in read]
    assert unread == []


def test_a_field_only_set_by_keyword_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "m.py").write_text("a = Area(flag=True)\nb = a.shape\n")
    assert attributes_read(tmp_path, ("engine",)) == {"shape"}
