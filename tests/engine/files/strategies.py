"""Hypothesis strategies for valid encounter states (every value the model accepts)."""

from __future__ import annotations

from hypothesis import assume
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
from engine.limits import (
    MAX_COORDINATE,
    MAX_MAGNITUDE,
    MAX_RATE_OF_FIRE,
    MAX_SQUARE_SIZE,
    MIN_SQUARE_SIZE,
)
from engine.rules import get_system, system_names
from engine.rules.base import ListOf, OldStateError, StatSpec
from engine.tokens import Condition, Expiry, ExpiryPoint, Side, Token, Weapon
from engine.turns.combat import Combatant, CombatState, LogEntry, PendingAction, Phase

IMAGE_NAMES = ("images/background.png", "images/portrait-a.png", "images/b.png")

# Numbers within the file limits (engine.limits): fractions within +-MAX_MAGNITUDE, whole
# numbers of at most 30 digits.
finite = st.floats(-MAX_MAGNITUDE, MAX_MAGNITUDE, allow_nan=False, allow_infinity=False)
non_negative = st.floats(min_value=0, max_value=MAX_MAGNITUDE, allow_nan=False)
whole = st.integers(-(10**30), 10**30)
text = st.text(max_size=12)
stat_values = st.one_of(whole, finite, text, st.booleans())


def stat_value(spec: StatSpec) -> st.SearchStrategy[object]:
    """Any value the system's schema accepts for one stat."""
    if isinstance(spec.kind, ListOf):  # names, each whole: any character, none twice
        return st.lists(st.text(min_size=1, max_size=12), unique=True, max_size=3).map(tuple)
    if spec.choices:
        return st.sampled_from(spec.choices)
    if spec.kind is bool:
        return st.booleans()
    if spec.kind is str:
        return text
    low = -(10**30) if spec.minimum is None else int(spec.minimum)
    high = 10**30 if spec.maximum is None else int(spec.maximum)
    if spec.kind is int:
        return st.integers(low, high)
    return st.floats(max(spec.minimum or -MAX_MAGNITUDE, -MAX_MAGNITUDE),
                     min(MAX_MAGNITUDE if spec.maximum is None else spec.maximum, MAX_MAGNITUDE),
                     allow_nan=False, allow_infinity=False)


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
        st.builds(Light, points(width, height), st.floats(0, MAX_COORDINATE), colours, finite),
        max_size=2,
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
        two_handed=draw(st.booleans()), rate_of_fire=draw(st.integers(0, MAX_RATE_OF_FIRE)),
        traits=tuple(draw(st.lists(text, max_size=2))),
    )


conditions = st.builds(
    Condition, text,
    st.none() | st.builds(Expiry, whole, st.sampled_from(ExpiryPoint),
                          st.none() | text),
    st.none() | text, whole,
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
            weapons=tuple(draw(st.lists(weapons(), max_size=2, unique_by=lambda w: w.name))),
            stats=draw(stat_blocks(system)),
            portrait=draw(st.none() | st.sampled_from(IMAGE_NAMES)),
        )
        if taken.isdisjoint(token.squares):
            taken.update(token.squares)
            tokens.append(token)
    scale = GridScale(draw(st.floats(min_value=MIN_SQUARE_SIZE, max_value=MAX_SQUARE_SIZE)),
                      draw(st.sampled_from(Unit)), draw(st.sampled_from(DiagonalRule)))
    state = EncounterState(draw(text), system, scale, battlemap, tuple(tokens),
                           draw(st.text(max_size=40)), draw(combat_states(tokens)))
    assume(is_current(state))
    return state


def is_current(state: EncounterState) -> bool:
    """Whether the state holds none of the text a version-1 file kept where its system's
    state is now typed (``"item:..."`` in Spycraft's combat data...): such text is converted
    when a file loads, so no state in play holds it."""
    try:
        return get_system(state.system).upgrade_state(state) == state
    except OldStateError:
        return False


@st.composite
def combat_states(draw: st.DrawFn, tokens: list[Token]) -> CombatState:
    """A combat whose order, turn and pending actions name tokens on the map, each once,
    with no action pool below zero (what engine.files.references requires)."""
    ids = [t.id for t in tokens]
    data = st.dictionaries(text, stat_values, max_size=3)
    placed = draw(st.lists(st.sampled_from(ids), unique=True, max_size=3)) if ids else []
    order = tuple(
        Combatant(token_id, draw(whole), tuple(draw(st.lists(whole, max_size=3))),
                  draw(st.dictionaries(text, st.integers(0, 10**30), max_size=2)),
                  draw(data), draw(st.booleans()))
        for token_id in placed
    )
    pending = tuple(
        PendingAction(draw(st.sampled_from(ids)), draw(text), draw(text), draw(text), draw(data))
        for _ in range(draw(st.integers(0, 2) if ids else st.just(0)))
    )
    log_ids = st.sampled_from(ids) if ids else text
    log = st.lists(st.builds(LogEntry, st.integers(0, 99), text, st.text(max_size=30),
                             st.lists(log_ids, max_size=2).map(tuple)), max_size=3)
    return CombatState(
        draw(st.sampled_from(Phase)), draw(st.integers(0, 99)), order,
        draw(st.none() | st.sampled_from(placed)) if placed else None, pending,
        draw(whole), draw(st.integers(0, 10_000)), tuple(draw(log)), draw(data),
    )
