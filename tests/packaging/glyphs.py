"""Real letters or empty boxes? Two exports of the same encounter that differ only in the
letters drawn on the tokens ("II" against "MW") differ wherever real glyphs are drawn, and are
identical when every letter is the same box (no font) or nothing is drawn at all."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from PIL import Image, ImageChops

from tests.conftest import REPO_ROOT

DEFAULT_MAP = REPO_ROOT / "maps" / "warehouse.killbox"
# The initials drawn on each token: "Ivy Ike" is II, "Max Walsh" is MW.
NAMES = ("Ivy Ike", "Max Walsh")
# Eleven tokens with two letters each: real glyphs I and M/W differ in well over this many pixels.
MIN_DIFFERENT_PIXELS = 300


def encounter_with_token_names(name: str, out: Path) -> Path:
    """The default encounter with every token renamed (so every disc shows the same initials)."""
    with zipfile.ZipFile(DEFAULT_MAP) as source, zipfile.ZipFile(out, "w") as target:
        for entry in source.namelist():
            data = source.read(entry)
            if entry == "encounter.json":
                document = json.loads(data)
                for token in document["encounter"]["tokens"]:
                    token["name"] = name
                data = json.dumps(document).encode()
            target.writestr(entry, data)
    return out


def different_pixels(first: Path, second: Path) -> int:
    with Image.open(first) as a, Image.open(second) as b:
        difference = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
        return sum(difference.point(lambda value: 255 if value > 40 else 0).histogram()[255:])
