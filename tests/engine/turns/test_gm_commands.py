"""GM commands every system shares: place, add and remove tokens, start/end turns."""


from engine.grid import Square
from engine.tokens import Side, Token
from tests.engine.rules.spycraft.builders import agent, cmd, started


def test_a_token_added_mid_fight_enters_with_an_initiative_check() -> None:
    fight = started(agent("kevin", 1, 1), agent("guard", 8, 1, Side.ENEMY), rolls=[18, 2])
    newcomer = Token("dog", "Dog", Side.ENEMY, Square(8, 8), stats={"initiative": 1})
    fight.apply(cmd("add_token", token=newcomer))
    assert fight.state.token("dog").square == (8, 8)
    fight.apply(cmd("enter_combat", "dog"), [9])  # Count 10: after Kevin's 20, so this round
    dog = fight.state.combat.combatant("dog")
    assert dog.initiative == 10 and not dog.acted
    assert fight.state.token("dog").has_condition("flat-footed")
    fight.apply(cmd("end_turn"))
    assert fight.state.combat.active == "dog"


def test_adding_a_token_on_an_occupied_square_is_refused() -> None:
    fight = started(agent("kevin", 1, 1), agent("guard", 8, 1, Side.ENEMY), rolls=[18, 2])
    clash = Token("dog", "Dog", Side.ENEMY, Square(1, 1))
    refused = fight.preview(cmd("add_token", token=clash))
    assert not refused.legal and refused.reasons == ("Kevin already stands on (1,1)",)


def test_removing_the_active_token_passes_the_turn() -> None:
    fight = started(agent("kevin", 1, 1), agent("guard", 8, 1, Side.ENEMY), rolls=[18, 2])
    fight.apply(cmd("remove_token", targets=["kevin"]))
    assert fight.state.combat.active == "guard"
    assert not fight.state.combat.has("kevin")
    fight.undo()
    assert fight.state.combat.active == "kevin"
