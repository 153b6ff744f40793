"""Atomic saves: a crash at any step of writing leaves the previous file whole and no
temporary file behind."""

from __future__ import annotations

import errno
import os
import stat
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

import engine.files.atomic as atomic_module
from engine.files import EncounterFile, load_encounter, save_encounter
from engine.files.atomic import (
    STALE_AFTER_SECONDS,
    TEMP_PREFIX,
    TEMP_SUFFIX,
    ReadOnlyFile,
    atomic_write_bytes,
    remove_stale_temporaries,
)
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


# ---- the file system's own rules: links, permissions, full disks, long names


def test_saving_onto_a_symlink_writes_the_file_it_points_to(saved: Path) -> None:
    link = saved.parent / "shortcut.killbox"
    link.symlink_to(saved.name)
    save_encounter(link, changed_file())
    assert link.is_symlink() and os.readlink(link) == saved.name
    assert load_encounter(saved).state.name == "changed"


def test_a_symlink_to_a_file_in_another_folder_keeps_pointing_there(
    saved: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "links"
    elsewhere.mkdir()
    link = elsewhere / "fight.killbox"
    link.symlink_to(saved)
    save_encounter(link, changed_file())
    assert link.is_symlink()
    assert load_encounter(saved).state.name == "changed"
    assert sorted(p.name for p in elsewhere.iterdir()) == ["fight.killbox"]


def test_a_link_to_a_file_not_made_yet_creates_that_file(tmp_path: Path) -> None:
    link = tmp_path / "link.killbox"
    link.symlink_to("real.killbox")
    save_encounter(link, rich_file())
    assert link.is_symlink()
    assert load_encounter(tmp_path / "real.killbox").state == rich_state()


@pytest.mark.skipif(not hasattr(os, "link"), reason="hard links")
def test_a_hard_linked_file_is_written_through_for_every_name(saved: Path) -> None:
    other = saved.parent / "other-name.killbox"
    os.link(saved, other)
    inode = saved.stat().st_ino
    save_encounter(saved, changed_file())
    assert saved.stat().st_ino == inode and saved.stat().st_nlink == 2
    assert load_encounter(other).state.name == "changed"
    assert load_encounter(saved).state.name == "changed"
    assert sorted(p.name for p in saved.parent.iterdir()) == sorted([saved.name, other.name])


@pytest.mark.skipif(not hasattr(os, "posix_fallocate"), reason="space reservation")
def test_a_hard_linked_file_on_a_full_disk_keeps_its_content(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    os.link(saved, saved.parent / "other-name.killbox")
    before = saved.read_bytes()

    def full(fd: int, offset: int, length: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic_module.os, "posix_fallocate", full)
    with pytest.raises(OSError) as raised:
        save_encounter(saved, changed_file())
    assert raised.value.errno == errno.ENOSPC
    assert saved.read_bytes() == before


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_a_read_only_file_is_refused_and_left_alone(saved: Path) -> None:
    os.chmod(saved, 0o444)
    before = saved.read_bytes()
    with pytest.raises(ReadOnlyFile, match="read-only"):
        save_encounter(saved, changed_file())
    assert saved.read_bytes() == before
    assert stat.S_IMODE(saved.stat().st_mode) == 0o444
    assert [p.name for p in saved.parent.iterdir()] == [saved.name]


def test_temporary_files_a_killed_save_left_are_removed_by_the_next_save(
    saved: Path,
) -> None:
    folder = saved.parent
    dead = _dead_pid()
    killed = folder / f"{TEMP_PREFIX}{dead}-0123abcd{TEMP_SUFFIX}"
    killed.write_bytes(b"half a save")
    older_version = folder / f".{saved.name}.a1b2c3d4.tmp"
    older_version.write_bytes(b"half a save")
    hour_ago = time.time() - STALE_AFTER_SECONDS - 60
    os.utime(older_version, (hour_ago, hour_ago))
    running = folder / f"{TEMP_PREFIX}{os.getpid()}-89abcdef{TEMP_SUFFIX}"
    running.write_bytes(b"a save in progress")
    unrelated = folder / "notes.tmp"
    unrelated.write_bytes(b"the GM's")
    save_encounter(saved, changed_file())
    assert not killed.exists() and not older_version.exists()
    assert running.exists() and unrelated.exists()  # a live save's file and others' stay


def test_cleaning_a_folder_reports_what_it_removed(tmp_path: Path) -> None:
    killed = tmp_path / f"{TEMP_PREFIX}{_dead_pid()}-00ff00ff{TEMP_SUFFIX}"
    killed.write_bytes(b"x")
    assert remove_stale_temporaries(tmp_path) == [killed]
    assert remove_stale_temporaries(tmp_path / "missing") == []


def _dead_pid() -> int:
    """A process id no process has now (a child that has exited and been reaped)."""
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_full_disk_is_an_error_with_the_old_file_intact(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = saved.read_bytes()
    real_fdopen = os.fdopen

    class FullDisk:
        def __init__(self, fd: int, mode: str) -> None:
            self.handle = real_fdopen(fd, mode)

        def __enter__(self) -> FullDisk:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def write(self, data: bytes) -> None:
            self.handle.write(data[:100])
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic_module.os, "fdopen", FullDisk)
    with pytest.raises(OSError) as raised:
        save_encounter(saved, changed_file())
    assert raised.value.errno == errno.ENOSPC
    assert saved.read_bytes() == before
    assert [p.name for p in saved.parent.iterdir()] == [saved.name]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs, where the machine lets the tests mount one (root on Linux)."""
    import subprocess

    folder = tmp_path / "small-disk"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small file system here (the simulated ENOSPC test runs)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_really_full_disk_keeps_the_old_file_and_leaves_no_temporary(
    small_disk: Path,
) -> None:
    path = small_disk / "fight.killbox"
    save_encounter(path, rich_file())
    before = path.read_bytes()
    big = EncounterFile(rich_state(), {**rich_file().images, "images/noise.png": _noise_png()})
    with pytest.raises(OSError) as raised:
        save_encounter(path, big)
    assert raised.value.errno == errno.ENOSPC
    assert path.read_bytes() == before
    assert [p.name for p in small_disk.iterdir()] == [path.name]


def test_a_read_only_folder_is_an_error_with_the_old_file_intact(small_disk: Path) -> None:
    import subprocess

    path = small_disk / "fight.killbox"
    save_encounter(path, rich_file())
    before = path.read_bytes()
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    with pytest.raises(OSError) as raised:
        save_encounter(path, changed_file())
    assert raised.value.errno in (errno.EROFS, errno.EACCES)
    assert path.read_bytes() == before


def _noise_png() -> bytes:
    """A PNG that does not compress: bigger than the small disk."""
    import io
    import random

    from PIL import Image

    rng = random.Random(5)
    image = Image.frombytes("RGB", (300, 300), rng.randbytes(300 * 300 * 3))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


@pytest.mark.parametrize("length", [247, 250, 255])
def test_a_file_name_as_long_as_the_file_system_allows_saves(
    tmp_path: Path, length: int
) -> None:
    name = "f" * (length - len(".killbox")) + ".killbox"
    assert len(name) == length
    path = tmp_path / name
    save_encounter(path, rich_file())
    save_encounter(path, changed_file())  # and saves again over itself
    assert load_encounter(path).state.name == "changed"
    assert [p.name for p in tmp_path.iterdir()] == [name]
