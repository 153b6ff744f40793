"""Options holding a list or a mapping (ListOf, MapOf): typed values, never text to split.

A token id or name may hold any character, so these tests use ids with the characters a
packed string would have split on."""

from __future__ import annotations

import json

import pytest

from engine.grid import Square
from engine.rules.base import Command, CommandError, ListOf, MapOf, OptionSpec, Ref
from engine.turns.journal import JournalError, command_from_json, command_to_json

#: Ids holding every separator a packed string used.
AWKWARD = ('a, "b"', "c|d=e;f:g", "h>i/j 'k'")

TOKENS = OptionSpec("order", ListOf(Ref.TOKEN), label="Order")
CARDS = OptionSpec("cards", MapOf(str), ("AS", "10H"), label="Cards")
SQUARES = OptionSpec("dive", MapOf(Square), label="Dive to")


def test_lists_and_mappings_become_tuples_in_the_order_given() -> None:
    command = Command.build("x", order=list(AWKWARD), cards={AWKWARD[1]: "AS", "z": "10H"},
                            dive={AWKWARD[0]: (6, 8)})
    assert command.names("order") == AWKWARD
    assert command.pairs("cards") == {AWKWARD[1]: "AS", "z": "10H"}
    assert command.pairs("dive") == {AWKWARD[0]: Square(6, 8)}
    assert isinstance(command.pairs("dive")[AWKWARD[0]], Square)
    same = Command.build("x", order=AWKWARD, cards=((AWKWARD[1], "AS"), ("z", "10H")),
                         dive=[[AWKWARD[0], [6, 8]]])
    assert same == command and hash(same) == hash(command)


def test_a_list_or_mapping_is_never_read_as_one_value() -> None:
    command = Command.build("x", order=["a"])
    with pytest.raises(CommandError, match="holds a list or mapping"):
        command.option("order")
    with pytest.raises(CommandError, match="must be a list"):
        Command.build("x", order="a,b").names("order")
    with pytest.raises(CommandError, match="must be a mapping"):
        Command.build("x", cards="a=AS").pairs("cards")
    assert Command("x").names("order") == () and Command("x").pairs("cards") == {}


def test_the_schema_accepts_awkward_ids() -> None:
    assert TOKENS.problem(AWKWARD) is None
    assert CARDS.problem(tuple((i, "AS") for i in AWKWARD)) is None
    assert SQUARES.problem(((AWKWARD[2], Square(0, 0)),)) is None


@pytest.mark.parametrize(("spec", "value", "problem"), [
    (TOKENS, "a,b", "must be a list of token ids, not 'a,b'"),
    (TOKENS, ("a", "a"), "names 'a' twice"),
    (TOKENS, ("a", ""), "must be a list of token ids"),
    (TOKENS, (1,), "must be a list of token ids"),
    (OptionSpec("acting", ListOf(Ref.SIDE), ("party", "enemy"), label="x"), ("ally",),
     "entries must be among 'party', 'enemy', not 'ally'"),
    (CARDS, "a=AS", "must be token ids each with text, not 'a=AS'"),
    (CARDS, (("a", "AS"), ("a", "10H")), "names 'a' twice"),
    (CARDS, (("a", "ZZ"),), "'a' must have one of AS, 10H, not 'ZZ'"),
    (CARDS, (("a", 3),), "'a' must have text, not 3"),
    (SQUARES, (("b", "6,8"),), "'b' must have a square (x, y), not '6,8'"),
    (SQUARES, (("b", Square(1, 2), 3),), "must be token ids each with a square"),
])
def test_the_schema_names_what_is_wrong(spec: OptionSpec, value: object, problem: str) -> None:
    found = spec.problem(value)
    assert found is not None and found.startswith(problem), found


def test_lists_and_mappings_round_trip_through_the_journal() -> None:
    command = Command.build("covering_fire", "a", order=list(AWKWARD),
                            cards={i: "AS" for i in AWKWARD}, dive={AWKWARD[2]: (-1, 40)},
                            steady=True)
    data = json.loads(json.dumps(command_to_json(command)))
    assert dict(data["options"])["cards"] == {i: "AS" for i in AWKWARD}
    assert dict(data["options"])["dive"] == {AWKWARD[2]: [-1, 40]}
    assert command_from_json(data) == command


@pytest.mark.parametrize("value", [[1, 2], {"a": 3}, {"a": [1]}, {"a": [1.5, 2]}, [["a", "b"]],
                                   {"a": None}])
def test_a_journal_option_no_kind_holds_is_refused(value: object) -> None:
    with pytest.raises(JournalError, match="not a command: option 'o'"):
        command_from_json({"action": "m", "options": [["o", value]]})
