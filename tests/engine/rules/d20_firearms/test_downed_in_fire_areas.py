"""Covering Fire and Suppressive Fire reach a downed d20 soldier: a Disabled (0 hp) or dying
(below 0) foe in the cone or the area is a target like any other (the d20 rule: such a
character can be attacked), a dying one cannot dive for cover, and a Disabled one who steps
into a covered cone draws the fire. Each token is downed through the system's own damage
rule, so it carries whatever condition the engine gives at that hit-point total."""

from __future__ import annotations

from engine.dice import GivenDice
from engine.rules import get_system
from engine.rules.base import Command
from engine.tokens import Side
from engine.turns.session import Encounter

from .builders import PISTOL, fight, soldier

SYSTEM = get_system("d20-firearms")


def downed(game: Encounter, **hit_points: int) -> Encounter:
    """``game`` with each named token brought to the hit points given, by damage."""
    state = game.state
    for token_id, left in hit_points.items():
        hp = SYSTEM.stat_block.number(state.token(token_id), "hp")
        state, _ = SYSTEM.take_damage(state, token_id, hp - left)
    return Encounter(state, seed=4)


def texts(events: object) -> list[str]:
    return [e.text for e in events]  # type: ignore[attr-defined]


def cone_fight() -> Encounter:
    """A (pistol: one attack action, a 30-ft cone) covers east; Disabled B and dying C
    stand in the cone."""
    return downed(fight(soldier("a", Side.PARTY, (0, 5), PISTOL),
                        soldier("b", Side.ENEMY, (4, 5), reflex=0),
                        soldier("c", Side.ENEMY, (4, 6), reflex=0)), b=0, c=-3)


COVER = Command.build("covering_fire", "a", squares=[(4, 5)], weapon="Pistol")


def test_covering_fire_counts_disabled_and_dying_foes_in_the_cone() -> None:
    game = cone_fight()
    preview = game.preview(COVER)
    assert preview.legal, preview.reasons
    assert set(preview.targets) == {"b", "c"}


def test_covering_fire_attacks_a_downed_foe_and_only_a_conscious_one_saves() -> None:
    game = cone_fight()
    # Both attacks miss (natural 1s); B (Disabled, conscious) rolls its Reflex save (2:
    # fails); C (dying, unconscious) rolls none.
    said = texts(game.apply(COVER, GivenDice([1, 1, 2])))
    assert any("covering fire (1) at B" in line for line in said), said
    assert any("covering fire (1) at C" in line for line in said), said
    assert any(line.startswith("B fails the save") for line in said), said
    assert not any(line.startswith(("C saves", "C fails")) for line in said), said


def test_suppressive_fire_suppresses_and_harms_downed_foes_in_the_area() -> None:
    game = downed(fight(soldier("a", Side.PARTY, (0, 0)),
                        soldier("b", Side.ENEMY, (8, 4), reflex=0),
                        soldier("c", Side.ENEMY, (9, 5), reflex=0)), b=0, c=-3)
    fire = Command.build("suppressive_fire", "a", squares=[(8, 4)], weapon="Assault rifle")
    preview = game.preview(fire)
    assert preview.legal, preview.reasons
    assert set(preview.targets) == {"b", "c"}
    # 14 - 4 = 10 hits the area; B fails its save (3) and takes 4; C fails (2) and takes 5.
    game.apply(fire, GivenDice([14, 3, 4, 2, 5]))
    b, c = game.state.token("b"), game.state.token("c")
    assert b.has_condition("Suppressed") and c.has_condition("Suppressed")
    assert SYSTEM.stat_block.number(b, "hp") == -4
    assert SYSTEM.stat_block.number(c, "hp") == -8


def test_a_disabled_foe_stepping_into_a_covered_cone_draws_the_fire() -> None:
    game = downed(fight(soldier("a", Side.PARTY, (0, 5), PISTOL),
                        soldier("b", Side.ENEMY, (2, 0))), b=0)
    game.apply(Command.build("covering_fire", "a", squares=[(4, 5)], weapon="Pistol"),
               GivenDice([]))
    game.apply(Command("end_turn"))
    assert game.state.combat.active == "b"
    step_in = Command.build("move", "b", squares=[(2, 1), (3, 2), (4, 3), (4, 4)])
    preview = game.preview(step_in)
    assert preview.legal, preview.reasons
    assert preview.targets == ("a",)
    said = texts(game.apply(step_in, GivenDice([1])))
    assert any("Covering Fire" in line and "at B" in line for line in said), said
