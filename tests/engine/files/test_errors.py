"""EncounterFileError: one message shape, three attributes, and readable JSON paths."""

from __future__ import annotations

import pickle
from pathlib import Path

from engine.files import EncounterFileError
from engine.files.errors import json_path


def test_the_message_names_file_place_and_problem() -> None:
    error = EncounterFileError(Path("maps/warehouse.killbox"), "encounter.tokens[3].square",
                               "Input should be a valid list")
    assert (error.path, error.place, error.problem) == (
        "maps/warehouse.killbox", "encounter.tokens[3].square", "Input should be a valid list")
    assert str(error) == (
        "maps/warehouse.killbox: encounter.tokens[3].square: Input should be a valid list")
    assert isinstance(error, ValueError)


def test_the_error_survives_pickling_with_its_attributes() -> None:
    error = pickle.loads(pickle.dumps(EncounterFileError("a.killbox", "images/bg.png", "bad")))
    assert (error.path, error.place, error.problem) == ("a.killbox", "images/bg.png", "bad")


def test_json_paths_read_like_javascript() -> None:
    assert json_path("encounter", ["tokens", 3, "square"]) == "encounter.tokens[3].square"
    assert json_path("", ["version"]) == "version"
    assert json_path("", [0, "x"]) == "[0].x"
    assert json_path("encounter", ["tokens", 0, "stats", "to hit"]) == (
        "encounter.tokens[0].stats['to hit']")
