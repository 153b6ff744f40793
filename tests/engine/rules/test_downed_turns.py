"""A token that cannot act has its turn skipped or ended by the turn engine, as its system
says through ``RuleSystem.turn_allowance``, with a log line saying why; a token the rules
still let act (a d20 Disabled character) keeps its turn, within the limits."""

from __future__ import annotations

import pytest

from engine.dice import GivenDice
from engine.rules.base import Command, TurnAllowance, TurnKind
from engine.tokens import Side
from engine.turns.session import Encounter

from .cities_without_number import builders as cwn
from .d20_firearms import builders as d20
from .savage_worlds import builders as sw
from .spycraft import builders as spy


def texts(events: object) -> list[str]:
    return [e.text for e in events]  # type: ignore[attr-defined]


def knock_out(game: Encounter, token_id: str) -> None:
    game.apply(Command.build("gm_knock_out", targets=[token_id]))


def test_a_turn_that_is_not_full_must_say_why() -> None:
    with pytest.raises(ValueError, match="must say why"):
        TurnAllowance(TurnKind.SKIPPED)


# --------------------------------------------------------------------------- Spycraft 2.0


def spycraft_fight() -> Encounter:
    """a, b, c act in that order (initiative typed 20, 12, 5); a is active."""
    return spy.started(spy.agent("a", 0, 0), spy.agent("b", 3, 0), spy.agent("c", 6, 0, Side.ENEMY),
                       rolls=[20, 12, 5])


def test_spycraft_an_unconscious_agent_has_its_turn_skipped() -> None:
    game = spycraft_fight()
    assert game.state.combat.active == "a"
    knock_out(game, "b")
    events = game.apply(Command("end_turn"))
    assert "B is unconscious; turn skipped." in texts(events)
    assert game.state.combat.active == "c"
    assert game.state.combat.combatant("b").acted


def test_spycraft_an_unconscious_agent_takes_no_action_even_out_of_turn() -> None:
    game = spycraft_fight()
    knock_out(game, "b")
    preview = game.preview(Command.build("standard_attack", "b", targets=["c"], weapon="pistol"))
    assert "B is unconscious and can do nothing" in preview.reasons


def test_spycraft_a_dead_agent_has_its_turn_skipped() -> None:
    game = spycraft_fight()
    game.apply(Command.build("gm_condition", targets=["b"], condition="dead"))
    events = game.apply(Command("end_turn"))
    assert "B is dead; turn skipped." in texts(events)


def test_spycraft_a_surrendered_agent_keeps_its_turn() -> None:
    game = spycraft_fight()
    game.apply(Command.build("gm_condition", targets=["b"], condition="surrendered"))
    game.apply(Command("end_turn"))
    assert game.state.combat.active == "b"


# --------------------------------------------------------------------------- Savage Worlds


def savage_fight() -> Encounter:
    return sw.fight(sw.fighter("a", Side.PARTY, (0, 0)), sw.fighter("b", Side.PARTY, (2, 0)),
                    sw.fighter("c", Side.ENEMY, (6, 0)))


def test_savage_worlds_an_incapacitated_token_is_skipped_with_no_recovery_roll() -> None:
    game = savage_fight()
    game.apply(Command.build("gm_condition", targets=["b"], condition="Shaken"))
    knock_out(game, "b")
    events = game.apply(Command("end_turn"), GivenDice([]))  # no die is rolled for b
    assert "B is Incapacitated; turn skipped." in texts(events)
    assert not any("rolls Spirit" in text for text in texts(events))
    assert game.state.combat.active == "c"


def test_savage_worlds_a_token_still_shaken_keeps_its_turn_with_movement_only() -> None:
    game = savage_fight()
    game.apply(Command.build("gm_condition", targets=["b"], condition="Shaken"))
    events = game.apply(Command("end_turn"), GivenDice([1]))  # Spirit 1: stays Shaken
    assert "B stays Shaken: movement and free actions only." in texts(events)
    assert game.state.combat.active == "b"
    assert game.preview(Command.build("move", "b", squares=[(3, 0)])).legal


def test_savage_worlds_a_token_that_shakes_it_off_gets_a_full_turn_and_no_note() -> None:
    game = savage_fight()
    game.apply(Command.build("gm_condition", targets=["b"], condition="Shaken"))
    events = game.apply(Command("end_turn"), GivenDice([6]))
    assert game.state.combat.active == "b"
    assert not [text for text in texts(events) if "stays Shaken" in text or "skipped" in text]
    assert game.preview(Command.build("shooting", "b", targets=["c"], weapon="Pistol")).legal


# --------------------------------------------------------------------------- Cities Without Number


def test_cities_without_number_a_mortally_wounded_token_has_its_turn_skipped() -> None:
    game = cwn.fight(cwn.person("a", Side.PARTY, (0, 0)), cwn.person("b", Side.PARTY, (2, 0)),
                     cwn.person("c", Side.ENEMY, (8, 0)))
    game.apply(Command.build("gm_damage", targets=["b"], amount=10))  # 0 hit points
    events = game.apply(Command("end_turn"))
    assert "B is Mortally Wounded; turn skipped." in texts(events)
    assert game.state.combat.active == "c"


# --------------------------------------------------------------------------- d20 firearms


def d20_fight() -> Encounter:
    return d20.fight(d20.soldier("a", Side.PARTY, (0, 0)), d20.soldier("b", Side.PARTY, (2, 0)),
                     d20.soldier("c", Side.ENEMY, (10, 0)))


def test_d20_a_disabled_soldier_keeps_its_turn_for_a_single_action() -> None:
    game = d20_fight()
    game.apply(Command.build("gm_damage", targets=["b"], amount=20))  # exactly 0 hit points
    events = game.apply(Command("end_turn"))
    assert ("B is Disabled (0 hit points): a single attack or movement action this turn, "
            "and an attack costs 1 hit point." in texts(events))
    assert game.state.combat.active == "b"
    game.apply(Command.build("move", "b", squares=[(3, 0)]))
    again = game.preview(Command.build("move", "b", squares=[(4, 0)]))
    assert again.reasons == ("Disabled: the single action of this turn is taken",)
    assert game.preview(Command.build("drop_item", "b", weapon="Knife")).legal  # free


def test_d20_a_disabled_soldier_who_attacks_takes_1_damage_after_and_is_dying() -> None:
    game = d20_fight()
    game.apply(Command.build("gm_damage", targets=["b"], amount=20))
    game.apply(Command("end_turn"))
    events = game.apply(Command.build("attack", "b", targets=["c"], weapon="Assault rifle"))
    said = texts(events)
    assert said[-2:] == ["B strains while Disabled: 1 damage (-1 hit points, dying).",
                         "B is dying (-1 hit points): unconscious, it rolls d% on its turn to "
                         "stabilise."]
    assert game.state.token("b").stats["hp"] == -1
    assert game.state.token("b").has_condition("Dying")
    game.apply(Command("end_turn"))  # c's turn
    game.apply(Command("end_turn"))  # round 2: a's turn
    assert game.state.combat.round == 2 and game.state.combat.active == "a"
    events = game.apply(Command("end_turn"), GivenDice([50]))  # d% 50: no luck
    assert "B is dying (below 0 hit points); the turn ends." in texts(events)


def test_d20_a_disabled_soldier_who_only_moves_takes_no_damage() -> None:
    game = d20_fight()
    game.apply(Command.build("gm_damage", targets=["b"], amount=20))
    game.apply(Command("end_turn"))
    game.apply(Command.build("move", "b", squares=[(3, 0)]))
    assert game.state.token("b").stats["hp"] == 0


def test_d20_a_disabled_soldier_takes_no_full_round_or_multi_action_attack() -> None:
    game = d20_fight()
    game.apply(Command.build("gm_damage", targets=["b"], amount=20))
    game.apply(Command("end_turn"))
    full_auto = game.preview(Command.build("full_auto", "b", targets=["c"],
                                           weapon="Assault rifle"))
    assert "Disabled: a single attack or movement action a turn, not 3 actions" in (
        full_auto.reasons)


def test_d20_a_dying_soldier_s_turn_is_only_its_roll_to_stabilise() -> None:
    game = d20_fight()
    game.apply(Command.build("gm_damage", targets=["b"], amount=23))  # -3 hit points
    events = game.apply(Command("end_turn"), GivenDice([50]))
    assert "B is dying (below 0 hit points); the turn ends." in texts(events)
    assert game.state.combat.active == "c"
    assert "B is dying (below 0 hit points)" in game.preview(
        Command.build("move", "b", squares=[(3, 0)])).reasons


# --------------------------------------------------------------------------- the turn engine


def test_the_last_turns_of_a_round_skipped_pass_into_the_next_round() -> None:
    game = d20_fight()
    game.apply(Command.build("gm_damage", targets=["b"], amount=25))
    game.apply(Command.build("gm_damage", targets=["c"], amount=25))
    # a's ends; b's and c's are only their rolls to stabilise (d% 50: none stabilises).
    events = game.apply(Command("end_turn"), GivenDice([50, 50]))
    assert (game.state.combat.round, game.state.combat.active) == (2, "a")
    said = texts(events)
    assert said.index("C is dying (below 0 hit points); the turn ends.") < said.index(
        "Round 2 begins.")


def test_when_nobody_can_act_the_round_waits_and_end_turn_begins_the_next() -> None:
    game = d20_fight()
    for token_id in ("a", "b", "c"):  # -2: three turns of bleeding cannot kill
        game.apply(Command.build("gm_damage", targets=[token_id], amount=22))
    events = game.apply(Command("end_turn"))
    assert "Nobody else can act in round 2." in texts(events)
    assert game.state.combat.round == 2 and game.state.combat.active is None
    assert game.preview(Command("end_turn")).legal
    game.apply(Command("end_turn"))  # one round per command, never a loop
    assert game.state.combat.round == 3 and game.state.combat.active is None
    game.apply(Command.build("gm_heal", targets=["c"], amount=30))
    game.apply(Command("end_turn"))
    assert (game.state.combat.round, game.state.combat.active) == (4, "c")


def test_end_turn_is_still_refused_before_the_fight() -> None:
    game = Encounter(spy.state(spy.agent("a", 0, 0)))
    assert "it is nobody's turn" in game.preview(Command("end_turn")).reasons


# --------------------------------------------------------------------------- every system


def test_a_token_out_of_the_fight_is_skipped_in_silence_after_the_first_time() -> None:
    """A dead token's "turn skipped" filled the log every round: the log says it once; the
    tracker reads it out of the fight (``TrackerEntry.out``) every round."""
    game = spycraft_fight()
    game.apply(Command.build("gm_condition", targets=["b"], condition="dead"))
    first = texts(game.apply(Command("end_turn")))
    assert "B's turn." in first and "B is dead; turn skipped." in first
    game.apply(Command("end_turn"))  # c's ends: round 2, a's turn
    later = texts(game.apply(Command("end_turn")))  # a's ends: b is passed over
    assert not [text for text in later if text.startswith("B")]
    assert game.state.combat.active == "c"
    combatant = game.state.combat.combatant("b")
    assert game.system.tracker_entry(game.state, combatant).out == "dead"
    assert game.system.tracker_entry(game.state, game.state.combat.combatant("a")).out == ""
    game.apply(Command.build("gm_condition", targets=["b"], condition="dead", present=False))
    game.apply(Command("end_turn"))  # c's ends: round 3, a's turn
    game.apply(Command("end_turn"))  # b acts again: the next skip is told again
    assert game.state.combat.active == "b"


@pytest.mark.parametrize(("fight", "out"), [
    (savage_fight, "Incapacitated"), (d20_fight, "Disabled"),
])
def test_the_tracker_reads_a_downed_token_out(fight, out: str) -> None:  # type: ignore[no-untyped-def]
    game = fight()
    knock_out(game, "b")
    entry = game.system.tracker_entry(game.state, game.state.combat.combatant("b"))
    assert entry.out == out  # crossed out on the map, marked out in the tracker


def test_the_gm_takes_a_token_out_of_the_order_but_not_the_acting_one() -> None:
    game = spycraft_fight()
    refused = game.preview(Command.build("gm_leave_order", targets=["a"]))
    assert "it is A's turn: end it first" in refused.reasons
    game.apply(Command.build("gm_leave_order", targets=["b"]))
    assert not game.state.combat.has("b") and game.state.token("b")
    game.apply(Command("end_turn"))
    assert game.state.combat.active == "c"
    game.undo()
    game.undo()
    assert game.state.combat.has("b")
