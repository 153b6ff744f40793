"""Draw the Killbox icon (a crosshair over a grid square) at the sizes the desktop needs:
PNGs for Linux, killbox.ico for the Windows installer and executable, killbox.icns for macOS.

Run: python assets/icons/make_icon.py. Drawn by this script for this project (see ../LICENSE.md).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
RED = (200, 40, 40, 255)
INK = (30, 32, 36, 255)
PAPER = (235, 228, 210, 255)


def draw(size: int) -> Image.Image:
    scale = 4  # draw large and shrink, for smooth edges
    s = size * scale
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    margin = s // 16
    pen.rounded_rectangle((margin, margin, s - margin, s - margin), radius=s // 8, fill=PAPER,
                          outline=INK, width=s // 32)
    third = (s - 2 * margin) / 3
    for i in (1, 2):  # the grid
        offset = margin + i * third
        pen.line((offset, margin, offset, s - margin), fill=INK, width=s // 64)
        pen.line((margin, offset, s - margin, offset), fill=INK, width=s // 64)
    centre, radius = s / 2, third * 0.95
    pen.ellipse((centre - radius, centre - radius, centre + radius, centre + radius),
                outline=RED, width=s // 20)
    tick = third * 1.35
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        pen.line((centre + dx * radius * 0.35, centre + dy * radius * 0.35,
                  centre + dx * tick, centre + dy * tick), fill=RED, width=s // 20)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    for size in (32, 64, 256):
        draw(size).save(HERE / f"killbox-{size}.png", optimize=True)
    ico_sizes = [(16, 16), (24, 24), (32, 32), (48, 48), (64, 64), (128, 128), (256, 256)]
    draw(256).save(HERE / "killbox.ico", sizes=ico_sizes)
    draw(1024).save(HERE / "killbox.icns")  # Pillow writes every size macOS asks for


if __name__ == "__main__":
    main()
