"""Weapon presets shipped per system as data."""

from __future__ import annotations

import pytest

from engine.rules.presets import weapon_presets

#: Kinds of gun every system's presets must offer (matched in the weapon's name).
KINDS = {
    "spycraft": ("pistol", "submachine", "assault rifle", "shotgun", "sniper"),
    "d20-firearms": ("glock", "mp5", "m4", "shotgun", "sniper"),
    "savage-worlds": ("glock", "uzi", "carbine", "shotgun", "sniper"),
    "cities-without-number": ("pistol", "submachine", "rifle", "shotgun", "sniper"),
}


@pytest.mark.parametrize("system", sorted(KINDS))
def test_each_system_ships_the_usual_guns_with_usable_numbers(system: str) -> None:
    weapons = weapon_presets(system)
    names = [w.name.lower() for w in weapons]
    for kind in KINDS[system]:
        assert any(kind in name for name in names), (system, kind, names)
    for weapon in weapons:
        if not weapon.melee:
            assert weapon.range_increment > 0 and weapon.capacity > 0
            assert weapon.ammo == weapon.capacity  # presets come loaded
    assert len({w.name for w in weapons}) == len(weapons)


def test_savage_worlds_guns_carry_a_rate_of_fire_and_the_others_fire_modes() -> None:
    assert {w.rate_of_fire for w in weapon_presets("savage-worlds")} >= {1, 3}
    for system in ("spycraft", "d20-firearms", "cities-without-number"):
        assert all(w.modes for w in weapon_presets(system) if not w.melee), system


def test_a_system_without_presets_has_none() -> None:
    from engine.rules.base import RuleSystem

    class Bare(RuleSystem):  # a system defined here: its module ships no weapons.json
        name = "bare"
        title = "Bare"
        catalogue = ()

        def legal_actions(self, state, token_id):  # type: ignore[no-untyped-def]
            return ()

        def example_commands(self, state, token_id):  # type: ignore[no-untyped-def]
            return iter(())

        def check_action(self, state, command):  # type: ignore[no-untyped-def]
            return []

        def describe_action(self, state, command):  # type: ignore[no-untyped-def]
            raise NotImplementedError

        def resolve_action(self, state, command, dice):  # type: ignore[no-untyped-def]
            raise NotImplementedError

    assert weapon_presets(Bare()) == ()
