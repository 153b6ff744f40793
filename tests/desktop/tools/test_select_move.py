"""The select-and-move tool's live drag: what it repaints and which overlay items it keeps."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QGraphicsItem

from desktop.main_window import MainWindow
from desktop.scene import style
from desktop.scene.overlay_items import RouteItem
from desktop.scene.preview_overlay import ROLE_COLOURS, draw_preview
from desktop.scene.rule_overlays import TokenRingItem
from desktop.scene.style import SQUARE
from engine.grid import Square
from engine.overlay import Role
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.tools.conftest import make_window, render_png
from tests.engine.rules.d20_firearms.test_move_threats import (
    BESIDE_CONE,
    INTO_CONE,
    OUTSIDE,
    covered_state,
)

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE)]

#: A walk over the sample map from Kara's square, each step onto a new square.
WALK = [Square(3, 6), Square(4, 4), Square(5, 7), Square(3, 3), Square(8, 5), Square(2, 8)]


def centre_of(win: MainWindow, square: Square) -> QPoint:
    return win.view.mapFromScene(QPointF((square.x + 0.5) * SQUARE, (square.y + 0.5) * SQUARE))


def shown_frame(win: MainWindow) -> QImage:
    """The viewport as the window last showed it: the offscreen platform grabs the backing
    store, so this is the picture incremental repaints left behind, not a fresh render."""
    viewport = win.view.viewport()
    corner = viewport.mapTo(win, QPoint(0, 0))
    screen = QApplication.primaryScreen()
    grabbed = screen.grabWindow(win.winId()).toImage()
    frame = grabbed.copy(QRect(corner, viewport.size()))
    return frame.convertToFormat(QImage.Format.Format_RGB32)


def differing_pixels(a: QImage, b: QImage, tolerance: int = 8) -> int:
    """Pixels whose colour differs by more than ``tolerance`` in a channel: a stale trail
    differs by far more, while antialiasing clipped at another edge may differ by one."""
    assert a.size() == b.size()
    count = 0
    for y in range(a.height()):
        for x in range(a.width()):
            p, q = a.pixel(x, y), b.pixel(x, y)
            if p != q and any(abs((p >> s & 255) - (q >> s & 255)) > tolerance for s in (0, 8, 16)):
                count += 1
    return count


def drag_through(qtbot, win: MainWindow, start: Square, squares: list[Square]) -> None:  # type: ignore[no-untyped-def]
    viewport = win.view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=centre_of(win, start))
    for square in squares:
        qtbot.mouseMove(viewport, centre_of(win, square))
        QApplication.processEvents()  # paint each frame, as a person dragging would see it


@pytest.mark.parametrize("zoom", [1.0, 0.45])
def test_a_drag_leaves_no_trails_the_shown_frame_equals_a_full_repaint(
    qtbot, window, zoom: float
) -> None:  # type: ignore[no-untyped-def]
    window.view.resetTransform()
    window.view.scale(zoom, zoom)
    window.view.centerOn(window.scene.map_rect.center())
    QApplication.processEvents()
    drag_through(qtbot, window, Square(2, 6), WALK)
    tool = window.default_tool
    assert tool.sight.boundingRect().isValid()  # Kara sees enemies: there are lines to repaint
    shown = shown_frame(window)
    fresh = window.view.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    assert differing_pixels(shown, fresh) == 0
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)


def test_the_tag_and_sight_lines_are_reused_and_old_previews_leave_the_scene(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    tool = window.default_tool
    drag_through(qtbot, window, Square(2, 6), WALK[:2])
    items = (tool.tag, tool.sight)
    before = len(window.scene.items())
    for square in WALK[2:]:
        drawn = list(tool.drawn.items)
        qtbot.mouseMove(window.view.viewport(), centre_of(window, square))
        assert all(item.scene() is None for item in drawn)  # the last square's preview went
    assert (tool.tag, tool.sight) == items
    assert all(item.scene() is window.scene for item in items)
    # Each square's preview is one route and the actor's ring: the scene does not grow.
    assert len(window.scene.items()) == before
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert not tool.drawn.items and not tool.overlay.childItems()


def drawn_like(items: list[QGraphicsItem]) -> list[tuple[str, float, float, str]]:
    """What a list of overlay items shows: each item's kind, place and tooltip, in order."""
    return [
        (type(item).__name__, item.sceneBoundingRect().x(), item.sceneBoundingRect().y(),
         item.toolTip())
        for item in items
    ]


def test_a_drag_into_a_covered_cone_draws_the_moves_preview_with_the_shooter_as_a_threat(
    qtbot, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    """d20 with Covering Fire: the drag draws exactly what the Move's preview overlay holds,
    the route and Ann ringed as the shooter who fires when Dee steps into her cone."""
    win = make_window(qtbot, tmp_path, covered_state())
    tool = win.default_tool
    drag_through(qtbot, win, OUTSIDE, [OUTSIDE.offset(1, 0), INTO_CONE])
    preview = win.controller.preview(tool._drag.plan.command)  # type: ignore[union-attr]
    assert preview.overlay.token_ids(Role.THREAT) == ("a1",)
    assert "a1" in tool.drawn.tokens
    assert drawn_like(tool.drawn.items) == drawn_like(
        draw_preview(preview, win.controller.state).items
    )
    rings = [i for i in tool.drawn.items if isinstance(i, TokenRingItem)]
    threat = ROLE_COLOURS[str(Role.THREAT)]
    threat_rings = [r for r in rings if r.colour == threat]
    assert [r.toolTip() for r in threat_rings] == [
        "fires the rifle (Covering Fire: it enters the cone)"
    ]
    # On top of the lasting ring the covered cone puts on Ann: the threat shows, in red.
    ann = win.controller.state.token("a1").square
    over_ann = win.scene.items(QPointF((ann.x + 0.5) * SQUARE, (ann.y + 0.5) * SQUARE))
    assert next(i for i in over_ann if isinstance(i, TokenRingItem)) is threat_rings[0]
    assert "Covering Fire" in tool.tag.text.replace("\n", " ")
    render_png(win, "drag-into-covering-fire")
    # Back beside the cone: no threat on the map any more.
    qtbot.mouseMove(win.view.viewport(), centre_of(win, BESIDE_CONE))
    assert "a1" not in tool.drawn.tokens
    qtbot.keyClick(win.view, Qt.Key.Key_Escape)


def test_a_refused_end_square_is_drawn_as_the_preview_refuses_it(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    """Onto Marlow's square: the preview's route is refused, with the reason on it."""
    tool = window.default_tool
    drag_through(qtbot, window, Square(2, 6), [Square(4, 6), Square(6, 6)])
    routes = [i for i in tool.drawn.items if isinstance(i, RouteItem)]
    assert len(routes) == 1 and routes[0].pen().color() == style.ROUTE_BAD
    assert "Marlow already stands on (6,6)" in routes[0].toolTip()
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)


def test_only_the_held_token_keeps_its_drawing_as_a_pixmap(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    device = QGraphicsItem.CacheMode.DeviceCoordinateCache
    kara = window.scene.token_items["kara"]
    others = [item for key, item in window.scene.token_items.items() if key != "kara"]
    assert kara.cacheMode() == QGraphicsItem.CacheMode.NoCache
    drag_through(qtbot, window, Square(2, 6), WALK[:3])
    assert (kara.cacheMode(), kara.label.cacheMode()) == (device, device)
    assert all(item.cacheMode() == QGraphicsItem.CacheMode.NoCache for item in others)
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert (kara.cacheMode(), kara.label.cacheMode()) == (QGraphicsItem.CacheMode.NoCache,) * 2
    drag_through(qtbot, window, Square(2, 6), WALK[:1])
    qtbot.mouseRelease(
        window.view.viewport(), Qt.MouseButton.LeftButton, pos=centre_of(window, WALK[0])
    )
    assert window.controller.state.token("kara").square == WALK[0]
    assert window.scene.token_items["kara"].cacheMode() == QGraphicsItem.CacheMode.NoCache
