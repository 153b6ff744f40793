"""Token pictures: any image the GM picks, cropped to a disc and stored in the encounter file."""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QPainterPath

#: Side of the stored disc picture in pixels: sharp at any zoom a table uses.
DISC_PIXELS = 256


class PictureError(ValueError):
    """A picture that cannot be read; the message names the file."""


def disc_picture(image: QImage, pixels: int = DISC_PIXELS) -> QImage:
    """The largest centred disc of ``image``, scaled to ``pixels`` square, transparent outside."""
    side = min(image.width(), image.height())
    left, top = (image.width() - side) // 2, (image.height() - side) // 2
    square = image.copy(left, top, side, side).scaled(
        pixels,
        pixels,
        Qt.AspectRatioMode.IgnoreAspectRatio,
        Qt.TransformationMode.SmoothTransformation,
    )
    disc = QImage(pixels, pixels, QImage.Format.Format_ARGB32_Premultiplied)
    disc.fill(Qt.GlobalColor.transparent)
    painter = QPainter(disc)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    clip = QPainterPath()
    clip.addEllipse(QRectF(0, 0, pixels, pixels))
    painter.setClipPath(clip)
    painter.drawImage(0, 0, square)
    painter.end()
    return disc


def png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    # PySide6 6.11's stub types the format as bytes; the binding takes str and refuses bytes.
    image.save(buffer, "PNG")  # type: ignore[call-overload]
    buffer.close()
    return bytes(data.data())


def disc_from_file(path: str) -> bytes:
    """The disc picture of an image file as PNG bytes; PictureError when it is not an image."""
    image = QImage(path)
    if image.isNull():
        raise PictureError(f"{path}: not a picture Killbox can read")
    return png_bytes(disc_picture(image))
