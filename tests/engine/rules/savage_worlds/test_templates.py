"""Savage Worlds templates: the blasts and the Cone, counted by partial squares."""

import math

import pytest

from engine.battlemap import BattleMap, Wall
from engine.encounter import EncounterState
from engine.geometry.templates import TemplateSpec, lay_template
from engine.grid import Square
from engine.rules import get_system
from engine.rules.savage_worlds import templates
from engine.rules.savage_worlds.tables import INCLUSION
from engine.rules.savage_worlds.tables import SCALE as SAVAGE_INCH

from .cone_oracle import cone


def encounter(battlemap: BattleMap | None = None) -> EncounterState:
    return EncounterState("test", "savage-worlds", SAVAGE_INCH, battlemap or BattleMap(20, 20))


def test_medium_blast_counts_squares_even_partly_beneath() -> None:
    # Anyone even partly under the template: a 2-inch radius centred on a square reaches
    # into the 5x5 block around it, but not its four corners.
    result = templates.blast(encounter(), (10.5, 10.5), "medium")
    assert len(result.squares) == 21
    assert Square(12, 11) in result.squares and Square(12, 12) not in result.squares


@pytest.mark.parametrize(("size", "radius"), [("small", 1), ("medium", 2), ("large", 3)])
def test_blast_sizes_are_one_two_and_three_inches(size: str, radius: float) -> None:
    result = templates.blast(encounter(), (10.0, 10.0), size)
    assert result.shape.area == pytest.approx(math.pi * radius**2, rel=0.01)


def test_unknown_blast_names_the_choices() -> None:
    with pytest.raises(ValueError, match="small, medium, large"):
        templates.blast(encounter(), (5.0, 5.0), "huge")


def test_the_cone_is_nine_inches_long() -> None:
    result = cone(encounter(), (2.0, 10.0), 0)
    minx, _, maxx, _ = result.shape.bounds
    assert maxx - minx == pytest.approx(9.0, abs=0.01)
    assert Square(10, 9) in result.squares and Square(11, 9) not in result.squares


def test_a_blast_does_not_pass_through_walls() -> None:
    battlemap = BattleMap(20, 20, walls=(Wall((11, 0), (11, 20)),))
    result = templates.blast(encounter(battlemap), (10.0, 10.0), "large")
    assert all(s.x < 11 for s in result.squares)
    assert result.reasons


def test_the_system_hands_its_templates_and_partial_squares_to_the_map() -> None:
    system = get_system("savage-worlds")
    assert system.template_inclusion is INCLUSION
    assert [t.key for t in system.templates] == [
        "small_blast", "medium_blast", "large_blast", "cone_template"
    ]


@pytest.mark.parametrize("spec", templates.TEMPLATES, ids=lambda spec: spec.key)
def test_each_template_the_gm_lays_is_the_rules_template(spec: TemplateSpec) -> None:
    """The desktop lays the system's specs on a one-inch map; they cover what the rules do."""
    state, origin = encounter(), (10.5, 10.5)
    laid = lay_template(state, spec, origin, 0.0, 1, inclusion=INCLUSION, clip_to_walls=True)
    if spec.key.endswith("_blast"):
        rules = templates.blast(state, origin, spec.key.removesuffix("_blast"))
    else:
        rules = cone(state, origin, 0.0)
    assert laid.squares == rules.squares
