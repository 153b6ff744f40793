"""The d20 firearms stat block, as the contract declares it (each action's options: options.py).
Every stat the rules read is here with the default they use when a token has none.
"""

from __future__ import annotations

from engine.rules.base import StatBlock, StatSpec


def _bonus(name: str, label: str, help_text: str) -> StatSpec:
    return StatSpec(name, int, 0, -20, 60, label=label, help=help_text)


#: Read by the rules as ``STATS.number(token, "name")`` and the like (never ``token.stats``).
STATS = StatBlock("d20 Modern Firearms", (
    _bonus("initiative", "Init", "Initiative bonus (1d20 + this)."),
    StatSpec("defense", int, 10, 0, 60, label="Def", help="Defense."),
    StatSpec("flat_footed_defense", int, 10, 0, 60, label="Flat Def",
             help="Defense when flat-footed."),
    _bonus("ranged_attack", "Ranged", "Ranged attack bonus."),
    _bonus("melee_attack", "Melee", "Melee attack bonus."),
    _bonus("bab", "BAB", "Base attack bonus."),
    *(_bonus(name, name.split("_")[0].title(), "Ability modifier.")
      for name in ("str_mod", "dex_mod", "con_mod", "int_mod", "wis_mod", "cha_mod")),
    StatSpec("str_score", int, 10, 1, 60, label="Str score",
             help="Strength score (what a weapon's Strength need is measured against)."),
    StatSpec("con_score", int, None, 1, 60, label="Con score",
             help="Constitution score: one hit of this much damage or more calls for a "
             "Fortitude save (DC 15) against massive damage. Blank: 10 + 2 x Con modifier."),
    _bonus("perception", "Perc", "Perception bonus (Locate Enemies)."),
    *(_bonus(name, name.title(), "Saving throw bonus.")
      for name in ("fortitude", "reflex", "will")),
    StatSpec("hp", int, 10, -1000, 1000, label="HP", help="Hit points left."),
    StatSpec("max_hp", int, 10, 0, 1000, label="Max HP", help="Full hit points."),
    StatSpec("advanced_firearms", bool, False, label="Adv. Firearms",
             help="Has Advanced Firearms Proficiency (Suppressive Fire)."),
    StatSpec("quick_recon", bool, False, label="Quick Recon",
             help="Has Quick Recon (locating enemies is free)."),
    _bonus("treat_injury", "Treat Inj.", "Treat Injury skill bonus (first aid to stabilise)."),
    StatSpec("medical_kit", bool, False, label="Medical kit",
             help="Carries a medical kit (Treat Injury without one is at -4)."),
    StatSpec("reach", int, 1, 1, 10, label="Reach",
             help="Melee reach in squares (melee attacks and the Charge)."),
))
