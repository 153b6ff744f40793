"""Small Spycraft encounters for tests."""

from __future__ import annotations

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.grid import FIVE_FOOT, Square
from engine.rules.base import Command
from engine.tokens import Side, StatNames, StatValue, Token, Weapon
from engine.turns.session import Encounter

PISTOL = Weapon("pistol", "2d6", 30.0, 10, 10, ("single-shot",), traits=("threat:19",))
SMG = Weapon(
    "SMG", "2d6", 40.0, 30, 30, ("single-shot", "burst", "full auto"), traits=("recoil:10",)
)


def agent(
    token_id: str,
    x: int,
    y: int,
    side: Side = Side.PARTY,
    *,
    weapons: tuple[Weapon, ...] = (PISTOL,),
    **stats: StatValue | StatNames,
) -> Token:
    base: dict[str, StatValue | StatNames] = {
        "initiative": 2,
        "defense": 12,
        "ranged_attack": 3,
        "melee_attack": 2,
        "vitality": 20,
        "wounds": 12,
    }
    base.update(stats)
    return Token(token_id, token_id.capitalize(), side, Square(x, y), weapons=weapons, stats=base)


def state(*tokens: Token, width: int = 12, height: int = 12) -> EncounterState:
    return EncounterState("Test", "spycraft", FIVE_FOOT, BattleMap(width, height), tuple(tokens))


def started(
    *tokens: Token, rolls: list[int] | None = None, seed: int = 1, **options: object
) -> Encounter:
    """An encounter with combat started; ``rolls`` are typed initiative results in token order."""
    fight = Encounter(state(*tokens), seed=seed)
    fight.apply(Command.build("start_combat", **options), rolls)  # type: ignore[arg-type]
    return fight


def cmd(action: str, actor: str | None = None, **kwargs: object) -> Command:
    return Command.build(action, actor, **kwargs)  # type: ignore[arg-type]
