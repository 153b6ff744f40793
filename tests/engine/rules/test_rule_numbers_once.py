"""A rule's number lives once in its system's package (issue 13): no number or list is written
out in two modules of one package, and the d20 cones draw with the numbers their rules then use."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.grid import Square
from engine.rules.base import Command
from engine.rules.d20_firearms import combat_rules
from engine.tokens import Side
from tests.engine.rules.d20_firearms.builders import fight, soldier

RULES = Path(__file__).resolve().parents[3] / "engine" / "rules"
PACKAGES = sorted(p for p in RULES.iterdir() if (p / "__init__.py").is_file())


def constants_defined_twice(package: Path) -> dict[str, list[str]]:
    """UPPER_CASE module constants of ``package`` written out in more than one module: a
    number under the same name, or the same literal (a list of skills) under the same name.
    Written twice, the two are free to drift apart; one module should import the other's."""
    numbers: dict[str, list[str]] = {}
    literals: dict[str, dict[str, list[str]]] = {}
    for module in sorted(package.glob("*.py")):
        for node in ast.parse(module.read_text(encoding="utf-8")).body:
            targets = node.targets if isinstance(node, ast.Assign) else (
                [node.target] if isinstance(node, ast.AnnAssign) and node.value else [])
            names = [t.id for t in targets if isinstance(t, ast.Name) and t.id.isupper()]
            try:
                value = ast.literal_eval(node.value) if names else None  # type: ignore[attr-defined]
            except ValueError:
                continue
            for name in names:
                if type(value) in (int, float):
                    numbers.setdefault(name, []).append(module.name)
                literals.setdefault(name, {}).setdefault(repr(value), []).append(module.name)
    found = {name: modules for name, modules in numbers.items() if len(set(modules)) > 1}
    for name, by_value in literals.items():
        for modules in by_value.values():
            if len(set(modules)) > 1:
                found[name] = modules
    return found


def test_every_system_package_is_looked_at() -> None:
    assert {p.name for p in PACKAGES} >= {"spycraft", "savage_worlds", "d20_firearms",
                                          "cities_without_number"}


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_no_constant_is_defined_in_two_modules_of_a_system(package: Path) -> None:
    assert constants_defined_twice(package) == {}


def test_a_constant_defined_twice_is_caught(tmp_path: Path) -> None:
    (tmp_path / "deck.py").write_text(
        "JOKER_BONUS = 2\nOTHER = 1\nPENALTY = -2\nMOVE = 'm'\nSAVES = ('reflex', 'will')\n"
        "TRICKS = ('burst',)\n")
    (tmp_path / "traits.py").write_text(
        "JOKER_BONUS: int = 3\nPENALTY = -2\nMOVE = 'move'\nSAVES = ('reflex', 'will')\n"
        "TRICKS = ('burst', 'bounce')\n")
    assert constants_defined_twice(tmp_path) == {"JOKER_BONUS": ["deck.py", "traits.py"],
                                                 "PENALTY": ["deck.py", "traits.py"],
                                                 "SAVES": ["deck.py", "traits.py"]}


def test_the_d20_cones_draw_with_the_numbers_the_rules_use(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Aiming cone's length and modifiers and the Covering Fire cone's Reflex DC come
    from combat_rules: change the rule's number and the drawn cone follows."""
    game = fight(soldier("a", Side.PARTY, (0, 5)), soldier("b", Side.ENEMY, (5, 5)))
    aim = Command.build("aim", "a", weapon="Assault rifle", squares=[(8, 5)])
    assert Square(10, 5) in game.preview(aim).squares  # 50 ft: inside the 60 ft cone
    monkeypatch.setattr(combat_rules, "AIM_PERCEPTION_CONE_FT", 30.0)
    monkeypatch.setattr(combat_rules, "AIM_PERCEPTION_INSIDE", 7)
    preview = game.preview(aim)
    assert Square(10, 5) not in preview.squares and Square(5, 5) in preview.squares
    assert [m.value for m in preview.overlay.token("b").modifiers] == [7]
    monkeypatch.setattr(combat_rules, "COVERING_FIRE_REFLEX_DC", 17)
    cover = Command.build("covering_fire", "a", weapon="Assault rifle", squares=[(5, 5)])
    preview = game.preview(cover)
    assert preview.legal, preview.reasons
    assert [m.value for m in preview.overlay.token("b").modifiers] == [17]
    assert "Reflex DC 17" in preview.summary
