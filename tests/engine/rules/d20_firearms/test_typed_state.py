"""d20 state is typed, never packed into text: an Overwatch names the watched token by its id
or the watched square as a square, so ids and weapon names may hold any character."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from engine.encounter import EncounterState
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


def as_version_1(state: EncounterState) -> dict[str, Any]:
    """The file version 1 wrote: a watched square as the Overwatch's source "square:x,y"."""
    document = encounter_to_json(state)
    for token in document["encounter"]["tokens"]:
        for condition in token["conditions"]:
            if condition["name"] == "Overwatch" and condition["square"] is not None:
                x, y = condition.pop("square")
                condition["source"] = f"square:{x},{y}"
    return document


def test_a_version_1_square_source_loads_as_the_square_and_plays_on_identically() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0)), soldier("b", Side.ENEMY, (8, 0)))
    game.apply(Command.build("aim", "a", weapon=RIFLE.name))
    game.apply(Command.build("overwatch", "a", squares=[(8, 0)]))
    document = as_version_1(game.state)
    assert document["encounter"]["tokens"][0]["conditions"][-1]["source"] == "square:8,0"
    loaded = Encounter(encounter_from_json(json.loads(json.dumps(document))))
    assert (overwatch(loaded).source, overwatch(loaded).square) == (None, Square(8, 0))
    assert loaded.state == game.state
    shot = Command.build("attack", "a", targets=["b"], weapon=RIFLE.name)
    assert loaded.apply(shot) == game.apply(shot) and loaded.state == game.state


def test_a_square_source_is_never_read_as_a_square_in_play() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0)), soldier("b", Side.ENEMY, (8, 0)))
    game.apply(Command.build("aim", "a", weapon=RIFLE.name))
    old = Condition("Overwatch", None, "square:8,0", 1)
    a = game.state.token("a")
    state = game.state.with_token(replace(a, conditions=(*a.conditions, old)))
    assert "threat 19-20" in threat(Encounter(state), "b")  # no Overwatch bonus on (8, 0)
    assert "threat 18-20" in threat(Encounter(encounter_from_json(encounter_to_json(state))),
                                    "b")


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
