"""The movement graph of a map: one NetworkX graph, squares as nodes, updated in place.

Nodes are ``Square`` values; an edge joins two of the eight neighbours when the step
between them is open (on the map, no wall, closed door or window, or movement-blocking
cover cuts it: see ``engine.routes.cuts``). Edge data: ``diagonal`` (bool) and, for steps
through a door or window, ``portals`` (their ids). Node data: ``terrain`` (a
``TerrainKind`` or None), ``blocked`` (inside movement-blocking cover) and ``occupant``
(a token id or None).

What depends on who moves (enemies block, allies may be crossed but not ended on,
difficult terrain costs more) is not baked into the graph: ``MovementGraph.weight`` gives a
NetworkX weight function for one mover that returns None to hide an edge.

Why the adjacency is lazy: a 200x200 map has 158,802 edges, and inserting them into
Python dicts one by one takes most of a second on a modest machine. The walls are cut in
one vectorised pass into a bit mask per square, and a square's neighbour dict is made the
first time anything (NetworkX included) asks for it. To NetworkX it is an ordinary
``nx.Graph``: iteration, ``len``, ``in``, ``edges`` and every read-only algorithm see all
squares and edges. Mutating it directly (``add_edge``...) is not supported: change the map
through ``set_portal_state``, ``move_token``, ``put_token``, ``remove_token`` or ``sync``.

``open_mask`` mirrors the adjacency as one bit set per square (index ``y * width + x``);
the same methods keep both in step (a property test checks it), and the search loops of
``engine.routes.search`` read the mirror, because integer lists are several times faster
to walk in Python than dicts of ``Square`` keys.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import numpy as np

from engine.battlemap import BattleMap, PortalState, TerrainKind
from engine.encounter import EncounterState
from engine.grid import NEIGHBOUR_STEPS, DiagonalRule, GridScale, Square
from engine.routes.compiled import astar
from engine.routes.cuts import Cuts, compute_cuts, edge_key
from engine.routes.errors import RouteError
from engine.routes.state_graph import StateSteps
from engine.tokens import Token, are_opponents

EdgeData = dict[str, Any]
NodeData = dict[str, Any]
#: A NetworkX weight: (u, v, edge data) -> cost in squares, or None to hide the edge.
WeightFunction = Callable[[Square, Square, EdgeData], float | None]

_DIAGONAL = tuple(dx != 0 and dy != 0 for dx, dy in NEIGHBOUR_STEPS)


class _LazyNodes(dict[Square, Any]):
    """Node data, made on first access; iteration and ``in`` cover the whole map."""

    def __init__(self, width: int, height: int) -> None:
        super().__init__()
        self._width, self._height = width, height

    def _inside(self, node: object) -> bool:
        if not isinstance(node, tuple) or len(node) != 2:
            return False
        x, y = node
        return (
            isinstance(x, int)
            and isinstance(y, int)
            and 0 <= x < self._width
            and 0 <= y < self._height
        )

    def __missing__(self, node: Square) -> Any:
        if not self._inside(node):
            raise KeyError(node)
        data: NodeData = {"terrain": None, "blocked": False, "occupant": None}
        self[node] = data
        return data

    def __contains__(self, node: object) -> bool:
        return self._inside(node)

    def __len__(self) -> int:
        return self._width * self._height

    def __iter__(self) -> Iterator[Square]:
        for y in range(self._height):
            for x in range(self._width):
                yield Square(x, y)

    def keys(self) -> Any:
        return list(iter(self))

    def items(self) -> Any:
        return [(node, self[node]) for node in self]

    def values(self) -> Any:
        return [self[node] for node in self]

    def get(self, node: Square, default: Any = None) -> Any:
        return self[node] if self._inside(node) else default


class _LazyAdjacency(_LazyNodes):
    """The adjacency dict of the graph, each square's neighbours made on first access."""

    def __init__(self, owner: MovementGraph) -> None:
        super().__init__(owner.width, owner.height)
        self._owner = owner

    def __missing__(self, node: Square) -> dict[Square, EdgeData]:
        if not self._inside(node):
            raise KeyError(node)
        x, y = node
        bits = self._owner.cuts.open_bits[y * self._width + x]
        inner: dict[Square, EdgeData] = {}
        portal_edges = self._owner.cuts.portal_edges
        for k, (dx, dy) in enumerate(NEIGHBOUR_STEPS):
            if not bits >> k & 1:
                continue
            other = Square(x + dx, y + dy)
            portals = portal_edges.get(edge_key(node, other))
            if portals is not None and self._owner.portals_block(portals):
                continue
            known: dict[Square, EdgeData] | None = dict.get(self, other)
            data = known.get(node) if known is not None else None
            if data is None:
                data = {"diagonal": _DIAGONAL[k]}
                if portals is not None:
                    data["portals"] = portals
            inner[other] = data
        dict.__setitem__(self, node, inner)
        return inner

    def materialised(self, node: Square) -> bool:
        return dict.__contains__(self, node)


class MovementGraph:
    """The movement graph of one encounter's map, kept in step with the encounter.

    Build it once per map (``MovementGraph(
        encounter, difficult_cost=...
    )``), then call ``open_portal`` /
    ``set_portal_state`` when a door changes and ``move_token`` (or ``sync`` with the new
    encounter state) when a token moves: the NetworkX graph is updated in place.
    """

    def __init__(self, encounter: EncounterState, *, difficult_cost: int) -> None:
        if isinstance(difficult_cost, bool) or not isinstance(difficult_cost, int) or not (
            1 <= difficult_cost <= MAX_DIFFICULT_COST
        ):
            raise ValueError(
                f"difficult_cost must be a whole number from 1 to {MAX_DIFFICULT_COST}, "
                f"not {difficult_cost!r}"
            )
        self.system = encounter.system
        #: What a step into difficult terrain costs, as a multiple of the step: the rule
        #: system's ``difficult_terrain_cost``, handed over by whoever builds the graph.
        self.difficult_cost = difficult_cost
        self.scale: GridScale = encounter.scale
        self.battlemap: BattleMap = encounter.battlemap
        self.width, self.height = self.battlemap.width, self.battlemap.height
        self.cuts: Cuts = compute_cuts(self.battlemap)
        self._portal_states = {p.id: p for p in self.battlemap.portals}
        self._portal_edges_by_id: dict[str, list[tuple[Square, Square]]] = {}
        for key, ids in self.cuts.portal_edges.items():
            for portal_id in ids:
                self._portal_edges_by_id.setdefault(portal_id, []).append(key)

        # A flat mirror of the adjacency for the search loops: per square (index y * width
        # + x), the bit set of NEIGHBOUR_STEPS that are open now, doors included. It is
        # changed by the same methods that change the NetworkX graph, and so are the
        # array forms of the state graph (made on the first long route, one per rule).
        self._state_steps: dict[bool, StateSteps] = {}
        self._scratch: dict[int, tuple[list[int], list[int]]] = {}
        self._scratch_lock = threading.Lock()
        self.open_mask: list[int] = list(self.cuts.open_bits)
        #: The same bit sets as bytes, for the compiled search (``engine.routes._astar``).
        self.open_bytes = bytearray(self.open_mask)
        #: Per mover: the squares it can reach at all (``reachable_from``); doors and
        #: tokens change it.
        self._reachable: dict[Token, bytearray] = {}
        for (a, b), ids in self.cuts.portal_edges.items():
            if self.portals_block(ids):
                self._set_mask(a, b, False)

        # The NetworkX graph over these dicts is made when first asked for (``graph``):
        # the searches read the dicts and the mask, so a drag never imports NetworkX.
        self._nodes = _LazyNodes(self.width, self.height)
        self._adjacency = _LazyAdjacency(self)
        self._graph: Any = None

        self.difficult: set[Square] = set()
        self.impassable: set[Square] = set(self.cuts.impassable)
        for square in self.cuts.impassable:
            self._nodes[square]["blocked"] = True
        for patch in self.battlemap.terrain:
            for square in patch.squares:
                if not self.battlemap.in_bounds(square):
                    raise RouteError(f"terrain {patch.name!r} covers square {square}, off the map")
        self._index_terrain()

        self.tokens: dict[str, Token] = {}
        self.occupant: dict[Square, str] = {}
        self._obstacle_cache: dict[Token, tuple[frozenset[Square], frozenset[Square]]] = {}
        self._array_cache: dict[Token, tuple[bytearray, bytearray | None, bytearray]] = {}
        for token in encounter.tokens:
            self._place(token)

    # -- map state --------------------------------------------------------------------

    def _index_terrain(self) -> None:
        for patch in self.battlemap.terrain:
            for square in patch.squares:
                kind = self.battlemap.terrain_at(square)
                self._nodes[square]["terrain"] = kind
                if kind is TerrainKind.IMPASSABLE:
                    self.impassable.add(square)
                    self.difficult.discard(square)
                elif kind is TerrainKind.DIFFICULT and square not in self.impassable:
                    self.difficult.add(square)

    @property
    def graph(self) -> Any:
        """The map as a NetworkX ``Graph`` (squares as nodes, open steps as edges), over the
        same lazy dicts: made, and NetworkX imported, on first use."""
        if self._graph is None:
            import networkx as nx

            graph = nx.Graph()
            graph._node = self._nodes
            graph._adj = self._adjacency
            graph.graph["system"] = self.system
            self._graph = graph
        return self._graph

    @property
    def adjacency(self) -> Mapping[Square, Mapping[Square, EdgeData]]:
        """The open steps from every square (NetworkX's adjacency dict, made on demand)."""
        return self._adjacency

    def in_bounds(self, square: Square) -> bool:
        return 0 <= square.x < self.width and 0 <= square.y < self.height

    def check_square(self, square: Square, what: str) -> Square:
        square = Square(*square)
        if not self.in_bounds(square):
            raise RouteError(f"{what} {square} lies outside the {self.width}x{self.height} map")
        return square

    def portals_block(self, portal_ids: tuple[str, ...]) -> bool:
        return any(self._portal_states[i].blocks_movement for i in portal_ids)

    def portal_state(self, portal_id: str) -> PortalState:
        if portal_id not in self._portal_states:
            raise RouteError(f"no door or window {portal_id!r} on this map")
        return self._portal_states[portal_id].state

    def set_portal_state(self, portal_id: str, state: PortalState) -> None:
        """Open, close or lock a door: the steps through it appear or vanish in place."""
        if portal_id not in self._portal_states:
            raise RouteError(f"no door or window {portal_id!r} on this map")
        edges = self._portal_edges_by_id.get(portal_id, ())
        # Make both ends of every affected step before the state changes, so that no end
        # is made later from the new state while the other still holds the old one.
        for a, b in edges:
            self._adjacency[a]
            self._adjacency[b]
        self.battlemap = self.battlemap.with_portal_state(portal_id, state)
        self._portal_states[portal_id] = self.battlemap.portal(portal_id)
        adjacency = self._adjacency
        for a, b in edges:
            statically_open = self._step_open_statically(a, b)
            should_exist = statically_open and not self.portals_block(
                self.cuts.portal_edges[(a, b)]
            )
            self._set_mask(a, b, should_exist)
            # As NetworkX's add_edge and remove_edge do, on the same dicts.
            if should_exist and b not in adjacency[a]:
                data = {
                    "diagonal": a.x != b.x and a.y != b.y,
                    "portals": self.cuts.portal_edges[(a, b)],
                }
                adjacency[a][b] = adjacency[b][a] = data
            elif not should_exist and b in adjacency[a]:
                del adjacency[a][b]
                del adjacency[b][a]

    def _set_mask(self, a: Square, b: Square, is_open: bool) -> None:
        for here, there in ((a, b), (b, a)):
            k = NEIGHBOUR_STEPS.index((there.x - here.x, there.y - here.y))
            bit = 1 << k
            index = here.y * self.width + here.x
            for steps in self._state_steps.values():
                steps.set_open(index, k, is_open)
            if is_open:
                self.open_mask[index] |= bit
            else:
                self.open_mask[index] &= ~bit
            self.open_bytes[index] = self.open_mask[index]
        self._reachable.clear()

    def open_portal(self, portal_id: str) -> None:
        self.set_portal_state(portal_id, PortalState.OPEN)

    def _step_open_statically(self, a: Square, b: Square) -> bool:
        k = NEIGHBOUR_STEPS.index((b.x - a.x, b.y - a.y))
        return bool(self.cuts.open_bits[a.y * self.width + a.x] >> k & 1)

    # -- tokens -----------------------------------------------------------------------

    def _place(self, token: Token) -> None:
        for square in token.squares:
            self.check_square(square, f"token {token.id!r} square")
            holder = self.occupant.get(square)
            if holder is not None and holder != token.id:
                raise RouteError(f"tokens {holder!r} and {token.id!r} both stand on {square}")
        self.tokens[token.id] = token
        self._obstacle_cache.clear()
        self._array_cache.clear()
        self._reachable.clear()
        for square in token.squares:
            self.occupant[square] = token.id
            self._nodes[square]["occupant"] = token.id

    def _lift(self, token_id: str) -> Token:
        token = self.token(token_id)
        for square in token.squares:
            if self.occupant.get(square) == token_id:
                del self.occupant[square]
                self._nodes[square]["occupant"] = None
        del self.tokens[token_id]
        self._obstacle_cache.clear()
        self._array_cache.clear()
        self._reachable.clear()
        return token

    def token(self, token_id: str) -> Token:
        try:
            return self.tokens[token_id]
        except KeyError:
            raise RouteError(f"no token {token_id!r} on the movement graph") from None

    def move_token(self, token_id: str, square: Square) -> None:
        """Move a token (its top-left square) in place."""
        token = self._lift(token_id)
        try:
            self._place(token.moved_to(Square(square.x, square.y)))
        except RouteError:
            self._place(token)
            raise

    def put_token(self, token: Token) -> None:
        """Add a token, or replace the one with the same id (its side, size or conditions)."""
        if token.id in self.tokens:
            old = self._lift(token.id)
            try:
                self._place(token)
            except RouteError:
                self._place(old)
                raise
        else:
            self._place(token)

    def remove_token(self, token_id: str) -> None:
        self._lift(token_id)

    def sync(self, encounter: EncounterState) -> None:
        """Bring the graph in step with a newer state of the same map: doors and tokens.

        Walls, terrain and cover are the map's fixed parts; if they changed, build a new
        graph instead (a ``RouteError`` says so).
        """
        new_map = encounter.battlemap
        old_map = self.battlemap
        if (new_map.width, new_map.height, new_map.walls, new_map.terrain, new_map.cover) != (
            old_map.width,
            old_map.height,
            old_map.walls,
            old_map.terrain,
            old_map.cover,
        ) or [p.id for p in new_map.portals] != [p.id for p in old_map.portals]:
            raise RouteError("the map's walls, terrain or cover changed: build a new MovementGraph")
        self.system = encounter.system
        if self._graph is not None:
            self._graph.graph["system"] = self.system
        for portal in new_map.portals:
            if self._portal_states[portal.id] != portal:
                self.set_portal_state(portal.id, portal.state)
        self.scale = encounter.scale
        wanted = {t.id: t for t in encounter.tokens}
        for token_id in [i for i in self.tokens if i not in wanted]:
            self._lift(token_id)
        changed = [t for t in encounter.tokens if self.tokens.get(t.id) != t]
        for token in changed:
            if token.id in self.tokens:
                self._lift(token.id)
        for token in changed:
            self._place(token)

    # -- who may stand where ----------------------------------------------------------

    def obstacles_for(self, mover: Token) -> tuple[frozenset[Square], frozenset[Square]]:
        """(squares the mover cannot enter, squares it may cross but not end on).

        Opponents' squares, impassable terrain and squares inside blocking cover stop it;
        every other token (allies, neutrals) may be crossed.
        """
        cached = self._obstacle_cache.get(mover)
        if cached is not None:
            return cached
        blocked = set(self.impassable)
        passable: set[Square] = set()
        for token in self.tokens.values():
            if token.id == mover.id:
                continue
            target = blocked if are_opponents(mover.side, token.side) else passable
            target.update(token.squares)
        result = (frozenset(blocked), frozenset(passable))
        self._obstacle_cache[mover] = result
        return result

    def obstacle_arrays(self, mover: Token) -> tuple[bytearray, bytearray | None, bytearray]:
        """Flat per-square flags for the search loops: (blocked, extra or None, no end).

        ``extra`` holds, per square, how many more times a step into it costs (the
        difficult cost less 1, 0 on ordinary ground); None when nothing is difficult.
        """
        cached = self._array_cache.get(mover)
        if cached is None:
            blocked, passable = self.obstacles_for(mover)
            cached = (
                self._flags(blocked),
                self._flags(self.difficult, self.difficult_cost - 1) if self.difficult else None,
                self._flags(passable | blocked),
            )
            self._array_cache[mover] = cached
        return cached

    def _flags(self, squares: Iterable[Square], value: int = 1) -> bytearray:
        flags = bytearray(self.width * self.height)
        for square in squares:
            flags[square.y * self.width + square.x] = value
        return flags

    def reachable_from(self, mover: Token) -> bytearray:
        """One byte per square, 1 where a one-square ``mover`` can get to by any number of
        open steps into squares it may enter (its own square included); kept until a door
        or a token changes. Needs the compiled search (``compiled.ASTAR_BUILT``)."""
        found = self._reachable.get(mover)
        if found is None:
            blocked, _, _ = self.obstacle_arrays(mover)
            start = mover.square.y * self.width + mover.square.x
            found = astar.reachable(self.open_bytes, blocked, self.width, self.height, start)
            self._reachable[mover] = found
        return found

    def take_scratch(self, never: int) -> tuple[list[int], list[int]]:
        """Two per-square lists of ``never`` for a search (one per diagonal parity).

        The graph keeps one pair and lends it out: the borrower sets back to ``never``
        every entry it changed before ``give_back_scratch``. While it is lent (a search on
        another thread), a fresh pair is made.
        """
        with self._scratch_lock:
            kept = self._scratch.pop(never, None)
        if kept is not None:
            return kept
        cells = self.width * self.height
        return ([never] * cells, [never] * cells)

    def give_back_scratch(self, lists: tuple[list[int], list[int]], never: int) -> None:
        """Return lists from ``take_scratch``, every entry back to ``never``."""
        with self._scratch_lock:
            self._scratch.setdefault(never, lists)

    def state_steps(self) -> StateSteps:
        """The state graph as arrays under the map's diagonal rule, kept in step with the
        doors from the first call on (``engine.routes.state_graph``)."""
        alternating = self.scale.diagonal is DiagonalRule.ALTERNATING
        found = self._state_steps.get(alternating)
        if found is None:
            difficult = np.zeros(self.width * self.height, dtype=np.bool_)
            for square in self.difficult:
                difficult[square.y * self.width + square.x] = True
            found = StateSteps(
                self.width, self.height, self.open_mask, difficult, alternating,
                self.difficult_cost,
            )
            self._state_steps[alternating] = found
        return found

    def weight(self, mover_id: str) -> WeightFunction:
        """A NetworkX weight function for a one-square mover, every diagonal costing 1.

        It hides (returns None for) steps into a square the mover may not enter, and
        multiplies steps into difficult terrain by ``difficult_cost``. The alternating
        diagonal rule cannot be an edge weight (it depends on the diagonals before);
        ``engine.routes.search`` handles it with a state-expanded search.
        """
        mover = self.token(mover_id)
        blocked, _ = self.obstacles_for(mover)
        difficult = self.difficult
        rough = float(self.difficult_cost)

        def weight(u: Square, v: Square, data: EdgeData) -> float | None:
            if v in blocked:
                return None
            return rough if v in difficult else 1.0

        return weight

    def neighbours(self, square: Square) -> Mapping[Square, EdgeData]:
        """The open steps from a square (the NetworkX adjacency, made on demand)."""
        inner: Mapping[Square, EdgeData] = self._adjacency[square]
        return inner


#: The largest difficult cost: the compiled search keeps the extra multiple in one byte.
MAX_DIFFICULT_COST = 256

#: How many maps' graphs ``graph_for`` keeps (an app has one or two maps open at once).
GRAPHS_KEPT = 4
_graphs: list[MovementGraph] = []
_graphs_lock = threading.RLock()


def _same_map(old: BattleMap, new: BattleMap) -> bool:
    """Same fixed parts: size, walls, terrain, cover and door ids (door states may differ)."""
    if (old.width, old.height) != (new.width, new.height):
        return False
    if [p.id for p in old.portals] != [p.id for p in new.portals]:
        return False
    if old.walls is new.walls and old.terrain is new.terrain and old.cover is new.cover:
        return True
    return (old.walls, old.terrain, old.cover) == (new.walls, new.terrain, new.cover)


def graph_for(encounter: EncounterState, *, difficult_cost: int) -> MovementGraph:
    """The shared movement graph of this encounter's map, synced to its doors and tokens.

    Graphs are kept per map (walls, terrain, cover and door ids) and found by identity of
    those tuples first (and by the difficult cost the rule system hands over), which
    ``BattleMap.with_portal_state`` and ``EncounterState`` copies preserve; an equal map
    built afresh is found by comparison.
    """
    with _graphs_lock:  # the desktop may warm a graph on a background thread
        found = next(
            (
                g
                for g in _graphs
                if g.difficult_cost == difficult_cost
                and _same_map(g.battlemap, encounter.battlemap)
            ),
            None,
        )
        if found is None:
            found = MovementGraph(encounter, difficult_cost=difficult_cost)
            _graphs.insert(0, found)
            del _graphs[GRAPHS_KEPT:]
        else:
            found.sync(encounter)
        return found
