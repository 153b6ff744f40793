"""Spycraft 2.0: a weapons deal in a dockside warehouse goes loud (the default encounter).

The agents come in through the south door and the office; the dealers' van is backed up
to the open roll-up door; a lookout watches from the catwalk. Pallet racks and stacked
crates block sight; single crates, the forklift and the drums give cover.
"""

from __future__ import annotations

from engine.battlemap import (
    Background,
    BattleMap,
    CoverGrade,
    Light,
    PortalState,
    TerrainKind,
    TerrainPatch,
)
from engine.encounter import EncounterState
from engine.grid import FIVE_FOOT, Square
from engine.tokens import Side, Token, Weapon
from maps.layout import block, box, door, polyline, rectangle, squares, walls_around, window
from maps.painting import PPS, Decal, Floor, Look, Scene, rect_area

SLUG = "warehouse"
SYSTEM = "spycraft"
WIDTH, HEIGHT = 32, 22

#: Spycraft 2.0 fire modes, spelt as the Spycraft action catalogue spells them.
SINGLE, BURST, FULL_AUTO = "single-shot", "burst", "full auto"

ASSAULT_RIFLE = Weapon("Assault rifle", damage="2d8", range_increment=50, ammo=30, capacity=30,
                       modes=(SINGLE, BURST, FULL_AUTO), two_handed=True,
                       traits=("5.56 mm", "recoil 14"))
SMG = Weapon("Submachine gun", damage="2d6", range_increment=30, ammo=30, capacity=30,
             modes=(SINGLE, BURST, FULL_AUTO), traits=("9 mm", "recoil 12"))
PISTOL = Weapon("Service pistol", damage="2d6", range_increment=25, ammo=15, capacity=15,
                modes=(SINGLE,), traits=("9 mm",))
SHOTGUN = Weapon("Combat shotgun", damage="2d8", range_increment=20, ammo=8, capacity=8,
                 modes=(SINGLE,), two_handed=True, traits=("12 gauge",))
KNIFE = Weapon("Combat knife", damage="1d4", melee=True)


def _stats(initiative: int, defense: int, vitality: int, wounds: int, attack: int,
           **more: int | str | bool) -> dict[str, int | str | bool]:
    """A Spycraft stat block with the names the Spycraft rules read (engine.rules.spycraft)."""
    return {"initiative": initiative, "defense": defense, "vitality": vitality,
            "max_vitality": vitality, "wounds": wounds, "max_wounds": wounds,
            "ranged_attack": attack, "melee_attack": attack - 1, **more}


def _agent(token_id: str, name: str, square: tuple[int, int], weapons: tuple[Weapon, ...],
           initiative: int, defense: int, vitality: int, wounds: int, attack: int) -> Token:
    stats = _stats(initiative, defense, vitality, wounds, attack, bab=attack - 3, str=1, dex=3,
                   con=1, int=1, wis=1, cha=0, str_score=13, fortitude=4, reflex=5, will=3,
                   athletics=6, notice=6, stealth=7, tactics=5, armor="partial", special=True)
    return Token(token_id, name, Side.PARTY, Square(*square), speed=30.0, weapons=weapons,
                 stats=stats)


def _merc(token_id: str, name: str, square: tuple[int, int], weapons: tuple[Weapon, ...],
          *, initiative: int = 2, defense: int = 14, wounds: int = 12, attack: int = 3,
          vitality: int = 0) -> Token:
    # A standard Spycraft NPC has wounds only; a special one (the boss) has vitality too.
    stats = _stats(initiative, defense, vitality, wounds, attack, bab=attack - 1, str=1, dex=1,
                   con=1, int=0, wis=0, cha=0, str_score=13, fortitude=3, reflex=2, will=1,
                   athletics=3, notice=3, stealth=2, armor="none", special=vitality > 0)
    return Token(token_id, name, Side.ENEMY, Square(*square), speed=30.0, weapons=weapons,
                 stats=stats)


def build() -> Scene:
    portals = (
        door("rollup-1", (24, 8), (24, 12), PortalState.OPEN),
        door("door-south", (4, 21), (5, 21)),
        door("door-yard", (24, 17), (24, 18), PortalState.LOCKED),
        door("door-office", (7, 4), (7, 5)),
        window("window-office", (3, 6), (5, 6)),
    )
    walls = (
        *walls_around(rectangle(1, 1, 24, 21), portals),
        *walls_around(polyline([(7, 1), (7, 6), (1, 6)]), portals),
        # catwalk and stair railings stop a walker, not a bullet or a look
        *walls_around(polyline([(10, 1), (10, 7)]), blocks_sight=False),
        *walls_around(polyline([(12, 7), (12, 3), (24, 3)]), blocks_sight=False),
    )
    tall = {"grade": CoverGrade.TOTAL, "height_ft": 10.0, "blocks_sight": True}
    cover = (
        block("rack-1", "Pallet rack", 3, 9, 4, 18, grade=CoverGrade.TOTAL, height_ft=14.0,
              blocks_sight=True),
        block("rack-2", "Pallet rack", 7, 9, 8, 18, grade=CoverGrade.TOTAL, height_ft=14.0,
              blocks_sight=True),
        block("stack-1", "Stacked crates", 12, 10, 14, 12, **tall),  # type: ignore[arg-type]
        block("stack-2", "Stacked crates", 17, 16, 19, 18, **tall),  # type: ignore[arg-type]
        block("crate-1", "Crate", 11, 14, 12, 15),
        block("crate-2", "Crates", 15, 13, 17, 14),
        block("crate-3", "Crate", 18, 9, 19, 10),
        block("crate-4", "Crates", 20, 13, 21, 15),
        block("crate-5", "Crate", 9, 19, 10, 20),
        block("drums-1", "Oil drums", 21, 18, 23, 20, grade=CoverGrade.HALF, height_ft=3.0),
        block("forklift-1", "Forklift", 13, 18, 15, 19, grade=CoverGrade.HALF, height_ft=7.0),
        block("desk-1", "Office desk", 2, 2, 4, 3, grade=CoverGrade.HALF, height_ft=2.5),
        block("cabinet-1", "Filing cabinets", 5, 1, 7, 2, grade=CoverGrade.HALF,
              height_ft=4.5),
        box("van-1", "Dealers' van", (26.4, 10.0), (3.6, 1.7), grade=CoverGrade.THREE_QUARTERS,
            height_ft=7.0, blocks_sight=True),
        box("car-1", "Parked sedan", (29.8, 16.2), (3.0, 1.4), angle=90.0,
            grade=CoverGrade.HALF, height_ft=4.5),
        block("dumpster-1", "Dumpster", 29, 2, 31, 3, grade=CoverGrade.HALF, height_ft=5.0),
    )
    terrain = (
        TerrainPatch("Catwalk stair", TerrainKind.DIFFICULT, squares(10, 3, 12, 7)),
    )
    overhead = [Light((x, y), range=7.5, colour="#ffe2b0ff", intensity=0.45)
                for x in (5.5, 12.5, 19.5) for y in (8.0, 15.0)]
    lights = (*overhead, Light((28.0, 6.0), range=8.0, colour="#ffcf8cff", intensity=0.55))
    battlemap = BattleMap(
        WIDTH, HEIGHT, walls=walls, portals=portals, terrain=terrain, cover=cover,
        lights=lights, background=Background(image=f"images/{SLUG}.png", pixels_per_square=PPS),
    )
    tokens = (
        _agent("kestrel", "Kestrel", (4, 19), (ASSAULT_RIFLE, PISTOL), 6, 17, 45, 14, 7),
        _agent("ibarra", "Ibarra", (5, 20), (SMG, PISTOL), 5, 16, 38, 12, 5),
        _agent("okafor", "Okafor", (6, 19), (SHOTGUN, SMG), 3, 15, 40, 15, 5),
        _agent("reyes", "Reyes", (3, 4), (SMG, KNIFE), 8, 18, 34, 12, 6),
        _merc("dutch", "Dutch (dealer boss)", (22, 10), (ASSAULT_RIFLE, PISTOL), initiative=5,
              defense=16, wounds=14, attack=6, vitality=30),
        _merc("merc-1", "Rifleman", (19, 11), (ASSAULT_RIFLE,)),
        _merc("merc-2", "Gunman", (14, 11), (SMG,)),
        _merc("merc-3", "Catwalk lookout", (18, 2), (ASSAULT_RIFLE,), attack=4),
        _merc("merc-4", "Driver", (26, 12), (SMG, PISTOL)),
        _merc("merc-5", "Gunman", (21, 14), (SMG,)),
        Token("foreman", "Dock foreman (hostage)", Side.NEUTRAL, Square(16, 6), speed=30.0,
              stats=_stats(0, 10, 0, 10, 0, str_score=10, fortitude=1, reflex=0, will=0,
                           special=False)),
    )
    state = EncounterState(
        name="Warehouse shoot-out", system=SYSTEM, scale=FIVE_FOOT, battlemap=battlemap,
        tokens=tokens,
        description=(
            "A weapons deal at a dockside warehouse. Four agents slip in through the south "
            "door and the office; six of the dealer's gunmen hold the loading floor, the "
            "catwalk and the yard, where their van is backed up to the open roll-up door. "
            "The dock foreman is their hostage. Racks and stacked crates block sight; the "
            "catwalk stair is difficult terrain; the yard door is locked."
        ),
    )
    yellow = (214, 176, 36)
    look = Look(
        floors=(
            Floor("asphalt", rect_area(0, 0, WIDTH, HEIGHT)),
            Floor("concrete", rect_area(1, 1, 24, 21)),
            Floor("tile", rect_area(1, 1, 7, 6)),
            Floor("grating", rect_area(10, 1, 24, 3)),
        ),
        decals=(
            Decal("line", ((8.6, 7.6), (23.4, 7.6)), yellow, 0.08),
            Decal("line", ((8.6, 20.4), (23.4, 20.4)), yellow, 0.08),
            Decal("line", ((8.6, 7.6), (8.6, 20.4)), yellow, 0.08),
            Decal("hazard", ((22.9, 8.0), (23.7, 12.0))),
            Decal("hazard", ((24.3, 8.0), (24.9, 12.0))),
            Decal("stain", ((16.2, 11.0),), (20, 18, 14), 0.45),
            Decal("stain", ((21.5, 16.4),), (20, 18, 14), 0.3),
            Decal("stain", ((10.5, 16.0),), (20, 18, 14), 0.25),
            Decal("stain", ((27.5, 13.0),), (10, 10, 10), 0.5),
            Decal("line", ((28.2, 13.6), (32, 13.6)), (226, 226, 216), 0.07),
            Decal("line", ((28.2, 18.8), (32, 18.8)), (226, 226, 216), 0.07),
            Decal("line", ((28.2, 13.6), (28.2, 18.8)), (226, 226, 216), 0.07),
            Decal("chair", ((3.0, 3.5),), width=-90),
        ),
        wall_style="concrete",
        wall_zones=((1.5, 1.5, 7.1, 6.1, "drywall"),),
        barrier_style="railing",
        terrain_looks={"Catwalk stair": "stairs"},
        ambient=0.78,
        seed=20_101,
    )
    return Scene(SLUG, state, look)
