"""The Savage Worlds stat block, as the contract declares it (each action's options: options.py).

Traits are die sizes (4 for a d4 ... 12 for a d12); a skill of 0 is untrained (it rolls
d4-2). Every stat the rules read is here with the default they use when a token has none.
"""

from __future__ import annotations

from engine.rules.base import Notation, StatBlock, StatSpec

ATTRIBUTES = ("agility", "smarts", "spirit", "strength", "vigor")
#: Skills the rules roll (a skill a token lacks is untrained).
SKILLS = ("fighting", "shooting", "athletics", "taunt", "intimidation", "notice", "persuasion",
          "stealth", "healing", "thievery", "battle")


def _label(name: str) -> str:
    return name.replace("_", " ").title()


#: Read by the rules as ``STATS.number(token, "name")`` and the like (never ``token.stats``).
STATS = StatBlock("Savage Worlds Adventure Edition", (
    *(StatSpec(name, int, 6, 4, 12, label=_label(name), notation=Notation.DIE,
               help="Attribute die, d4 to d12 (kept as its sides: 8 is a d8).")
      for name in ATTRIBUTES),
    *(StatSpec(name, int, 0, 0, 12, label=_label(name), notation=Notation.DIE,
               help="Skill die, d4 to d12 (kept as its sides); untrained (0) rolls d4-2.")
      for name in SKILLS),
    StatSpec("parry", int, None, 0, 30, label="Parry",
             help="Parry; without it 2 + half the Fighting die."),
    StatSpec("toughness", int, 5, 1, 40, label="Tough", help="Toughness without Armor."),
    StatSpec("armor", int, 0, 0, 30, label="Armor", help="Armor added to Toughness."),
    StatSpec("shield_parry", int, 0, 0, 6, label="Shield", help="Parry bonus of a shield."),
    StatSpec("wounds", int, 0, 0, 6, label="Wounds", help="Wounds taken."),
    StatSpec("max_wounds", int, None, 0, 6, label="Max wounds",
             help="Wound pips shown on the token; without it 3 for a Wild Card, none for an "
                  "Extra (the first Wound takes an Extra out)."),
    StatSpec("fatigue", int, None, 0, 2, label="Fatigue",
             help="Fatigue levels as an older file kept them: the token gets the Fatigued or "
                  "Exhausted condition when the file loads."),
    StatSpec("bennies", int, 0, 0, 20, label="Bennies", help="Bennies in hand."),
    StatSpec("wild_card", bool, None, label="Wild Card",
             help="A Wild Card (rolls a Wild Die); without it party tokens are, others not."),
    StatSpec("size", int, 0, -4, 20, label="Size", help="Size (0 is a person)."),
    StatSpec("scale", int, None, -3, 3, label="Scale",
             help="Scale rank (0 Normal, 1 Large, 2 Huge, 3 Gargantuan); without it 0, "
                  "or for a Push the footprint decides."),
    StatSpec("sw_size", int, None, -4, 20, label="Push size",
             help="Size for a Push; without it a typical Size for the Scale."),
))
