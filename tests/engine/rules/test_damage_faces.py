"""A hit's damage line shows the damage dice's faces and total (d20 and Cities Without
Number said 'takes 6 damage' with no working, where the attack line showed its d20)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine.dice import Roll, summed
from engine.rules.base import Command
from engine.turns.session import Encounter

MAPS = Path(__file__).resolve().parents[3] / "maps"

#: "... takes 6 damage (28 hit points left). [2d6 (1, 5) = 6]": the amount and the total.
DAMAGE_LINE = re.compile(r"takes (\d+) damage \(.*\)\. \[(.+)\]$")


def damage_lines(map_name: str, seed: int) -> list[str]:
    """The hit points damage lines of a short fight of rolled actions."""
    fight = Encounter.open(MAPS / f"{map_name}.killbox", seed=seed)
    fight.apply(Command("start_combat"))
    choose = random.Random(seed)
    for _ in range(80):
        active = fight.state.combat.active
        rolled = [c for c in fight.example_commands(active)
                  if c.action != "end_turn" and fight.preview(c).legal
                  and fight.preview(c).rolls] if active else []
        fight.apply(choose.choice(rolled) if rolled else Command("end_turn"))
    log = [e.text for e in fight.log]
    # Shock is a fixed amount, not rolled: its hit points line has no dice to show.
    return [text for before, text in zip(["", *log], log, strict=False)
            if re.search(r"takes \d+ damage \(", text) and not before.startswith("Shock")]


@pytest.mark.parametrize("map_name", ["compound", "office_floor"])
def test_a_hits_damage_line_shows_the_dice_and_adds_up(map_name: str) -> None:
    lines = damage_lines(map_name, 5) + damage_lines(map_name, 6)
    assert lines, "no hit landed"
    for line in lines:
        shown = DAMAGE_LINE.search(line)
        assert shown, line
        amount, working = int(shown[1]), shown[2]
        assert re.search(r"\d+d\d+ \([\d, ]+\)", working), line  # the faces
        total = int(re.findall(r"-?\d+", working)[-1])
        # A Swarm Attack's bonus lifts the hit past the dice (rules.swarm_damage).
        assert total == amount or (map_name == "office_floor" and total < amount), line


def test_a_critical_hits_damage_dice_are_summed_with_each_rolls_faces() -> None:
    rolls = [Roll("2d6", 7, "2d6 (3, 4) = 7", "x"), Roll("2d6", 7, "2d6 (1, 6) = 7", "x")]
    both = summed(rolls, "damage")
    assert (both.total, both.detail) == (14, "2d6 (3, 4) = 7; 2d6 (1, 6) = 7; 14 in all")
    assert summed(rolls[:1], "damage") is rolls[0]
