"""A small hand-built encounter for desktop tests (every kind of thing the map can show)."""

from __future__ import annotations

from engine.battlemap import (
    BattleMap,
    CoverGrade,
    CoverObject,
    Portal,
    PortalKind,
    PortalState,
    TerrainKind,
    TerrainPatch,
    Wall,
)
from engine.encounter import EncounterState
from engine.grid import FIVE_FOOT, Square
from engine.tokens import Condition, Expiry, ExpiryPoint, Side, Token, Weapon

WIDTH, HEIGHT = 16, 12


def sample_state() -> EncounterState:
    walls = (
        Wall((0, 0), (16, 0)),
        Wall((0, 12), (16, 12)),
        Wall((0, 0), (0, 12)),
        Wall((16, 0), (16, 12)),
        # An office in the top-right corner with a door and a window.
        Wall((10, 0), (10, 2)),
        Wall((10, 3), (10, 5)),
        Wall((10, 5), (12, 5)),
        Wall((14, 5), (16, 5)),
        Wall((4, 8), (4, 12), blocks_sight=True, blocks_movement=False),
    )
    portals = (
        Portal("office-door", (10, 2), (10, 3), PortalKind.DOOR, PortalState.CLOSED),
        Portal("office-window", (12, 5), (14, 5), PortalKind.WINDOW, PortalState.CLOSED),
        Portal("back-door", (6, 12), (7, 12), PortalKind.DOOR, PortalState.LOCKED),
        Portal("side-door", (0, 5), (0, 6), PortalKind.DOOR, PortalState.OPEN),
    )
    terrain = (
        TerrainPatch(
            "stair",
            TerrainKind.DIFFICULT,
            frozenset(Square(x, y) for x in (1, 2) for y in (1, 2, 3)),
        ),
        TerrainPatch("pit", TerrainKind.IMPASSABLE, frozenset({Square(8, 9), Square(9, 9)})),
    )
    cover = (
        CoverObject("crate-1", "Crate", ((5, 3), (7, 3), (7, 5), (5, 5)), CoverGrade.HALF),
        CoverObject(
            "stack",
            "Crate stack",
            ((7, 7), (9, 7), (9, 8), (7, 8)),
            CoverGrade.TOTAL,
            height_ft=8,
            blocks_sight=True,
        ),
        CoverObject(
            "car", "Car", ((12, 8), (15, 8), (15, 10), (12, 10)), CoverGrade.THREE_QUARTERS
        ),
    )
    rifle = Weapon("Assault rifle", "2d8", 70, ammo=24, capacity=30, modes=("single", "burst"))
    smg = Weapon("SMG", "2d6", 40, ammo=5, capacity=30, modes=("single", "auto"))
    pistol = Weapon("Pistol", "2d6", 30, ammo=0, capacity=12)
    shaken = Condition("Shaken", Expiry(2, ExpiryPoint.END_OF_TURN))
    tokens = (
        Token("kara", "Kara Voss", Side.PARTY, Square(2, 6), weapons=(rifle,), facing=0),
        Token("dex", "Dex", Side.PARTY, Square(3, 9), weapons=(pistol,), conditions=(shaken,)),
        Token("marlow", "Marlow", Side.ALLY, Square(6, 6), weapons=(smg,)),
        Token(
            "thug-1",
            "Thug 1",
            Side.ENEMY,
            Square(12, 2),
            weapons=(smg,),
            conditions=(Condition("Flat-footed"), Condition("Braced")),
            facing=180,
        ),
        Token("boss", "The Boss", Side.ENEMY, Square(13, 6), size=2, weapons=(rifle,), facing=180),
        Token("clerk", "Clerk", Side.NEUTRAL, Square(11, 10)),
    )
    return EncounterState(
        name="Desktop sample",
        system="spycraft",
        scale=FIVE_FOOT,
        battlemap=BattleMap(WIDTH, HEIGHT, walls, portals, terrain, cover),
        tokens=tokens,
    )
