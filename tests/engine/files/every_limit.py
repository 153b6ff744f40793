"""A .killbox file at every limit of engine/limits.py at once (issue 20, must-have 2), made
by joining JSON text (building 50,000 walls as objects first would take longer than loading
them). It holds the largest map, the most tokens (one of them the largest, one carrying the
most weapons and conditions), the most walls, doors and windows, lights, cover objects (one
with the longest outline), terrain patches and terrain squares, log lines and pictures, with
two 8192-pixel pictures making up the pixel budget; only the arrays and objects of
encounter.json stay under their own limit, which the rest nearly fills.

Used by the tests that load it, take its first commands, export it and draw it.
"""

from __future__ import annotations

import json
import math
import zipfile
from pathlib import Path

from engine import limits
from engine.files.encounter_text import encounter_to_json
from tests.engine.files.builders import huge_png, png_bytes, rich_state

SIDE = limits.MAX_MAP_SIDE
#: The two large pictures share the pixel budget with the small ones (1 x 1 each).
SMALL_PICTURES = limits.MAX_IMAGES - 2
BIG_HEIGHT = (limits.MAX_TOTAL_IMAGE_PIXELS - SMALL_PICTURES) // (2 * 8192)


def _walls() -> str:
    """MAX_WALLS segments: a grid of short walls that block sight and movement."""
    per_row = SIDE - 1
    walls = []
    for index in range(limits.MAX_WALLS):
        y, x = divmod(index, per_row)
        row = 2 + 2 * y
        walls.append(f'{{"start":[{x + 1}.0,{row}.0],"end":[{x + 1}.5,{row}.0],'
                     '"blocks_sight":true,"blocks_movement":true}')
    return ",".join(walls)


def _portals() -> str:
    return ",".join(
        f'{{"id":"p{i}","start":[{i % 900 + 1}.0,{1 + 2 * (i // 900) + 150}.0],'
        f'"end":[{i % 900 + 1}.5,{1 + 2 * (i // 900) + 150}.0],"kind":"door","state":"closed"}}'
        for i in range(limits.MAX_PORTALS)
    )


def _terrain() -> str:
    """MAX_TERRAIN_PATCHES patches holding MAX_TERRAIN_SQUARES squares in all, in the
    bottom rows of the map (clear of tokens)."""
    per_patch = limits.MAX_TERRAIN_SQUARES // limits.MAX_TERRAIN_PATCHES
    patches = []
    for index in range(limits.MAX_TERRAIN_PATCHES):
        first = index * per_patch
        squares = ",".join(f"[{(first + k) % SIDE},{SIDE - 1 - (first + k) // SIDE}]"
                           for k in range(per_patch))
        patches.append(f'{{"name":"mud {index}","kind":"difficult","squares":[{squares}]}}')
    return ",".join(patches)


def _cover() -> str:
    objects = []
    turn = 2 * math.pi / limits.MAX_OUTLINE_POINTS
    ring = ",".join(f"[{500 + 5 * math.cos(k * turn):.4f},{300 + 5 * math.sin(k * turn):.4f}]"
                    for k in range(limits.MAX_OUTLINE_POINTS))
    objects.append(f'{{"id":"c0","name":"long","outline":[{ring}],"grade":"half",'
                   '"height_ft":3.0,"blocks_sight":false,"blocks_movement":false}')
    for i in range(1, limits.MAX_COVER_OBJECTS):
        x, y = 10 + i % 900, 600 + 2 * (i // 900)
        objects.append(f'{{"id":"c{i}","name":"crate","outline":[[{x}.1,{y}.1],[{x}.9,{y}.1],'
                       f'[{x}.9,{y}.9],[{x}.1,{y}.9]],"grade":"half","height_ft":3.0,'
                       '"blocks_sight":false,"blocks_movement":true}')
    return ",".join(objects)


def _lights() -> str:
    return ",".join(f'{{"position":[{i % SIDE}.5,{i // SIDE * 3 + 0.5}],"range":8.0,'
                    '"colour":"#ffcc88ff","intensity":0.5}' for i in range(limits.MAX_LIGHTS))


def _tokens(sample: dict[str, object]) -> str:
    """MAX_TOKENS tokens on row 1; the first one the largest, the second carrying the most
    weapons and conditions; each of the small pictures a portrait."""
    weapon = json.dumps(dict(sample["weapons"][0], ammo=0))  # type: ignore[index]
    tokens = []
    for i in range(limits.MAX_TOKENS):
        size = limits.MAX_TOKEN_SIZE if i == 0 else 1
        square = [0, 400] if i == 0 else [i % SIDE, 1 + 3 * (i // SIDE)]
        weapons = (",".join(weapon.replace('"SMG"', f'"gun {k}"')
                            for k in range(limits.MAX_WEAPONS)) if i == 1 else weapon)
        conditions = (",".join(f'{{"name":"mark {k}","expires":null,"source":null,"value":0,'
                               '"square":null}' for k in range(limits.MAX_CONDITIONS))
                      if i == 1 else "")
        portrait = f'"images/p{i}.png"' if i < SMALL_PICTURES else "null"
        tokens.append(
            f'{{"id":"t{i}","name":"Token {i}","side":"{"party" if i % 2 else "enemy"}",'
            f'"square":{json.dumps(square)},"size":{size},"facing":0.0,"speed":30.0,'
            f'"conditions":[{conditions}],"weapons":[{weapons}],"stats":{{}},'
            f'"portrait":{portrait}}}'
        )
    return ",".join(tokens)


def _log() -> str:
    line = '{"round":1,"kind":"note","text":"A line of the log.","tokens":[]}'
    return ",".join([line] * limits.MAX_LOG_ENTRIES)


def document_text() -> str:
    """encounter.json at every limit, written by joining text."""
    base = encounter_to_json(rich_state())
    encounter = base["encounter"]
    sample_token = encounter["tokens"][0]
    combat = {**encounter["combat"], "phase": "setup", "round": 0, "order": [], "active": None,
              "pending": [], "log": ["LOG"], "data": {}, "system_state": None}
    battlemap = {"width": SIDE, "height": SIDE, "walls": ["WALLS"], "portals": ["PORTALS"],
                 "terrain": ["TERRAIN"], "cover": ["COVER"], "lights": ["LIGHTS"],
                 "background": {"image": "images/big-0.png", "pixels_per_square": 8.0,
                                "offset_x": 0.0, "offset_y": 0.0}}
    encounter = {**encounter, "battlemap": battlemap, "tokens": ["TOKENS"], "combat": combat,
                 "system": "spycraft", "fog": encounter["fog"]}
    text = json.dumps({**base, "encounter": encounter})
    for marker, part in (("WALLS", _walls()), ("PORTALS", _portals()), ("TERRAIN", _terrain()),
                         ("COVER", _cover()), ("LIGHTS", _lights()), ("LOG", _log()),
                         ("TOKENS", _tokens(sample_token))):
        text = text.replace(f'["{marker}"]', f"[{part}]", 1)
    return text


def write_file(path: Path) -> Path:
    big = huge_png(8192, BIG_HEIGHT, complete=True)
    tiny = png_bytes((1, 1))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("encounter.json", document_text())
        archive.writestr("images/big-0.png", big)
        archive.writestr("images/big-1.png", big)
        for i in range(SMALL_PICTURES):
            archive.writestr(f"images/p{i}.png", tiny)
    return path
