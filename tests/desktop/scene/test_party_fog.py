"""The player view's fog picture: paths straight from the engine's rings, and a picture
updated piece by piece that equals one drawn afresh, with every changed pixel repainted."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QPainterPath, QPolygonF
from PySide6.QtWidgets import QApplication

from desktop.player_view import PlayerScene
from desktop.scene import style
from desktop.scene.party_fog import FOG_PICTURE_SIDE, FogItem, ring_path
from desktop.scene.style import SQUARE
from engine.battlemap import PortalState
from engine.encounter import EncounterState
from engine.fog import FogMode
from engine.grid import Square
from tests.benchmarks.synthetic_map import make_big_encounter
from tests.desktop.sample import sample_state


def _reference_path(xs: list[float], ys: list[float], counts: list[int]) -> QPainterPath:
    """The rings as one QPointF at a time."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)
    start = 0
    for count in counts:
        points = [
            QPointF(x, y)
            for x, y in zip(xs[start : start + count], ys[start : start + count], strict=True)
        ]
        path.addPolygon(QPolygonF(points))
        path.closeSubpath()
        start += count
    return path


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.tuples(st.floats(-1e4, 1e4), st.floats(-1e4, 1e4)), max_size=40),
        min_size=1,
        max_size=5,
    )
)
def test_ring_paths_equal_paths_built_point_by_point(
    qapp: QApplication, rings: list[list[tuple[float, float]]]
) -> None:
    xs = [x for ring in rings for x, _ in ring]
    ys = [y for ring in rings for _, y in ring]
    counts = [len(ring) for ring in rings]
    outlines = (np.array(xs, dtype=np.float64), np.array(ys, dtype=np.float64), np.array(counts))
    made = ring_path(outlines)
    assert made == _reference_path(xs, ys, counts)
    assert made.fillRule() == Qt.FillRule.WindingFill


def _pixels(image: QImage) -> np.ndarray:
    rows = np.frombuffer(image.constBits(), dtype=np.uint32)
    return rows.reshape(image.height(), image.bytesPerLine() // 4)[:, : image.width()].copy()


class _Repaints:
    """The rectangles a FogItem asks to repaint (item coordinates; None: all of it)."""

    def __init__(self, fog: FogItem) -> None:
        self.rects: list[QRectF | None] = []
        fog.update = self.record  # type: ignore[method-assign]

    def record(self, rect: QRectF | None = None) -> None:
        self.rects.append(rect)


def _reference_picture(scene: PlayerScene) -> np.ndarray:
    """The fog as drawn in one go: the picture filled with fog, each token's rings cut out
    by its own winding fill, the hand-revealed squares cut out, the hand-hidden ones fogged.

    Each token is filled on its own, not all rings as one path: where two tokens' regions
    share an edge through pixel centres, one combined path fills those pixels and two
    separate fills do not, and what the party sees is the union of what each token sees."""
    bm, fog = scene.state.battlemap, scene.state.fog
    scale = FOG_PICTURE_SIDE / max(bm.width, bm.height)
    image = QImage(
        round(bm.width * scale), round(bm.height * scale), QImage.Format.Format_ARGB32_Premultiplied
    )
    view = scene.sight.update(scene.state)
    image.fill(style.FOG if view is not None else Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_DestinationOut)
    painter.scale(image.width() / bm.width, image.height() / bm.height)
    for token_view in view.views if view is not None else ():
        xs, ys, counts = token_view.outlines
        lit = _reference_path(xs.tolist(), ys.tolist(), counts.tolist())
        painter.fillPath(lit, Qt.GlobalColor.black)
    for square in fog.revealed:
        painter.fillRect(QRectF(square.x, square.y, 1, 1), Qt.GlobalColor.black)
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
    for square in fog.hidden:
        painter.fillRect(QRectF(square.x, square.y, 1, 1), style.FOG)
    painter.end()
    return _pixels(image)


def _check_step(scene: PlayerScene, state: EncounterState) -> None:
    """Take ``state``; the picture equals the one drawn in one go, and each changed pixel
    is inside a repainted rectangle."""
    before = _pixels(scene.fog.picture())
    repaints = _Repaints(scene.fog)
    scene.set_state(state)
    after = _pixels(scene.fog.picture())
    assert np.array_equal(after, _reference_picture(scene))
    if None in repaints.rects or before.shape != after.shape:
        return
    bm = state.battlemap
    rows, columns = after.shape
    # Each pixel's centre in scene units, as QRectF.contains takes it (edges included);
    # one mask per repainted rectangle, not one Python test per changed pixel.
    xs = (np.arange(columns) + 0.5) / (columns / bm.width) * SQUARE
    ys = (np.arange(rows) + 0.5) / (rows / bm.height) * SQUARE
    repainted = np.zeros(after.shape, dtype=bool)
    for rect in repaints.rects:
        assert rect is not None
        inside_x = (xs >= rect.left()) & (xs <= rect.right())
        inside_y = (ys >= rect.top()) & (ys <= rect.bottom())
        repainted |= np.outer(inside_y, inside_x)
    missed = np.argwhere((before != after) & ~repainted)
    assert missed.size == 0, f"changed but not repainted (row, column): {missed[:5].tolist()}"


STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("move"), st.integers(0, 99), st.integers(0, 39), st.integers(0, 39)),
        st.tuples(st.just("door"), st.integers(0, 99), st.booleans(), st.just(0)),
        st.tuples(st.just("fog"), st.integers(0, 2), st.integers(0, 39), st.integers(0, 39)),
    ),
    min_size=1,
    max_size=5,
)


def _step(state: EncounterState, kind: str, number: int, a: object, b: int) -> EncounterState:
    bm = state.battlemap
    if kind == "move":
        token = state.tokens[number % len(state.tokens)]
        target = Square(int(a) % bm.width, b % bm.height)  # type: ignore[call-overload]
        try:
            return state.with_token(token.moved_to(target))
        except ValueError:  # another token stands there
            return state
    if kind == "door":
        portal = bm.portals[number % len(bm.portals)]
        wanted = PortalState.OPEN if a else PortalState.CLOSED
        return replace(state, battlemap=bm.with_portal_state(portal.id, wanted))
    corner = Square(int(a) % bm.width, b % bm.height)  # type: ignore[call-overload]
    block = [Square(corner.x + i, corner.y + j) for i in range(3) for j in range(2)]
    block = [s for s in block if bm.in_bounds(s)]
    mode = (FogMode.REVEAL, FogMode.HIDE, FogMode.AUTOMATIC)[number]
    return replace(state, fog=state.fog.marked(block, mode))


@settings(max_examples=25, deadline=None)
@given(STEPS)
def test_the_fog_updated_piece_by_piece_equals_the_fog_drawn_afresh(
    qapp: QApplication, steps: list[tuple[str, int, object, int]]
) -> None:
    state = sample_state()
    scene = PlayerScene(state, {})
    for step in steps:
        state = _step(state, *step)
        _check_step(scene, state)


@settings(max_examples=10, deadline=None)
@given(STEPS)
def test_on_an_open_maze_whose_sight_runs_off_the_map(
    qapp: QApplication, steps: list[tuple[str, int, object, int]]
) -> None:
    state = make_big_encounter(seed=3, size=40, segments=120, doors=6, tokens=12)
    scene = PlayerScene(state, {})
    for step in steps:
        state = _step(state, *step)
        _check_step(scene, state)
