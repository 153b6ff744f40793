"""Hypothesis strategies for valid encounter states (every value the model accepts)."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.battlemap import (
    Background,
    BattleMap,
    CoverGrade,
    CoverObject,
    Light,
    Portal,
    PortalKind,
    PortalState,
    TerrainKind,
    TerrainPatch,
    Wall,
)
from engine.encounter import EncounterState
from engine.grid import DiagonalRule, GridScale, Square, Unit
from engine.rules import get_system, system_names
from engine.rules.base import StatSpec
from engine.tokens import Condition, Expiry, ExpiryPoint, Side, Token, Weapon
from engine.turns.combat import Combatant, CombatState, LogEntry, PendingAction, Phase

IMAGE_NAMES = ("images/background.png", "images/portrait-a.png", "images/b.png")

finite = st.floats(allow_nan=False, allow_infinity=False)
non_negative = st.floats(min_value=0, allow_nan=False, allow_infinity=False)
text = st.text(max_size=12)
stat_values = st.one_of(st.integers(), finite, text, st.booleans())


def stat_value(spec: StatSpec) -> st.SearchStrategy[object]:
    """Any value the system's schema accepts for one stat."""
    if spec.choices:
        return st.sampled_from(spec.choices)
    if spec.kind is bool:
        return st.booleans()
    if spec.kind is str:
        return text
    low = None if spec.minimum is None else int(spec.minimum)
    high = None if spec.maximum is None else int(spec.maximum)
    if spec.kind is int:
        return st.integers(low, high)
    return st.floats(spec.minimum, spec.maximum, allow_nan=False, allow_infinity=False)


def stat_blocks(system_name: str) -> st.SearchStrategy[dict[str, object]]:
    """A stat block of a few declared stats, each with a value its schema accepts."""
    specs = get_system(system_name).stats
    return st.lists(st.sampled_from(specs), unique_by=lambda s: s.name, max_size=4).flatmap(
        lambda chosen: st.fixed_dictionaries({spec.name: stat_value(spec) for spec in chosen})
    )


def points(width: int, height: int) -> st.SearchStrategy[tuple[float, float]]:
    return st.tuples(
        st.floats(min_value=0, max_value=width, allow_nan=False),
        st.floats(min_value=0, max_value=height, allow_nan=False),
    )


@st.composite
def battlemaps(draw: st.DrawFn) -> BattleMap:
    width = draw(st.integers(1, 10))
    height = draw(st.integers(1, 10))
    squares = st.builds(Square, st.integers(0, width - 1), st.integers(0, height - 1))
    walls = draw(st.lists(
        st.tuples(points(width, height), points(width, height), st.booleans(), st.booleans())
        .filter(lambda t: t[0] != t[1])
        .map(lambda t: Wall(*t)),
        max_size=4,
    ))
    ids = draw(st.lists(st.text(min_size=1, max_size=8), unique=True, max_size=6))
    split = draw(st.integers(0, len(ids)))
    portals = tuple(
        Portal(pid, draw(points(width, height)), draw(points(width, height)),
               draw(st.sampled_from(PortalKind)), draw(st.sampled_from(PortalState)))
        for pid in ids[:split]
    )
    cover = tuple(
        CoverObject(cid, draw(text), tuple(draw(st.lists(points(width, height), min_size=3,
                                                         max_size=5))),
                    draw(st.sampled_from(CoverGrade)), draw(finite), draw(st.booleans()),
                    draw(st.booleans()))
        for cid in ids[split:]
    )
    terrain = draw(st.lists(
        st.builds(TerrainPatch, text, st.sampled_from(TerrainKind),
                  st.frozensets(squares, max_size=6)),
        max_size=3,
    ))
    colours = st.from_regex(r"\A#[0-9a-f]{8}\Z")
    lights = draw(st.lists(
        st.builds(Light, points(width, height), non_negative, colours, finite), max_size=2
    ))
    background = draw(st.none() | st.builds(
        Background, st.sampled_from(IMAGE_NAMES), st.integers(1, 512)
    ))
    return BattleMap(width, height, tuple(walls), portals, tuple(terrain), cover,
                     tuple(lights), background)


@st.composite
def weapons(draw: st.DrawFn) -> Weapon:
    capacity = draw(st.integers(0, 200))
    return Weapon(
        name=draw(text), damage=draw(text), range_increment=draw(non_negative),
        ammo=draw(st.integers(0, capacity)), capacity=capacity,
        modes=tuple(draw(st.lists(text, max_size=3))), melee=draw(st.booleans()),
        two_handed=draw(st.booleans()), rate_of_fire=draw(st.integers()),
        traits=tuple(draw(st.lists(text, max_size=2))),
    )


conditions = st.builds(
    Condition, text,
    st.none() | st.builds(Expiry, st.integers(), st.sampled_from(ExpiryPoint),
                          st.none() | text),
    st.none() | text, st.integers(),
)


@st.composite
def encounter_states(draw: st.DrawFn) -> EncounterState:
    battlemap = draw(battlemaps())
    system = draw(st.sampled_from(system_names()))
    tokens: list[Token] = []
    taken: set[Square] = set()
    for token_id in draw(st.lists(st.text(min_size=1, max_size=8), unique=True, max_size=5)):
        size = draw(st.integers(1, 2))
        if size > min(battlemap.width, battlemap.height):
            continue
        square = Square(draw(st.integers(0, battlemap.width - size)),
                        draw(st.integers(0, battlemap.height - size)))
        token = Token(
            token_id, draw(text), draw(st.sampled_from(Side)), square, size=size,
            facing=draw(finite), speed=draw(non_negative),
            conditions=tuple(draw(st.lists(conditions, max_size=2))),
            weapons=tuple(draw(st.lists(weapons(), max_size=2))),
            stats=draw(stat_blocks(system)),
            portrait=draw(st.none() | st.sampled_from(IMAGE_NAMES)),
        )
        if taken.isdisjoint(token.squares):
            taken.update(token.squares)
            tokens.append(token)
    scale = GridScale(draw(st.floats(min_value=0.01, max_value=1e6)),
                      draw(st.sampled_from(Unit)), draw(st.sampled_from(DiagonalRule)))
    return EncounterState(draw(text), system, scale, battlemap, tuple(tokens),
                          draw(st.text(max_size=40)), draw(combat_states(tokens)))


def combat_states(tokens: list[Token]) -> st.SearchStrategy[CombatState]:
    ids = [t.id for t in tokens]
    token_ids = st.sampled_from(ids) if ids else text
    data = st.dictionaries(text, stat_values, max_size=3)
    combatant = st.builds(Combatant, token_ids, st.integers(),
                          st.lists(st.integers(), max_size=3).map(tuple),
                          st.dictionaries(text, st.integers(), max_size=2), data, st.booleans())
    return st.builds(
        CombatState, st.sampled_from(Phase), st.integers(0, 99),
        st.lists(combatant, max_size=3).map(tuple), st.none() | token_ids,
        st.lists(st.builds(PendingAction, token_ids, text, text, text, data),
                 max_size=2).map(tuple),
        st.integers(), st.integers(0, 10_000),
        st.lists(st.builds(LogEntry, st.integers(0, 99), text, st.text(max_size=30),
                           st.lists(token_ids, max_size=2).map(tuple)), max_size=3).map(tuple),
        data,
    )
