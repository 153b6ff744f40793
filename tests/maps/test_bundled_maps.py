"""The bundled encounters: each loads, is playable, and its picture matches its map data."""

from __future__ import annotations

import io
import math
from collections import deque
from functools import cache

import numpy as np
import pytest
from PIL import Image, ImageDraw
from shapely import STRtree
from shapely.geometry import LineString, Polygon, box

import engine
from engine.battlemap import BattleMap, PortalKind, PortalState, TerrainKind
from engine.files import EncounterFile, load_encounter
from engine.grid import FIVE_FOOT, GridScale, Square
from engine.rules.cities_without_number.tables import SCALE as METRIC
from engine.rules.savage_worlds.tables import SCALE as SAVAGE_INCH
from engine.tokens import are_opponents
from maps.build_maps import DEFAULT_ENCOUNTER, SCENES, output_path
from maps.painting import DOOR_COLOURS, GLASS, PPS, Scene, portal_look

SYSTEMS = {"spycraft", "savage-worlds", "cities-without-number", "d20-firearms"}
EXPECTED: dict[str, tuple[str, GridScale, float]] = {
    "warehouse": ("spycraft", FIVE_FOOT, 30.0),
    "night_street": ("savage-worlds", SAVAGE_INCH, 6.0),
    "office_floor": ("cities-without-number", METRIC, 10.0),
    "compound": ("d20-firearms", FIVE_FOOT, 30.0),
}
NAMES = list(SCENES)
#: Stats each system's rules read, which every token of its encounter must carry.
STAT_BLOCKS: dict[str, set[str]] = {
    "spycraft": {"initiative", "defense", "vitality", "wounds", "ranged_attack", "str_score"},
    "savage-worlds": {"parry", "toughness", "shooting", "fighting", "wild_card", "wounds"},
    "cities-without-number": {"ac_ranged", "ac_melee", "hp", "dex_mod", "attack_bonus"},
    "d20-firearms": {"initiative", "defense", "hp", "ranged_attack", "reflex",
                     "advanced_firearms", "int_mod"},
}


@cache
def loaded(name: str) -> EncounterFile:
    return load_encounter(output_path(name))


@cache
def scene(name: str) -> Scene:
    return SCENES[name]()


@cache
def picture(name: str) -> np.ndarray:
    encounter = loaded(name)
    background = encounter.state.battlemap.background
    assert background is not None
    with Image.open(io.BytesIO(encounter.images[background.image])) as image:
        return np.asarray(image.convert("RGB"), dtype=np.float32)


def test_every_system_has_its_own_bundled_encounter() -> None:
    assert {EXPECTED[name][0] for name in NAMES} == SYSTEMS
    assert set(NAMES) == set(EXPECTED)


def test_the_default_encounter_is_the_warehouse() -> None:
    assert DEFAULT_ENCOUNTER == "warehouse"
    assert output_path(DEFAULT_ENCOUNTER).is_file()


@pytest.mark.parametrize("name", NAMES)
def test_loads_with_its_system_scale_and_speeds(name: str) -> None:
    state = loaded(name).state
    system, scale, speed = EXPECTED[name]
    assert state.system == system
    assert state.scale == scale
    assert state.description
    assert {token.speed for token in state.tokens} == {speed}
    assert 24 <= state.battlemap.width <= 32 and 18 <= state.battlemap.height <= 24


@pytest.mark.parametrize("name", NAMES)
def test_the_generator_reproduces_the_bundled_state(name: str) -> None:
    """Re-running maps/build_maps.py gives the state that is in the bundled file."""
    assert scene(name).state == loaded(name).state
    assert SCENES[name]().state == scene(name).state


@pytest.mark.parametrize("name", NAMES)
def test_background_is_64_px_a_square_and_small(name: str) -> None:
    encounter = loaded(name)
    battlemap = encounter.state.battlemap
    assert battlemap.background is not None
    assert battlemap.background.pixels_per_square == PPS == 64
    assert battlemap.background.image == f"images/{name}.png"
    height, width, _ = picture(name).shape
    assert (width, height) == (battlemap.width * 64, battlemap.height * 64)
    assert len(encounter.images[battlemap.background.image]) < 1_500_000


@pytest.mark.parametrize("name", NAMES)
def test_sides_face_each_other(name: str) -> None:
    tokens = loaded(name).state.tokens
    assert any(are_opponents(a.side, b.side) for a in tokens for b in tokens)
    assert len({t.name for t in tokens}) >= len(tokens) - 4  # names tell tokens apart


@pytest.mark.parametrize("name", NAMES)
def test_weapons_start_loaded_with_ranges(name: str) -> None:
    for token in loaded(name).state.tokens:
        for weapon in token.weapons:
            if weapon.melee:
                continue
            assert weapon.range_increment > 0, (token.name, weapon.name)
            assert weapon.capacity > 0 and weapon.ammo == weapon.capacity, (token.name, weapon)
            assert weapon.damage


@pytest.mark.parametrize("name", NAMES)
def test_tokens_carry_the_stat_block_their_system_reads(name: str) -> None:
    state = loaded(name).state
    for token in state.tokens:
        missing = STAT_BLOCKS[state.system] - set(token.stats)
        assert not missing, f"{token.name} lacks {sorted(missing)}"


@pytest.mark.parametrize("name", NAMES)
def test_combat_starts_on_the_bundled_encounter(name: str) -> None:
    """The encounter runs on its rule system: initiative is rolled and someone can act."""
    fight = engine.open_encounter(engine.bundled_map(name), seed=11)
    assert fight.system.name == EXPECTED[name][0]
    fight.apply(engine.Command("start_combat"))
    active = fight.state.combat.active
    assert active in {t.id for t in fight.state.tokens}
    assert fight.legal_actions(active)


def _blocked_squares(battlemap: BattleMap) -> set[Square]:
    """Squares a token cannot stand on: impassable, under a solid object, or cut by a wall."""
    blocked = {s for s in battlemap.squares() if battlemap.terrain_at(s) is TerrainKind.IMPASSABLE}
    solid = [Polygon(c.outline) for c in battlemap.cover if c.blocks_movement]
    walls = [LineString([w.start, w.end]) for w in battlemap.walls if w.blocks_movement]
    walls += [LineString([p.start, p.end]) for p in battlemap.portals]
    for square in battlemap.squares():
        cell = box(square.x, square.y, square.x + 1, square.y + 1)
        inner = box(square.x + 0.02, square.y + 0.02, square.x + 0.98, square.y + 0.98)
        if any(cell.intersection(p).area > 1e-6 for p in solid) or any(
            inner.intersects(w) for w in walls
        ):
            blocked.add(square)
    return blocked


@pytest.mark.parametrize("name", NAMES)
def test_tokens_stand_on_free_squares_in_bounds(name: str) -> None:
    state = loaded(name).state
    blocked = _blocked_squares(state.battlemap)
    for token in state.tokens:
        for square in token.squares:
            assert state.battlemap.in_bounds(square), (token.name, square)
            assert square not in blocked, f"{token.name} stands on blocked square {square}"


@cache
def _areas(name: str) -> dict[Square, int]:
    """Which connected area each free square belongs to, moving in orthogonal steps:
    through doors (a GM may open them), not through walls, windows or locked doors."""
    battlemap = loaded(name).state.battlemap
    blocked = _blocked_squares(battlemap)
    barriers = [LineString([w.start, w.end]) for w in battlemap.walls if w.blocks_movement]
    barriers += [
        LineString([p.start, p.end]) for p in battlemap.portals
        if p.kind is PortalKind.WINDOW or p.state is PortalState.LOCKED
    ]
    tree = STRtree(barriers)
    area_of: dict[Square, int] = {}
    for start in battlemap.squares():
        if start in blocked or start in area_of:
            continue
        label = len(set(area_of.values()))
        area_of[start] = label
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                there = here.offset(dx, dy)
                if there in area_of or there in blocked or not battlemap.in_bounds(there):
                    continue
                if len(tree.query(LineString([here.centre, there.centre]),
                                  predicate="intersects")):
                    continue
                area_of[there] = label
                queue.append(there)
    return area_of


@pytest.mark.parametrize("name", NAMES)
def test_every_fighter_can_reach_an_opponent(name: str) -> None:
    """Playable start to finish: no combatant is sealed away from the other side."""
    state = loaded(name).state
    area_of = _areas(name)
    for token in state.tokens:
        foes = [t for t in state.tokens if are_opponents(token.side, t.side)]
        if not foes:
            continue
        beside_foes = {n for foe in foes for s in foe.squares for n in s.neighbours()}
        reachable = {area_of[token.square]}
        assert any(area_of.get(s) in reachable for s in beside_foes), (
            f"{token.name} cannot get next to any opponent"
        )


def _pixel(name: str, point: tuple[float, float]) -> np.ndarray:
    image = picture(name)
    x = min(image.shape[1] - 1, int(point[0] * PPS))
    y = min(image.shape[0] - 1, int(point[1] * PPS))
    return image[y, x]


def _near(colour: np.ndarray, *targets: tuple[int, int, int], tolerance: float = 40) -> bool:
    return any(float(np.linalg.norm(colour - np.array(t))) <= tolerance for t in targets)


@pytest.mark.parametrize("name", NAMES)
def test_walls_are_drawn_where_the_walls_are(name: str) -> None:
    look, battlemap = scene(name).look, loaded(name).state.battlemap
    for wall in battlemap.walls:
        style = look.style_of(wall)
        for t in (0.25, 0.5, 0.75):
            point = (wall.start[0] + t * (wall.end[0] - wall.start[0]),
                     wall.start[1] + t * (wall.end[1] - wall.start[1]))
            colour = _pixel(name, point)
            assert _near(colour, style.fill, style.edge), f"no wall drawn at {point}: {colour}"


@pytest.mark.parametrize("name", NAMES)
def test_doors_and_windows_are_drawn_where_the_portals_are(name: str) -> None:
    battlemap = loaded(name).state.battlemap
    for portal in battlemap.portals:
        length = math.dist(portal.start, portal.end)
        # the middle of the first pane or leaf (mullions sit on whole squares)
        t = min(0.5, 0.5 / length)
        point = (portal.start[0] + t * (portal.end[0] - portal.start[0]),
                 portal.start[1] + t * (portal.end[1] - portal.start[1]))
        kind = portal_look(portal)
        expected = GLASS if kind == "window" else DOOR_COLOURS[kind]
        assert _near(_pixel(name, point), expected, (30, 30, 30)), (portal.id, point)


@pytest.mark.parametrize("name", NAMES)
def test_cover_objects_are_drawn_where_they_stand(name: str) -> None:
    """Inside each object's outline the picture differs from the floor just around it."""
    battlemap = loaded(name).state.battlemap
    image = picture(name)
    for cover in battlemap.cover:
        shape = Polygon(cover.outline)
        inside = shape.buffer(-0.08)
        ring = shape.buffer(0.3).difference(shape.buffer(0.05))
        # work in a crop around the object: masks of the whole picture are slow
        x0, y0, x1, y1 = (round(v * PPS) for v in ring.bounds)
        x0, y0 = max(0, x0), max(0, y0)
        crop = image[y0:y1, x0:x1]
        means = []
        for area in (inside, ring):
            mask = Image.new("L", (crop.shape[1], crop.shape[0]), 0)
            draw = ImageDraw.Draw(mask)
            for polygon in getattr(area, "geoms", [area]):
                draw.polygon([(x * PPS - x0, y * PPS - y0) for x, y in polygon.exterior.coords],
                             fill=255)
                for hole in polygon.interiors:
                    draw.polygon([(x * PPS - x0, y * PPS - y0) for x, y in hole.coords], fill=0)
            means.append(crop[np.asarray(mask) > 0].mean(axis=0))
        assert float(np.linalg.norm(means[0] - means[1])) > 12, f"{cover.id} not visible"


def test_warehouse_has_six_automatic_weapons_on_both_sides() -> None:
    state = loaded("warehouse").state
    automatic = [t for t in state.tokens if any("full auto" in w.modes for w in t.weapons)]
    assert len(automatic) >= 6
    assert {t.side for t in automatic} >= {"party", "enemy"}


def test_warehouse_has_its_set_pieces() -> None:
    battlemap = loaded("warehouse").state.battlemap
    assert battlemap.portal("rollup-1").kind is PortalKind.DOOR
    assert any(p.id.startswith("door") for p in battlemap.portals)
    assert any(t.kind is TerrainKind.DIFFICULT and "stair" in t.name.lower()
               for t in battlemap.terrain)
    assert any(c.blocks_sight for c in battlemap.cover)
    assert any(c.id.startswith("crate") and not c.blocks_sight for c in battlemap.cover)


def test_office_has_glass_walls_and_doors() -> None:
    battlemap = loaded("office_floor").state.battlemap
    windows = [p for p in battlemap.portals if p.kind is PortalKind.WINDOW]
    assert len(windows) >= 6
    assert all(not p.blocks_sight and p.blocks_movement for p in windows)
    assert sum(p.kind is PortalKind.DOOR for p in battlemap.portals) >= 3


def test_night_street_is_lit_and_has_cars() -> None:
    battlemap = loaded("night_street").state.battlemap
    assert len(battlemap.lights) >= 4
    assert sum(c.id.startswith(("car", "van", "pickup")) for c in battlemap.cover) >= 3
