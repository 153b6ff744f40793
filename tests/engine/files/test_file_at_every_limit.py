"""A .killbox file at every limit of engine/limits.py at once (issue 20, must-have 2) loads
and takes its first commands, and the test prints what that costs.

The file is generated here (joined as JSON text: building 50,000 walls as objects first
would take longer than loading them). It holds the largest map, the most tokens (one of
them the largest, one carrying the most weapons and conditions), the most walls, doors and
windows, lights, cover objects (one with the longest outline), terrain patches and terrain
squares, log lines and pictures, with two 8192-pixel pictures making up the pixel budget;
only the arrays and objects of encounter.json stay under their own limit, which the rest
nearly fills. A fresh Python process loads it, starts the fight and previews and applies
the first token's move, and reports the CPU time of that work and its peak memory.

It found two hangs (a Spycraft roll-off among more than 20 tied tokens, a quadratic id
check) and, held to the bound, three costs: the cycle collector walking the parsed file
while it was built, a second walk for unknown keys and a condition on each of the 1,000
tokens checking the whole map each time (7 s in all; about 3.4 s now, 510 MB).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import zipfile
from pathlib import Path

from engine import limits
from engine.files.encounter_text import encounter_to_json
from tests.engine.files.builders import huge_png, png_bytes, rich_state
from tests.resource_bounds import MEGABYTES, SECONDS

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


#: Run in a fresh process: load, start the fight, preview and apply the first token's
#: step; print what was loaded, the CPU seconds of that work and the process's peak
#: resident memory (MB).
MEASURE = """
import resource, sys, time
from engine.rules.base import Command
from engine.turns.session import Encounter
start = time.process_time()
fight = Encounter.open(sys.argv[1], seed=1)
counts = (len(fight.state.tokens), len(fight.state.battlemap.walls))
fight.apply(Command("start_combat"))
actor = fight.state.combat.active
token = fight.state.token(actor)
step = Command.build("standard_move", actor, squares=[(token.square.x + 1, token.square.y)])
if fight.preview(step).legal:
    fight.apply(step)
fight.apply(Command("end_turn"))
seconds = time.process_time() - start
print(counts[0], counts[1], len(fight.state.combat.order), seconds,
      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def test_a_file_at_every_limit_loads_and_takes_its_first_commands(tmp_path: Path) -> None:
    path = write_file(tmp_path / "every-limit.killbox")
    result = subprocess.run([sys.executable, "-c", MEASURE, str(path)], capture_output=True,
                            text=True, timeout=180, cwd=Path(__file__).resolve().parents[3])
    assert result.returncode == 0, result.stderr[-2000:]
    tokens, walls, order, seconds, megabytes = result.stdout.split()
    print(f"every limit at once: {float(seconds):.2f} s of CPU, {float(megabytes):.0f} MB peak")
    assert (int(tokens), int(walls), int(order)) == (
        limits.MAX_TOKENS, limits.MAX_WALLS, limits.MAX_TOKENS)
    assert float(seconds) < SECONDS
    assert float(megabytes) < MEGABYTES
