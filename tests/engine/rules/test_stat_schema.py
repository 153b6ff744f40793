"""The declared stat blocks: every system's schema, refusing bad stats on load and add_token,
and every stat the rules read during play declared with the default the rules use."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from engine.files import (
    EncounterFile,
    EncounterFileError,
    encounter_from_json,
    encounter_to_json,
    load_encounter,
    save_encounter,
)
from engine.grid import Square
from engine.rules import get_system, system_names
from engine.rules.base import Command, IllegalCommand, ListOf, StatSpec, stat_problems
from engine.tokens import Side, Token
from engine.turns.session import Encounter
from tests.engine.rules.test_conformance import small_encounter

SYSTEMS = system_names()
KINDS = (int, float, str, bool)


@pytest.mark.parametrize("name", SYSTEMS)
def test_every_stat_is_declared_once_with_a_label_and_a_sound_default(name: str) -> None:
    specs = get_system(name).stats
    assert specs, f"{name} declares no stat block"
    names = [spec.name for spec in specs]
    assert len(names) == len(set(names)), "a stat declared twice"
    for spec in specs:
        assert (spec.kind in KINDS or isinstance(spec.kind, ListOf)) and spec.label, spec
        if spec.default is not None:
            assert spec.problem(spec.default) is None, spec
        if spec.minimum is not None and spec.maximum is not None:
            assert spec.minimum <= spec.maximum, spec


def test_a_stat_spec_names_each_kind_of_problem() -> None:
    wounds = StatSpec("wounds", int, 0, 0, 6, label="Wounds")
    assert wounds.problem(3) is None
    assert wounds.problem(7) == "must be at most 6, not 7"
    assert wounds.problem(-1) == "must be at least 0, not -1"
    assert wounds.problem(True) == "must be a whole number, not True"
    assert wounds.problem(2.5) == "must be a whole number, not 2.5"
    armor = StatSpec("armor", str, "none", choices=("none", "full"), label="Armor")
    assert armor.problem("heavy") == "must be one of none, full, not 'heavy'"
    speed = StatSpec("speed", float, 1.0, label="Speed")
    assert speed.problem(2) is None and speed.problem(float("nan")) is not None
    required = StatSpec("name", str, "", required=True, label="Name")
    assert stat_problems((required,), {}) == [("name", "missing: this stat is required")]


def test_a_misspelt_stat_is_refused_with_the_likely_name() -> None:
    problems = stat_problems(get_system("spycraft").stats, {"defence": 14})
    assert problems == [("defence", "unknown stat (did you mean 'defense'?)")]


def _document_with(system: str, stats: dict[str, object]) -> dict[str, object]:
    state = small_encounter(system)
    document = encounter_to_json(state)
    document["encounter"]["tokens"][1]["stats"] = stats
    return json.loads(json.dumps(document))


@pytest.mark.parametrize(
    ("system", "stats", "place", "problem"),
    [
        ("spycraft", {"defence": 14}, "stats.defence", "unknown stat (did you mean 'defense'?)"),
        ("spycraft", {"armor": "plate"}, "stats.armor", "must be one of none, partial"),
        ("savage-worlds", {"wounds": 9}, "stats.wounds", "must be at most 6, not 9"),
        ("cities-without-number", {"hp": "12"}, "stats.hp", "must be a whole number"),
        ("d20-firearms", {"quick_recon": 1}, "stats.quick_recon", "must be true or false"),
    ],
)
def test_loading_refuses_a_bad_stat_naming_the_token_and_stat(
    system: str, stats: dict[str, object], place: str, problem: str
) -> None:
    with pytest.raises(EncounterFileError) as refused:
        encounter_from_json(_document_with(system, stats), "fight.killbox")
    assert refused.value.path == "fight.killbox"
    assert refused.value.place == f"encounter.tokens[1].{place}"
    assert problem in refused.value.problem
    assert get_system(system).title in refused.value.problem


def test_loading_refuses_a_rule_system_nobody_knows(tmp_path: Path) -> None:
    document = _document_with("spycraft", {})
    document["encounter"]["system"] = "monopoly"
    with pytest.raises(EncounterFileError) as refused:
        encounter_from_json(document, "fight.killbox")
    assert refused.value.place == "encounter.system"
    assert "monopoly" in refused.value.problem


def test_a_file_with_good_stats_survives_a_save(tmp_path: Path) -> None:
    state = small_encounter("spycraft")
    token = state.tokens[0]
    state = state.with_token(Token(token.id, token.name, token.side, token.square,
                                   stats={"defense": 15, "armor": "full", "helmet": True}))
    save_encounter(tmp_path / "ok.killbox", EncounterFile(state))
    assert load_encounter(tmp_path / "ok.killbox").state == state


@pytest.mark.parametrize("name", SYSTEMS)
def test_add_token_refuses_an_undeclared_stat(name: str) -> None:
    fight = Encounter(small_encounter(name), seed=1)
    newcomer = Token("new", "Newcomer", Side.ENEMY, (9, 7), stats={"defence": 14})

    command = Command.build("add_token", token=newcomer)
    with pytest.raises(IllegalCommand) as refused:
        fight.apply(command)
    assert any("'defence'" in reason and "unknown stat" in reason
               for reason in refused.value.reasons)


@pytest.mark.parametrize(
    ("system", "stats", "problem"),
    [
        ("spycraft", {"armor": "plate"}, "stat 'armor': must be one of none, partial"),
        ("savage-worlds", {"wounds": 9}, "stat 'wounds': must be at most 6, not 9"),
        ("cities-without-number", {"hp": "12"}, "stat 'hp': must be a whole number"),
        ("d20-firearms", {"quick_recon": 1}, "stat 'quick_recon': must be true or false"),
    ],
)
def test_add_token_refuses_an_ill_typed_or_out_of_range_stat_naming_it(
    system: str, stats: dict[str, object], problem: str
) -> None:
    fight = Encounter(small_encounter(system), seed=1)
    newcomer = Token("new", "Newcomer", Side.ENEMY, (9, 7), stats=stats)
    preview = fight.preview(Command.build("add_token", token=newcomer))
    assert not preview.legal
    assert [r for r in preview.reasons if r.startswith(f"Newcomer: {problem}")], preview.reasons
    with pytest.raises(IllegalCommand):
        fight.apply(Command.build("add_token", token=newcomer))
    assert all(t.id != "new" for t in fight.state.tokens)


@pytest.mark.parametrize(("side", "pips"), [(Side.PARTY, 3), (Side.ENEMY, None)])
def test_savage_worlds_defaults_written_out_keep_the_wound_track_the_rules_keep(
    side: Side, pips: int | None
) -> None:
    """The token editor writes each schema default into a new token's stat block; a
    max_wounds default of 3 gave every new Extra the three Wound pips of a Wild Card, though
    the first Wound takes an Extra out."""
    system = get_system("savage-worlds")
    bare = Token("t", "T", side, Square(1, 1))
    written = replace(
        bare, stats={s.name: s.default for s in system.stats if s.default is not None}
    )
    state = small_encounter("savage-worlds")
    wounds = {g.key: g.maximum for g in system.gauges(state, written)}.get("wounds")
    assert wounds == pips
    assert system.gauges(state, written) == system.gauges(state, bare)


def test_a_missing_required_stat_is_refused_on_load_and_by_add_token(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No bundled system declares a required stat yet; a system that does gets a file
    refused with the place of the token's stat block, and an add_token refused by name."""
    system = get_system("d20-firearms")
    codename = StatSpec("codename", str, None, required=True, label="Codename")
    monkeypatch.setattr(type(system), "stats", (*system.stats, codename))
    with pytest.raises(EncounterFileError) as refused:
        encounter_from_json(_document_with("d20-firearms", {}), "fight.killbox")
    assert refused.value.place == "encounter.tokens[0].stats.codename"
    assert refused.value.problem.startswith("missing: this stat is required")
    state = small_encounter("d20-firearms")
    given = {"codename": "Cal"}
    state = replace(state, tokens=tuple(replace(t, stats=given) for t in state.tokens))
    fight = Encounter(state, seed=1)
    newcomer = Token("new", "Newcomer", Side.ENEMY, (9, 7))
    preview = fight.preview(Command.build("add_token", token=newcomer))
    assert not preview.legal
    assert any("'codename'" in r and "required" in r for r in preview.reasons), preview.reasons
