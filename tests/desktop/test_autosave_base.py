"""The autosave's base (the state its journal replays from): a file just opened is copied
as it is, and a document that is not that file is written out; either way a crash gives
the fight back with its undo history."""

from __future__ import annotations

import json
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from desktop.autosave import Autosaver, crashed_sessions
from desktop.controller import EncounterController
from desktop.documents import Document, load_document, save_document
from engine.rules.base import Command
from engine.turns.session import Encounter
from tests.desktop.sample import sample_state
from tests.engine.rules.savage_worlds.test_combat_state import as_version_1
from tests.engine.rules.test_conformance import small_encounter

pytestmark = pytest.mark.gui


def _opened(tmp_path: Path) -> Document:
    """A file as a hand edit leaves it (compact JSON, not what Killbox writes), opened."""
    state = replace(sample_state(), name="Dock fight", system="spycraft")
    path = tmp_path / "dock.killbox"
    save_document(Document(state, {}, None), path)
    with zipfile.ZipFile(path) as archive:
        document = json.loads(archive.read("encounter.json"))
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("encounter.json", json.dumps(document))
    return load_document(path)


def _restored(autosaver: Autosaver, folder: Path) -> Encounter:
    autosaver.wait()
    assert autosaver._lock_file is not None
    autosaver._lock_file.unlock()  # as a dead process's lock: its owner is gone
    (crashed,) = crashed_sessions(folder)
    restored = crashed.restore()
    crashed.release()
    assert restored.encounter is not None, restored.problem
    return restored.encounter


def _restored_after_a_crash(autosaver: Autosaver, folder: Path) -> tuple[str, int]:
    encounter = _restored(autosaver, folder)
    return encounter.state.name, encounter.undo_depth


def test_a_file_just_opened_is_the_base_as_it_is(qapp, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    document = _opened(tmp_path)
    controller = EncounterController(document)
    autosaver = Autosaver(controller, tmp_path / "data")
    assert autosaver.session_folder is not None
    base = autosaver.session_folder / "base-1.killbox"
    assert base.read_bytes() == (tmp_path / "dock.killbox").read_bytes()
    controller.apply(Command("start_combat"), [9, 2, 5, 3])
    controller.apply(Command("end_turn"))
    assert _restored_after_a_crash(autosaver, tmp_path / "data") == ("Dock fight", 2)


def test_a_version_1_file_just_opened_is_the_base_and_its_text_is_read_again_on_restore(  # type: ignore[no-untyped-def]
        qapp, tmp_path: Path) -> None:
    fight = Encounter(small_encounter("savage-worlds"), seed=3)
    fight.apply(Command("start_combat"))
    while fight.state.combat.round == 1:  # cards on the discards as well as the pile
        fight.apply(Command("end_turn"))
    path = tmp_path / "old.killbox"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("encounter.json", json.dumps(as_version_1(fight.state)))
    controller = EncounterController(load_document(path))
    assert controller.state == fight.state
    autosaver = Autosaver(controller, tmp_path / "data")
    assert autosaver.session_folder is not None
    base = autosaver.session_folder / "base-1.killbox"
    with zipfile.ZipFile(base) as archive:  # the deck as one string, as the file holds it
        assert "deck" in json.loads(archive.read("encounter.json"))["encounter"]["combat"]["data"]
    for _ in range(5):
        controller.apply(Command("end_turn"))
    controller.undo()
    restored = _restored(autosaver, tmp_path / "data")
    assert restored.state == controller.state and restored.undo_depth == 4
    assert restored.redo() and controller.redo() and restored.state == controller.state


def test_a_changed_document_is_written_as_the_base(qapp, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    controller = EncounterController(_opened(tmp_path))
    autosaver = Autosaver(controller, tmp_path / "data")
    controller.rename("Dock fight, second night")  # a new session from a changed document
    assert autosaver.session_folder is not None
    base = autosaver.session_folder / "base-2.killbox"
    assert load_document(base).state.name == "Dock fight, second night"
    controller.apply(Command("start_combat"), [9, 2, 5, 3])
    assert _restored_after_a_crash(autosaver, tmp_path / "data") == (
        "Dock fight, second night", 1)


def test_a_file_gone_since_it_was_opened_leaves_the_document_as_the_base(  # type: ignore[no-untyped-def]
        qapp, tmp_path: Path) -> None:
    controller = EncounterController(_opened(tmp_path))
    (tmp_path / "dock.killbox").unlink()
    autosaver = Autosaver(controller, tmp_path / "data")
    assert autosaver.session_folder is not None
    assert load_document(autosaver.session_folder / "base-1.killbox").state == controller.state
    autosaver.finish()


def test_a_fight_saved_under_a_new_name_comes_back_from_a_crash_with_that_file(
    qapp, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """A new fight saved as fight.killbox, then a crash: the restored fight was 'unsaved',
    and Save asked for a name again (the session's info still named no file)."""
    controller = EncounterController(Document(sample_state(), {}, None))
    autosaver = Autosaver(controller, tmp_path / "data")
    controller.save(tmp_path / "fight.killbox")
    controller.apply(Command("start_combat"))
    autosaver.wait()
    assert autosaver._lock_file is not None
    autosaver._lock_file.unlock()  # as a dead process's lock: its owner is gone
    (crashed,) = crashed_sessions(tmp_path / "data")
    restored = crashed.restore()
    crashed.release()
    assert restored.document.path == tmp_path / "fight.killbox"
