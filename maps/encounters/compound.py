"""The d20 firearms ruleset: a raid on a militia compound, 5-ft squares.

A four-man team comes in from the road and the scrub to free a journalist held in the
shed. The yard is ringed by a chain-link fence (it stops movement, not sight or bullets);
a shipping container and a stack of crates block sight; the vehicles, the sandbag
emplacement and the drums give cover; mud by the gate and the scrub are difficult terrain.
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
from maps.layout import block, box, door, rectangle, squares, walls_around, window
from maps.painting import PPS, Decal, Floor, Look, Scene, rect_area

SLUG = "compound"
SYSTEM = "d20-firearms"
WIDTH, HEIGHT = 32, 24

#: Fire modes as engine.rules.d20_firearms spells them.
SINGLE, SEMI, AUTO = "single", "semi-auto", "automatic"

M4 = Weapon("M4 carbine", damage="2d8", range_increment=80, ammo=30, capacity=30,
            modes=(SINGLE, SEMI, AUTO), two_handed=True,
            traits=("rifle", "recoil:2", "strength:11", "critical:20/x2"))
AK = Weapon("AKM", damage="2d8", range_increment=70, ammo=30, capacity=30,
            modes=(SINGLE, SEMI, AUTO), two_handed=True,
            traits=("rifle", "recoil:2", "strength:11", "critical:20/x2"))
MP5 = Weapon("MP5", damage="2d6", range_increment=50, ammo=30, capacity=30,
             modes=(SINGLE, SEMI, AUTO), two_handed=True,
             traits=("smg", "recoil:1", "strength:10", "critical:20/x2"))
SNIPER = Weapon("M24 sniper rifle", damage="2d10", range_increment=120, ammo=5, capacity=5,
                modes=(SINGLE,), two_handed=True,
                traits=("sniper rifle", "scope", "recoil:3", "strength:12", "critical:20/x3"))
PISTOL = Weapon("Glock 17", damage="2d6", range_increment=30, ammo=17, capacity=17,
                modes=(SINGLE, SEMI), traits=("pistol", "recoil:1", "strength:9",
                                              "critical:20/x2"))
SHOTGUN = Weapon("Pump shotgun", damage="2d8", range_increment=30, ammo=6, capacity=6,
                 modes=(SINGLE,), two_handed=True,
                 traits=("shotgun", "recoil:2", "strength:11", "critical:20/x2"))
MACHINE_GUN = Weapon("M60 machine gun", damage="2d8", range_increment=100, ammo=100,
                     capacity=100, modes=(AUTO,), two_handed=True,
                     traits=("machine gun", "recoil:3", "strength:14", "critical:20/x2"))
KNIFE = Weapon("Combat knife", damage="1d4", melee=True, traits=("critical:19-20/x2",))


def _fighter(token_id: str, name: str, side: Side, square: tuple[int, int],
             weapons: tuple[Weapon, ...], *, defense: int, hp: int, bab: int, dex: int,
             initiative: int, reflex: int, advanced: bool, int_mod: int = 0) -> Token:
    """A d20 modern stat block (Defense, hit points, BAB, saves, the firearm feats)."""
    stats: dict[str, int | str | bool] = {
        "initiative": initiative, "defense": defense, "flat_footed_defense": defense - dex,
        "hp": hp, "max_hp": hp, "bab": bab, "ranged_attack": bab + dex, "melee_attack": bab + 1,
        "dex_mod": dex, "str_mod": 1, "str_score": 13,
        "int_mod": int_mod, "fortitude": 3, "reflex": reflex, "will": 1,
        "perception": 4 + int_mod, "advanced_firearms": advanced,
        "quick_recon": False,
    }
    return Token(token_id, name, side, Square(*square), speed=30.0, weapons=weapons,
                 stats=stats)


def build() -> Scene:
    portals = (
        door("gate-1", (12, 20), (16, 20), PortalState.OPEN),
        door("gate-2", (28, 9), (28, 10)),
        door("door-shed", (7, 10), (8, 10)),
        window("window-shed-e", (11, 6), (11, 8)),
        window("window-shed-n", (6, 4), (8, 4)),
    )
    fence = walls_around(rectangle(2, 2, 28, 20), portals, blocks_sight=False)
    walls = (*fence, *walls_around(rectangle(4, 4, 11, 10), portals))
    vehicle = {"grade": CoverGrade.THREE_QUARTERS, "height_ft": 5.0}
    cover = (
        box("container-1", "Shipping container", (20.0, 5.0), (6.0, 2.0),
            grade=CoverGrade.TOTAL, height_ft=8.5, blocks_sight=True),
        block("stack-1", "Stacked crates", 14, 11, 16, 13, grade=CoverGrade.TOTAL,
              height_ft=9.0, blocks_sight=True),
        block("crate-1", "Ammo crates", 15, 8, 17, 9),
        block("crate-2", "Crate", 5, 8, 6, 9),
        block("crate-3", "Crate", 9, 5, 10, 6),
        block("bench-1", "Workbench", 4, 5, 5, 8, grade=CoverGrade.HALF, height_ft=3.0),
        box("pickup-1", "Technical (pickup)", (21.0, 11.0), (3.2, 1.5), angle=-15.0,
            **vehicle),  # type: ignore[arg-type]
        box("car-1", "Rusty sedan", (8.5, 15.5), (3.0, 1.4), angle=8.0,
            **vehicle),  # type: ignore[arg-type]
        box("van-1", "Box truck", (14.0, 17.2), (4.2, 1.8), grade=CoverGrade.THREE_QUARTERS,
            height_ft=10.0, blocks_sight=True),
        block("sandbags-1", "Sandbag wall", 22, 14, 26, 15, grade=CoverGrade.THREE_QUARTERS,
              height_ft=3.5),
        block("sandbags-2", "Sandbag wall", 22, 15, 23, 17, grade=CoverGrade.THREE_QUARTERS,
              height_ft=3.5),
        block("drums-1", "Fuel drums", 25, 3, 27, 5, grade=CoverGrade.HALF, height_ft=3.0),
        block("generator-1", "Generator", 12, 5, 14, 6, grade=CoverGrade.HALF, height_ft=3.5),
        box("tree-1", "Oak", (30.5, 3.5), (1.0, 1.0), grade=CoverGrade.HALF, height_ft=30.0),
        box("tree-2", "Oak", (29.5, 14.5), (1.0, 1.0), grade=CoverGrade.HALF, height_ft=30.0),
        box("tree-3", "Pine", (0.5, 20.5), (1.0, 1.0), grade=CoverGrade.HALF, height_ft=30.0),
    )
    terrain = (
        TerrainPatch("Mud", TerrainKind.DIFFICULT, squares(17, 17, 21, 20)),
        TerrainPatch("Scrub", TerrainKind.DIFFICULT,
                     squares(0, 4, 2, 18) | squares(2, 20, 8, 21)),
        TerrainPatch("Scrap pile", TerrainKind.IMPASSABLE, squares(3, 17, 5, 19)),
    )
    lights = (
        Light((11.2, 10.2), range=9.0, colour="#fff1d0ff", intensity=0.6),
        Light((23.0, 7.0), range=9.0, colour="#fff1d0ff", intensity=0.6),
    )
    battlemap = BattleMap(
        WIDTH, HEIGHT, walls=walls, portals=portals, terrain=terrain, cover=cover,
        lights=lights, background=Background(image=f"images/{SLUG}.png", pixels_per_square=PPS),
    )
    party, enemy = Side.PARTY, Side.ENEMY
    tokens = (
        _fighter("hollis", "Sgt. Hollis", party, (12, 22), (M4, PISTOL), defense=17, hp=38,
                 bab=5, dex=2, initiative=6, reflex=5, advanced=True, int_mod=1),
        _fighter("nash", "Cpl. Nash", party, (14, 22), (SHOTGUN, PISTOL), defense=16, hp=34,
                 bab=4, dex=1, initiative=5, reflex=4, advanced=False),
        _fighter("imani", "Doc Imani", party, (10, 22), (MP5, KNIFE), defense=15, hp=26,
                 bab=3, dex=2, initiative=6, reflex=5, advanced=True, int_mod=2),
        _fighter("ortega", "Spc. Ortega", party, (1, 3), (SNIPER, PISTOL), defense=16,
                 hp=28, bab=5, dex=3, initiative=7, reflex=6, advanced=True, int_mod=2),
        _fighter("boone", "Boone (militia leader)", enemy, (8, 11), (AK, PISTOL), defense=15,
                 hp=30, bab=4, dex=1, initiative=4, reflex=3, advanced=True, int_mod=1),
        _fighter("gunner", "Militia machine gunner", enemy, (23, 13), (MACHINE_GUN,),
                 defense=13, hp=18, bab=2, dex=0, initiative=1, reflex=1, advanced=True),
        _fighter("rifleman-1", "Militia rifleman", enemy, (18, 7), (AK,), defense=13, hp=16,
                 bab=2, dex=1, initiative=2, reflex=2, advanced=False),
        _fighter("rifleman-2", "Militia rifleman", enemy, (11, 19), (AK,), defense=13, hp=16,
                 bab=2, dex=1, initiative=2, reflex=2, advanced=False),
        _fighter("driver", "Militia driver", enemy, (17, 15), (MP5, KNIFE), defense=13,
                 hp=14, bab=1, dex=1, initiative=2, reflex=2, advanced=False),
        _fighter("journalist", "Captive journalist", Side.NEUTRAL, (5, 5), (), defense=10,
                 hp=8, bab=0, dex=0, initiative=0, reflex=0, advanced=False),
    )
    state = EncounterState(
        name="Militia compound raid", system=SYSTEM, scale=FIVE_FOOT, battlemap=battlemap,
        tokens=tokens,
        description=(
            "Dusk at a militia compound in the hills. Sergeant Hollis's team comes up the "
            "road to the open gate while Ortega covers the yard from the scrub with a "
            "sniper rifle. Boone's militia hold the shed, where a journalist is held, the "
            "sandbagged machine gun and the vehicles. The fence stops movement but not "
            "sight or fire; mud by the gate and the scrub are difficult terrain."
        ),
    )
    look = Look(
        floors=(
            Floor("grass", rect_area(0, 0, WIDTH, HEIGHT)),
            Floor("dirt", rect_area(0, 21, WIDTH, 24)),
            Floor("dirt", rect_area(12, 20, 16, 21)),
            Floor("gravel", rect_area(2, 2, 28, 20)),
            Floor("wood", rect_area(4, 4, 11, 10)),
        ),
        decals=(
            Decal("stain", ((20.0, 12.6),), (30, 26, 20), 0.6),
            Decal("stain", ((14.0, 15.0),), (30, 26, 20), 0.5),
            Decal("line", ((0.0, 22.5), (WIDTH, 22.5)), (140, 118, 88), 0.5),
            Decal("line", ((14.0, 20.0), (14.0, 22.5)), (140, 118, 88), 0.9),
            Decal("rug", ((6.0, 6.0), (8.6, 8.2)), (90, 80, 60)),
        ),
        wall_style="wood",
        barrier_style="chainlink",
        terrain_looks={"Mud": "mud", "Scrub": "brush", "Scrap pile": "rubble"},
        ambient=0.82,
        seed=20_404,
    )
    return Scene(SLUG, state, look)
