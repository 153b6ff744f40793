"""A token never carries two weapons of one name (commands name a weapon by its name): a
weapon picked up or snatched takes a free name, and a file, an added token or an edited one
with two is refused, naming the weapon."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.files import EncounterFileError, load_encounter, save_encounter
from engine.files.encounter_file import EncounterFile
from engine.grid import Square
from engine.rules.base import Command
from engine.tokens import Side, Token, Weapon
from engine.turns.session import Encounter
from tests.engine.files.test_hostile_encounter_files import refused_document, token
from tests.engine.rules.legal_setups import ACTOR, legal_setup

KNIFE = Weapon("knife", "1d4", 0.0, melee=True)


def test_a_weapon_taken_beside_one_of_its_name_is_numbered() -> None:
    carrier = Token("t", "Tam", Side.PARTY, Square(0, 0), weapons=(KNIFE,))
    taken = carrier.taking(KNIFE, KNIFE, replace(KNIFE, name="rifle"))
    assert [w.name for w in taken.weapons] == ["knife", "knife 2", "knife 3", "rifle"]
    assert taken.weapon_name_problems() == []


def test_picking_up_a_knife_beside_a_knife_keeps_both_and_the_fight_saves(
    tmp_path: Path,
) -> None:
    setup = legal_setup("cities-without-number", "pick_up_item")  # Ann's knife lies beside her
    ann = setup.state.token(ACTOR)
    state = setup.state.with_token(ann.taking(KNIFE))  # ...and she has found another
    fight = Encounter(state)
    fight.apply(setup.command)
    assert [w.name for w in fight.state.token(ACTOR).weapons][-2:] == ["knife", "knife 2"]
    fight.save(tmp_path / "two knives.killbox")
    assert load_encounter(tmp_path / "two knives.killbox").state == fight.state


def test_a_file_with_two_weapons_of_one_name_is_refused(tmp_path: Path) -> None:
    def twice(document: dict[str, object]) -> None:
        weapons = token(document)["weapons"]
        weapons.append(dict(weapons[0]))

    error = refused_document(tmp_path, twice)
    assert error.place == "encounter.tokens[0].weapons"
    assert error.problem.startswith("two weapons are called ")


def test_saving_two_weapons_of_one_name_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    setup = legal_setup("spycraft", "standard_attack")
    ann = setup.state.token(ACTOR)
    doubled = setup.state.with_token(replace(ann, weapons=(*ann.weapons, ann.weapons[0])))
    with pytest.raises(EncounterFileError, match="two weapons are called 'rifle'"):
        save_encounter(tmp_path / "x.killbox", EncounterFile(doubled, {}))
    assert not (tmp_path / "x.killbox").exists()


def test_adding_or_editing_a_token_with_two_weapons_of_one_name_is_refused() -> None:
    setup = legal_setup("spycraft", "standard_attack")
    fight = Encounter(setup.state)
    newcomer = Token("n1", "Nia", Side.PARTY, Square(1, 1), weapons=(KNIFE, KNIFE))
    added = fight.preview(Command.build("add_token", token=newcomer))
    assert "Nia: two weapons are called 'knife'" in added.reasons
    edited = fight.preview(Command.build("edit_token", targets=[ACTOR], weapons=[KNIFE] * 2))
    assert "two weapons are called 'knife'" in edited.reasons
