"""What conditions do to attack checks and Defense, read from ``condition_effects.json``.

The two Spycraft texts we have name the conditions (flat-footed, sprawled, prone,
crouched, reeling) but point at a conditions page that is not among them, so the numbers
in the table follow the usual d20 conventions and a table may edit them:

- flat-footed: no positive Dexterity modifier and no dodge bonuses in Defense. (He may
  not make attacks of opportunity either; no Spycraft action here makes one, so the table
  does not say so.)
- sprawled and prone (lying down): -4 to his own melee attacks; +4 Defense against ranged
  attacks, -4 Defense against melee attacks. Getting up is Stand Up, a half action.
- crouched ("a smaller target"): +2 Defense against ranged attacks, like light cover.
- reeling (sent there by a count of 0 or less, or a failed Bull Rush): -2 to attack
  checks and -2 to Defense, our choice for being off balance.

Attack and Defense numbers ask :func:`attack_effects` and :func:`defense_effects`, once,
in ``attack_math``; each applied effect comes back as a named Modifier for previews.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from engine.rules.base import Modifier
from engine.tokens import Token

WHO = ("attacker", "target")
ROLLS = ("attack", "defense")
AGAINST = ("any", "melee", "ranged")


@dataclass(frozen=True, slots=True)
class Effect:
    """One row of the table: a condition's number on one roll."""

    condition: str
    label: str
    who: str
    roll: str
    against: str = "any"
    value: int = 0
    lose_dex_bonus: bool = False
    lose_dodge: bool = False

    def applies(self, melee: bool) -> bool:
        return self.against == "any" or self.against == ("melee" if melee else "ranged")


@dataclass(frozen=True, slots=True)
class EffectTable:
    effects: tuple[Effect, ...]


def _effect(raw: Any, where: str) -> Effect:
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: each effect must be an object")
    unknown = set(raw) - set(Effect.__slots__)
    if unknown:
        raise ValueError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
    for key in ("condition", "who", "roll"):
        if not isinstance(raw.get(key), str):
            raise ValueError(f"{where}: {key!r} must be a string")
    effect = Effect(
        condition=raw["condition"],
        label=str(raw.get("label", raw["condition"])),
        who=raw["who"],
        roll=raw["roll"],
        against=str(raw.get("against", "any")),
        value=raw.get("value", 0),
        lose_dex_bonus=bool(raw.get("lose_dex_bonus", False)),
        lose_dodge=bool(raw.get("lose_dodge", False)),
    )
    for name, value, allowed in (
        ("who", effect.who, WHO),
        ("roll", effect.roll, ROLLS),
        ("against", effect.against, AGAINST),
    ):
        if value not in allowed:
            raise ValueError(f"{where}: {name} must be one of {', '.join(allowed)}, not {value!r}")
    if not isinstance(effect.value, int) or isinstance(effect.value, bool):
        raise ValueError(f"{where}: value must be a whole number, not {effect.value!r}")
    return effect


def parse_table(raw: Any, source: str = "condition_effects.json") -> EffectTable:
    """Check and read a table (the JSON's shape); errors name the row and the key."""
    if not isinstance(raw, dict) or not isinstance(raw.get("effects"), list):
        raise ValueError(f"{source}: needs an 'effects' list")
    effects = tuple(
        _effect(row, f"{source}, effect {i + 1}") for i, row in enumerate(raw["effects"])
    )
    return EffectTable(effects)


@lru_cache(maxsize=1)
def table() -> EffectTable:
    source = resources.files("engine.rules.spycraft").joinpath("condition_effects.json")
    return parse_table(json.loads(source.read_text(encoding="utf-8")))


def _matching(token: Token, who: str, roll: str, melee: bool) -> list[Effect]:
    return [
        e
        for e in table().effects
        if e.who == who and e.roll == roll and e.applies(melee) and token.has_condition(e.condition)
    ]


def attack_effects(attacker: Token, melee: bool) -> list[Modifier]:
    """The attacker's own conditions on his attack check."""
    return [Modifier(e.label, e.value) for e in _matching(attacker, "attacker", "attack", melee)]


def defense_effects(target: Token, melee: bool, dex: int) -> list[Modifier]:
    """The target's conditions on his Defense (``dex``: his Dexterity modifier)."""
    mods = []
    for e in _matching(target, "target", "defense", melee):
        value = e.value - (max(0, dex) if e.lose_dex_bonus else 0)
        mods.append(Modifier(e.label, value, "defense"))
    return mods


def loses_dodge(target: Token) -> bool:
    """Does a condition take away the target's dodge bonuses to Defense?"""
    return any(e.lose_dodge and target.has_condition(e.condition) for e in table().effects)

