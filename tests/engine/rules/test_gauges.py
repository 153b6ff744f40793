"""Each rule system reports a token's health as gauges, and they follow damage."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.files import load_encounter
from engine.rules import get_system
from engine.rules.base import Command
from engine.rules.gauges import Gauge, GaugeStyle
from engine.rules.savage_worlds import board
from engine.turns.session import Encounter
from tests.engine.rules.test_portal_command import doorway

MAPS = {
    "spycraft": "maps/warehouse.killbox",
    "savage-worlds": "maps/night_street.killbox",
    "cities-without-number": "maps/office_floor.killbox",
    "d20-firearms": "maps/compound.killbox",
}


def by_key(gauges: tuple[Gauge, ...]) -> dict[str, Gauge]:
    return {g.key: g for g in gauges}


def test_spycraft_vitality_and_wounds_bars() -> None:
    state = load_encounter(MAPS["spycraft"]).state
    kestrel = next(t for t in state.tokens if t.name == "Kestrel")
    gauges = by_key(get_system("spycraft").gauges(state, kestrel))
    assert gauges["vitality"] == Gauge("vitality", "Vitality", 45, 45)
    assert gauges["wounds"] == Gauge("wounds", "Wounds", 14, 14)
    assert all(g.style is GaugeStyle.BAR for g in gauges.values())


def test_spycraft_standard_npc_shows_wounds_only() -> None:
    state = load_encounter(MAPS["spycraft"]).state
    system = get_system("spycraft")
    standard = [t for t in state.tokens if not t.stats.get("special", True)]
    assert standard
    for token in standard:
        assert [g.key for g in system.gauges(state, token)] == ["wounds"]


def test_savage_worlds_wounds_fatigue_pips_and_shaken_flag() -> None:
    state = load_encounter(MAPS["savage-worlds"]).state
    system = get_system("savage-worlds")
    vega = next(t for t in state.tokens if t.name == "Det. Rosa Vega")
    gauges = by_key(system.gauges(state, vega))
    assert gauges["wounds"] == Gauge("wounds", "Wounds", 0, 3, GaugeStyle.PIPS, harm=True)
    fatigue = gauges["fatigue_level"]
    assert fatigue.maximum == 2 and fatigue.style is GaugeStyle.PIPS
    assert "Shaken" not in gauges
    fight = Encounter(state)
    # A damage total of Toughness + 4 is a raise: Shaken and one Wound.
    toughness = board.toughness(vega)
    fight.apply(Command("gm_damage", targets=(vega.id,), options=(("amount", toughness + 4),)))
    gauges = by_key(system.gauges(fight.state, fight.state.token(vega.id)))
    assert gauges["wounds"].value == 1
    assert gauges["Shaken"].style is GaugeStyle.FLAG
    assert gauges["Shaken"].text == "Shaken"


@pytest.mark.parametrize("system", ["cities-without-number", "d20-firearms"])
def test_hit_point_systems_show_hp_against_max(system: str) -> None:
    state = load_encounter(MAPS[system]).state
    token = state.tokens[0]
    gauges = by_key(get_system(system).gauges(state, token))
    hp = int(token.stats["hp"])
    assert gauges["hp"] == Gauge("hp", "HP", hp, int(token.stats["max_hp"]))
    fight = Encounter(state)
    fight.apply(Command("gm_damage", targets=(token.id,), options=(("amount", 3),)))
    after = by_key(get_system(system).gauges(fight.state, fight.state.token(token.id)))
    assert after["hp"].value == hp - 3
    assert after["hp"].text == f"HP {hp - 3}/{hp}"


def test_cities_without_number_shows_system_strain_when_the_token_has_it() -> None:
    state = doorway("cities-without-number")
    token = replace(state.tokens[0], stats={"hp": 8, "max_hp": 8, "strain": 2, "max_strain": 10})
    gauges = by_key(get_system("cities-without-number").gauges(state, token))
    assert gauges["strain"].text == "System Strain 2/10"


def test_a_gauge_without_maximum_shows_its_value_alone() -> None:
    gauge = Gauge("hp", "HP", 7)
    assert gauge.text == "HP 7"
    assert gauge.fraction == 1.0
    assert Gauge("wounds", "Wounds", 2, 3, harm=True).health == pytest.approx(1 / 3)
