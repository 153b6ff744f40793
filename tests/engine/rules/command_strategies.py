"""Hypothesis strategies for commands through the public API, good and malformed (issue 20,
must-have 3), and the property they must keep.

Each command starts from a legal one (``legal_setups``: a small real encounter where the
action is legal) and changes up to three of its fields: an option from the action's declared
schema with a value that fits it or a deliberate corruption of it (the wrong type, true or
false for a number, not finite, huge, nested junk, an unknown name), the actor, the targets,
the squares (on the map, just off it, far off any map, junk, more than the map holds) or
the weapon. :func:`check_command` runs preview then apply: only ``CommandError`` may escape,
and a command the preview calls legal must apply.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from typing import Any

from hypothesis import event
from hypothesis import strategies as st

from engine.grid import Square
from engine.rules import get_system
from engine.rules.base import Command, CommandError, ListOf, MapOf, OptionSpec
from engine.rules.command_shape import MAX_NUMBER, MAX_TARGETS
from engine.rules.option_kinds import SHAPED_KINDS
from engine.tokens import Side
from engine.turns.session import Encounter
from tests.engine.rules.editing_strategies import shaped_values
from tests.engine.rules.legal_setups import LegalSetUp, legal_setup

#: The four bundled systems, each with its own test.
SYSTEMS = ("spycraft", "savage-worlds", "cities-without-number", "d20-firearms")

#: Values no command field or option should hold.
junk: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6)
    | st.binary(max_size=4)
    | st.sampled_from([math.nan, math.inf, -math.inf, 2**63, -(10**30), 1e308, "", "ghost"]),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=3), inner, max_size=2) | st.frozensets(st.integers()),
    max_leaves=5,
)


@functools.cache
def setup_for(system: str, action: str) -> LegalSetUp:
    """The legal set-up of ``action`` (built once: the states are frozen values)."""
    return legal_setup(system, action)


def _names(setup: LegalSetUp) -> list[str]:
    """Text a command of this encounter might carry: token ids, weapons, conditions."""
    state = setup.state
    names = [t.id for t in state.tokens] + [w.name for t in state.tokens for w in t.weapons]
    return [*names, *(spec.name for spec in get_system(setup.system).conditions), "ghost", ""]


def option_values(spec: OptionSpec, setup: LegalSetUp) -> st.SearchStrategy[Any]:
    """A value for option ``spec``: one it declares, one at or past its bounds, or junk."""
    names = st.sampled_from(_names(setup) + [side.value for side in Side])
    if isinstance(spec.kind, SHAPED_KINDS):
        fitting: st.SearchStrategy[Any] = shaped_values(spec.kind, setup)
    elif isinstance(spec.kind, ListOf):
        entries = st.sampled_from(spec.choices) if spec.choices else names
        fitting = st.lists(entries, max_size=4)
    elif isinstance(spec.kind, MapOf):
        values = (st.sampled_from(spec.choices) if spec.choices
                  else squares_near(setup) if spec.kind.value is Square else names)
        fitting = st.dictionaries(names, values, max_size=3)
    elif spec.choices:
        fitting = st.sampled_from(spec.choices)
    elif spec.kind is bool:
        fitting = st.booleans()
    elif spec.kind is int or spec.kind is float:
        low = -MAX_NUMBER if spec.minimum is None else spec.minimum
        high = MAX_NUMBER if spec.maximum is None else spec.maximum
        edges = [low, high, low - 1, high + 1, 0, -1, 10**100]
        fitting = st.integers(-3, 20) | st.sampled_from(
            [int(e) for e in edges] if spec.kind is int else [float(e) for e in edges]
        )
        if spec.kind is float:
            fitting = fitting | st.floats(-50, 50)
    else:
        fitting = st.sampled_from(_names(setup)) | st.text(max_size=8)
    wrong_kind = st.sampled_from([True, False, 1.5, "3", math.nan, math.inf, -math.inf])
    return st.one_of(fitting, fitting, wrong_kind, junk)


def squares_near(setup: LegalSetUp) -> st.SearchStrategy[tuple[int, int]]:
    """A square on the map or a few squares past its edge."""
    battlemap = setup.state.battlemap
    return st.tuples(st.integers(-3, battlemap.width + 2), st.integers(-3, battlemap.height + 2))


def square_lists(setup: LegalSetUp) -> st.SearchStrategy[Any]:
    battlemap = setup.state.battlemap
    near = squares_near(setup)
    far = st.tuples(st.integers(), st.integers())
    many = st.integers(2, 3 * battlemap.width * battlemap.height).flatmap(
        lambda n: near.map(lambda s: [s] * n)  # more squares than the map holds, or nearly
    )
    return st.one_of(
        st.lists(near, max_size=5), st.lists(near | far, max_size=3), many,
        st.lists(junk, min_size=1, max_size=3), junk,
    )


def target_lists(setup: LegalSetUp) -> st.SearchStrategy[Any]:
    ids = [t.id for t in setup.state.tokens]
    some = st.lists(st.sampled_from([*ids, "ghost"]), max_size=4)
    many = st.integers(5, MAX_TARGETS + 5).map(lambda n: [ids[0]] * n)
    return st.one_of(some, some, many, st.lists(junk, min_size=1, max_size=2), junk)


@st.composite
def commands_from(draw: st.DrawFn, setup: LegalSetUp) -> dict[str, Any]:
    """The fields of a command: the set-up's legal one with up to three fields changed."""
    command = setup.command
    fields: dict[str, Any] = {}
    options = dict(command.options)
    specs = get_system(setup.system).options_of(command.action)
    ids = [t.id for t in setup.state.tokens]
    for _ in range(draw(st.integers(0, 3))):
        part = draw(st.sampled_from(
            ["option", "option", "option", "drop option", "unknown option", "actor",
             "targets", "squares", "weapon", "action"]
        ))
        if part == "option" and specs:
            spec = draw(st.sampled_from(specs))
            options[spec.name] = draw(option_values(spec, setup))
        elif part == "drop option" and options:
            del options[draw(st.sampled_from(sorted(options)))]
        elif part == "unknown option":
            options[draw(st.sampled_from(["bogus", "Weapon", "squares"]))] = draw(junk)
        elif part == "actor":
            fields["actor"] = draw(st.sampled_from([*ids, "ghost", None]) | junk)
        elif part == "targets":
            fields["targets"] = draw(target_lists(setup))
        elif part == "squares":
            fields["squares"] = draw(square_lists(setup))
        elif part == "weapon":
            fields["weapon"] = draw(st.sampled_from([*_names(setup), None]) | junk)
        elif part == "action":
            fields["action"] = draw(st.sampled_from(["no_such_action", "end_turn"]) | junk)
    if options != dict(command.options):
        fields["options"] = tuple(options.items())
    return fields


@dataclass(frozen=True)
class Checked:
    """What became of one command: built, previewed, refused or applied."""

    outcome: str
    command: Command | None = None


def check_command(setup: LegalSetUp, fields: dict[str, Any]) -> Checked:
    """Build, preview and (when legal) apply the command: only CommandError may escape the
    first two, and a command the preview calls legal must apply without any error."""
    try:
        command = replace(setup.command, **fields)
    except CommandError:
        event("refused when built")
        return Checked("malformed")
    fight = Encounter(setup.state, seed=setup.seed)
    try:
        preview = fight.preview(command)
    except CommandError:
        event("refused by the rule system's check")
        return Checked("malformed", command)
    if not preview.legal:
        assert preview.reasons, "refused without a reason"
        event("refused in words")
        return Checked("refused", command)
    event("legal and applied")
    fight.apply(command)  # anything raised here fails the property
    return Checked("applied", command)
