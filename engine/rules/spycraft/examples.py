"""Concrete commands worth trying for a token now: for random play and action palettes.

Not all are legal; callers filter with ``preview``. Every handled action appears with
plausible arguments (nearby squares, each other token as target, each weapon).
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules.base import Command, Need
from engine.rules.common import walk_beside
from engine.rules.spycraft import board, combat_state, tables
from engine.rules.spycraft.catalogue import TRICKS, action_spec
from engine.rules.spycraft.movement import speed_squares

TARGETED = (
    "standard_attack",
    "autofire",
    "coup_de_grace",
    "cover_fire",
    "disarm",
    "grapple",
    "grapple_check",
    "kick",
    "pummel",
    "taunt",
    "threaten",
    "trip",
    "aim",
    "anticipate",
    "diversion",
    "feint",
    "tire",
    "bull_rush",
    "stand_off",
)
BARE = (
    "shake_off",
    "surrender",
    "take_the_shot",
    "crouch",
    "drop_prone",
    "stand_up",
    "regroup",
    "refresh",
    "press",
    "delay",
    "total_defense",
    "fight_defensively",
)


def _line(start: Square, dx: int, dy: int, n: int) -> tuple[Square, ...]:
    return tuple(Square(start.x + dx * i, start.y + dy * i) for i in range(1, n + 1))


def _takes_weapon(key: str) -> bool:
    return Need.WEAPON in action_spec(key).needs


def example_commands(state: EncounterState, token_id: str) -> Iterator[Command]:
    token = state.token(token_id)
    weapons: list[str | None] = [w.name for w in token.weapons] or [None]
    around = [s for s in token.square.neighbours() if state.battlemap.in_bounds(s)]
    for square in around:
        dx, dy = square.x - token.square.x, square.y - token.square.y
        yield Command("standard_move", token_id, squares=(square,))
        yield Command("standard_move", token_id, squares=_line(token.square, dx, dy, 3))
        yield Command("five_foot_step", token_id, squares=(square,))
        yield Command("run", token_id, squares=_line(token.square, dx, dy, 6))
        yield Command("withdraw", token_id, squares=_line(token.square, dx, dy, 4))
        yield Command("brace", token_id, squares=(square,))
    for action in BARE:
        yield Command(action, token_id)
    yield Command.build("delay", token_id, times=3)
    yield Command.build("fluid_event", token_id, event="terrain")
    yield Command.build("action_check", token_id, name="shouts a warning")
    yield Command.build("action_check", token_id, name="picks a lock", skill="dex", dc=12)
    for other in state.tokens:
        if other.id == token_id:
            continue
        for index, weapon in enumerate(weapons):
            for action in TARGETED:
                if _takes_weapon(action):
                    yield Command(action, token_id, (other.id,), weapon=weapon)
                elif index == 0:  # a Kick or a Taunt names no weapon: once is enough
                    yield Command(action, token_id, (other.id,))
            yield Command.build(
                "standard_attack", token_id, targets=[other.id], weapon=weapon, trick="burst"
            )
            yield Command.build("autofire", token_id, targets=[other.id], weapon=weapon, volleys=2)
            for trick in TRICKS:  # as the catalogue action and as Standard Attack's option
                if _takes_weapon(trick):
                    yield Command(trick, token_id, (other.id,), weapon=weapon)
                elif index == 0:
                    yield Command(trick, token_id, (other.id,))
                yield Command.build(
                    "standard_attack", token_id, targets=[other.id], weapon=weapon, trick=trick
                )
        yield Command("joint_action", token_id, (other.id,))
        # Closing in: the walk to beside the other token, as far as one Standard Move goes.
        approach = walk_beside(state, token, other, difficult_cost=tables.DIFFICULT_TERRAIN_COST)
        if approach:
            reach = approach[: speed_squares(state, token)]
            yield Command("standard_move", token_id, squares=reach)
        chain = _line(other.square, 1, 0, 2)
        for weapon in weapons:
            yield Command("strafe", token_id, squares=(other.square, *chain), weapon=weapon)
    for weapon in weapons:
        if weapon is None:
            continue
        yield Command("reload", token_id, weapon=weapon)
        yield Command("drop_ready_item", token_id, weapon=weapon)
        yield Command.build("draw_holster", token_id, weapon=weapon, mode="holster")
        yield Command.build("draw_holster", token_id, weapon=weapon, mode="draw")
        for square in around[:3]:
            yield Command("suppressive_fire", token_id, squares=(square,), weapon=weapon)
        yield Command.build(
            "ready", token_id, then="standard_attack", trigger="the first foe to step into view"
        )
    for pile in combat_state.lying_items(state):
        if pile.square in token.squares:
            for lying in pile.items:
                yield Command.build("draw_holster", token_id, weapon=lying.name, mode="pick_up")
    yield from _newcomers(state)
    yield from _cracked(state)
    for pending in state.combat.pending:
        if pending.kind == "ready":
            for other in board.opponents_of(state, state.token(pending.token_id)):
                yield Command("trigger_ready", pending.token_id, (other.id,))
            yield Command.build("trigger_ready", pending.token_id, cancel=True)
    yield Command("end_turn")


def _cracked(state: EncounterState) -> Iterator[Command]:
    """Who cracked in a Stand Off chooses at once, whoever's turn it is."""
    for token in state.tokens:
        if token.has_condition(board.CRACKED):
            yield Command("take_the_shot", token.id)
            yield Command("surrender", token.id)


def _newcomers(state: EncounterState) -> Iterator[Command]:
    """Enter Combat is out of turn: a token put on the map mid-fight may roll in at once."""
    if not state.combat.order:
        return
    for token in state.tokens:
        if not state.combat.has(token.id):
            yield Command("enter_combat", token.id)
            yield Command.build("enter_combat", token.id, deliberate=True)
