"""Tokens: the people and vehicles on the map, with their weapons and conditions."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from enum import StrEnum

from engine.frozen import EMPTY, FrozenMapping, freeze_fields
from engine.grid import Square, squares_of_footprint
from engine.words import counted


class Side(StrEnum):
    PARTY = "party"
    ALLY = "ally"
    ENEMY = "enemy"
    NEUTRAL = "neutral"


_FRIENDLY = {Side.PARTY, Side.ALLY}


def are_opponents(a: Side, b: Side) -> bool:
    """Party and allies fight enemies; neutrals oppose nobody until the GM changes their side."""
    return (a in _FRIENDLY and b is Side.ENEMY) or (b in _FRIENDLY and a is Side.ENEMY)


class ExpiryPoint(StrEnum):
    START_OF_TURN = "start_of_turn"
    END_OF_TURN = "end_of_turn"
    END_OF_ROUND = "end_of_round"


@dataclass(frozen=True, slots=True)
class Expiry:
    """When a condition ends: at a point of a given round, in someone's turn.

    ``token_id`` names whose turn counts (None: the token that has the condition).
    """

    round: int
    point: ExpiryPoint
    token_id: str | None = None


@dataclass(frozen=True, slots=True)
class Condition:
    """A named state on a token (Shaken, flat-footed, braced...), with an optional end.

    ``source`` names who or what it comes from or is aimed at (a token id, a weapon name),
    kept whole; ``square`` is the square it is aimed at when that is a square (an Overwatch
    on a doorway), never packed into ``source``.
    """

    name: str
    expires: Expiry | None = None
    source: str | None = None
    value: int = 0
    square: Square | None = None


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon as the rules see it. Ranges are in the system's unit (ft, inches or m).

    ``drawn``: in hand, ready to use; False when holstered, slung or sheathed (the systems
    that count drawing a weapon as an action read it).
    """

    name: str
    damage: str = "1d6"
    range_increment: float = 0.0
    ammo: int = 0
    capacity: int = 0
    modes: tuple[str, ...] = ()
    melee: bool = False
    two_handed: bool = False
    rate_of_fire: int = 1
    traits: tuple[str, ...] = ()
    drawn: bool = True

    def __post_init__(self) -> None:
        if self.ammo < 0 or (self.capacity > 0 and self.ammo > self.capacity):
            raise ValueError(
                f"weapon {self.name!r} holds {counted(self.ammo, 'shot')} but its capacity is "
                f"{self.capacity}"
            )
        if not math.isfinite(self.range_increment) or self.range_increment < 0:
            raise ValueError(f"weapon {self.name!r} range increment must be 0 or more")
        if self.capacity < 0 or self.rate_of_fire < 0:
            raise ValueError(
                f"weapon {self.name!r} capacity and rate of fire must be 0 or more, not "
                f"{self.capacity} and {self.rate_of_fire}"
            )

    @property
    def uses_ammunition(self) -> bool:
        return self.capacity > 0

    def with_ammo(self, ammo: int) -> Weapon:
        return replace(self, ammo=ammo)


@dataclass(frozen=True, slots=True)
class DroppedItems:
    """Weapons lying on one square (dropped, knocked away, thrown down in surrender)."""

    square: Square
    items: tuple[Weapon, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "square", Square(*self.square))


def items_on(piles: tuple[DroppedItems, ...], square: Square) -> tuple[Weapon, ...]:
    """What lies on ``square`` among ``piles``."""
    return next((pile.items for pile in piles if pile.square == square), ())


def with_items_on(
    piles: tuple[DroppedItems, ...], square: Square, items: tuple[Weapon, ...]
) -> tuple[DroppedItems, ...]:
    """``piles`` with what lies on ``square`` replaced by ``items`` (none: nothing)."""
    others = tuple(pile for pile in piles if pile.square != square)
    return (*others, DroppedItems(square, items)) if items else others


StatValue = int | float | str | bool
#: A stat holding names (weapon names, action keys), each kept whole: never a packed list.
StatNames = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Token:
    """A combatant. ``square`` is its top-left square; it covers ``size`` x ``size`` squares.

    ``speed`` is in the system's unit (30 ft, 6", 10 m). ``stats`` holds the stat block
    whose fields the rule system defines (initiative bonus, Defense, Parry, Toughness...).
    ``portrait`` names its picture, an image entry of the encounter file (``images/...``),
    drawn cropped to a disc. A ``hidden`` token is the GM's secret: the player view never
    shows it. ``notes`` are the GM's own words about it.
    """

    id: str
    name: str
    side: Side
    square: Square
    size: int = 1
    facing: float = 0.0
    speed: float = 30.0
    conditions: tuple[Condition, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    stats: FrozenMapping[str, StatValue | StatNames] = EMPTY
    portrait: str | None = None
    hidden: bool = False
    notes: str = ""

    def __post_init__(self) -> None:
        if not self.id:
            raise ValueError("token id must not be empty")
        if self.size < 1:
            raise ValueError(f"token {self.id!r} size must be at least 1, not {self.size}")
        if not math.isfinite(self.speed) or self.speed < 0:
            raise ValueError(f"token {self.id!r} speed must be 0 or more, not {self.speed}")
        object.__setattr__(self, "square", Square(*self.square))
        freeze_fields(self, "stats")

    @property
    def squares(self) -> tuple[Square, ...]:
        return squares_of_footprint(self.square, self.size)

    def has_condition(self, name: str) -> bool:
        return any(c.name == name for c in self.conditions)

    def stat(self, name: str) -> StatValue | StatNames:
        """The value of a stat the token's own block holds; absent is a ``KeyError``.

        No default here: a stat's default lives once, in its rule system's schema, and the
        rules read stats through it (``engine.rules.stat_block.StatBlock``), so a misspelt
        name is an error rather than a silent 0.
        """
        try:
            return self.stats[name]
        except KeyError:
            raise KeyError(f"{self.name} ({self.id}) holds no stat {name!r}") from None

    def weapon(self, name: str) -> Weapon:
        for weapon in self.weapons:
            if weapon.name == name:
                return weapon
        raise KeyError(f"{self.name} carries no weapon called {name!r}")

    def moved_to(self, square: Square) -> Token:
        return replace(self, square=square)

    def taking(self, *weapons: Weapon) -> Token:
        """The token carrying ``weapons`` too (picked up, snatched), each under a name none
        of its weapons has ("knife 2" beside a knife): commands name a weapon by its name."""
        carried = list(self.weapons)
        for weapon in weapons:
            names = {w.name for w in carried}
            name, number = weapon.name, 1
            while name in names:
                number += 1
                name = f"{weapon.name} {number}"
            carried.append(replace(weapon, name=name))
        return replace(self, weapons=tuple(carried))

    def weapon_name_problems(self) -> list[str]:
        """A problem per name two of the token's weapons share (a command could not say
        which one it means)."""
        names = Counter(w.name for w in self.weapons)
        return [f"two weapons are called {name!r}"
                for name in sorted(n for n, count in names.items() if count > 1)]
