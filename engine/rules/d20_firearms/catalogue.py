"""The d20 firearms action catalogue, as data. Summaries are in our own words.

``time`` is what the action costs from the round's pool of attack-or-movement actions:
"free", "1 action", "2 actions", "3 actions" or "full round" (see ``budget.Cost``).
Aiming costs 2 actions with a sniper rifle; the system reads the weapon.
"""

from __future__ import annotations

from engine.rules.base import ActionSpec, Need, helping
from engine.rules.d20_firearms.economy import Cost

ATTACK = "attack"
SPECIAL = "special attack"
MOVE = "movement"
ITEM = "item"
SKILL = "skill"


def _spec(key: str, name: str, category: str, cost: Cost, summary: str, *needs: Need,
          modes: tuple[str, ...] = (), shots: str = "") -> ActionSpec:
    return ActionSpec(key, name, category, str(cost), summary, shots=shots, modes=modes,
                      needs=needs)


ACTIONS: tuple[ActionSpec, ...] = (
    _spec("move", "Move", MOVE, Cost.ONE,
          "Move up to your speed (half speed, in 5-ft steps, while Aiming).", Need.PATH),
    _spec("attack", "Attack", ATTACK, Cost.ONE,
          "One attack with the weapon in hand, at 1x its recoil (1 less when braced on cover).",
          Need.TARGET, Need.WEAPON, shots="1"),
    _spec("full_auto", "Full-Auto Fire", ATTACK, Cost.THREE,
          "Three attack actions in a row at 1x, 2x and 3x the weapon's recoil.",
          Need.TARGET, Need.WEAPON, modes=("automatic",), shots="3 per attack action"),
    _spec("aim", "Aiming", SPECIAL, Cost.ONE,
          "Sight down the barrel: +1 critical threat range, Perception +5 in a 60-ft cone and "
          "-5 outside it, half speed. Sniper rifles take 2 actions. Ends as a free action.",
          Need.WEAPON),
    _spec("stop_aiming", "Stop Aiming", SPECIAL, Cost.FREE, "Lower the sights."),
    _spec("overwatch", "Overwatch", SPECIAL, Cost.ONE,
          "While Aiming at an unaware target (or a square) in sight and in range: +1 threat "
          "range per action, up to 3x Intelligence; the shot must be the very next action.",
          Need.TARGET),
    _spec("covering_fire", "Covering Fire", SPECIAL, Cost.FULL_ROUND,
          "Spray a cone as long as the range increment: each foe inside can be hit once per "
          "attack action; after the first, they may save (Reflex 15) to dive for cover.",
          Need.SQUARE, Need.WEAPON, modes=("semi-auto", "automatic")),
    _spec("take_cover", "Take Cover", MOVE, Cost.FREE,
          "After saving against Covering Fire, dive to a square within half your speed, even "
          "out of turn (until your next turn).", Need.SQUARE),
    _spec("suppressive_fire", "Suppressive Fire", SPECIAL, Cost.ONE,
          "10 rounds into a 10x10-ft area (Defense 10, -4 without Advanced Firearms "
          "Proficiency): everyone inside takes -4 to Perception and attacks, saves or takes "
          "damage, and moves at half speed next turn.", Need.SQUARE, Need.WEAPON,
          modes=("semi-auto", "automatic"), shots="10"),
    _spec("blind_fire", "Blind-Fire", SPECIAL, Cost.ONE,
          "Shoot from behind heavy cover without looking, at tokens or at squares: 50% miss "
          "chance, half the shots hit empty squares unless the enemies were located; no cover "
          "or Aiming bonus.", Need.TARGETS, Need.SQUARE, Need.WEAPON),
    _spec("locate_enemies", "Locate Enemies", SPECIAL, Cost.ONE,
          "A Perception check to place the enemies before Blind-Fire (free with Quick Recon)."),
    _spec("charge", "Charge", ATTACK, Cost.FULL_ROUND,
          "Up to double speed in a clear straight line, then one melee attack at +2; -2 "
          "Defense until your next turn.", Need.TARGET, Need.WEAPON),
    _spec("coup_de_grace", "Coup de Grace", ATTACK, Cost.FULL_ROUND,
          "Finish a helpless (dying or stable) soldier: a melee weapon in reach, or a firearm "
          "from the next square. An automatic critical hit; if it lives, Fortitude DC 10 + the "
          "damage or it dies.", Need.TARGET, Need.WEAPON, shots="1"),
    _spec("treat_injury", "Treat Injury", SKILL, Cost.ONE,
          "First aid for a dying soldier beside you: Treat Injury against DC 15 (-4 without a "
          "medical kit) makes it stable; it may be tried again.", Need.TARGET),
    _spec("two_weapon_attack", "Two-Weapon Combat", ATTACK, Cost.ONE,
          "Fire a pistol or SMG in each hand, each at -8; each weapon needs 3 more Strength.",
          Need.TARGET, Need.WEAPON),
    _spec("draw_holster", "Draw or Holster", ITEM, Cost.ONE,
          "Draw a weapon kept in easy reach, or put it away.", Need.WEAPON),
    _spec("drop_item", "Drop an Item", ITEM, Cost.FREE,
          "Let an item fall into your square or the next one.", Need.WEAPON),
    _spec("reload", "Reload", ITEM, Cost.ONE,
          "Put a fresh magazine in (one action reloads both guns when wielding two).",
          Need.WEAPON),
)
#: Aimed at a friend, to help: a token menu lists them first on an ally.
ACTIONS = helping(ACTIONS, frozenset({"treat_injury"}))


def action_spec(key: str) -> ActionSpec:
    for spec in ACTIONS:
        if spec.key == key:
            return spec
    raise KeyError(f"the d20 firearms rules have no action {key!r}")
