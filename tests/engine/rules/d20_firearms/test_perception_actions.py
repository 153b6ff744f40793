"""Locate Enemies: the Perception check before Blind-Fire, with Aiming's +5 inside its
60-ft cone and -5 outside it as a named modifier, played through the session API."""

from __future__ import annotations

from engine.dice import GivenDice
from engine.rules.base import Command
from engine.tokens import Side
from engine.turns.session import Encounter

from .builders import fight, soldier


def aiming_east() -> Encounter:
    """A aims east at B (30 ft away, inside the cone); C stands north, outside it."""
    game = fight(soldier("a", Side.PARTY, (0, 5), perception=2),
                 soldier("b", Side.ENEMY, (6, 5)), soldier("c", Side.ENEMY, (0, 0)))
    game.apply(Command.build("aim", "a", squares=[(6, 5)], weapon="Assault rifle"))
    return game


def aiming_mod(game: Encounter, command: Command) -> int | None:
    return next((m.value for m in game.preview(command).modifiers if m.name == "Aiming"), None)


def test_aiming_gives_plus_five_to_locate_a_foe_inside_the_cone() -> None:
    game = aiming_east()
    look = Command.build("locate_enemies", "a", targets=["b"])
    preview = game.preview(look)
    assert preview.legal and aiming_mod(game, look) == 5
    assert preview.rolls == ("Perception 1d20+7",)
    # 10 + 2 Perception + 5 Aiming = 17 against DC 15: located.
    events = game.apply(look, GivenDice([10]))
    assert "places every enemy (17 against 15; Aiming +5)" in events[-1].text
    assert game.state.combat.combatant("a").data["located"] is True


def test_aiming_gives_minus_five_when_an_enemy_is_outside_the_cone() -> None:
    game = aiming_east()
    look = Command("locate_enemies", "a")
    assert aiming_mod(game, look) == -5
    # 10 + 2 - 5 = 7: the enemies stay unplaced.
    events = game.apply(look, GivenDice([10]))
    assert "cannot tell where the enemies are (7 against 15; Aiming -5)" in events[-1].text
    assert game.state.combat.combatant("a").data["located"] is False


def test_no_aiming_modifier_without_aiming_and_no_looking_for_oneself() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 5), perception=2), soldier("b", Side.ENEMY, (6, 5)))
    look = Command.build("locate_enemies", "a", targets=["b"])
    assert aiming_mod(game, look) is None
    assert game.preview(look).rolls == ("Perception 1d20+2",)
    assert "cannot look for itself" in game.preview(
        Command.build("locate_enemies", "a", targets=["a"])).reasons[0]
