"""Stats are read through each system's declared block: a default lives once, in the schema,
and a stat name the schema does not declare is an error, never a silent 0 (issue 13)."""

from __future__ import annotations

import ast
import random
from dataclasses import replace
from pathlib import Path

import pytest

from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules import get_system, system_names
from engine.rules.base import Command, ListOf, Ref, StatSpec
from engine.rules.savage_worlds import board as savage
from engine.rules.spycraft import board as spycraft
from engine.rules.stat_block import StatBlock, UndeclaredStat
from engine.tokens import Side, Token
from engine.turns.session import Encounter
from tests.engine.rules.test_conformance import play_step, small_encounter

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "engine" / "rules"
SYSTEMS = system_names()
#: Each bundled system's package (its module spelling) and its registered name.
PACKAGES = {name: RULES / name.replace("-", "_") for name in SYSTEMS}

BLOCK = StatBlock("Test System", (
    StatSpec("defense", int, 10, 0, 60, label="Def"),
    StatSpec("armor", str, "none", choices=("none", "full"), label="Armor"),
    StatSpec("helmet", bool, False, label="Helmet"),
    StatSpec("parry", int, None, 0, 30, label="Parry"),
    StatSpec("not_proficient", ListOf(Ref.TEXT), (), label="Not proficient"),
))


def _token(**stats: object) -> Token:
    return Token("cal-1", "Cal", Side.ENEMY, Square(1, 1), stats=stats)  # type: ignore[arg-type]


def test_a_misspelt_stat_read_names_the_token_the_stat_and_the_system() -> None:
    with pytest.raises(UndeclaredStat) as refused:
        BLOCK.number(_token(defense=14), "defence")
    message = str(refused.value)
    assert message.startswith("Cal (cal-1): Test System declares no stat 'defence'")
    assert "(did you mean 'defense'?)" in message
    assert (refused.value.system, refused.value.token_id, refused.value.stat) == (
        "Test System", "cal-1", "defence")
    assert isinstance(refused.value, KeyError)  # a lookup that failed, as before


@pytest.mark.parametrize("name", SYSTEMS)
def test_every_bundled_system_refuses_a_read_of_defence(name: str) -> None:
    system = get_system(name)
    with pytest.raises(UndeclaredStat, match=f"{system.title} declares no stat 'defence'"):
        system.stat_block.number(_token(), "defence")
    with pytest.raises(UndeclaredStat):
        system.stat(_token(), "defence")
    with pytest.raises(UndeclaredStat):
        system.stat_block.given(_token(), "defence")


def test_a_missing_stat_reads_as_its_declared_default_and_a_given_one_as_given() -> None:
    bare = _token()
    dressed = _token(defense=14, armor="full", helmet=True, parry=7, not_proficient=("a, b",))
    assert (BLOCK.number(bare, "defense"), BLOCK.text(bare, "armor")) == (10, "none")
    assert (BLOCK.flag(bare, "helmet"), BLOCK.optional_number(bare, "parry")) == (False, None)
    assert (BLOCK.number(dressed, "defense"), BLOCK.text(dressed, "armor")) == (14, "full")
    assert (BLOCK.flag(dressed, "helmet"), BLOCK.optional_number(dressed, "parry")) == (True, 7)
    assert (BLOCK.names(bare, "not_proficient"), BLOCK.names(dressed, "not_proficient")) == (
        (), ("a, b",))
    assert not BLOCK.given(bare, "defense") and BLOCK.given(dressed, "defense")


def test_a_stat_with_no_default_cannot_be_read_as_a_plain_number() -> None:
    with pytest.raises(ValueError, match="Cal: Test System stat 'parry' has no default"):
        BLOCK.number(_token(), "parry")


def test_a_token_holds_no_default_of_its_own() -> None:
    with pytest.raises(KeyError, match="Cal \\(cal-1\\) holds no stat 'defense'"):
        _token().stat("defense")
    assert _token(defense=12).stat("defense") == 12


@pytest.mark.parametrize("name", SYSTEMS)
def test_each_system_declares_its_block_under_its_own_title(name: str) -> None:
    system = get_system(name)
    assert isinstance(system.stats, StatBlock) and system.stats.system == system.title
    bonus = system.initiative_scheme.bonus_stat  # none for Savage Worlds' dealt cards
    assert not bonus or system.stats.declares(bonus)


# --------------------------------------------------------------------------- in play


def _with_defaults_written_out(state: EncounterState) -> EncounterState:
    """Every token's stat block with each declared default written out (as the token editor
    writes a new token), over what the token already holds."""
    specs = get_system(state.system).stats
    defaults = {s.name: s.default for s in specs if s.default is not None}
    return replace(state, tokens=tuple(replace(t, stats={**defaults, **t.stats})
                                       for t in state.tokens))


def _play(state: EncounterState, seed: int, steps: int = 30) -> list[str]:
    """What random play with ``seed`` does and shows: each command and its preview, every
    example command's preview on the way, and the log."""
    fight = Encounter(state, seed=seed)
    fight.apply(Command("start_combat"))
    rng = random.Random(seed)
    seen: list[str] = []
    for _ in range(steps):
        if fight.state.combat.phase.value != "round":
            break
        seen.append(repr(play_step(fight, rng)))
        for token in fight.state.tokens:
            for command in fight.example_commands(token.id):
                preview = fight.preview(command)
                seen.append(f"{command!r} {preview.legal} {preview.reasons} "
                            f"{preview.modifiers} {preview.summary}")
    seen += [entry.text for entry in fight.state.combat.log]
    return seen


@pytest.mark.parametrize("seed", (1, 2))  # apart, so the workers share the slow plays
@pytest.mark.parametrize("name", SYSTEMS)
def test_play_with_every_default_written_out_is_play_with_none(name: str, seed: int) -> None:
    """A stat left out and a stat at its declared default are the same to the rules: no
    rule keeps a default of its own that differs from the schema's, and every stat a rule
    reads during play is declared (an undeclared read raises and fails this test)."""
    bare = small_encounter(name)
    assert all(not t.stats for t in bare.tokens)
    assert _play(_with_defaults_written_out(bare), seed) == _play(bare, seed)


# --------------------------------------------------------------------------- in the code

#: Direct reads of a token's stat block, bypassing the schema: ``token.stat(name)`` (one
#: argument: ``system.stat(token, name)`` reads through the schema), ``token.stats.get(...)``,
#: ``token.stats[...]`` and ``name in token.stats``.


def _direct_reads(path: Path, root: Path = ROOT) -> list[str]:
    """``file:line`` of every read of a token's own stat block in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = sorted(node.lineno for node in ast.walk(tree) if _reads_directly(node))
    return [f"{path.relative_to(root).as_posix()}:{line}" for line in found]


def _reads_directly(node: ast.AST) -> bool:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        token_stat = node.func.attr == "stat" and len(node.args) == 1
        return token_stat or (node.func.attr == "get" and _is_stats(node.func.value))
    if isinstance(node, ast.Subscript):
        return _is_stats(node.value)
    if isinstance(node, ast.Compare):
        membership = any(isinstance(op, ast.In | ast.NotIn) for op in node.ops)
        return membership and any(_is_stats(side) for side in node.comparators)
    return False


def _is_stats(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "stats"


#: Reading through a block: ``STATS.number(token, "x")``, ``board.stat_int(token, "x")``...
_BLOCK_READERS = {"value", "number", "optional_number", "flag", "text", "names", "given",
                  "stat_int"}


def _literal_reads(path: Path) -> list[tuple[str, int]]:
    """(stat name, line) of every read through a block with the name written out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute | ast.Name)
                and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
                in _BLOCK_READERS and len(node.args) == 2
                and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
            found.append((node.args[1].value, node.lineno))
    return found


def _rule_files() -> list[Path]:
    """Every rule module but the block itself and the GM's editing commands (which write
    stat blocks whole, as the GM typed them)."""
    skipped = {"stat_block.py", "edit_tokens.py", "gm_overrides.py"}
    return [p for p in sorted(RULES.rglob("*.py")) if p.name not in skipped]


def test_no_rule_reads_a_token_stat_block_but_through_its_schema() -> None:
    found = [hit for path in _rule_files() for hit in _direct_reads(path)]
    assert found == []


def test_a_direct_read_is_caught(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text('a = t.stat("reach")\nb = t.stats.get("hp", 10)\nc = t.stats["hp"]\n'
                       'd = "hp" in t.stats\ne = system.stat(t, "hp")\n'
                       'f = {**t.stats, "hp": 1}\n', encoding="utf-8")
    assert _direct_reads(planted, tmp_path) == [f"planted.py:{n}" for n in (1, 2, 3, 4)]


@pytest.mark.parametrize("name", SYSTEMS)
def test_every_stat_a_system_package_names_is_in_its_schema(name: str) -> None:
    block = get_system(name).stats
    package = PACKAGES[name]
    reads = [(stat, f"{path.name}:{line}") for path in sorted(package.rglob("*.py"))
             for stat, line in _literal_reads(path)]
    assert len(reads) > 5, f"found too few stat reads in {package} to trust the scan"
    assert [(stat, where) for stat, where in reads if not block.declares(stat)] == []


def test_an_undeclared_literal_read_is_caught(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text('a = board.stat_int(t, "defence")\nb = STATS.flag(t, "helmet")\n'
                       'c = STATS.number(t, name)\n', encoding="utf-8")
    assert _literal_reads(planted) == [("defence", 1), ("helmet", 2)]


def test_a_stat_the_rules_derive_is_derived_when_left_out() -> None:
    """Spycraft's Wisdom- and Constitution-keyed Resolve fall back to Resolve (no default of
    their own); Savage Worlds Parry is 2 + half Fighting unless the file gives it."""
    assert spycraft.skill(_token(resolve=3), "resolve_wis") == 3
    assert spycraft.skill(_token(resolve=3, resolve_wis=5), "resolve_wis") == 5
    assert spycraft.skill(_token(resolve=3), "notice") == 0
    assert savage.parry(_token(fighting=8)) == 6
    assert savage.parry(_token(fighting=8, parry=4)) == 4
