"""Concrete commands worth trying for a token now: for random play and action palettes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from engine.encounter import EncounterState
from engine.rules.base import Command
from engine.rules.spycraft import model

if TYPE_CHECKING:
    from engine.rules.spycraft.system import SpycraftSystem


def example_commands(
    system: SpycraftSystem, state: EncounterState, token_id: str
) -> Iterator[Command]:
    token = state.token(token_id)
    weapon = token.weapons[0].name if token.weapons else None
    around = [s for s in token.square.neighbours() if state.battlemap.in_bounds(s)]
    for square in around:
        yield Command("standard_move", token_id, squares=(square,))
        yield Command("five_foot_step", token_id, squares=(square,))
    for other in model.opponents_of(state, token):
        yield Command("standard_attack", token_id, (other.id,), weapon=weapon)
    yield Command("end_turn")
