"""Shared makers for the encounter-file tests: a rich state, small images, raw archives."""

from __future__ import annotations

import io
import json
import struct
import zipfile
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from PIL import Image

from engine.battlemap import (
    Background,
    BattleMap,
    CoverGrade,
    CoverObject,
    Light,
    Portal,
    PortalKind,
    PortalState,
    TerrainKind,
    TerrainPatch,
    Wall,
)
from engine.encounter import EncounterState
from engine.files import EncounterFile, encounter_to_json
from engine.grid import FIVE_FOOT, Square
from engine.tokens import Condition, Expiry, ExpiryPoint, Side, Token, Weapon
from engine.turns.combat import Combatant, CombatState, LogEntry, PendingAction, Phase


def png_bytes(size: tuple[int, int] = (8, 6), colour: str = "olive") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, "PNG")
    return buffer.getvalue()


def image_bytes(fmt: str, size: tuple[int, int] = (8, 6)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, "teal").save(buffer, fmt)
    return buffer.getvalue()


def huge_png(width: int, height: int, *, complete: bool = False) -> bytes:
    """A structurally valid 1-bit PNG whose header claims ``width`` x ``height``.

    The pixel data is a tiny zlib stream: decoding it would have to allocate the full
    image, which is exactly what the loader must never do. ``complete`` writes every row
    (all black, a few kB compressed), so the picture decodes.
    """
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    rows = (b"\x00" * (1 + (width + 7) // 8)) * height if complete else b"\x00" * 1024
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def rich_state() -> EncounterState:
    """A warehouse that uses every part of the model: each portal kind and state, both
    terrain kinds, every cover grade, lights, a 2x2 token, weapons, conditions, stats."""
    portals = tuple(
        Portal(f"{kind.value}-{state.value}", (float(i), 0.0), (i + 1.0, 0.0), kind, state)
        for i, (kind, state) in enumerate(
            (k, s) for k in PortalKind for s in PortalState
        )
    )
    battlemap = BattleMap(
        width=12,
        height=10,
        walls=(
            Wall((0.0, 0.0), (12.0, 0.0)),
            Wall((0.0, 10.0), (0.0, 0.0)),
            Wall((4.5, 2.0), (4.5, 6.25), blocks_sight=True, blocks_movement=False),
            Wall((6.0, 6.0), (9.0, 6.0), blocks_sight=False, blocks_movement=True),
        ),
        portals=portals,
        terrain=(
            TerrainPatch("catwalk stair", TerrainKind.DIFFICULT,
                         frozenset({Square(10, 1), Square(10, 2), Square(10, 3)})),
            TerrainPatch("loading pit", TerrainKind.IMPASSABLE, frozenset({Square(2, 8)})),
        ),
        cover=tuple(
            CoverObject(f"crate-{grade.value}", f"crate ({grade.value})",
                        ((1.0 + i, 4.0), (2.0 + i, 4.0), (2.0 + i, 5.0), (1.0 + i, 5.0)),
                        grade=grade, height_ft=2.5 + i, blocks_sight=i % 2 == 0,
                        blocks_movement=i != 3)
            for i, grade in enumerate(CoverGrade)
        ),
        lights=(Light((6.0, 5.0), range=8.0, colour="#ffcc88ff", intensity=0.75),),
        background=Background("images/background.png", pixels_per_square=70),
    )
    smg = Weapon("SMG", damage="2d6", range_increment=30.0, ammo=25, capacity=30,
                 modes=("single", "burst", "auto"), rate_of_fire=3, traits=("AP 1",))
    knife = Weapon("Knife", damage="1d4", melee=True)
    tokens = (
        Token("agent-1", "Agent Kestrel", Side.PARTY, Square(1, 1), facing=90.0, speed=30.0,
              conditions=(Condition("aiming", Expiry(2, ExpiryPoint.END_OF_TURN), "self", 1),
                          Condition("flat-footed")),
              weapons=(smg, knife),
              stats={"defense": 14, "initiative": 3, "armor": "partial", "helmet": True},
              portrait="images/kestrel.png"),
        Token("thug-1", "Thug «Ägypten»", Side.ENEMY, Square(7, 7), size=2, speed=20.0,
              conditions=(Condition("shaken", Expiry(1, ExpiryPoint.START_OF_TURN, "agent-1")),),
              weapons=(Weapon("Shotgun", "3d8", 10.0, 2, 2, ("single",), two_handed=True),)),
        Token("civ", "Forklift driver", Side.NEUTRAL, Square(11, 9)),
        Token("ally", "Informant", Side.ALLY, Square(3, 3), speed=0.0),
    )
    combat = CombatState(
        phase=Phase.ROUND, round=2,
        order=(Combatant("agent-1", 18, (3, 12), {"half": 1, "free": 1}, {"moved": True},
                         acted=True),
               Combatant("thug-1", 11, (1,), data={"fluid": -2, "note": "braced"})),
        active="thug-1",
        pending=(PendingAction("ally", "ready", "thug-1 moves", "shoot", {"bonus": 1.5}),),
        seed=2**70 + 3, rolls=17,
        log=(LogEntry(1, "initiative", "Agent Kestrel acts first.", ("agent-1",)),),
        data={"surprise": False},
    )
    return EncounterState("Warehouse shoot-out", "spycraft", FIVE_FOOT, battlemap, tokens,
                          description="Crates, a roll-up door and a catwalk.\nLine two.",
                          combat=combat)


def rich_file() -> EncounterFile:
    return EncounterFile(rich_state(), {
        "images/background.png": png_bytes((24, 20)),
        "images/kestrel.png": png_bytes((4, 4), "navy"),
    })


def write_archive(path: Path, entries: Mapping[str, bytes]) -> Path:
    """A zip with exactly these entries, bypassing every check save_encounter makes."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return path


def document_bytes(document: Any) -> bytes:
    return json.dumps(document, indent=1).encode("utf-8")


def rich_entries(document: Any = None) -> dict[str, bytes]:
    """The entries of rich_file(), optionally with another encounter.json document."""
    encounter_file = rich_file()
    if document is None:
        document = encounter_to_json(encounter_file.state)
    return {"encounter.json": document_bytes(document), **encounter_file.images}


def damaged_png_entries() -> dict[str, bytes]:
    """rich_entries() with a background PNG whose pixel data is damaged under a correct
    checksum: the structure is sound, the pixels are not, so only decoding finds it."""
    picture = bytearray(png_bytes((64, 64), "red"))
    start = picture.index(b"IDAT") + 4
    length = struct.unpack(">I", picture[start - 8:start - 4])[0]
    picture[start + 2:start + length] = b"\xff" * (length - 2)
    picture[start + length:start + length + 4] = struct.pack(
        ">I", zlib.crc32(bytes(picture[start - 4:start + length])))
    entries = rich_entries()
    entries["images/background.png"] = bytes(picture)
    return entries
