"""Spycraft fluid initiative rows the map can see (issue 17, must-have 8): a move slowed by
terrain queues its modifier by itself, a counted condition that ended during the round still
counts at the round's end (once), and the gathered modifiers show on the token and tracker."""

from __future__ import annotations

from dataclasses import replace

from engine.battlemap import BattleMap, TerrainKind, TerrainPatch
from engine.encounter import EncounterState
from engine.grid import FIVE_FOOT, Square
from engine.rules import get_system
from engine.rules.base import Command
from engine.tokens import Condition, Expiry, ExpiryPoint, Side, Token
from engine.turns.session import Encounter
from tests.engine.rules.spycraft.builders import agent

MUD = TerrainPatch("mud", TerrainKind.DIFFICULT, frozenset({Square(2, 1), Square(3, 1)}))


def fight(*tokens: Token) -> Encounter:
    """Kevin acts first on 22 (a typed 20 + 2), the guard on 3."""
    state = EncounterState("Test", "spycraft", FIVE_FOOT, BattleMap(12, 12, terrain=(MUD,)),
                           tokens or (agent("kevin", 1, 1), agent("guard", 9, 9, Side.ENEMY)))
    game = Encounter(state, seed=1)
    game.apply(Command("start_combat"), [20, 1])
    return game


def end_round(game: Encounter) -> None:
    game.apply(Command("end_turn"))
    game.apply(Command("end_turn"))


def count(game: Encounter, token_id: str) -> int:
    return game.state.combat.combatant(token_id).initiative


def test_a_move_slowed_by_terrain_costs_two_at_the_rounds_end() -> None:
    game = fight()
    through_mud = Command.build("standard_move", "kevin", squares=[(2, 1), (3, 1), (4, 1)])
    assert any("Terrain slows Kevin: -2" in n for n in game.preview(through_mud).notes)
    game.apply(through_mud)
    end_round(game)
    assert count(game, "kevin") == 20


def test_each_slowed_move_counts_again() -> None:
    # Each row of the table may apply more than once a round.
    game = fight()
    game.apply(Command.build("standard_move", "kevin", squares=[(2, 1)]))
    game.apply(Command.build("standard_move", "kevin", squares=[(3, 1)]))
    end_round(game)
    assert count(game, "kevin") == 18


def test_a_move_on_open_ground_costs_nothing() -> None:
    game = fight()
    open_ground = Command.build("standard_move", "kevin", squares=[(1, 2), (1, 3)])
    assert not any("Terrain" in n for n in game.preview(open_ground).notes)
    game.apply(open_ground)
    end_round(game)
    assert count(game, "kevin") == 22


def test_bleeding_that_stopped_during_the_round_still_counts_once() -> None:
    # Bleeding ends at the end of Kevin's turn in round 1; the table's condition rows apply
    # even when the condition ends during the round, once each round.
    kevin = agent("kevin", 1, 1)
    kevin = replace(kevin, conditions=(Condition("bleeding", Expiry(1, ExpiryPoint.END_OF_TURN,
                                                                      "kevin")),))
    game = fight(kevin, agent("guard", 9, 9, Side.ENEMY))
    game.apply(Command("end_turn"))
    assert not game.state.token("kevin").has_condition("bleeding")
    game.apply(Command("end_turn"))  # the round ends
    assert count(game, "kevin") == 21
    end_round(game)  # round 2: no bleeding at all
    assert count(game, "kevin") == 21


def test_the_gathered_modifier_shows_on_the_token_and_in_the_tracker() -> None:
    game = fight()
    system = get_system("spycraft")
    assert not [g for g in system.gauges(game.state, game.state.token("kevin"))
                if g.key == "fluid"]
    game.apply(Command.build("standard_move", "kevin", squares=[(2, 1)]))
    flags = [g for g in system.gauges(game.state, game.state.token("kevin")) if g.key == "fluid"]
    assert len(flags) == 1 and flags[0].text.startswith("Count -2 at round's end")
    # The chip says the change alone, and as news, not harm (it looked like a wound).
    assert flags[0].label == "Count -2" and not flags[0].harm


def test_the_gms_fluid_event_still_counts_for_what_the_map_cannot_see() -> None:
    game = fight()
    game.apply(Command.build("fluid_event", "kevin", event="triumph"))
    end_round(game)
    assert count(game, "kevin") == 32
