"""The GM's measuring tools' answers (engine.rules.measuring): each is the geometry the
engine computes, as an overlay the map draws, with what depends on the rules taken from the
system given (its templates and inclusion rule, its cover table, its range bands)."""

from __future__ import annotations

from dataclasses import replace

import pytest
import shapely

from engine.geometry import (
    cover_between,
    has_line_of_sight,
    lay_template,
    range_bands,
    token_line_of_sight,
    visible_squares,
)
from engine.geometry.areas import token_centre
from engine.grid import Square
from engine.overlay import Role, Tone
from engine.routes.deviation import deviate
from engine.routes.graph import MovementGraph
from engine.rules import get_system, system_names
from engine.rules.measuring import (
    deviation_diagram,
    measure_range,
    measure_template,
    sight_fog,
    sight_rings,
    sight_to,
    system_template,
    template_origin,
)
from tests.desktop.sample import sample_state

BUNDLED = [name for name in system_names() if name != "tiny-skirmish"]


@pytest.mark.parametrize("name", BUNDLED)
def test_each_template_of_each_system_is_the_geometry_laid_under_its_inclusion_rule(
    name: str,
) -> None:
    system = get_system(name)
    state = replace(sample_state(), system=name, scale=system.scale)
    for spec in system.templates:
        origin = template_origin(spec, (6.3, 5.8))
        size = spec.size + 1
        measured = measure_template(state, system, spec, origin, 30.0, size)
        laid = lay_template(state, spec, origin, 30.0, size, inclusion=system.template_inclusion)
        overlay = measured.overlay
        assert overlay.squares() == laid.squares, spec.key
        assert set(overlay.token_ids(Role.AFFECTED)) == set(laid.token_ids()), spec.key
        assert [shape.outline for shape in overlay.shapes] == [laid.shape], spec.key
        assert overlay.shapes[0].origin == origin
        assert measured.lines[0].startswith(spec.label)


def test_a_template_starts_on_a_corner_or_a_square_centre_as_its_spec_says() -> None:
    system = get_system("spycraft")
    corner = next(spec for spec in system.templates if spec.on_corner)
    centred = replace(corner, on_corner=False)
    assert template_origin(corner, (9.1, 4.2)) == (9.0, 4.0)
    assert template_origin(centred, (9.1, 4.2)) == (9.5, 4.5)


def test_an_unknown_template_names_the_ones_the_system_has() -> None:
    system = get_system("savage-worlds")
    with pytest.raises(KeyError, match="small_blast"):
        system_template(system, "fireball")


def test_partial_inclusion_is_said_on_the_label() -> None:
    system = get_system("savage-worlds")
    state = replace(sample_state(), system="savage-worlds", scale=system.scale)
    spec = system_template(system, "medium_blast")
    measured = measure_template(state, system, spec, (12.5, 3.5), 0.0, spec.size)
    assert "any part of it is beneath" in measured.lines[2]


def test_sight_rings_say_whom_the_viewer_sees_as_line_of_sight_does() -> None:
    state = sample_state()
    kara = state.token("kara")
    measured = sight_rings(state, "kara")
    tones = {t.token_id: t.tone for t in measured.overlay.tokens if t.role is not Role.ACTOR}
    expected = {
        o.id: Tone.LEGAL if token_line_of_sight(state.battlemap, kara, o) else Tone.REFUSED
        for o in state.others("kara")
    }
    assert tones == expected
    assert Tone.REFUSED in tones.values(), "the sample map hides somebody from Kara"
    assert measured.overlay.token_ids(Role.ACTOR) == ("kara",)


def test_sight_to_a_token_draws_the_cover_lines_blocked_ones_refused() -> None:
    state = sample_state()
    system = get_system("spycraft")
    boss = next(t for t in state.tokens if t.name == "The Boss")
    measured = sight_to(state, system, "kara", boss.square)
    cover = cover_between(state.battlemap, state.token("kara"), boss, system.cover_table)
    assert [s.outline for s in measured.overlay.shapes] == list(shapely.get_parts(cover.lines))
    assert [s.tone is Tone.REFUSED for s in measured.overlay.shapes] == list(cover.blocked)
    assert measured.lines[0].startswith(f"The Boss: cover {cover.level.words}")


def test_sight_to_an_empty_square_is_one_line_seen_or_not() -> None:
    state = sample_state()
    system = get_system("spycraft")
    kara = state.token("kara")
    squares = [Square(x, y) for x in range(16) for y in range(12)]
    empty = [square for square in squares if state.token_at(square) is None]

    def sees(square: Square) -> bool:
        return any(has_line_of_sight(state.battlemap, s, square) for s in kara.squares)

    hidden = next(square for square in empty if not sees(square))
    for square, seen in ((Square(3, 3), True), (hidden, False)):
        assert sees(square) == seen
        measured = sight_to(state, system, "kara", square)
        (line,) = measured.overlay.shapes
        assert line.origin == token_centre(kara)
        assert (line.tone is Tone.LEGAL) == seen, square
        assert measured.lines == (f"square {square}: {'in sight' if seen else 'out of sight'}",)
    assert not sight_to(state, system, "kara", kara.square).overlay


def test_the_fog_is_the_rest_of_the_map_the_viewer_does_not_see() -> None:
    state = sample_state()
    (area,) = sight_fog(state, "kara").overlay.areas
    seen = visible_squares(state.battlemap, state.token("kara"), 28.0)
    assert area.tone is Tone.UNSEEN
    assert area.squares == frozenset(state.battlemap.squares()) - seen.squares
    board = shapely.box(0, 0, state.battlemap.width, state.battlemap.height)
    assert area.outline is not None and area.outline.equals(board.difference(seen.shape))
    assert not area.outline.intersects(seen.shape.buffer(-1e-6))


@pytest.mark.parametrize("name", BUNDLED)
def test_range_bands_are_the_systems_table_with_every_token_in_its_band(name: str) -> None:
    system = get_system(name)
    assert system.range_table is not None
    state = replace(sample_state(), system=name, scale=system.scale)
    shooter = next(t for t in state.tokens if any(w.range_increment > 0 for w in t.weapons))
    weapon = next(w for w in shooter.weapons if w.range_increment > 0).name
    measured = measure_range(state, system, shooter.id, weapon)
    bands = range_bands(state, shooter.id, weapon, system.range_table)
    assert [a.outline for a in measured.overlay.areas] == [b.shape for b in bands.bands]
    labels = [a.label for a in measured.overlay.areas]
    for affected in bands.tokens:
        ring = measured.overlay.token(affected.token_id)
        band = affected.modifiers[0]
        assert [(m.name, m.value) for m in ring.modifiers] == [(band.rule, band.value)]
        assert ring.note in labels and ring.tone is Tone.LEGAL
    for token_id in bands.out_of_range:
        assert measured.overlay.token(token_id).tone is Tone.REFUSED


def test_a_system_without_range_bands_says_so() -> None:
    from tests.desktop.stub_system import StubSystem

    system = StubSystem()
    assert system.range_table is None
    state = sample_state()
    shooter = next(t for t in state.tokens if t.weapons)
    with pytest.raises(ValueError, match="has no range bands"):
        measure_range(state, system, shooter.id, shooter.weapons[0].name)


def test_the_deviation_diagram_marks_each_number_as_deviate_lands_it() -> None:
    state = sample_state()
    system = get_system(state.system)
    graph = MovementGraph(state, difficult_cost=system.difficult_terrain_cost)
    token = state.tokens[0]
    found = deviation_diagram(state, system, graph, token.square)
    assert found is not None and system.deviation is not None
    for number, (dx, dy) in system.deviation.diagram.items():
        square = Square(token.square.x + dx, token.square.y + dy)
        if not state.battlemap.in_bounds(square):
            continue
        (mark,) = [m for m in found.measured.overlay.marks if m.square == square]
        assert mark.label == str(number)
        landed = found.landings[number]
        assert (mark.tone is Tone.LEGAL) == (landed is not None)
        if landed is not None:  # the engine's own scatter, with that number on the d8
            assert deviate(graph, token.square, lambda _, n=number: n, size=token.size,
                           ignore=(token.id,), diagram=system.deviation.diagram).square == landed
    flown = [r.squares for r in found.measured.overlay.routes]
    assert flown == [path for path in found.flights.values() if len(path) > 1]
    # The flights are background to the marks, and a weapon's path, not the token's walk.
    assert {(r.tone, r.walked) for r in found.measured.overlay.routes} == {(Tone.HINT, False)}


def test_a_system_without_a_deviation_diagram_gets_none() -> None:
    state = replace(sample_state(), system="cities-without-number")
    system = get_system("cities-without-number")
    assert system.deviation is None
    graph = MovementGraph(state, difficult_cost=system.difficult_terrain_cost)
    assert deviation_diagram(state, system, graph, Square(1, 1)) is None
