"""The Spycraft stat block, as the contract declares it (the options of each action: options.py).

Every stat the Spycraft rules read is here with the default they use when a token has none;
a token carrying any other stat, or a value of the wrong type or out of range, is refused
(see :class:`engine.rules.base.StatSpec`).
"""

from __future__ import annotations

from engine.rules.base import ListOf, Ref, StatBlock, StatSpec

#: Size categories from smallest to largest (Medium is a person).
SIZE_CATEGORIES = ("fine", "diminutive", "tiny", "small", "medium", "large", "huge",
                   "gargantuan", "colossal")
ARMOR = ("none", "partial", "moderate", "full")
ATTRIBUTES = ("str", "dex", "con", "int", "wis", "cha")
SKILLS = ("athletics", "acrobatics", "sleight_of_hand", "stealth", "bluff", "tactics",
          "notice", "sense_motive", "intimidate", "manipulate", "resolve", "resolve_wis",
          "resolve_con")
SAVES = ("fortitude", "reflex", "will")
#: Resolve checks keyed to Wisdom or Constitution: a token without them rolls its Resolve.
RESOLVE_KEYED = ("resolve_wis", "resolve_con")


def _bonus(name: str, label: str, help_text: str = "", default: int = 0) -> StatSpec:
    return StatSpec(name, int, default, -30, 60, label=label, help=help_text)


#: Read by the rules as ``STATS.number(token, "name")`` and the like (never ``token.stats``).
STATS = StatBlock("Spycraft 2.0", (
    _bonus("initiative", "Init", "Initiative bonus (1d20 + this)."),
    StatSpec("defense", int, 10, 0, 60, label="Def", help="Defense."),
    _bonus("ranged_attack", "Ranged", "Ranged attack bonus."),
    _bonus("melee_attack", "Melee", "Melee attack bonus."),
    _bonus("bab", "BAB", "Base attack bonus (the DC to Threaten or to read a Stand Off)."),
    StatSpec("vitality", int, 0, -100, 500, label="VP", help="Vitality points left."),
    StatSpec("max_vitality", int, 0, 0, 500, label="Max VP", help="Full vitality."),
    StatSpec("wounds", int, 0, -100, 200, label="WP", help="Wound points left."),
    StatSpec("max_wounds", int, 0, 0, 200, label="Max WP", help="Full wound points."),
    StatSpec("subdual", int, 0, 0, 500, label="Subdual", help="Subdual damage taken."),
    StatSpec("stress", int, 0, 0, 500, label="Stress", help="Stress damage taken."),
    StatSpec("stress_threshold", int, 0, 0, 100, label="Stress thr.",
             help="Stress damage that forces a Will save."),
    StatSpec("damage", int, 0, 0, 500, label="Damage",
             help="Damage taken by a standard character (Refresh heals it)."),
    # "mod" in the label: the stat form also asks for the Strength score, and a GM typed
    # 14 into "Dex" for a +2 Dexterity.
    *(_bonus(name, f"{name.title()} mod", f"{name.title()} modifier.") for name in ATTRIBUTES),
    StatSpec("str_score", int, 10, 1, 60, label="Str score", help="Strength score (recoil)."),
    *(_bonus(name, name.replace("_", " ").title(), "Skill check bonus.")
      for name in SKILLS if name not in RESOLVE_KEYED),
    *(StatSpec(name, int, None, -30, 60, label=name.replace("_", " ").title(),
               help="Resolve keyed to another attribute; without it, Resolve.")
      for name in RESOLVE_KEYED),
    *(_bonus(name, name.title(), "Saving throw bonus.") for name in SAVES),
    StatSpec("dr", int, 0, 0, 30, label="DR", help="Damage reduction from armour."),
    StatSpec("armor", str, "none", label="Armor", help="Armour worn (full armour slows a Run).",
             choices=ARMOR),
    StatSpec("full_armor", bool, False, label="Full armor",
             help="Wears full armour (a Run covers less ground)."),
    StatSpec("helmet", bool, False, label="Helmet", help="Wears a helmet."),
    StatSpec("size_category", str, None, label="Size", choices=SIZE_CATEGORIES,
             help="Size category; without it the footprint decides (1 square: Medium)."),
    StatSpec("reach", int, 1, 1, 10, label="Reach", help="Melee reach in squares."),
    StatSpec("cqb_range", int, 10, 0, 1000, label="CQB ft",
             help="Close-quarters range in feet."),
    StatSpec("sight_range", int, 0, 0, 10000, label="Sight ft",
             help="How far he sees at the fight's location (surprise checks)."),
    StatSpec("not_proficient", ListOf(Ref.TEXT), (), label="Not proficient",
             help="The action keys and weapon names he is not proficient with."),
    StatSpec("special", bool, True, label="Special",
             help="A special character (NPCs: false makes him a standard character)."),
    StatSpec("deliberate", bool, False, label="Deliberate",
             help="Enters combat deliberately (not flat-footed)."),
    StatSpec("action_die", str, "1d4", label="Action die",
             help="The Action Die's size (Refresh heals by it; a boosted Initiative adds it)."),
    StatSpec("action_dice", int, 3, 0, 99, label="Action Dice",
             help="Action Dice left in his pool (the GM sets the pool)."),
    StatSpec("max_action_dice", int, None, 0, 99, label="Pool size",
             help="The size of his Action Dice pool, for the pips on his token."),
    StatSpec("refresh_heals", str, "vitality", label="Refresh heals",
             choices=("vitality", "wounds"), help="What a Refresh heals."),
    StatSpec("unarmed_damage", str, "1d4", label="Unarmed", help="Unarmed damage dice."),
    StatSpec("reloads", int, None, 0, 100, label="Reloads",
             help="Spare magazines; without it reloads are not counted."),
))
