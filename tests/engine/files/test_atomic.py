"""Atomic saves: a crash at any step of writing leaves the previous file whole and no
temporary file behind."""

from __future__ import annotations

import os
import stat
from dataclasses import replace
from pathlib import Path

import pytest

import engine.files.atomic as atomic_module
from engine.files import EncounterFile, load_encounter, save_encounter
from engine.files.atomic import atomic_write_bytes
from tests.engine.files.builders import rich_file, rich_state


class Crash(Exception):
    """Stands for the process dying (or the disk failing) half-way through a save."""


def crash(*args: object, **kwargs: object) -> None:
    raise Crash


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "warehouse.killbox"
    save_encounter(path, rich_file())
    return path


def changed_file() -> EncounterFile:
    return EncounterFile(replace(rich_state(), name="changed"), rich_file().images)


@pytest.mark.parametrize("step", ["replace", "fsync", "write"])
def test_a_crash_during_a_save_keeps_the_previous_file(
    saved: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    before = saved.read_bytes()
    if step == "replace":
        monkeypatch.setattr(atomic_module.os, "replace", crash)
    elif step == "fsync":
        monkeypatch.setattr(atomic_module.os, "fsync", crash)
    else:
        real_fdopen = os.fdopen

        class HalfWriter:
            """Writes half the bytes to the temporary file, then dies."""

            def __init__(self, fd: int, mode: str) -> None:
                self.handle = real_fdopen(fd, mode)

            def __enter__(self) -> HalfWriter:
                return self

            def __exit__(self, *exc: object) -> None:
                self.handle.close()

            def write(self, data: bytes) -> None:
                self.handle.write(data[: len(data) // 2])
                self.handle.flush()
                raise Crash

        monkeypatch.setattr(atomic_module.os, "fdopen", HalfWriter)
    with pytest.raises(Crash):
        save_encounter(saved, changed_file())
    assert saved.read_bytes() == before
    assert load_encounter(saved).state == rich_state()
    assert [p.name for p in saved.parent.iterdir()] == [saved.name]


def test_a_failed_first_save_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(atomic_module.os, "replace", crash)
    with pytest.raises(Crash):
        save_encounter(tmp_path / "new.killbox", rich_file())
    assert list(tmp_path.iterdir()) == []


def test_the_data_is_fsynced_before_the_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        calls.append("fsync")
        real_fsync(fd)

    def rename(src: str, dst: Path) -> None:
        calls.append("replace")
        real_replace(src, dst)

    monkeypatch.setattr(atomic_module.os, "fsync", fsync)
    monkeypatch.setattr(atomic_module.os, "replace", rename)
    atomic_write_bytes(tmp_path / "f.bin", b"data")
    # The file before the rename; the directory after it where the platform allows.
    assert calls[:2] == ["fsync", "replace"]
    assert (tmp_path / "f.bin").read_bytes() == b"data"


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_a_replaced_file_keeps_its_permissions_and_a_new_one_is_readable(tmp_path: Path) -> None:
    new = tmp_path / "new.bin"
    atomic_write_bytes(new, b"1")
    assert stat.S_IMODE(new.stat().st_mode) == 0o644
    os.chmod(new, 0o600)
    atomic_write_bytes(new, b"2")
    assert stat.S_IMODE(new.stat().st_mode) == 0o600
    assert new.read_bytes() == b"2"


def test_saving_into_a_missing_folder_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        save_encounter(tmp_path / "no" / "such" / "x.killbox", rich_file())
