"""The helpers the Savage Worlds, Cities Without Number and d20 firearms systems share."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.grid import FIVE_FOOT, Square
from engine.rules import common
from engine.rules.base import Command, Event, EventKind, Preview
from engine.rules.d20_firearms.catalogue import action_spec
from engine.rules.d20_firearms.schema import STATS
from engine.tokens import Condition, Side, Token, Weapon
from engine.turns.combat import Combatant, CombatState, Phase

RIFLE = Weapon("Rifle", "2d8", 80)
KNIFE = Weapon("Knife", "1d4", melee=True)


def _state(*tokens: Token, active: str | None = None,
           acted: tuple[str, ...] = ()) -> EncounterState:
    order = tuple(Combatant(t.id, 10 - i, (0,), {}, acted=t.id in acted)
                  for i, t in enumerate(tokens))
    combat = CombatState(phase=Phase.ROUND, round=2, order=order, active=active)
    return EncounterState("Test", "d20-firearms", FIVE_FOOT, BattleMap(10, 10), tokens,
                          combat=combat)


def _token(tid: str, side: Side, x: int, **stats: int | float | str | bool) -> Token:
    return Token(tid, tid.title(), side, Square(x, 0), weapons=(KNIFE, RIFLE), stats=stats)


def test_next_turn_is_next_round_once_the_token_has_acted_or_is_acting() -> None:
    a, b, c = (_token(t, Side.PARTY, x) for t, x in (("a", 0), ("b", 2), ("c", 4)))
    state = _state(a, b, c, active="b", acted=("a",))
    assert [common.next_turn_round(state, t) for t in "abc"] == [3, 3, 2]
    assert common.until_next_turn(state, "c").round == 2


def test_foes_and_friends_split_by_side_without_the_actor() -> None:
    me, ally = _token("me", Side.PARTY, 0), _token("ally", Side.PARTY, 2)
    foe = _token("foe", Side.ENEMY, 4)
    foes, friends = common.foes_and_friends(_state(me, ally, foe), me)
    assert [t.id for t in foes] == ["foe"]
    assert [t.id for t in friends] == ["ally"]


def test_losing_hit_points_to_zero_marks_the_token_down() -> None:
    target = _token("t", Side.ENEMY, 0, hp=5)

    def mark_down(state: EncounterState, tid: str) -> tuple[EncounterState, Event]:
        token = state.token(tid)
        marked = state.with_token(replace(token, conditions=(Condition("Down"),)))
        return marked, Event(EventKind.CONDITION, "down", (tid,))

    state, events = common.lose_hit_points(STATS, _state(target), "t", 3, mark_down)
    assert state.token("t").stat("hp") == 2
    assert len(events) == 1
    assert not state.token("t").has_condition("Down")
    state, events = common.lose_hit_points(STATS, state, "t", 1, mark_down)
    assert [e.text for e in events] == ["T takes 1 damage (1 hit point left)."]
    state, events = common.lose_hit_points(STATS, state, "t", 1, mark_down)
    assert state.token("t").stat("hp") == 0
    assert state.token("t").has_condition("Down")
    assert [e.text for e in events] == ["T takes 1 damage (0 hit points left).", "down"]


def test_chosen_weapon_prefers_the_named_then_the_first_of_the_kind() -> None:
    token = _token("a", Side.PARTY, 0)
    assert common.chosen_weapon(token, Command("x", "a", weapon="Rifle")) == RIFLE
    assert common.chosen_weapon(token, Command("x", "a"), melee=False) == RIFLE
    assert common.chosen_weapon(token, Command("x", "a")) == KNIFE
    unarmed = Token("u", "U", Side.PARTY, Square(0, 0))
    assert common.chosen_weapon(unarmed, Command("x", "u"), melee=True) is None


def test_handler_table_refuses_keys_outside_the_catalogue() -> None:
    table = common.HandlerTable(action_spec)

    def describe(state: EncounterState, command: Command) -> Preview:
        return Preview(command, True)

    table.register("attack", lambda s, c: [], describe, lambda s, c, d: (s, ()))
    assert table["attack"].key == "attack"
    with pytest.raises(KeyError, match="no_such_action"):
        table.register("no_such_action", lambda s, c: [], describe, lambda s, c, d: (s, ()))


def test_fight_reasons_refuse_before_combat_and_for_a_fallen_actor() -> None:
    a = _token("a", Side.PARTY, 0)
    state = _state(a, active="a")
    assert common.fight_reasons(state, a, lambda t: False, "is down") == []
    assert common.fight_reasons(state, a, lambda t: True, "is down") == ["A is down"]
    setup = EncounterState("Test", "d20-firearms", FIVE_FOOT, BattleMap(10, 10), (a,))
    assert common.fight_reasons(setup, a, lambda t: False, "is down") == [
        "combat is not running: start combat first"]
    assert common.not_your_turn(state, _token("b", Side.PARTY, 2)) == "it is A's turn, not B's"
