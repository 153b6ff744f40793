"""Savage Worlds: a gang ambush on a rain-slick street at night, one inch per square.

Three detectives and their informant meet Razor's crew outside the Blue Lantern bar.
Parked cars and the gang's car, slewed across the road, are the cover; the alley beside
the bar leads off the map; streetlamps and the bar's windows are the only light.
"""

from __future__ import annotations

from engine.battlemap import Background, BattleMap, CoverGrade, Light, PortalState
from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules import get_system
from engine.tokens import Side, Token, Weapon
from maps.layout import block, box, door, polyline, walls_around, window
from maps.painting import PPS, Decal, Floor, Look, Scene, rect_area

SLUG = "night_street"
SYSTEM = "savage-worlds"
WIDTH, HEIGHT = 30, 22
PACE = 6.0  # inches

# Ranges are Short range in inches (Medium and Long are 2x and 4x, see traits).
GLOCK = Weapon("Glock 17", damage="2d6", range_increment=12, ammo=17, capacity=17,
               rate_of_fire=1, traits=("Range 12/24/48", "AP 1", "semi-auto"))
SHOTGUN = Weapon("Pump shotgun", damage="3d6", range_increment=12, ammo=6, capacity=6,
                 rate_of_fire=1, two_handed=True,
                 traits=("Range 12/24/48", "shotgun: 3d6 short, 2d6 medium, 1d6 long",
                         "+2 Shooting"))
CARBINE = Weapon("M4 carbine", damage="2d8", range_increment=24, ammo=30, capacity=30,
                 rate_of_fire=3, two_handed=True,
                 traits=("Range 24/48/96", "AP 2", "Min Str d6"))
REVOLVER = Weapon(".38 revolver", damage="2d6", range_increment=12, ammo=6, capacity=6,
                  rate_of_fire=1, traits=("Range 12/24/48", "revolver"))
UZI = Weapon("Uzi", damage="2d6", range_increment=12, ammo=32, capacity=32, rate_of_fire=3,
             traits=("Range 12/24/48", "AP 1"))
SAWN_OFF = Weapon("Sawn-off shotgun", damage="3d6", range_increment=5, ammo=2, capacity=2,
                  rate_of_fire=1, traits=("Range 5/10/20", "shotgun: 3d6 short, 2d6 medium, "
                                          "1d6 long", "+2 Shooting", "both barrels: RoF 2"))
AK = Weapon("AK-47", damage="2d8+1", range_increment=24, ammo=30, capacity=30, rate_of_fire=3,
            two_handed=True, traits=("Range 24/48/96", "AP 2", "Min Str d6"))
KNIFE = Weapon("Switchblade", damage="1d4", melee=True, traits=("Str+d4",))
# Thrown with Athletics; the Medium Blast Template is what the area attack lays down.
FRAG = Weapon("Frag grenade", damage="3d6", range_increment=5, ammo=2, capacity=2,
              rate_of_fire=1, traits=("Range 5/10/20", "Medium Blast", "thrown"))


def _fighter(token_id: str, name: str, side: Side, square: tuple[int, int],
             weapons: tuple[Weapon, ...], *, wild_card: bool, agility: int = 6,
             shooting: int = 6, fighting: int = 6, vigor: int = 6, armor: int = 0,
             notice: int = 6, spirit: int = 6) -> Token:
    """A Savage Worlds stat block: dice as sizes (8 = d8), Parry and Toughness derived."""
    stats: dict[str, int | str | bool] = {
        "agility": agility, "smarts": 6, "spirit": spirit, "strength": 6, "vigor": vigor,
        "fighting": fighting, "shooting": shooting, "athletics": 6, "notice": notice,
        "stealth": 4, "intimidation": 6,
        "parry": 2 + fighting // 2, "toughness": 2 + vigor // 2 + armor, "armor": armor,
        "wounds": 0, "max_wounds": 3 if wild_card else 0, "wild_card": wild_card,
        "bennies": 3 if wild_card and side is Side.PARTY else (2 if wild_card else 0),
    }
    return Token(token_id, name, side, Square(*square), speed=PACE, weapons=weapons,
                 stats=stats)


def build() -> Scene:
    portals = (
        door("door-bar", (5, 7), (6, 7)),
        door("door-bar-alley", (12, 3), (12, 4)),
        window("window-bar-1", (1, 7), (4, 7)),
        window("window-bar-2", (7, 7), (11, 7)),
        door("door-pawnshop", (21, 7), (22, 7), PortalState.LOCKED),
        door("door-laundromat", (4, 17), (5, 17), PortalState.LOCKED),
        window("window-laundromat", (6, 17), (9, 17)),
        door("door-apartments", (24, 17), (25, 17)),
    )
    walls = (
        # the Blue Lantern bar: back wall, alley wall, front with door and windows
        *walls_around(polyline([(0, 1), (12, 1), (12, 7), (0, 7)]), portals),
        # the pawn shop and the buildings across the road (their roofs are not walkable)
        *walls_around(polyline([(15, 0), (15, 7), (30, 7)]), portals),
        *walls_around(polyline([(0, 17), (10, 17), (10, 22)]), portals),
        *walls_around(polyline([(20, 22), (20, 17), (30, 17)]), portals),
    )
    car = {"grade": CoverGrade.HALF, "height_ft": 4.5}
    cover = (
        box("car-1", "Parked sedan", (4.0, 9.6), (2.5, 1.0), **car),  # type: ignore[arg-type]
        box("car-2", "Parked coupe", (17.5, 9.6), (2.5, 1.0), **car),  # type: ignore[arg-type]
        box("pickup-1", "Parked pickup", (8.0, 14.4), (2.8, 1.1), angle=180.0,
            **car),  # type: ignore[arg-type]
        box("car-3", "Parked hatchback", (21.0, 14.4), (2.4, 1.0), angle=180.0,
            **car),  # type: ignore[arg-type]
        box("car-4", "Razor's car", (23.5, 11.8), (2.6, 1.05), angle=-20.0,
            **car),  # type: ignore[arg-type]
        box("car-5", "Car in the lot", (12.5, 19.6), (2.5, 1.0), angle=90.0,
            **car),  # type: ignore[arg-type]
        box("car-6", "Car in the lot", (16.5, 19.6), (2.5, 1.0), angle=-90.0,
            **car),  # type: ignore[arg-type]
        box("dumpster-1", "Dumpster", (14.3, 2.0), (1.2, 0.8), angle=90.0),
        box("bins-1", "Trash cans", (12.6, 5.4), (1.2, 0.6), angle=90.0,
            grade=CoverGrade.LIGHT, height_ft=3.0),
        box("streettree-1", "Street tree", (9.5, 8.0), (0.8, 0.8), grade=CoverGrade.LIGHT,
            height_ft=12.0),
        box("streettree-2", "Street tree", (25.5, 8.0), (0.8, 0.8), grade=CoverGrade.LIGHT,
            height_ft=12.0),
        box("streettree-3", "Street tree", (17.5, 16.0), (0.8, 0.8), grade=CoverGrade.LIGHT,
            height_ft=12.0),
        block("bar-1", "Bar counter", 2, 2, 9, 3, grade=CoverGrade.HALF, height_ft=3.5),
        box("pubtable-1", "Table", (3.5, 5.0), (1.0, 1.0), grade=CoverGrade.LIGHT,
            height_ft=2.5),
        box("pubtable-2", "Table", (6.5, 5.0), (1.0, 1.0), grade=CoverGrade.LIGHT,
            height_ft=2.5),
        box("pooltable-1", "Pool table", (10.0, 4.5), (1.6, 0.9), angle=90.0,
            grade=CoverGrade.HALF, height_ft=2.8),
    )
    sodium = "#ffbe6eff"
    lamp_posts = [(3.0, 7.55), (11.0, 7.55), (19.0, 7.55), (27.0, 7.55),
                  (7.0, 16.45), (15.0, 16.45), (23.0, 16.45)]
    lights = (
        *(Light(p, range=5.5, colour=sodium, intensity=0.95) for p in lamp_posts),
        Light((6.0, 4.5), range=6.5, colour="#ffb070ff", intensity=0.8),
        Light((5.5, 7.4), range=2.8, colour="#4aa8ffff", intensity=0.9),
        Light((13.5, 1.2), range=3.0, colour="#c8e0ffff", intensity=0.6),
    )
    battlemap = BattleMap(
        WIDTH, HEIGHT, walls=walls, portals=portals, cover=cover, lights=lights,
        background=Background(image=f"images/{SLUG}.png", pixels_per_square=PPS),
    )
    party, enemy = Side.PARTY, Side.ENEMY
    tokens = (
        _fighter("vega", "Det. Rosa Vega", party, (5, 15), (GLOCK,), wild_card=True,
                 agility=8, shooting=8, notice=8, spirit=8, armor=2),
        _fighter("okoye", "Det. Sam Okoye", party, (7, 16), (SHOTGUN, GLOCK), wild_card=True,
                 fighting=8, vigor=8, armor=2),
        _fighter("pike", "Officer Pike", party, (3, 16), (CARBINE, GLOCK, FRAG), wild_card=True,
                 shooting=8, armor=2),
        _fighter("jimmy", "Jimmy Two-Bits", Side.ALLY, (1, 15), (REVOLVER,), wild_card=False,
                 shooting=4, notice=8),
        _fighter("razor", "Razor", enemy, (5, 8), (SAWN_OFF, KNIFE), wild_card=True,
                 agility=8, fighting=8, shooting=8, vigor=8),
        _fighter("mags", "Mags", enemy, (13, 6), (UZI,), wild_card=False, shooting=8),
        _fighter("thug-1", "Razor crew gunman", enemy, (24, 13), (AK,), wild_card=False),
        _fighter("thug-2", "Razor crew gunman", enemy, (18, 8), (UZI,), wild_card=False),
        _fighter("thug-3", "Razor crew heavy", enemy, (10, 6), (SHOTGUN, FRAG), wild_card=False,
                 vigor=8),
        _fighter("thug-4", "Razor crew lookout", enemy, (14, 7), (REVOLVER, KNIFE),
                 wild_card=False),
        _fighter("bartender", "Lou the bartender", Side.NEUTRAL, (5, 1), (), wild_card=False),
        _fighter("bystander", "Tess, night-shift nurse", Side.NEUTRAL, (18, 16), (),
                 wild_card=False),
    )
    state = EncounterState(
        name="Night street ambush", system=SYSTEM, scale=get_system(SYSTEM).scale,
        battlemap=battlemap,
        tokens=tokens,
        description=(
            "Midnight outside the Blue Lantern. Detectives Vega and Okoye, Officer Pike and "
            "their informant Jimmy came to meet a witness; Razor's crew came instead. Razor "
            "steps out of the bar, his gunmen spread along the street and the alley, and "
            "their car sits slewed across the road. Parked cars give cover; the streetlamps "
            "and the bar windows are the only light. One square is one inch (two yards)."
        ),
    )
    white, yellow = (222, 222, 212), (214, 176, 40)
    stalls = tuple(
        Decal("line", ((x, 17.2), (x, 21.8)), white, 0.06) for x in (11.0, 14.0, 15.0, 18.0)
    )
    look = Look(
        floors=(
            Floor("roof", rect_area(0, 0, WIDTH, HEIGHT)),
            Floor("asphalt", rect_area(0, 9, WIDTH, 15)),
            Floor("sidewalk", rect_area(0, 7, WIDTH, 9)),
            Floor("sidewalk", rect_area(0, 15, WIDTH, 17)),
            Floor("asphalt", rect_area(12, 0, 15, 7)),
            Floor("asphalt", rect_area(10, 17, 20, 22)),
            Floor("wood", rect_area(0, 1, 12, 7)),
        ),
        decals=(
            Decal("dashed", ((0.3, 12.0), (29.7, 12.0)), yellow, 0.08),
            Decal("line", ((0, 9.05), (WIDTH, 9.05)), (110, 108, 104), 0.1),
            Decal("line", ((0, 14.95), (WIDTH, 14.95)), (110, 108, 104), 0.1),
            Decal("zebra", ((26.2, 9.3), (28.2, 14.7)), white),
            *stalls,
            Decal("stain", ((13.2, 4.0),), (30, 40, 60), 0.5),
            Decal("stain", ((19.0, 12.8),), (30, 40, 60), 0.7),
            Decal("stain", ((8.5, 11.0),), (30, 40, 60), 0.55),
            Decal("stain", ((2.0, 19.6),), (40, 40, 44), 0.8),
            Decal("rug", ((0.3, 1.1), (11.7, 1.9)), (60, 40, 30)),
            # roof furniture, so the roofs read as roofs: air-conditioning units, skylights
            Decal("rug", ((18.0, 1.5), (19.6, 2.7)), (150, 152, 156)),
            Decal("rug", ((24.0, 2.5), (25.2, 3.5)), (150, 152, 156)),
            Decal("rug", ((21.0, 3.8), (23.0, 5.2)), (86, 104, 124)),
            Decal("rug", ((3.0, 19.0), (4.6, 20.2)), (150, 152, 156)),
            Decal("rug", ((6.5, 19.5), (8.5, 21.0)), (86, 104, 124)),
            Decal("rug", ((23.0, 19.0), (26.0, 20.4)), (86, 104, 124)),
            Decal("rug", ((27.5, 20.0), (28.7, 21.0)), (150, 152, 156)),
            *(Decal("lamp", (p,)) for p in lamp_posts),
        ),
        wall_style="brick",
        barrier_style="chainlink",
        ambient=0.42,
        seed=20_202,
    )
    return Scene(SLUG, state, look)
