"""Stand Off: a cracked participant surrenders or takes the shot; surrender binds him."""

import pytest

from engine.rules.base import IllegalCommand
from engine.tokens import Side
from engine.turns.session import Encounter
from tests.engine.rules.spycraft.builders import agent, cmd, started


def cracked_guard(**guard_stats: object) -> Encounter:
    """Kevin wins round 2's Resolve contest; 4 + 1 stress passes the guard's threshold 3."""
    fight = started(
        agent("kevin", 4, 4, resolve=4, wis=1),
        agent("guard", 5, 4, Side.ENEMY, wis=2, stress_threshold=3, **guard_stats),
        rolls=[1, 20],
    )
    fight.apply(cmd("stand_off", "kevin", targets=["guard"]))
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("end_turn"), [15, 3, 4])  # Kevin 19 vs guard 3; stress 4 + Wis 1 = 5
    assert fight.state.token("guard").has_condition("cracked")
    return fight


def test_a_cracked_character_must_choose_before_anything_else() -> None:
    fight = cracked_guard()
    refused = fight.preview(cmd("standard_attack", "guard", targets=["kevin"], weapon="pistol"))
    assert "Guard has cracked: he must Surrender or Take the Shot first" in refused.reasons


def test_surrender_leaves_the_stand_off_and_binds_him_to_the_winner() -> None:
    fight = cracked_guard()
    fight.apply(cmd("surrender", "guard"))
    guard = fight.state.token("guard")
    assert guard.has_condition("surrendered") and not guard.has_condition("cracked")
    assert not fight.state.combat.pending  # one side left: the Stand Off is over
    with pytest.raises(IllegalCommand, match="only with Kevin's permission or order"):
        fight.apply(cmd("crouch", "guard"))
    fight.apply(cmd("crouch", "guard", permitted=True))  # Kevin lets him
    assert fight.state.token("guard").has_condition("crouched")


def test_taking_the_shot_drops_a_special_character_to_minus_one_wounds() -> None:
    fight = cracked_guard()
    fight.apply(cmd("take_the_shot", "guard"))
    guard = fight.state.token("guard")
    assert guard.stats["wounds"] == -1 and not guard.has_condition("cracked")
    assert not fight.state.combat.pending  # the damage ends the Stand Off


def test_taking_the_shot_kills_a_standard_character() -> None:
    fight = cracked_guard(special=False)
    # A standard guard could not call a Stand Off, but Kevin called this one.
    fight.apply(cmd("take_the_shot", "guard"))
    assert fight.state.token("guard").has_condition("dead")


def test_anyone_in_a_stand_off_may_surrender_and_nobody_else() -> None:
    fight = started(agent("kevin", 4, 4), agent("guard", 5, 4, Side.ENEMY), rolls=[1, 20])
    assert "not in a Stand Off" in fight.preview(cmd("surrender", "guard")).reasons[0]
    fight.apply(cmd("stand_off", "kevin", targets=["guard"]))
    fight.apply(cmd("surrender", "guard"))
    assert fight.state.token("guard").has_condition("surrendered")
    shot = fight.preview(cmd("take_the_shot", "kevin"))
    assert "has not cracked" in shot.reasons[0]


def _offered(fight: Encounter, actor: str, action: str) -> set[str]:
    return {o.name for o in fight.system.options_for(fight.state, actor, action)}


def test_only_a_surrendered_characters_forms_offer_his_captors_leave() -> None:
    """The "permitted" tick box sat on every action form of every token; the engine now
    offers it only where surrender binds the actor (a command may still carry it)."""
    fight = cracked_guard()
    assert "permitted" not in _offered(fight, "kevin", "crouch")
    assert "permitted" not in _offered(fight, "guard", "crouch")  # cracked, not surrendered
    fight.apply(cmd("surrender", "guard"))
    assert "permitted" in _offered(fight, "guard", "crouch")
    assert "permitted" in _offered(fight, "guard", "standard_attack")
    assert "permitted" not in _offered(fight, "guard", "take_the_shot")  # free of his leave
    assert "permitted" not in _offered(fight, "kevin", "standard_attack")
    assert _offered(fight, "kevin", "standard_attack") == {
        o.name for o in fight.system.options_of("standard_attack")} - {"permitted"}
