"""Malformed commands through the public API (issue 20, must-have 3): for each bundled system,
commands generated from every catalogue action's option schema and its corruptions are either
refused (a ``CommandError`` naming the problem, or a preview's reasons) or, when the preview
calls them legal, applied without error. The ``fuzz`` marker runs the same property for
longer (tests/fuzz)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.rules import get_system
from engine.rules.base import Command, CommandError, MalformedCommand
from engine.turns.session import Encounter
from tests.engine.rules.command_strategies import (
    SYSTEMS,
    check_command,
    commands_from,
    setup_for,
)
from tests.engine.rules.editing_strategies import editing_keys, editing_setup

#: Examples per system in the normal run (the fuzz run takes many more).
EXAMPLES = 40


@pytest.mark.parametrize("system", SYSTEMS)
@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_generated_command_is_refused_or_applies(system: str, data: st.DataObject) -> None:
    action = data.draw(st.sampled_from([spec.key for spec in get_system(system).catalogue]))
    setup = setup_for(system, action)
    check_command(setup, data.draw(commands_from(setup)))


@pytest.mark.parametrize("system", SYSTEMS)
@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_generated_editing_command_is_refused_or_applies(
    system: str, data: st.DataObject
) -> None:
    setup = editing_setup(system, data.draw(st.sampled_from(editing_keys())))
    check_command(setup, data.draw(commands_from(setup)))


def _malformed(system: str, action: str, **fields: Any) -> str:
    """The CommandError's words for the set-up's legal command with ``fields`` changed."""
    from dataclasses import replace

    setup = setup_for(system, action)
    with pytest.raises(CommandError) as caught:
        Encounter(setup.state).preview(replace(setup.command, **fields))
    return str(caught.value)


@pytest.mark.parametrize(("fields", "words"), [
    ({"squares": [("a", "b")]}, "a square must be two whole numbers (x, y), not ('a', 'b')"),
    ({"squares": [(True, 1)]}, "a square must be two whole numbers"),
    ({"squares": [(1, 2, 3)]}, "a square must be two whole numbers"),
    ({"squares": [(1.5, 2)]}, "a square must be two whole numbers"),
    ({"squares": 7}, "squares must be a list, not 7"),
    ({"squares": [(10**30, 0)]}, "is far off any map"),
    ({"targets": "e1"}, "targets must be a list, not 'e1'"),
    ({"targets": [{"x": 1}]}, "a target must be text"),
    ({"targets": ["ghost"]}, "there is no token 'ghost'"),
    ({"actor": "ghost"}, "there is no token 'ghost'"),
    ({"actor": 3}, "the actor must be text, not 3"),
    ({"weapon": ["rifle"]}, "the weapon must be text"),
    ({"options": (("from_end", [{"x": 1}]),)}, "option 'from_end' must be text, a number"),
    ({"options": (("from_end", 1),)}, "option 'from_end' must be true or false, not 1"),
    ({"options": (("critical_target", "x" * 2_000_000),)}, "more than 1,000,000"),
    ({"options": ((1, 2),)}, "an option must be a (name, value) pair"),
])
def test_a_malformed_strafe_names_its_problem(fields: dict[str, Any], words: str) -> None:
    assert words in _malformed("spycraft", "strafe", **fields)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), 10**100, True])
def test_a_number_option_must_be_a_finite_number_in_bounds(value: object) -> None:
    words = _malformed("savage-worlds", "push", options=(("distance", value),))
    assert "option 'distance'" in words


def test_more_squares_than_the_map_holds_are_refused_at_once() -> None:
    setup = setup_for("spycraft", "strafe")
    squares = [setup.command.squares[0]] * (setup.state.battlemap.width * 1000)
    words = _malformed("spycraft", "strafe", squares=squares)
    assert "squares is more than the map holds (20x14)" in words


def test_a_list_longer_than_any_map_holds_is_refused_before_it_is_read() -> None:
    class Endless:
        """A 'list' that claims a length past the limit and fails if read."""

        def __len__(self) -> int:
            return 10**9

        def __iter__(self) -> Any:
            raise AssertionError("read")

    with pytest.raises(MalformedCommand, match="1,000,000,000 is more than"):
        Command("strafe", "a1", squares=Endless())  # type: ignore[arg-type]


def test_a_strafe_longer_than_any_sweep_is_refused_for_its_length() -> None:
    setup = setup_for("spycraft", "strafe")
    start = setup.command.squares[0]
    chain = [(start.x, y) for y in range(setup.state.battlemap.height)] * 10
    preview = Encounter(setup.state).preview(
        Command("strafe", setup.command.actor, squares=chain, weapon=setup.command.weapon)
    )
    assert not preview.legal
    assert any("squares is too many" in reason for reason in preview.reasons)


def test_a_square_just_off_the_map_is_a_refusal_in_words() -> None:
    setup = setup_for("spycraft", "strafe")
    preview = Encounter(setup.state).preview(
        Command("strafe", setup.command.actor, squares=[(-1, 0)], weapon=setup.command.weapon)
    )
    assert preview.reasons == ("square (-1,0) is off the map (20x14 squares)",)


def test_a_square_far_off_any_map_inside_a_mapping_option_is_malformed() -> None:
    words = _malformed("d20-firearms", "covering_fire",
                       options=(("take_cover", {"e1": (10**30, 0)}),))
    assert "option 'take_cover' must be text, a number" in words
