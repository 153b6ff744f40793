"""Spycraft Action Dice pools (issue 17, must-have 9): each character has a pool the GM sets,
shown on the token; actions spend from it only when a die is used, and are refused when it is
empty. The GM has a pool to activate errors. Numbers in our own words from the texts: a die
boosts an Initiative check, heals on a Refresh, buys Cover Fire's final attack; an activated
error costs the character 2 fluid Initiative."""

from __future__ import annotations

from engine.rules import get_system
from engine.rules.base import Command, IllegalCommand
from engine.rules.spycraft.schema import STATS
from engine.tokens import Side, Token
from engine.turns.session import Encounter
from tests.engine.rules.spycraft.builders import agent, cmd, started


def duel(kevin: Token | None = None, **start: object) -> Encounter:
    """Kevin acts first (a typed 20 + 2), the guard second (1 + 2)."""
    return started(kevin or agent("kevin", 1, 1),
                   agent("guard", 3, 1, Side.ENEMY, vitality=0, wounds=30), rolls=[20, 1],
                   **start)


def dice_left(game: Encounter, token_id: str = "kevin") -> int:
    return STATS.number(game.state.token(token_id), "action_dice")


SHOT = cmd("standard_attack", "kevin", targets=["guard"], weapon="pistol", action_die=True)


def test_a_threat_made_critical_spends_one_die_from_the_pool() -> None:
    game = duel()
    game.apply(SHOT, [19, 5, 5])  # the pistol threatens on 19
    assert dice_left(game) == 2
    assert any("Kevin spends an Action Die: critical hit" in e.text for e in game.log)


def test_no_threat_spends_nothing() -> None:
    game = duel()
    game.apply(SHOT, [12, 5])
    assert dice_left(game) == 3


def test_an_empty_pool_refuses_the_die() -> None:
    game = duel(agent("kevin", 1, 1, action_dice=0))
    preview = game.preview(SHOT)
    assert not preview.legal and "Kevin has no Action Dice left" in preview.reasons
    plain = cmd("standard_attack", "kevin", targets=["guard"], weapon="pistol")
    assert game.preview(plain).legal


def test_the_pool_shows_as_pips_against_its_size() -> None:
    game = duel(agent("kevin", 1, 1, action_dice=2, max_action_dice=4))
    gauge = next(g for g in get_system("spycraft").gauges(game.state, game.state.token("kevin"))
                 if g.key == "action_dice")
    assert (gauge.text, gauge.style.value) == ("Action Dice 2/4", "pips")


def test_refresh_heals_by_a_die_spent_from_the_pool() -> None:
    game = duel(agent("kevin", 1, 1, vitality=5))
    game.apply(cmd("refresh", "kevin"))
    game.apply(Command("end_turn"))
    game.apply(Command("end_turn"), [3])  # Kevin's next turn: the 1d4 Action Die shows 3
    assert game.state.token("kevin").stat("vitality") == 8
    assert dice_left(game) == 2


def test_refresh_is_refused_with_no_die_to_heal_with() -> None:
    game = duel(agent("kevin", 1, 1, action_dice=0))
    assert "no Action Die left" in " ".join(game.preview(cmd("refresh", "kevin")).reasons)


def test_the_gms_die_activates_an_error_and_costs_two_fluid_initiative() -> None:
    game = duel(gm_action_dice=2)
    check = cmd("action_check", "kevin", name="pick the lock", skill="tactics", dc=15,
                activate_error=True)
    game.apply(check, [1])  # a natural 1: an error, activated
    assert game.state.combat.data["gm_action_dice"] == 1
    game.apply(Command("end_turn"))
    game.apply(Command("end_turn"))  # the round ends: 22 - 2
    assert game.state.combat.combatant("kevin").initiative == 20


def test_the_gm_with_no_dice_cannot_activate_an_error() -> None:
    game = duel()
    check = cmd("action_check", "kevin", name="pick the lock", dc=15, activate_error=True)
    assert "the GM has no Action Dice left" in " ".join(game.preview(check).reasons)


def test_a_die_boosts_an_initiative_check_at_the_start() -> None:
    game = started(agent("kevin", 1, 1), agent("guard", 3, 1, Side.ENEMY), rolls=[5, 10, 4],
                   boost=["kevin"])  # Kevin 5 + 2 + a 4 on his Action Die = 11
    assert game.state.combat.combatant("kevin").initiative == 11
    assert dice_left(game) == 2


def test_no_boost_from_an_empty_pool() -> None:
    try:
        started(agent("kevin", 1, 1, action_dice=0), agent("guard", 3, 1, Side.ENEMY),
                rolls=[5, 10, 4], boost=["kevin"])
    except (IllegalCommand, ValueError) as error:
        assert "Kevin has no Action Dice left" in str(error)
    else:
        raise AssertionError("an empty pool boosted an Initiative check")


def test_a_standard_character_spends_the_gms_dice() -> None:
    thug = agent("kevin", 1, 1, special=False)
    game = duel(thug, gm_action_dice=1)
    assert not [g for g in get_system("spycraft").gauges(game.state, game.state.token("kevin"))
                if g.key == "action_dice"]
    game.apply(SHOT, [19, 5, 5])
    assert game.state.combat.data["gm_action_dice"] == 0
    assert "Kevin has no Action Dice left" in game.preview(SHOT).reasons  # the GM's is empty


def test_a_check_against_a_dc_with_no_skill_is_refused_not_a_crash() -> None:
    """Found by the malformed-command property test: a DC with the Skill left empty read the
    stat '' and raised UndeclaredStat from the preview."""
    game = duel()
    check = cmd("action_check", "kevin", name="shouts a warning", dc=0)
    preview = game.preview(check)
    assert not preview.legal
    assert "names the skill" in " ".join(preview.reasons)
