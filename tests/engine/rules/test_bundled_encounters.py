"""Each bundled encounter plays a few rounds of its own system through the public scripting API."""

from __future__ import annotations

import random

import pytest

import engine
from engine.rules.base import Command

#: Catalogue categories whose actions are attacks on someone.
ATTACK_CATEGORIES = ("attack", "special attack")


@pytest.mark.parametrize(
    ("bundled_map", "system"),
    [
        ("office_floor", "cities-without-number"),
        ("compound", "d20-firearms"),
        ("night_street", "savage-worlds"),
    ],
)
def test_bundled_encounter_plays_three_rounds_and_undoes_to_the_start(
    bundled_map: str, system: str
) -> None:
    fight = engine.open_encounter(engine.bundled_map(bundled_map), seed=3)
    first = fight.state
    assert first.system == system
    assert fight.system.name == first.system
    fight.apply(Command("start_combat"))
    rng = random.Random(3)
    played: list[str] = []
    for _ in range(600):
        if fight.state.combat.round > 3:
            break
        active = fight.state.combat.active
        options = [Command("end_turn"), *(fight.example_commands(active) if active else ())]
        rng.shuffle(options)
        command = next(c for c in options if fight.preview(c).legal)
        fight.apply(command)
        played.append(command.action)
        occupied = [s for token in fight.state.tokens for s in token.squares]
        assert len(occupied) == len(set(occupied))
        assert all(fight.state.battlemap.in_bounds(s) for s in occupied)
    assert fight.state.combat.round > 3
    attacks = {s.key for s in fight.system.catalogue if s.category in ATTACK_CATEGORIES}
    assert attacks & set(played), "no attack was made in three rounds"
    assert len(fight.log) > len(played)
    fight.undo_all()
    assert fight.state == first
