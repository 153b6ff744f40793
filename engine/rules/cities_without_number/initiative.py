"""Cities Without Number initiative: one roll per side, or one per combatant as an option.

By default each side rolls 1d8 plus the best Dexterity modifier among its members; the sides
act from highest to lowest, PCs winning ties, and the members of the acting side go in
whatever order they like. With individual initiative every combatant rolls 1d8 plus their
own Dexterity modifier.

Which tokens form a side is a choice: allies fight beside the party, so by default they join
the PCs' side (``allies_with_party``); a table may let them roll on their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.dice import Dice, Roll
from engine.rules.cities_without_number.schema import STATS
from engine.tokens import Side, Token

INITIATIVE_DIE = "1d8"
DEX_STAT = "dex_mod"


@dataclass(frozen=True, slots=True)
class SideRoll:
    side: str
    total: int
    bonus: int
    roll: Roll
    members: tuple[str, ...]


def side_of(token: Token, *, allies_with_party: bool = True) -> str:
    """The initiative side a token rolls with."""
    if allies_with_party and token.side is Side.ALLY:
        return str(Side.PARTY)
    return str(token.side)


def dex_mod(token: Token) -> int:
    return STATS.number(token, DEX_STAT)


def group_sides(
    tokens: Iterable[Token], *, allies_with_party: bool = True
) -> dict[str, tuple[Token, ...]]:
    sides: dict[str, list[Token]] = {}
    for token in tokens:
        sides.setdefault(side_of(token, allies_with_party=allies_with_party), []).append(token)
    return {side: tuple(members) for side, members in sides.items()}


def pc_side(side: str) -> bool:
    return side == str(Side.PARTY)


def roll_sides(
    tokens: Iterable[Token], dice: Dice, *, allies_with_party: bool = True
) -> list[SideRoll]:
    """Every side's roll, in acting order (highest first, PCs first on a tie)."""
    rolls: list[SideRoll] = []
    for side, members in group_sides(tokens, allies_with_party=allies_with_party).items():
        bonus = max(dex_mod(t) for t in members)
        roll = dice.roll(f"{INITIATIVE_DIE}{bonus:+d}", f"initiative of the {side} side")
        rolls.append(SideRoll(side, roll.total, bonus, roll, tuple(t.id for t in members)))
    return sorted(rolls, key=side_sort_key)


def side_sort_key(side_roll: SideRoll) -> tuple[int, int, int, str]:
    """Higher total first; on a tie the PCs first, then the better Dexterity, then by name."""
    return (-side_roll.total, 0 if pc_side(side_roll.side) else 1, -side_roll.bonus, side_roll.side)


def individual_tiebreak(token: Token) -> tuple[int, int]:
    """Individual initiative: PCs win ties, then the better Dexterity modifier."""
    return (1 if token.side is Side.PARTY else 0, dex_mod(token))
