"""Cities Without Number: an extraction on the 41st floor of Halvorsen Dynamics, in metres.

The crew rides the elevator up and steps out into the lobby in front of the reception desk.
Corporate security holds the floor; the executive they came for is in the glass corner
office. Glass partitions (windows: they stop a walker, not a bullet's line of sight) wrap
the conference room and the corner office; the server room is locked.
"""

from __future__ import annotations

from engine.battlemap import (
    Background,
    BattleMap,
    CoverGrade,
    CoverObject,
    PortalState,
    TerrainKind,
    TerrainPatch,
)
from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules import get_system
from engine.tokens import Side, Token, Weapon
from maps.layout import (
    block,
    box,
    door,
    glass_run,
    polyline,
    rectangle,
    squares,
    walls_around,
    windows_along,
)
from maps.painting import PPS, Decal, Floor, Look, Scene, rect_area

SLUG = "office_floor"
SYSTEM = "cities-without-number"
WIDTH, HEIGHT = 28, 20
MOVE = 10.0  # metres per Move action

SINGLE, BURST = "single", "burst"
# range_increment is the normal range in metres; the long range is in the traits.
LIGHT_PISTOL = Weapon("Light pistol", damage="1d6", range_increment=10, ammo=15, capacity=15,
                      modes=(SINGLE,), traits=("range 10/80 m",))
HEAVY_PISTOL = Weapon("Heavy pistol", damage="1d8", range_increment=10, ammo=8, capacity=8,
                      modes=(SINGLE,), traits=("range 10/100 m",))
SMG = Weapon("Submachine gun", damage="1d8", range_increment=30, ammo=30, capacity=30,
             modes=(SINGLE, BURST), traits=("range 30/100 m", "burst: 3 rounds, +2 hit/dmg"))
RIFLE = Weapon("Combat rifle", damage="1d12", range_increment=100, ammo=30, capacity=30,
               modes=(SINGLE, BURST), two_handed=True,
               traits=("range 100/300 m", "burst: 3 rounds, +2 hit/dmg"))
SHOTGUN = Weapon("Combat shotgun", damage="3d4", range_increment=10, ammo=8, capacity=8,
                 modes=(SINGLE,), two_handed=True, traits=("range 10/30 m",))
MONOBLADE = Weapon("Monoblade", damage="1d8", melee=True, traits=("Stab",))
STUN_BATON = Weapon("Stun baton", damage="1d8", melee=True, traits=("Punch", "non-lethal"))


def _operator(token_id: str, name: str, side: Side, square: tuple[int, int],
              weapons: tuple[Weapon, ...], *, ac: int, hp: int, dex: int, attack: int,
              shoot: int, stab: int = 0, punch: int = 0, disciplined: bool = False) -> Token:
    """A Cities Without Number stat block (the names engine.rules.cities_without_number reads)."""
    stats: dict[str, int | str | bool] = {
        "ac_ranged": ac, "ac_melee": ac, "hp": hp, "max_hp": hp, "dex_mod": dex,
        "str_mod": 0, "attack_bonus": attack, "shoot": shoot, "stab": stab, "punch": punch,
        "exert": 0, "disciplined": disciplined,
    }
    return Token(token_id, name, side, Square(*square), speed=MOVE, weapons=weapons,
                 stats=stats)


def _pod(prefix: str, x0: int, y0: int, desks: int) -> list[CoverObject]:
    """A bank of back-to-back workstations (each 2 x 1 squares), chairs outside."""
    objects = []
    for i in range(desks):
        x = x0 + 2 * i + 1.0
        objects.append(box(f"workstation-{prefix}{2 * i + 1}", "Workstation", (x, y0 + 0.5),
                           (2.0, 1.0), angle=180.0, grade=CoverGrade.HALF, height_ft=4.5))
        objects.append(box(f"workstation-{prefix}{2 * i + 2}", "Workstation", (x, y0 + 1.5),
                           (2.0, 1.0), grade=CoverGrade.HALF, height_ft=4.5))
    return objects


def _chairs(x0: int, y0: int, desks: int) -> list[Decal]:
    chairs = []
    for i in range(desks):
        x = x0 + 2 * i + 1.0
        chairs.append(Decal("chair", ((x, y0 - 0.35),), width=-90))
        chairs.append(Decal("chair", ((x, y0 + 2.35),), width=90))
    return chairs


def build() -> Scene:
    outer_windows = (
        windows_along("window-n", (1, 1), (27, 1))
        + windows_along("window-w", (1, 1), (1, 19))
        + windows_along("window-e", (27, 1), (27, 13))
        + windows_along("window-s", (1, 19), (21, 19))
    )
    portals = (
        *outer_windows,
        *glass_run("glass-conference-e", (9, 1), (9, 7), door_at=4,
                   door_id="glassdoor-conference"),
        *glass_run("glass-conference-s", (1, 7), (9, 7)),
        *glass_run("glass-corner-w", (19, 1), (19, 7), door_at=4, door_id="glassdoor-corner"),
        *glass_run("glass-corner-s", (19, 7), (27, 7)),
        door("elevator-1", (11, 12), (13, 12), PortalState.OPEN),
        door("elevator-2", (13, 12), (15, 12), PortalState.OPEN),
        door("door-stairs", (15, 12), (16, 12)),
        door("door-server", (21, 16), (21, 17), PortalState.LOCKED),
    )
    walls = (
        *walls_around(rectangle(1, 1, 27, 19), portals),
        # the core: elevator cabs, shafts behind them and the stairwell
        *walls_around(rectangle(11, 7, 17, 12), portals),
        *walls_around(polyline([(13, 9), (13, 12)]), portals),
        *walls_around(polyline([(11, 9), (15, 9)]), portals),
        *walls_around(polyline([(15, 7), (15, 12)]), portals),
        # server room and kitchenette
        *walls_around(polyline([(21, 19), (21, 13), (27, 13)]), portals),
        *walls_around(polyline([(1, 14), (6, 14), (6, 15)]), portals),
        *walls_around(polyline([(6, 16.5), (6, 19)]), portals),
    )
    tall = {"grade": CoverGrade.TOTAL, "height_ft": 7.0, "blocks_sight": True}
    cover = (
        box("table-1", "Conference table", (5.0, 4.0), (5.0, 1.6), grade=CoverGrade.HALF,
            height_ft=2.5),
        block("desk-1", "Executive desk", 22, 3, 25, 4, grade=CoverGrade.HALF, height_ft=2.5),
        block("shelf-1", "Bookshelf", 21, 1, 26, 1.6, **tall),  # type: ignore[arg-type]
        block("sofa-1", "Sofa", 24, 5.9, 26.6, 6.8, grade=CoverGrade.LIGHT, height_ft=2.5),
        block("reception-1", "Reception desk", 12, 13, 16, 14, grade=CoverGrade.HALF,
              height_ft=3.5),
        *_pod("w", 2, 9, 3),
        *_pod("s", 8, 16, 3),
        *_pod("e", 20, 9, 3),
        block("servers-1", "Server racks", 23, 14, 26, 15, **tall),  # type: ignore[arg-type]
        block("servers-2", "Server racks", 23, 17, 26, 18, **tall),  # type: ignore[arg-type]
        block("counter-1", "Kitchen counter", 1, 15, 2, 18, grade=CoverGrade.HALF,
              height_ft=3.0),
        box("pubtable-1", "Break table", (4.0, 16.5), (1.0, 1.0), grade=CoverGrade.LIGHT),
        block("copier-1", "Copier", 17, 7.2, 18, 8, grade=CoverGrade.HALF, height_ft=4.0),
        block("cabinet-1", "Filing cabinets", 9.4, 8, 10, 11, grade=CoverGrade.HALF,
              height_ft=4.5),
        box("planter-1", "Planter", (10.5, 14.5), (0.8, 0.8), grade=CoverGrade.LIGHT),
        box("planter-2", "Planter", (17.5, 14.5), (0.8, 0.8), grade=CoverGrade.LIGHT),
        box("planter-3", "Planter", (26.4, 8.5), (0.8, 0.8), grade=CoverGrade.LIGHT),
    )
    terrain = (
        TerrainPatch("Stairwell stairs", TerrainKind.DIFFICULT, squares(15, 7, 17, 10)),
        TerrainPatch("Elevator shafts", TerrainKind.IMPASSABLE, squares(11, 7, 15, 9)),
    )
    battlemap = BattleMap(
        WIDTH, HEIGHT, walls=walls, portals=portals, terrain=terrain, cover=cover,
        background=Background(image=f"images/{SLUG}.png", pixels_per_square=PPS),
    )
    party, enemy = Side.PARTY, Side.ENEMY
    tokens = (
        _operator("static", "Static", party, (11, 11), (SMG, MONOBLADE),
                  ac=15, hp=18, dex=2, attack=2, shoot=2, stab=1),
        _operator("vale", "Vale", party, (12, 10), (RIFLE, HEAVY_PISTOL), ac=16, hp=22,
                  dex=1, attack=3, shoot=2),
        _operator("juno", "Juno", party, (13, 11), (LIGHT_PISTOL,), ac=13, hp=12, dex=1,
                  attack=1, shoot=1),
        _operator("sledge", "Sledge", party, (14, 10), (SHOTGUN, MONOBLADE), ac=17, hp=26,
                  dex=0, attack=3, shoot=1, stab=2),
        _operator("harlan", "Security chief Harlan", enemy, (17, 13), (SMG, STUN_BATON), ac=16,
                  hp=20, dex=1, attack=3, shoot=2, punch=1, disciplined=True),
        _operator("guard-1", "Corp guard", enemy, (14, 14), (HEAVY_PISTOL, STUN_BATON), ac=14,
                  hp=9, dex=0, attack=1, shoot=1, punch=1, disciplined=True),
        _operator("guard-2", "Corp guard", enemy, (21, 11), (SMG,), ac=14, hp=9, dex=0,
                  attack=1, shoot=1, disciplined=True),
        _operator("guard-3", "Corp guard", enemy, (8, 12), (SMG,), ac=14, hp=9, dex=0,
                  attack=1, shoot=1, disciplined=True),
        _operator("guard-4", "Corp guard", enemy, (20, 15), (SHOTGUN,), ac=14, hp=9, dex=0,
                  attack=1, shoot=1, disciplined=True),
        _operator("decker", "Corp decker", enemy, (7, 2), (LIGHT_PISTOL,), ac=12, hp=7, dex=1,
                  attack=0, shoot=0),
        _operator("merriweather", "Executive Merriweather", Side.NEUTRAL, (23, 2), (), ac=10,
                  hp=4, dex=0, attack=0, shoot=0),
    )
    state = EncounterState(
        name="Corporate office extraction", system=SYSTEM, scale=get_system(SYSTEM).scale,
        battlemap=battlemap,
        tokens=tokens,
        description=(
            "Floor 41 of Halvorsen Dynamics, after hours. The crew (Static, Vale, Juno and "
            "Sledge) steps out of the elevators "
            "to pull Executive Merriweather out of the glass corner office. Security chief "
            "Harlan and four guards hold the floor; a corp decker works in the conference "
            "room. Glass partitions stop movement but not sight; desks and cubicle "
            "partitions give cover; the server room is locked. Squares are 1.5 m."
        ),
    )
    look = Look(
        floors=(
            Floor("night_city", rect_area(0, 0, WIDTH, HEIGHT)),
            Floor("carpet", rect_area(1, 1, 27, 19)),
            Floor("wood", rect_area(19, 1, 27, 7)),
            Floor("tile", rect_area(10, 12, 18, 15)),
            Floor("tile", rect_area(1, 14, 6, 19)),
            Floor("tile", rect_area(21, 13, 27, 19)),
            Floor("concrete", rect_area(11, 7, 17, 12)),
        ),
        decals=(
            *_chairs(2, 9, 3), *_chairs(8, 16, 3), *_chairs(20, 9, 3),
            *(Decal("chair", ((x, 2.85),), width=-90) for x in (3.0, 4.2, 5.4, 6.6)),
            *(Decal("chair", ((x, 5.15),), width=90) for x in (3.0, 4.2, 5.4, 6.6)),
            Decal("chair", ((23.5, 2.6),), width=90),
            Decal("chair", ((14.0, 14.5),), width=-90),
            Decal("rug", ((20.2, 2.2), (26.6, 5.6)), (120, 40, 40)),
        ),
        wall_style="concrete",
        wall_zones=((20.9, 12.9, 21.1, 19.1, "drywall"), (20.9, 12.9, 26.9, 13.1, "drywall"),
                    (1.1, 13.9, 6.1, 14.1, "drywall"), (5.9, 13.9, 6.1, 18.9, "drywall")),
        terrain_looks={"Stairwell stairs": "stairs", "Elevator shafts": "shaft"},
        seed=20_303,
    )
    return Scene(SLUG, state, look)
