"""Savage Worlds Suppressive Fire: Distracted on a success, hit on a raise, RoF casualties."""

from __future__ import annotations

import pytest

from engine.rules.savage_worlds.suppressive_fire import (
    SuppressiveFireError,
    bullets_needed,
    recoil_modifier,
    refusal,
    resolve,
)
from engine.tokens import Weapon

SMG = Weapon("SMG", "2d6", 12, ammo=30, capacity=30, rate_of_fire=3)


def test_three_times_the_usual_bullets() -> None:
    assert bullets_needed(SMG) == 30
    assert bullets_needed(Weapon("Revolver", capacity=6, ammo=6, rate_of_fire=1)) == 3


def test_weapon_must_fire_repeatedly_and_hold_enough() -> None:
    assert refusal(SMG) is None
    assert refusal(SMG.with_ammo(29)) is not None
    bolt = Weapon("Bolt rifle", capacity=5, ammo=5, traits=("reload each shot",))
    assert "reloaded" in str(refusal(bolt))
    assert refusal(Weapon("Knife", melee=True)) is not None


def test_recoil_always_applies_unless_negated() -> None:
    assert recoil_modifier() == -2
    assert recoil_modifier(recoil_negated=True) == 0


def test_success_distracts_raise_hits_up_to_rate_of_fire() -> None:
    result = resolve(9, {"a": 0, "b": -2, "c": -6, "d": 0}, rate_of_fire=1)
    assert result.distracted == ("a", "b", "d")
    assert result.could_be_hit == ("a", "d")
    assert result.hit == ("a",)


def test_shooter_chooses_who_is_hit() -> None:
    result = resolve(9, {"a": 0, "d": 0}, rate_of_fire=1, chosen=["d"])
    assert result.hit == ("d",)
    with pytest.raises(SuppressiveFireError):
        resolve(9, {"a": 0, "b": -4}, rate_of_fire=1, chosen=["b"])


def test_the_log_says_the_bullets_were_fired_not_how_long_it_lasts() -> None:
    """'...; 3 rounds.' in a combat log of rounds read as three rounds of suppression."""
    from engine.dice import SeededDice
    from engine.rules import get_system
    from tests.engine.rules.legal_setups import legal_setup

    setup = legal_setup("savage-worlds", "suppressive_fire")
    actor = setup.state.token(str(setup.command.actor))
    weapon = actor.weapon(str(setup.command.weapon))
    _state, events = get_system("savage-worlds").apply(setup.state, setup.command, SeededDice(1))
    said = next(e.text for e in events if "lays down Suppressive Fire" in e.text)
    assert said.endswith(f"; {bullets_needed(weapon)} rounds fired.")
