"""Saving a file the way a careful editor does: atomically, and respecting the file system.

- The bytes go to a temporary file in the target's folder (same file system), are flushed
  and fsynced, then ``os.replace`` swaps the file in and the folder is fsynced: a crash or a
  full disk at any step leaves the previous file whole.
- Saving onto a symbolic link writes the file the link points to; the link stays a link.
- A file with other hard links is written through in place (every name sees the new
  content): the space is reserved first, so a full disk refuses before a byte changes.
- A read-only file is never overwritten: :class:`ReadOnlyFile` says so.
- Temporary names are short (``.kbsave-<pid>-<random>.tmp``), so a target name of up to
  the file system's 255 characters saves; those a killed save left behind are removed at
  the next save into that folder (:func:`remove_stale_temporaries`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
import time
from pathlib import Path

TEMP_PREFIX = ".kbsave-"
TEMP_SUFFIX = ".tmp"
_TEMP_NAME = re.compile(r"^\.kbsave-(\d+)-[0-9a-f]{8}\.tmp$")
#: Temporary files of earlier Killbox versions: ``.<target name>.<8 random>.tmp``.
_OLD_TEMP_NAME = re.compile(r"^\..+\.killbox\.[A-Za-z0-9_]{8}\.tmp$")
#: A temporary file older than this is stale even if its writer's process id is reused.
STALE_AFTER_SECONDS = 3600.0


class ReadOnlyFile(PermissionError):
    """The file to save over is read-only; Killbox will not change it."""


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see either the old file or the new one.

    ``path`` may be a symbolic link (its target is written) or a hard-linked file (written
    through in place). Raises :class:`ReadOnlyFile` for a read-only file and OSError from
    the file system (full disk, read-only folder) with the previous file untouched.
    """
    target = Path(os.path.realpath(path))
    existing = _existing(target)
    if existing is not None:
        if not _writable(target, existing):
            raise ReadOnlyFile(
                errno.EACCES,
                "the file is read-only; Killbox does not overwrite it (save under another "
                "name, or make the file writable first)",
                str(path),
            )
        if existing.st_nlink > 1:
            _write_in_place(target, data)
            return
    directory = target.parent
    remove_stale_temporaries(directory)
    temp_name = _create_temporary(directory)
    try:
        fd = os.open(temp_name, os.O_WRONLY)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_name, _mode_for(existing))
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise
    _fsync_directory(directory)


def _existing(target: Path) -> os.stat_result | None:
    try:
        return target.stat()
    except FileNotFoundError:
        return None


def _writable(target: Path, info: os.stat_result) -> bool:
    # The owner's write bit counts even for root, who may write anything: a file marked
    # read-only is one its owner asked not to change.
    return bool(info.st_mode & stat.S_IWUSR) and os.access(target, os.W_OK)


def _create_temporary(directory: Path) -> str:
    """A new, empty temporary file in ``directory`` (O_EXCL: never an existing file)."""
    for _ in range(100):
        name = directory / f"{TEMP_PREFIX}{os.getpid()}-{secrets.token_hex(4)}{TEMP_SUFFIX}"
        try:
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        os.close(fd)
        return str(name)
    raise FileExistsError(errno.EEXIST, "no free temporary file name", str(directory))


def _write_in_place(target: Path, data: bytes) -> None:
    """Overwrite a hard-linked file's content, keeping its inode (and so every name).

    The new size is reserved before anything is written, so a full disk is refused with
    the old content intact.
    """
    fd = os.open(target, os.O_RDWR)
    try:
        if data and hasattr(os, "posix_fallocate"):
            os.posix_fallocate(fd, 0, len(data))
        os.lseek(fd, 0, os.SEEK_SET)
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.ftruncate(fd, len(data))
        os.fsync(fd)
    finally:
        os.close(fd)


def remove_stale_temporaries(directory: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files killed saves left in ``directory``; returns them.

    A temporary file is stale when the process that wrote it is gone, or when it is older
    than :data:`STALE_AFTER_SECONDS` (process ids are reused). A save still running in
    another Killbox keeps its file. Errors are ignored: cleaning never stops a save.
    """
    removed: list[Path] = []
    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    now = time.time()
    for name in names:
        ours = _TEMP_NAME.match(name)
        if ours is None and _OLD_TEMP_NAME.match(name) is None:
            continue
        path = Path(directory) / name
        try:
            age = now - path.lstat().st_mtime
            if age < STALE_AFTER_SECONDS and ours is not None and _alive(int(ours.group(1))):
                continue
            if ours is None and age < STALE_AFTER_SECONDS:
                continue
            path.unlink()
        except OSError:
            continue
        removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid() or os.name == "nt":  # Windows' os.kill would end the process
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def _mode_for(existing: os.stat_result | None) -> int:
    """Keep the permissions of the file being replaced; a new file gets rw-r--r--."""
    return stat.S_IMODE(existing.st_mode) if existing is not None else 0o644


def _fsync_directory(directory: Path) -> None:
    # Windows cannot open a directory; there the rename is as durable as it gets.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
