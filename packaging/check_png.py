"""Check a picture `killbox --export-png` made: it exists, is map-sized and is not blank.

Usage: python packaging/check_png.py PATH   (exit 1 with the reason otherwise).
The release workflow runs it after each platform's smoke export.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image


def problem(path: Path) -> str | None:
    if not path.is_file():
        return f"{path}: no picture was written"
    with Image.open(path) as image:
        if image.width < 640 or image.height < 480:
            return f"{path}: {image.width}x{image.height} is smaller than a map"
        colours = image.convert("RGB").getcolors(maxcolors=1_000_000)
        if colours is not None and len(colours) <= 50:
            return f"{path}: only {len(colours)} colours, the picture is nearly blank"
    return None


if __name__ == "__main__":
    found = problem(Path(sys.argv[1]))
    print(found or f"{sys.argv[1]}: a picture of the map")
    sys.exit(1 if found else 0)
