"""The overlay payload's own behaviour: squares by tone, tokens by role, joining, validation."""

from __future__ import annotations

import dataclasses

import pytest
import shapely

from engine.grid import Square
from engine.overlay import (
    Modifier,
    Overlay,
    OverlayArea,
    OverlayNote,
    OverlayRoute,
    OverlayShape,
    OverlayToken,
    Role,
    ShapeKind,
    SquareMark,
    Tone,
)


def test_an_empty_overlay_is_falsy_and_a_filled_one_is_not() -> None:
    assert not Overlay()
    assert Overlay(marks=(SquareMark(Square(1, 1), "+2 Defense"),))


def test_squares_are_those_of_the_areas_with_the_tone_asked() -> None:
    overlay = Overlay(
        areas=(
            OverlayArea("Suppressive Fire", frozenset({Square(1, 1), Square(2, 1)})),
            OverlayArea("out of sight", frozenset({Square(3, 1)}), Tone.REFUSED, "a wall"),
        )
    )
    assert overlay.squares() == {Square(1, 1), Square(2, 1)}
    assert overlay.squares(Tone.REFUSED) == {Square(3, 1)}


def test_area_squares_given_as_pairs_become_squares() -> None:
    area = OverlayArea("blast", frozenset({(4, 5)}))  # type: ignore[arg-type]
    assert area.squares == {Square(4, 5)}


def test_tokens_are_filtered_by_role_and_found_by_id() -> None:
    aim = Modifier("Aim", 1)
    overlay = Overlay(
        tokens=(
            OverlayToken("guard", Role.AFFECTED, (aim,)),
            OverlayToken("ally", Role.SPARED, note="a friend"),
        )
    )
    assert overlay.token_ids() == ("guard", "ally")
    assert overlay.token_ids(Role.AFFECTED) == ("guard",)
    assert overlay.token("guard").modifiers == (aim,)
    with pytest.raises(KeyError, match="nobody"):
        overlay.token("nobody")


def test_a_route_keeps_its_squares_in_order() -> None:
    route = OverlayRoute(((0, 0), (1, 0), (2, 1)), "15 ft")  # type: ignore[arg-type]
    assert route.start == Square(0, 0) and route.end == Square(2, 1)
    with pytest.raises(ValueError, match="at least one square"):
        OverlayRoute(())


def test_plus_joins_every_part_in_order() -> None:
    cone = OverlayShape(
        ShapeKind.CONE, "Brace", shapely.box(0, 0, 1, 1), (0.5, 0.5), direction=90.0
    )
    first = Overlay(shapes=(cone,), marks=(SquareMark(Square(0, 0), "a"),))
    second = Overlay(marks=(SquareMark(Square(1, 0), "b"),), tokens=(OverlayToken("t"),))
    note = OverlayNote(Square(2, 0), "3 squares, 15 ft")
    joined = first.plus(second, Overlay(notes=(note,)))
    assert [m.label for m in joined.marks] == ["a", "b"]
    assert joined.shapes == (cone,) and joined.token_ids() == ("t",)
    assert joined.notes == (note,)


def test_an_overlay_of_notes_alone_is_something_to_draw() -> None:
    note = OverlayNote((1, 2), "total 4 squares")  # type: ignore[arg-type]
    assert note.square == Square(1, 2) and note.tone is Tone.INFO
    assert Overlay(notes=(note,)) and not Overlay()


def test_overlay_parts_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Overlay().areas = ()  # type: ignore[misc]


def test_a_refused_overlay_refuses_areas_routes_and_shapes_but_keeps_each_marks_verdict() -> None:
    cone = OverlayShape(ShapeKind.CONE, "Brace", shapely.box(0, 0, 1, 1), (0.5, 0.5))
    overlay = Overlay(
        areas=(
            OverlayArea("sweep", frozenset({Square(1, 1)})),
            OverlayArea("behind", frozenset({Square(2, 1)}), Tone.REFUSED, "behind (1,1)"),
        ),
        marks=(SquareMark(Square(1, 1), "1"), SquareMark(Square(2, 1), "2", Tone.REFUSED, "x")),
        routes=(OverlayRoute((Square(0, 0), Square(1, 0))),),
        shapes=(cone,),
        notes=(OverlayNote(Square(1, 0), "1 square"),),
    ).refused(("out of ammunition",))
    assert [(a.tone, a.reason) for a in overlay.areas] == [
        (Tone.REFUSED, "out of ammunition"),
        (Tone.REFUSED, "behind (1,1)"),
    ]
    assert [m.tone for m in overlay.marks] == [Tone.LEGAL, Tone.REFUSED]
    assert overlay.routes[0].tone is Tone.REFUSED and overlay.shapes[0].tone is Tone.REFUSED
    assert overlay.notes == (OverlayNote(Square(1, 0), "1 square"),)
    assert overlay.squares() == frozenset()
