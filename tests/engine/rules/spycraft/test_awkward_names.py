"""Token ids and weapon names may hold any character: Spycraft's lists of ids (start_combat's
deliberate, boost, unaware, acting, group_initiative; a Joint Action's order) are typed
lists, never text split on commas."""

from __future__ import annotations

import pytest

from engine.rules.base import BadOptions
from engine.tokens import Side
from tests.engine.rules.spycraft.builders import agent, cmd, started

#: An id holding every separator a packed string split on.
ODD = 'kev, "the|one"=x;y:z'


def test_start_options_take_ids_of_any_character() -> None:
    fight = started(agent(ODD, 1, 1, action_dice=2), agent("guard", 8, 1, Side.ENEMY),
                    rolls=[3, 20, 4], deliberate=[ODD], boost=[ODD])
    assert not fight.state.token(ODD).has_condition("flat-footed")
    assert fight.state.combat.combatant(ODD).initiative == 2 + 3 + 4  # bonus, roll, die
    with pytest.raises(BadOptions, match="option 'deliberate' must be a list of token ids"):
        started(agent(ODD, 1, 1), agent("guard", 8, 1, Side.ENEMY), deliberate=ODD)


def test_the_surprise_options_take_sides_and_ids_as_lists() -> None:
    fight = started(agent(ODD, 1, 1, stealth=10), agent("guard", 8, 1, Side.ENEMY),
                    awareness="some", acting=["party"], unaware=["guard"], rolls=[15, 3, 3])
    assert fight.state.combat.combatant(ODD).data["surprise"] is True
    with pytest.raises(BadOptions, match="option 'acting' entries must be among"):
        started(agent(ODD, 1, 1), agent("guard", 8, 1, Side.ENEMY), awareness="some",
                acting=["party,enemy"])


def test_a_joint_action_order_of_odd_ids() -> None:
    buddy = 'bud|dy, "2"'
    fight = started(agent(ODD, 1, 1, initiative=3, cha=1, tactics=2),
                    agent(buddy, 2, 1, initiative=0), agent("camper", 9, 9, Side.ENEMY,
                                                            initiative=0),
                    rolls=[12, 5, 10])
    joined = fight.preview(cmd("joint_action", ODD, targets=[buddy], order=[f"{buddy},{ODD}"]))
    assert joined.reasons == ("the order must name the leader and each chosen teammate once",)
    fight.apply(cmd("joint_action", ODD, targets=[buddy], order=[buddy, ODD]), [19])
    while fight.state.combat.round == 1:
        fight.apply(cmd("end_turn"))
    assert [c.token_id for c in fight.state.combat.order][:2] == [buddy, ODD]
