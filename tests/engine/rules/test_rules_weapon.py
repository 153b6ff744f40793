"""Which actions take a weapon, and which weapon the rules pick themselves.

A form shows a weapon box only for an action that declares ``Need.WEAPON``; the d20 Treat
Injury box and a Charge whose box could not say it would attack unarmed were the symptoms.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.rules import get_system
from engine.rules.base import Command, CommandError, Need
from tests.engine.rules.legal_setups import every_action, legal_setup

CASES = every_action()


@pytest.mark.parametrize(("system", "action"), CASES, ids=[f"{s}-{a}" for s, a in CASES])
def test_an_action_that_declares_no_weapon_reads_none(system: str, action: str) -> None:
    """Naming any of the actor's weapons changes nothing for an action without
    ``Need.WEAPON`` (a Charge with the rifle was refused: it read the weapon undeclared)."""
    rules = get_system(system)
    setup = legal_setup(system, action)
    command = setup.command
    if Need.WEAPON in rules.action(action).needs or command.actor is None:
        return
    assert command.weapon is None, "an example names a weapon the action does not take"
    bare = rules.preview(setup.state, command)
    for weapon in setup.state.token(command.actor).weapons:
        try:
            armed = rules.preview(setup.state, replace(command, weapon=weapon.name))
        except CommandError as error:
            pytest.fail(f"{action} with {weapon.name}: {error}")
        seen = (armed.legal, armed.summary, armed.modifiers, armed.rolls)
        assert seen == (bare.legal, bare.summary, bare.modifiers, bare.rolls), weapon.name


def _gun_only(system: str, action: str) -> tuple[object, Command]:
    setup = legal_setup(system, action)
    actor = str(setup.command.actor)
    state = setup.state.with_token(replace(
        setup.state.token(actor),
        weapons=tuple(w for w in setup.state.token(actor).weapons if not w.melee),
    ))
    return state, replace(setup.command, weapon=None)


@pytest.mark.parametrize(("system", "action"), [
    ("cities-without-number", "melee_attack"),
    ("cities-without-number", "charge"),
    ("d20-firearms", "charge"),
])
def test_a_melee_pick_of_a_gun_only_token_is_unarmed_and_allowed(system: str, action: str) -> None:
    rules = get_system(system)
    state, command = _gun_only(system, action)
    assert Need.WEAPON in rules.action(action).needs
    assert rules.rules_weapon(state, command) == "Unarmed"  # type: ignore[arg-type]
    preview = rules.preview(state, command)  # type: ignore[arg-type]
    assert preview.legal, preview.reasons
    assert "rifle" not in preview.summary


@pytest.mark.parametrize(("system", "action", "picked"), [
    ("cities-without-number", "melee_attack", "knife"),
    ("cities-without-number", "swarm_attack", "rifle"),  # the first weapon carried
    ("d20-firearms", "charge", "knife"),
])
def test_the_rules_pick_is_the_weapon_the_preview_uses(system: str, action: str,
                                                       picked: str) -> None:
    rules = get_system(system)
    setup = legal_setup(system, action)
    command = replace(setup.command, weapon=None)
    assert rules.rules_weapon(setup.state, command) == picked
    bare = rules.preview(setup.state, command)
    named = rules.preview(setup.state, replace(command, weapon=picked))
    assert bare.legal
    assert (bare.summary, bare.modifiers, bare.rolls) == (
        named.summary, named.modifiers, named.rolls
    )


def test_an_action_the_gm_arms_has_no_rules_pick() -> None:
    rules = get_system("cities-without-number")
    setup = legal_setup("cities-without-number", "ranged_attack")
    assert rules.rules_weapon(setup.state, replace(setup.command, weapon=None)) is None
    treat = legal_setup("d20-firearms", "treat_injury")
    assert Need.WEAPON not in get_system("d20-firearms").action("treat_injury").needs
    assert get_system("d20-firearms").rules_weapon(treat.state, treat.command) is None
