"""d20 state is typed, never packed into text: an Overwatch names the watched token by its id
or the watched square as a square, so ids and weapon names may hold any character."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.files import EncounterFileError, encounter_from_json, encounter_to_json
from engine.grid import Square
from engine.rules.base import Command
from engine.tokens import Condition, Side, Weapon
from engine.turns.session import Encounter

from .builders import KNIFE, RIFLE, fight, soldier

#: An id the old "square:x,y" text would have read as a square.
SQUARE_LIKE = "square:8,0"
COLT = Weapon('Colt, .45 "Peacemaker" |=;:', "2d6", 30, ammo=6, capacity=6, traits=("pistol",))


def overwatch(game: Encounter, token_id: str = "a") -> Condition:
    found = next(c for c in game.state.token(token_id).conditions if c.name == "Overwatch")
    return found


def threat(game: Encounter, target: str) -> str:
    summary = game.preview(Command.build("attack", "a", targets=[target],
                                         weapon=RIFLE.name)).summary
    return summary[summary.index("threat"):].split(")")[0]


def test_an_overwatch_on_a_square_keeps_the_square_typed_through_a_file() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0)), soldier("b", Side.ENEMY, (8, 0)))
    game.apply(Command.build("aim", "a", weapon=RIFLE.name))
    game.apply(Command.build("overwatch", "a", squares=[(8, 0)]))
    assert (overwatch(game).source, overwatch(game).square) == (None, Square(8, 0))
    document = encounter_to_json(game.state)
    conditions = document["encounter"]["tokens"][0]["conditions"]
    assert {"source": None, "square": [8, 0]}.items() <= conditions[-1].items()
    reloaded = Encounter(encounter_from_json(document))
    assert reloaded.state == game.state
    assert "threat 18-20" in threat(reloaded, "b")


def test_an_overwatch_on_a_token_whose_id_looks_like_a_square_watches_the_token() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0)), soldier(SQUARE_LIKE, Side.ENEMY, (6, 3)),
                 soldier("b", Side.ENEMY, (8, 0)))
    game.apply(Command.build("aim", "a", weapon=RIFLE.name))
    game.apply(Command.build("overwatch", "a", targets=[SQUARE_LIKE]))
    assert (overwatch(game).source, overwatch(game).square) == (SQUARE_LIKE, None)
    assert "threat 18-20" in threat(game, SQUARE_LIKE)
    assert "threat 19-20" in threat(game, "b")  # on (8, 0), but not the one watched


def test_a_version_1_square_source_still_reads_as_the_square() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0)), soldier("b", Side.ENEMY, (8, 0)))
    game.apply(Command.build("aim", "a", weapon=RIFLE.name))
    old = Condition("Overwatch", None, "square:8,0", 1)
    a = game.state.token("a")
    state = game.state.with_token(replace(a, conditions=(*a.conditions, old)))
    assert "threat 18-20" in threat(Encounter(state), "b")


def test_a_malformed_watched_square_is_refused_on_load_naming_the_place() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0)), soldier("b", Side.ENEMY, (8, 0)))
    game.apply(Command.build("aim", "a", weapon=RIFLE.name))
    game.apply(Command.build("overwatch", "a", squares=[(8, 0)]))
    document = encounter_to_json(game.state)
    document["encounter"]["tokens"][0]["conditions"][-1]["square"] = "8,0"
    with pytest.raises(EncounterFileError) as caught:
        encounter_from_json(document)
    assert caught.value.place.startswith("encounter.tokens[0].conditions[")
    assert caught.value.place.endswith("].square")


def test_a_weapon_named_with_commas_stays_usable_after_the_knife_is_holstered() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0), COLT, KNIFE), soldier("b", Side.ENEMY, (4, 0)))
    game.apply(Command.build("draw_holster", "a", weapon=KNIFE.name))
    assert not game.state.token("a").weapon(KNIFE.name).drawn
    game.apply(Command.build("aim", "a", weapon=COLT.name))
    shot = Command.build("attack", "a", targets=["b"], weapon=COLT.name)
    assert game.preview(shot).legal, game.preview(shot).reasons
    game.apply(shot)
    assert game.state.token("a").weapon(COLT.name).ammo == 5
