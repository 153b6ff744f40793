"""The GM's overrides: each is a command, logged in plain words, and one undo step."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.rules import get_system, gm_overrides, system_names
from engine.rules.base import BadOptions, Command, IllegalCommand
from engine.rules.spycraft import board as spy
from engine.tokens import Side, Token, Weapon
from engine.turns.session import Encounter
from tests.engine.rules.test_portal_command import doorway

HEALTH = {
    "spycraft": {"vitality": 20, "max_vitality": 20, "wounds": 10, "max_wounds": 10},
    "savage-worlds": {"wounds": 0, "toughness": 5, "wild_card": True},
    "cities-without-number": {"hp": 12, "max_hp": 12},
    "d20-firearms": {"hp": 12, "max_hp": 12},
}


def fight_in(system: str) -> Encounter:
    state = doorway(system)
    agent = replace(
        state.token("a"),
        stats=dict(HEALTH[system]),
        weapons=(Weapon("Pistol", "2d6", 30, ammo=7, capacity=15),),
    )
    return Encounter(state.with_token(agent))


def gm(action: str, weapon: str | None = None, **options: object) -> Command:
    return Command.build(action, targets=["a"], weapon=weapon, **options)  # type: ignore[arg-type]


def test_every_override_has_a_catalogue_entry() -> None:
    assert {spec.key for spec in gm_overrides.specs()} == gm_overrides.GM_ACTION_KEYS
    system = get_system("spycraft")
    for key in gm_overrides.GM_ACTION_KEYS:
        assert system.action(key).category == "gm"


def apply_and_undo(fight: Encounter, command: Command) -> tuple[Token, str]:
    """Apply, return the changed token and the first log line; then undo and check it all."""
    before = fight.state
    fight.apply(command)
    token = fight.state.token("a")
    first_line = fight.log[len(before.combat.log)].text
    fight.undo()
    assert fight.state == before
    return token, first_line


@pytest.mark.parametrize("system", system_names())
def test_damage_then_heal_by_the_systems_rules(system: str) -> None:
    fight = fight_in(system)
    amount = 9 if system == "savage-worlds" else 5  # Savage: 9 vs Toughness 5 is a raise
    hurt, said = apply_and_undo(fight, gm("gm_damage", amount=amount))
    assert said == f"GM deals {amount} damage to Agent."
    if system == "spycraft":
        assert (hurt.stats["vitality"], hurt.stats["wounds"]) == (15, 10)
    elif system == "savage-worlds":
        assert hurt.stats["wounds"] == 1 and hurt.has_condition("Shaken")
    else:
        assert hurt.stats["hp"] == 7
    fight.apply(gm("gm_damage", amount=amount))
    healed, said = apply_and_undo(fight, gm("gm_heal", amount=3))
    assert said == "GM heals Agent by 3."
    if system == "spycraft":
        assert healed.stats["vitality"] == 18
    elif system == "savage-worlds":
        assert healed.stats["wounds"] == 0
    else:
        assert healed.stats["hp"] == 10


def test_spycraft_heal_stops_at_the_maxima() -> None:
    fight = fight_in("spycraft")
    fight.apply(gm("gm_damage", amount=4))
    fight.apply(gm("gm_heal", amount=50))
    token = fight.state.token("a")
    assert (token.stats["vitality"], token.stats["wounds"]) == (20, 10)


@pytest.mark.parametrize("system", system_names())
def test_knock_out_and_revive(system: str) -> None:
    fight = fight_in(system)
    down = get_system(system).down_condition
    out, said = apply_and_undo(fight, gm("gm_knock_out"))
    assert out.has_condition(down)
    assert said == "GM knocks Agent out of the fight."
    fight.apply(gm("gm_knock_out"))
    with pytest.raises(IllegalCommand, match="already"):
        fight.apply(gm("gm_knock_out"))
    back, said = apply_and_undo(fight, gm("gm_revive"))
    assert not back.has_condition(down)
    assert said == "GM brings Agent back into the fight."


def test_hit_point_damage_to_zero_downs_the_token_and_healing_brings_it_back() -> None:
    fight = fight_in("d20-firearms")
    fight.apply(gm("gm_damage", amount=12))
    assert fight.state.token("a").has_condition("Disabled")
    fight.apply(gm("gm_heal", amount=1))
    assert not fight.state.token("a").has_condition("Disabled")


def test_spycraft_damage_past_wounds_knocks_out() -> None:
    fight = fight_in("spycraft")
    fight.apply(gm("gm_damage", amount=30))
    assert fight.state.token("a").has_condition(spy.UNCONSCIOUS)


@pytest.mark.parametrize("system", system_names())
def test_add_and_remove_a_condition(system: str) -> None:
    fight = fight_in(system)
    on, said = apply_and_undo(fight, gm("gm_condition", condition="Blinded", present=True))
    assert on.has_condition("Blinded") and said == "GM makes Agent Blinded."
    fight.apply(gm("gm_condition", condition="Blinded", present=True))
    off, said = apply_and_undo(fight, gm("gm_condition", condition="Blinded", present=False))
    assert not off.has_condition("Blinded") and said == "GM ends Agent's Blinded."
    fight.apply(gm("gm_condition", condition="Blinded", present=False))
    with pytest.raises(IllegalCommand, match="Agent is not Blinded"):
        fight.apply(gm("gm_condition", condition="Blinded", present=False))


def test_set_ammunition_within_the_capacity() -> None:
    fight = fight_in("spycraft")
    token, said = apply_and_undo(fight, gm("gm_ammo", weapon="Pistol", ammo=15))
    assert token.weapon("Pistol").ammo == 15
    assert said == "GM sets Agent's Pistol to 15 rounds."
    for bad, reason in ((16, "at most 15"), (-1, "0 or more")):
        with pytest.raises(IllegalCommand, match=reason):
            fight.apply(gm("gm_ammo", weapon="Pistol", ammo=bad))
    with pytest.raises(IllegalCommand, match="no weapon called 'Rifle'"):
        fight.apply(gm("gm_ammo", weapon="Rifle", ammo=1))


def test_change_a_count() -> None:
    fight = fight_in("savage-worlds")
    token, said = apply_and_undo(fight, gm("gm_stat", stat="fatigue", value=1))
    assert token.stats["fatigue"] == 1
    assert said == "GM sets Agent's fatigue to 1."
    with pytest.raises(BadOptions, match="option 'value' must be a whole number"):
        fight.apply(gm("gm_stat", stat="fatigue", value="lots"))
    with pytest.raises(IllegalCommand, match="has no stat 'fatigu'"):
        fight.apply(gm("gm_stat", stat="fatigu", value=1))
    with pytest.raises(IllegalCommand, match="fatigue"):
        fight.apply(gm("gm_stat", stat="fatigue", value=7))  # the schema allows 0..2


@pytest.mark.parametrize("system", ["spycraft", "d20-firearms"])
def test_change_initiative_and_budget_in_a_fight(system: str) -> None:
    fight = fight_in(system)
    with pytest.raises(IllegalCommand, match="not in the initiative order"):
        fight.apply(gm("gm_initiative", value=3))
    fight.apply(Command("start_combat"))
    fight.apply(gm("gm_initiative", value=99))
    assert fight.state.combat.order[0].token_id == "a"
    assert fight.state.combat.combatant("a").initiative == 99
    pool = next(iter(fight.state.combat.combatant("a").budget))
    fight.apply(gm("gm_budget", pool=pool, value=0))
    assert fight.state.combat.combatant("a").budget[pool] == 0
    assert fight.log[-1].text == f"GM sets Agent's {pool} left to 0."
    with pytest.raises(IllegalCommand, match="pool= must be one of"):
        fight.apply(gm("gm_budget", pool="nonsense", value=1))


def test_overrides_need_exactly_one_token() -> None:
    fight = fight_in("spycraft")
    preview = fight.preview(Command.build("gm_damage", amount=3))
    assert not preview.legal and preview.reasons == ("say which one token (targets=[id])",)
    preview = fight.preview(gm("gm_damage", amount=0))
    assert preview.reasons == ("option amount= must be 1 or more, not 0",)
    assert fight.preview(gm("gm_damage", amount=2)).summary == "GM deals 2 damage to Agent."


def test_an_enemy_token_takes_damage_too() -> None:
    fight = fight_in("cities-without-number")
    guard = fight.state.token("b")
    assert guard.side is Side.ENEMY
    fight.apply(Command.build("gm_damage", targets=["b"], amount=4))
    assert fight.state.token("b").stats["hp"] == 6  # 10 by default


def test_d20_revive_below_zero_leaves_the_token_fit_next_turn() -> None:
    """Revive on a dying d20 token lifted the mark but left -3 hit points: its next turn
    found it dying again. The system's revive hook raises hit points to 1 (our choice)."""
    from engine.rules.d20_firearms import board as d20_board
    from engine.rules.d20_firearms.health import REVIVED_HIT_POINTS

    fight = fight_in("d20-firearms")
    fight.apply(gm("gm_damage", amount=15))  # 12 hit points: -3, dying
    assert fight.state.token("a").has_condition("Dying")
    fight.apply(gm("gm_revive"))
    token = fight.state.token("a")
    assert token.stats["hp"] == REVIVED_HIT_POINTS == 1
    assert get_system("d20-firearms").down_mark(token) == ""
    assert d20_board.health(token) is d20_board.Health.FIT  # not dying on its next turn


def test_revive_changes_no_hit_points_where_the_system_says_nothing() -> None:
    fight = fight_in("spycraft")
    fight.apply(gm("gm_knock_out"))
    before = dict(fight.state.token("a").stats)
    fight.apply(gm("gm_revive"))
    assert fight.state.token("a").stats == before
