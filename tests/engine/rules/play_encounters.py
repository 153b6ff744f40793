"""The encounter the conformance suite's random play starts from.

It is the small encounter (``test_conformance.small_encounter``) with what a fight of each
system plausibly holds and some actions need before random play can reach them: a crate to
hide behind, the stats a system's actions read (a combat skill to screen an ally with, an
initiative bonus high enough to Press), a second pistol, a thrown knife. Nothing here sets
up an action's own precondition (a held foe, a card on Hold): random play must bring those
about by legal commands (besides the helpless: a captive to finish, a friend bleeding out to
stabilise). A system without a kit (a test's own) plays the small encounter.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace

from engine.battlemap import CoverGrade, CoverObject
from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules import get_system
from engine.tokens import Condition, Side, Token, Weapon

StatValues = Mapping[str, object]


@dataclass(frozen=True)
class Kit:
    """What a system's tokens carry beyond the small encounter's rifle and knife."""

    #: Token id -> stats (checked against the system's schema when the state is built).
    stats: Mapping[str, StatValues] = field(default_factory=dict)
    #: Token id -> weapons carried before the small encounter's own.
    weapons: Mapping[str, tuple[Weapon, ...]] = field(default_factory=dict)
    #: Action -> the actions that bring about what it needs (a grapple before breaking
    #: free): while an action is still missing, random play tries these first too.
    lead_ins: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Tokens the system's encounter has besides the small encounter's four.
    extras: tuple[Token, ...] = ()


def _pistol(name: str, feet_per_square: float) -> Weapon:
    return Weapon(name, "2d6", 6.0 * feet_per_square, 12, 12, ("single-shot",),
                  traits=("pistol",))


def _captive(condition: str, **stats: int) -> Token:
    """A guard Bob has tied up at his feet: helpless from the start (Spycraft's Coup de Grace,
    Savage Worlds' Finishing Move), under the ``condition`` its system calls that."""
    return Token("e3", "Eve", Side.ENEMY, Square(2, 5), conditions=(Condition(condition),),
                 stats=stats)


def _wounded_friend() -> Token:
    """Fay, of Ann's party, bleeding at Ann's feet (d20: dying at -1, for Treat Injury)."""
    return Token("a3", "Fay", Side.PARTY, Square(1, 2), conditions=(Condition("Dying"),),
                 stats={"hp": -1, "max_hp": 12})


def _bleeding_friend() -> Token:
    """A Wild Card of Bob's, down and Bleeding Out beside him (Savage Worlds' Stabilise):
    a d12 Vigor keeps her alive a few turns, so a friend may reach her in time."""
    down = (Condition("Incapacitated"), Condition("Bleeding Out"))
    return Token("a3", "Fay", Side.PARTY, Square(1, 5), conditions=down,
                 stats={"wild_card": True, "vigor": 12, "wounds": 4})


def _kit(system_name: str) -> Kit | None:
    square = get_system(system_name).scale.square_size
    pistols = (_pistol("pistol", square), _pistol("pistol 2", square))
    if system_name == "cities-without-number":
        # Screen an Ally needs level 1 in a combat skill.
        return Kit(stats={"a1": {"shoot": 1}, "a2": {"stab": 1}, "e1": {"punch": 2},
                          "e2": {"shoot": 1}})
    if system_name == "d20-firearms":
        # Two-Weapon Combat is for a pistol in each hand; a Reflex save that can be made
        # lets a foe under Covering Fire dive for cover; hit points let the fight last.
        # Eve lies stable beside Bob (a helpless foe to finish: the coup de grace), Fay dying
        # beside Ann (a friend to stabilise: Treat Injury).
        hardy = {"hp": 30, "max_hp": 30, "reflex": 6, "defense": 14}
        return Kit(stats=dict.fromkeys(("a1", "a2", "e1", "e2"), hardy), weapons={"a2": pistols},
                   extras=(_captive("Stable", hp=-2, max_hp=12), _wounded_friend()))
    if system_name == "spycraft":
        # Bounce needs a thrown weapon and Dex; Press an Initiative Count of 25 or more;
        # a Stand Off cracks those whose stress passes a threshold.
        knife = Weapon("throwing knife", "1d4", 10.0, traits=("thrown",))
        # Dee (and any newcomer) keeps no vitality or wounds: the first hit drops her.
        nerves = {"stress_threshold": 4}
        sturdy = {"vitality": 20, "max_vitality": 20, "wounds": 12, "max_wounds": 12, **nerves}
        return Kit(stats={"a1": {"dex": 2, "initiative": 14, **sturdy}, "a2": sturdy,
                          "e1": {"dex": 2, "initiative": 8, **sturdy}, "e2": nerves},
                   weapons={"a1": (knife,), "e1": (knife,)},
                   lead_ins={"grapple_check": ("grapple",), "shake_off": ("cheap_shot",),
                             "take_the_shot": ("stand_off",), "trigger_ready": ("ready",),
                             "threaten": ("standard_attack",)},
                   extras=(_captive("helpless"),))
    if system_name == "savage-worlds":
        # Trained Athletics and Fighting: an untrained grapple (d4-2) almost never holds.
        brawler = {"athletics": 8, "fighting": 8, "bennies": 3, "wild_card": True}
        # The Area Effect Attack needs a weapon that lays a template.
        grenade = Weapon("frag grenade", "3d6", 5.0, 2, 2, traits=("Medium Blast", "thrown"))
        return Kit(stats={"a1": brawler, "a2": {"athletics": 6, "fighting": 6},
                          "e1": brawler, "e2": {"athletics": 6, "fighting": 6}},
                   weapons={"e1": (grenade,)},
                   lead_ins={"break_free": ("grapple",), "crush": ("grapple",),
                             "act_from_hold": ("hold",)},
                   extras=(_captive("Bound"), _bleeding_friend()))
    return None


def lead_ins(system_name: str, missing: Collection[str]) -> set[str]:
    """The lead-ins of the ``missing`` actions in ``system_name``'s kit."""
    kit = _kit(system_name)
    if kit is None:
        return set()
    return {lead for action in missing for lead in kit.lead_ins.get(action, ())}


def crate(state: EncounterState) -> EncounterState:
    """A tall crate in the middle of the room (three-quarters cover): Blind-Fire needs heavy
    cover, and diving for cover needs somewhere to dive."""
    outline = ((4.0, 2.0), (4.6, 2.0), (4.6, 5.0), (4.0, 5.0))
    box = CoverObject("crate", "Crate", outline, CoverGrade.THREE_QUARTERS, 6.0)
    return replace(state, battlemap=replace(state.battlemap, cover=(box,)))


def _equipped(token: Token, kit: Kit) -> Token:
    stats = {**token.stats, **kit.stats.get(token.id, {})}
    weapons = (*kit.weapons.get(token.id, ()), *token.weapons)
    return replace(token, stats=stats, weapons=weapons)  # type: ignore[arg-type]


def play_encounter(small: EncounterState, seed: int) -> EncounterState:
    """``small`` (the small encounter of its system) with the system's kit, and on odd
    seeds the crate (a foe far from cover must choose where to dive itself)."""
    kit = _kit(small.system)
    if kit is None:
        return small
    state = crate(small) if seed % 2 else small
    for token in state.tokens:
        state = state.with_token(_equipped(token, kit))
    for extra in kit.extras:
        state = state.with_token(extra)
    return state
