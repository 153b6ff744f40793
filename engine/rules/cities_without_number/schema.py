"""The Cities Without Number stat block, as the contract declares it (the options of each
action: options.py). Every stat the rules read is here with the default they use when a
token has none.
"""

from __future__ import annotations

from engine.rules.base import StatBlock, StatSpec

ATTRIBUTE_MODIFIERS = ("str_mod", "dex_mod", "con_mod", "int_mod", "wis_mod", "cha_mod")
#: The skill list; a skill a token lacks is untrained (-1).
SKILLS = ("administer", "connect", "drive", "exert", "fix", "heal", "know", "lead", "notice",
          "perform", "program", "punch", "shoot", "sneak", "stab", "survive", "talk", "trade",
          "work")

#: Read by the rules as ``STATS.number(token, "name")`` and the like (never ``token.stats``).
#: In the order a GM fills a stat block in: hit points, Armor Class and attack first, then
#: the rest of the fight's numbers, the attribute modifiers, and the skills under their own
#: heading (a form folds them away: nineteen rows stood between the GM and the hit points).
STATS = StatBlock("Cities Without Number", (
    StatSpec("hp", int, 10, -1000, 1000, label="HP", help="Hit points left."),
    StatSpec("max_hp", int, 10, 0, 1000, label="Max HP", help="Full hit points."),
    StatSpec("ac_melee", int, 10, 0, 40, label="AC melee", help="Armor Class against melee."),
    StatSpec("ac_ranged", int, 10, 0, 40, label="AC ranged",
             help="Armor Class against ranged attacks."),
    StatSpec("attack_bonus", int, 0, -10, 20, label="Atk", help="Base attack bonus."),
    StatSpec("reach", int, 1, 1, 10, label="Reach",
             help="Melee reach in squares (melee attacks and the Charge)."),
    StatSpec("disciplined", bool, False, label="Disciplined",
             help="An NPC trained to make Snap Attacks."),
    StatSpec("cyber_armor", bool, False, label="Cyber armor",
             help="Integral cyber armour (a screen then blocks gunfire too)."),
    StatSpec("strain", int, 0, 0, 30, label="Strain",
             help="System Strain carried (shown on the token when the file gives it)."),
    StatSpec("max_strain", int, None, 0, 30, label="Max strain",
             help="Most System Strain he can carry (his Constitution score)."),
    *(StatSpec(name, int, 0, -3, 3, label=name.split("_")[0].title(),
               help="Attribute modifier.", group="Attribute modifiers")
      for name in ATTRIBUTE_MODIFIERS),
    *(StatSpec(name, int, -1, -1, 4, label=name.title(),
               help="Skill level; -1 is untrained.", group="Skills") for name in SKILLS),
))
