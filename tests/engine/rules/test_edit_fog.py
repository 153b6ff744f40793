"""set_fog: the GM's hand-set fog, over the party's sight; saved, loaded and undone."""

from __future__ import annotations

import pytest

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.files import encounter_from_json, encounter_to_json
from engine.fog import FogMode, ManualFog
from engine.grid import FIVE_FOOT, Square
from engine.rules.base import BadOptions, Command
from engine.turns.session import Encounter


def fight() -> Encounter:
    return Encounter(EncounterState("Fog", "spycraft", FIVE_FOOT, BattleMap(8, 6)))


def test_reveal_hide_and_hand_back_each_one_undo_step() -> None:
    f = fight()
    f.apply(Command.build("set_fog", rect=[(0, 0), (1, 1)], mode="reveal"))
    assert f.state.fog.revealed == {Square(0, 0), Square(1, 0), Square(0, 1), Square(1, 1)}
    assert f.state.combat.log[-1].text == "GM reveals 4 squares to the players."
    f.apply(Command.build("set_fog", squares=[(1, 1)], mode="hide"))
    assert Square(1, 1) in f.state.fog.hidden and Square(1, 1) not in f.state.fog.revealed
    f.apply(Command.build("set_fog", squares=[(0, 0)], mode="automatic"))
    assert Square(0, 0) not in f.state.fog.revealed
    f.apply(Command.build("set_fog", mode="automatic", all=True))
    assert f.state.fog.empty
    for _ in range(4):
        f.undo()
    assert f.state.fog == ManualFog()


def test_the_fog_saves_and_loads() -> None:
    f = fight()
    f.apply(Command.build("set_fog", rect=[(2, 2), (3, 2)], mode="hide"))
    again = encounter_from_json(encounter_to_json(f.state))
    assert again.fog == f.state.fog


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"mode": "reveal"}, "say which squares"),
        ({"rect": [(7, 5), (8, 5)], "mode": "reveal"}, "(8,5) is off the map"),
        ({"mode": "hide", "all": True}, "all=true goes with mode=automatic"),
    ],
)
def test_bad_requests_name_the_problem(options: dict[str, object], reason: str) -> None:
    preview = fight().preview(Command.build("set_fog", **options))  # type: ignore[arg-type]
    assert not preview.legal and any(reason in r for r in preview.reasons), preview.reasons


def test_an_unknown_mode_is_a_command_error_naming_the_option() -> None:
    with pytest.raises(BadOptions, match="option 'mode' must be one of 'reveal', 'hide'"):
        fight().preview(Command.build("set_fog", rect=[(0, 0), (1, 1)], mode="fade"))


def test_what_the_players_see() -> None:
    fog = ManualFog().marked([Square(5, 5)], FogMode.REVEAL).marked([Square(1, 1)], FogMode.HIDE)
    assert fog.over(frozenset({Square(1, 1), Square(2, 2)})) == {Square(2, 2), Square(5, 5)}
    with pytest.raises(ValueError, match="both revealed and hidden"):
        ManualFog(frozenset({Square(0, 0)}), frozenset({Square(0, 0)}))
