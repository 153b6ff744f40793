"""Synthetic Universal VTT documents for the importer tests."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path
from typing import Any

from PIL import Image

from engine.files import EncounterFile
from engine.files.uvtt import import_uvtt
from tests.conftest import SHARED

FIXTURE = SHARED / "fixtures" / "uvtt" / "dungeondraft-0.3-doors.dd2vtt"
FIXTURE_MISSING = f"the shared Universal VTT fixture is absent ({FIXTURE})"
#: The rule system these tests import maps for (the importer asks: a map names none).
SYSTEM = "spycraft"


def import_map(path: str | Path, **options: Any) -> EncounterFile:
    """``import_uvtt`` for these tests' system unless ``options`` name another."""
    return import_uvtt(path, **{"system": SYSTEM, **options})


def picture_bytes(size: tuple[int, int], kind: str = "PNG", colour: str = "#806040") -> bytes:
    out = io.BytesIO()
    mode = "RGBA" if kind == "PNG" else "RGB"
    Image.new(mode, size, colour).save(out, kind)
    return out.getvalue()


def point(x: float, y: float) -> dict[str, float]:
    return {"x": x, "y": y}


def document(
    size: tuple[int, int] = (10, 8),
    ppg: int = 16,
    image: bytes | None = None,
    origin: tuple[float, float] = (0, 0),
    **fields: Any,
) -> dict[str, Any]:
    """A small valid 0.3 document: a room with one wall line, a door, an object and a light."""
    ox, oy = origin
    doc: dict[str, Any] = {
        "format": 0.3,
        "resolution": {
            "map_origin": point(ox, oy),
            "map_size": point(*size),
            "pixels_per_grid": ppg,
        },
        "line_of_sight": [
            [point(ox + 1, oy + 1), point(ox + 4, oy + 1), point(ox + 4, oy + 5)],
        ],
        "objects_line_of_sight": [
            [point(ox + 6, oy + 2), point(ox + 7, oy + 2), point(ox + 7, oy + 3),
             point(ox + 6, oy + 3)],
        ],
        "portals": [{
            "position": point(ox + 5, oy + 1),
            "bounds": [point(ox + 4, oy + 1), point(ox + 6, oy + 1)],
            "rotation": 0,
            "closed": True,
            "freestanding": False,
        }],
        "environment": {"baked_lighting": True, "ambient_light": "ffffffff"},
        "lights": [{
            "position": point(ox + 2.5, oy + 3.5), "range": 4, "intensity": 1,
            "color": "ffeccd8b", "shadows": True,
        }],
        "image": base64.b64encode(
            image if image is not None else picture_bytes((size[0] * ppg, size[1] * ppg))
        ).decode("ascii"),
    }
    doc.update(fields)
    return doc


def write(path: Path, doc: dict[str, Any] | str) -> Path:
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path
