"""Characters that come in together come in all or none: a failure part-way through an
import, a migration or a first start's samples leaves the roster as it was, with no staging
folder behind (a full disk on the second of three characters once left the first kept)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from engine.files import roster as roster_module
from engine.files.roster import Roster
from tests.engine.files.builders import png_bytes
from tests.engine.files.test_roster import old_roster_file


def _fail_on(call: int, real: Any) -> Any:
    """``real``, failing with a full disk at its ``call``-th use."""
    calls = [0]

    def failing(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == call:
            raise OSError(28, "No space left on device")
        return real(*args, **kwargs)

    return failing


def _fail_second_write(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(roster_module, "write_character",
                        _fail_on(2, roster_module.write_character))


def _files(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()} if folder.is_dir() else set()


@pytest.mark.parametrize("where", ["write", "move"])
def test_an_import_failing_on_its_second_character_adds_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    shared = old_roster_file(tmp_path / "friend", png_bytes())  # two characters
    roster = Roster(tmp_path / "data", "spycraft")
    before = roster.load()
    files_before = _files(roster.folder)
    if where == "write":
        _fail_second_write(monkeypatch)
    else:  # the second move from the staging folder into the roster's own
        real_replace = os.replace
        into_roster = _fail_on(2, real_replace)

        def replace(source: Any, target: Any) -> None:
            if Path(target).parent == roster.folder and ".kbimport-" in str(source):
                into_roster(source, target)
            else:
                real_replace(source, target)

        monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OSError, match="No space"):
        roster.import_file(shared)
    monkeypatch.undo()
    assert _files(roster.folder) == files_before  # the first is not kept, no staging left
    assert roster.load() == before


def test_a_migration_failing_part_way_adds_none_and_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roster = Roster(tmp_path / "data", "spycraft")
    before = roster.load()
    old = roster.old_file
    old_roster_file(tmp_path / "earlier", png_bytes()).rename(old)
    _fail_second_write(monkeypatch)
    with pytest.raises(OSError):
        roster.load()
    monkeypatch.undo()
    assert old.exists()
    assert _files(roster.folder) == {roster.path_of(e.key).name for e in before.characters}
    listing = roster.load()  # mended disk: the next start migrates both
    names = {e.token.name for e in listing.characters}
    assert {"Kestrel (old)", "Ibarra (old)"} <= names
    assert len(listing.characters) == len(before.characters) + 2


def test_a_first_start_failing_part_way_leaves_no_half_seeded_roster(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    complete = Roster(tmp_path / "elsewhere", "spycraft").load()
    roster = Roster(tmp_path / "data", "spycraft")
    _fail_second_write(monkeypatch)
    with pytest.raises(OSError):
        roster.load()
    monkeypatch.undo()
    assert not roster.folder.exists()  # so the next start seeds again
    again = roster.load()
    assert [e.token.name for e in again.characters] == [e.token.name
                                                         for e in complete.characters]


def test_a_staging_folder_an_import_killed_part_way_left_is_taken_out_later(
    tmp_path: Path,
) -> None:
    roster = Roster(tmp_path / "data", "spycraft")
    before = roster.load()
    stale = roster.folder / ".kbimport-killed"
    fresh = roster.folder / ".kbimport-running"
    for folder in (stale, fresh):
        folder.mkdir()
        (folder / "half.killbox-character").write_text("{")
    two_hours_ago = time.time() - 2 * 3600
    os.utime(stale, (two_hours_ago, two_hours_ago))
    assert roster.load() == before
    assert not stale.exists()
    assert fresh.exists()  # another Killbox may be filling it now
