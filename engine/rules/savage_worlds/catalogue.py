"""The Savage Worlds action catalogue, as data. Summaries are in our own words.

``time`` is what the action takes out of a turn: "action" (one of up to three actions,
each extra one costing -2 to every Trait roll that turn), "turn" (the whole turn),
"movement" (inches of Pace), or "free".
"""

from __future__ import annotations

from engine.rules.base import ActionSpec, Need, helping

ACTION = "action"
WHOLE_TURN = "turn"
MOVEMENT = "movement"
FREE = "free"

ATTACK = "attack"
MANEUVER = "maneuver"
MOVE = "movement"
INITIATIVE = "initiative"

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("move", "Move", MOVE, MOVEMENT,
               "Walk up to Pace in inches (every diagonal counts 1). Add option run=true to "
               "roll the running die for extra inches, at -2 to actions this turn.",
               needs=(Need.PATH,)),
    ActionSpec("fighting", "Fighting Attack", ATTACK, ACTION,
               "Melee attack: Fighting against the foe's Parry; a hit rolls damage against "
               "Toughness, a raise adds a d6.", needs=(Need.TARGET, Need.WEAPON)),
    ActionSpec("shooting", "Shooting Attack", ATTACK, ACTION,
               "Ranged attack: Shooting against 4 (with range, cover and other penalties); a "
               "hit rolls damage against Toughness, a raise adds a d6.",
               needs=(Need.TARGET, Need.WEAPON)),
    ActionSpec("aim", "Aim", MANEUVER, WHOLE_TURN,
               "Spend the whole turn still, sighting one target: next turn's first shot ignores "
               "up to 4 points of penalties, or takes +2.", needs=(Need.TARGET, Need.WEAPON)),
    ActionSpec("called_shot", "Called Shot", ATTACK, ACTION,
               "Attack one spot: hand -4 (may disarm), head or vitals -4 (+4 damage), limb -2, "
               "an item or gap in armour at its own Scale.", needs=(Need.TARGET, Need.WEAPON)),
    ActionSpec("defend", "Defend", MANEUVER, WHOLE_TURN,
               "Give the whole turn to defence: +4 Parry until the next turn begins; moving is "
               "fine, running is not."),
    ActionSpec("desperate_attack", "Desperate Attack", ATTACK, ACTION,
               "Melee attack trading 2 or 4 points of damage for the same bonus to Fighting. "
               "Not with a Wild Attack.", needs=(Need.TARGET, Need.WEAPON)),
    ActionSpec("disarm", "Disarm", ATTACK, ACTION,
               "Attack a hand or limb (or the weapon itself) to make the foe drop it: a Strength "
               "roll decides whether it stays in hand.", needs=(Need.TARGET, Need.WEAPON)),
    ActionSpec("finishing_move", "Finishing Move", ATTACK, ACTION,
               "Kill a helpless foe with a lethal weapon, up close.",
               needs=(Need.TARGET, Need.WEAPON)),
    ActionSpec("grapple", "Grapple", MANEUVER, ACTION,
               "Opposed Athletics: a win Entangles the foe, a raise (or a win on an Entangled "
               "foe) Binds. The Scale gap comes off the grappler's roll.",
               needs=(Need.TARGET,)),
    ActionSpec("crush", "Crush", ATTACK, ACTION,
               "Squeeze a foe you hold: a Strength roll as damage (Scale ignored).",
               needs=(Need.TARGET,)),
    ActionSpec("break_free", "Break Free", MANEUVER, ACTION,
               "An Entangled or Bound character struggles: a success loosens the hold one step, "
               "a raise throws it off."),
    ActionSpec("push", "Push", MANEUVER, ACTION,
               "Opposed Strength (or Athletics): shove the foe up to 1\" (2\" on a raise, doubled "
               "if bigger; the pusher picks how far); it rolls Athletics or falls prone. +2 "
               "after a 2\" run.",
               needs=(Need.TARGET,)),
    ActionSpec("support", "Support", MANEUVER, ACTION,
               "Help an ally's roll of any Trait: +1, or +2 with a raise (all Support at most "
               "+4, except for Strength); a critical failure costs the ally 2. Spent by that "
               "roll, gone at the end of the ally's turn.",
               needs=(Need.TARGET,)),
    ActionSpec("suppressive_fire", "Suppressive Fire", ATTACK, ACTION,
               "Spray a Medium Blast: one Shooting roll; each target under it is Distracted on "
               "a success and hit on a raise, at most Rate of Fire hits (the shooter picks "
               "whom). Triple ammunition.",
               needs=(Need.SQUARE, Need.WEAPON)),
    ActionSpec("area_attack", "Area Effect Attack", ATTACK, ACTION,
               "Throw a grenade or fire a launcher or flamethrower at a square (a blast at one "
               "in sight): one roll "
               "(Athletics thrown, else Shooting) against 4; everyone under its Blast or Cone "
               "Template is hit, each rolling damage (a raise adds a d6). A missed blast "
               "deviates (1d6\" thrown, 2d6\" launched, times the range band, at most half "
               "the way); a missed cone does nothing. Cover from the centre counts as Armor.",
               needs=(Need.SQUARE, Need.WEAPON)),
    ActionSpec("test", "Test", MANEUVER, ACTION,
               "Rattle a foe with a skill against its linked attribute: a win leaves it "
               "Distracted or Vulnerable, a raise Shakes it too (or, as the GM allows, knocks "
               "it prone). Extra skill dice (a fast-firing weapon) are all rolled, and only "
               "the best one counts; the GM sets the modifiers.",
               needs=(Need.TARGET,)),
    ActionSpec("touch_attack", "Touch Attack", ATTACK, ACTION,
               "A touch only: +2 to Fighting.", needs=(Need.TARGET,)),
    ActionSpec("wild_attack", "Wild Attack", ATTACK, ACTION,
               "All-out melee: +2 to Fighting and damage this turn, then Vulnerable until the "
               "end of the next turn.", needs=(Need.TARGET, Need.WEAPON)),
    ActionSpec("hold", "Go on Hold", INITIATIVE, FREE,
               "Wait: act later this round or a later one; no card is dealt while holding. "
               "Shaken or Stunned ends it."),
    ActionSpec("act_from_hold", "Act from Hold", INITIATIVE, FREE,
               "Take the held turn now; cutting into someone's action needs a win on opposed "
               "Athletics (a Joker needs no roll)."),
    ActionSpec("soak", "Soak", MANEUVER, FREE,
               "Right after a hit, spend a Benny and roll Vigor: a success takes back one of "
               "its Wounds, each raise one more; all of them taken back lifts its Shaken too. "
               "At any time, even out of the fight the hit put him out of."),
    ActionSpec("reroll", "Reroll (Benny)", MANEUVER, FREE,
               "Right after a missed attack, a failed Vigor roll against Incapacitation or "
               "while Bleeding Out, or a failed Healing roll to stabilise: spend a Benny and "
               "roll it again; the better roll counts. No Benny rerolls a critical failure."),
    ActionSpec("stabilise", "Stabilise", MANEUVER, ACTION,
               "Stop the bleeding of someone beside who is Bleeding Out: Healing less the "
               "patient's Wound penalty; a success stabilises (still Incapacitated).",
               needs=(Need.TARGET,)),
    ActionSpec("stand_up", "Stand Up", MOVE, MOVEMENT, "Get up from prone for 2\" of Pace."),
    ActionSpec("go_prone", "Drop Prone", MOVE, FREE, "Hit the dirt."),
)
#: Aimed at a friend, to help: a token menu lists them first on an ally.
ACTIONS = helping(ACTIONS, frozenset({"support", "stabilise"}))


def action_spec(key: str) -> ActionSpec:
    for spec in ACTIONS:
        if spec.key == key:
            return spec
    raise KeyError(f"Savage Worlds has no action {key!r}")
