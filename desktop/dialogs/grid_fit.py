"""Fit the square grid to a battle-map picture: the engine proposes, the GM accepts or adjusts.

The picture is shown with the proposed grid drawn over it. The GM can drag the grid to nudge
its offset, type the square size and offset in spin boxes, or draw one square with the right
mouse button (as in MapTool and Foundry) to set both at once. When the engine found no grid,
the dialog says so and asks for one square.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QImage,
    QMouseEvent,
    QPainter,
    QPen,
    QPixmap,
    QShowEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGraphicsItem,
    QGraphicsPixmapItem,
    QGraphicsScene,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QStyleOptionGraphicsItem,
    QVBoxLayout,
    QWidget,
)

from engine.preparation import squares_across

#: The smallest square a grid may have, in picture pixels (a finer grid is not a battle map).
MIN_SQUARE_PIXELS = 8.0


@dataclass(frozen=True)
class GridFit:
    """Where the squares lie on a picture: their size and the first grid lines, in pixels."""

    pixels_per_square: float
    offset_x: float = 0.0
    offset_y: float = 0.0

    def normalised(self) -> GridFit:
        """The same grid with each offset brought into [0, pixels_per_square)."""
        size = self.pixels_per_square
        return GridFit(size, self.offset_x % size, self.offset_y % size)

    def squares(self, width: int, height: int) -> tuple[int, int]:
        """The map's size in squares for a picture of ``width`` x ``height`` pixels: the
        engine's count (a 1536 px picture of 64 px squares from 0.45 px read '23 squares'
        here while the map made was 24)."""
        size = self.pixels_per_square
        fit = self.normalised()
        return (
            squares_across(width, size, fit.offset_x),
            squares_across(height, size, fit.offset_y),
        )

    @classmethod
    def from_square(cls, corner_a: QPointF, corner_b: QPointF) -> GridFit:
        """The grid that one square drawn between two picture points belongs to."""
        size = (abs(corner_b.x() - corner_a.x()) + abs(corner_b.y() - corner_a.y())) / 2
        left, top = min(corner_a.x(), corner_b.x()), min(corner_a.y(), corner_b.y())
        size = max(size, MIN_SQUARE_PIXELS)
        return cls(size, left, top).normalised()


class GridOverlay(QGraphicsItem):
    """The grid lines over the picture; the GM drags it to nudge the offset."""

    def __init__(self, width: int, height: int, fit: GridFit) -> None:
        super().__init__()
        self._rect = QRectF(0, 0, width, height)
        self.fit = fit
        self.setZValue(10)

    def boundingRect(self) -> QRectF:
        return self._rect

    def set_fit(self, fit: GridFit) -> None:
        self.fit = fit
        self.update()

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        fit = self.fit.normalised()
        size = fit.pixels_per_square
        # A light line over a dark outline reads on any picture.
        for colour, width in ((QColor(0, 0, 0, 160), 3.0), (QColor(80, 230, 255, 230), 1.0)):
            pen = QPen(colour, width)
            pen.setCosmetic(True)
            painter.setPen(pen)
            x = fit.offset_x
            while x <= self._rect.width():
                painter.drawLine(QPointF(x, 0), QPointF(x, self._rect.height()))
                x += size
            y = fit.offset_y
            while y <= self._rect.height():
                painter.drawLine(QPointF(0, y), QPointF(self._rect.width(), y))
                y += size


class GridFitView(QGraphicsView):
    """The picture with the grid. Left drag nudges the grid; right drag draws one square."""

    #: The GM moved or redrew the grid; argument: the new GridFit.
    fit_changed = Signal(object)

    def __init__(self, picture: QImage, fit: GridFit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.picture = QGraphicsPixmapItem(QPixmap.fromImage(picture))
        self.scene().addItem(self.picture)
        self.overlay = GridOverlay(picture.width(), picture.height(), fit)
        self.scene().addItem(self.overlay)
        self.square_item = self.scene().addRect(QRectF(), QPen(QColor("#ffcc33"), 0))
        self.square_item.setZValue(20)
        self.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        self.setBackgroundBrush(QColor("#16181c"))
        self._press: QPointF | None = None
        self._press_fit = fit
        self._drawing = False

    def fit_picture(self) -> None:
        self.fitInView(self.picture, Qt.AspectRatioMode.KeepAspectRatio)

    def set_fit(self, fit: GridFit) -> None:
        self.overlay.set_fit(fit)

    def wheelEvent(self, event: QWheelEvent) -> None:
        factor = 1.0015 ** event.angleDelta().y()
        self.scale(factor, factor)
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._press = self.mapToScene(event.position().toPoint())
        self._press_fit = self.overlay.fit
        self._drawing = event.button() == Qt.MouseButton.RightButton
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._press is None:
            return
        here = self.mapToScene(event.position().toPoint())
        if self._drawing:
            self.square_item.setRect(QRectF(self._press, here).normalized())
            return
        moved = here - self._press
        start = self._press_fit
        fit = GridFit(
            start.pixels_per_square, start.offset_x + moved.x(), start.offset_y + moved.y()
        ).normalised()
        self.overlay.set_fit(fit)
        self.fit_changed.emit(fit)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._press is not None and self._drawing:
            here = self.mapToScene(event.position().toPoint())
            self.square_item.setRect(QRectF())
            if abs(here.x() - self._press.x()) >= MIN_SQUARE_PIXELS:
                fit = GridFit.from_square(self._press, here)
                self.overlay.set_fit(fit)
                self.fit_changed.emit(fit)
        self._press = None
        self._drawing = False
        event.accept()

    def contextMenuEvent(self, event: object) -> None:  # the right button draws a square
        return


class GridFitDialog(QDialog):
    """Accept or adjust the grid the engine proposed for a picture.

    ``proposal`` is None when the engine found no grid: the dialog says so and starts from
    a guess the GM is asked to correct. ``confidence`` (0..1) is shown beside the proposal.
    """

    def __init__(
        self,
        picture: QImage,
        proposal: GridFit | None,
        confidence: float = 0.0,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Fit the grid to the picture")
        self.picture_size = (picture.width(), picture.height())
        start = proposal or GridFit(max(MIN_SQUARE_PIXELS, min(picture.width(), 700) / 10))
        self.found = proposal is not None
        self.view = GridFitView(picture, start, self)
        self.view.fit_changed.connect(self._from_view)

        self.size_box = self._spin(MIN_SQUARE_PIXELS, 2000.0, start.pixels_per_square)
        self.offset_x_box = self._spin(-2000.0, 2000.0, start.offset_x)
        self.offset_y_box = self._spin(-2000.0, 2000.0, start.offset_y)
        self.squares_label = QLabel()
        form = QFormLayout()
        form.addRow("Square size (pixels)", self.size_box)
        form.addRow("Offset across (pixels)", self.offset_x_box)
        form.addRow("Offset down (pixels)", self.offset_y_box)
        form.addRow("Map", self.squares_label)

        if proposal is None:
            verdict = (
                "<b>No grid found in this picture.</b> Draw one square with the right mouse "
                "button, or type its size in pixels."
            )
        else:
            verdict = (
                f"Killbox found a grid of {proposal.pixels_per_square:.2f} px squares "
                f"(confidence {confidence:.0%}). Accept it, drag it to nudge it, draw one "
                "square with the right mouse button, or type the numbers."
            )
        self.verdict = QLabel(verdict)
        self.verdict.setWordWrap(True)
        self.verdict.setObjectName("grid-verdict")
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Use this grid")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.buttons = buttons

        side = QVBoxLayout()
        side.addWidget(self.verdict)
        side.addLayout(form)
        side.addStretch(1)
        side.addWidget(buttons)
        panel = QWidget()
        panel.setLayout(side)
        panel.setFixedWidth(300)
        layout = QHBoxLayout(self)
        layout.addWidget(self.view, 1)
        layout.addWidget(panel)
        self.resize(1100, 720)
        self._syncing = False
        for box in (self.size_box, self.offset_x_box, self.offset_y_box):
            box.valueChanged.connect(self._from_boxes)
        self._show_squares(start)

    def _spin(self, low: float, high: float, value: float) -> QDoubleSpinBox:
        box = QDoubleSpinBox()
        box.setRange(low, high)
        box.setDecimals(2)
        box.setSingleStep(0.25)
        box.setValue(value)
        return box

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.view.fit_picture()

    def fit(self) -> GridFit:
        """The grid as the GM left it (offsets within one square)."""
        return GridFit(
            self.size_box.value(), self.offset_x_box.value(), self.offset_y_box.value()
        ).normalised()

    def set_fit(self, fit: GridFit) -> None:
        """Set the grid as if typed (tests and the draw-a-square gesture use it)."""
        self._syncing = True
        try:
            self.size_box.setValue(fit.pixels_per_square)
            self.offset_x_box.setValue(fit.offset_x)
            self.offset_y_box.setValue(fit.offset_y)
        finally:
            self._syncing = False
        self.view.set_fit(self.fit())
        self._show_squares(self.fit())

    def _from_view(self, fit: GridFit) -> None:
        self.set_fit(fit)

    def _from_boxes(self) -> None:
        if self._syncing:
            return
        self.view.set_fit(self.fit())
        self._show_squares(self.fit())

    def _show_squares(self, fit: GridFit) -> None:
        across, down = fit.squares(*self.picture_size)
        self.squares_label.setText(f"{across} x {down} squares")
