"""Atomic file replacement: a crash during a save leaves the previous file whole."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see either the old file or the new one.

    The bytes go to a temporary file in the same directory (so the rename stays on one
    file system), are flushed and fsynced, then ``os.replace`` swaps the file in; the
    directory is fsynced too where the platform allows it, so the rename itself survives
    a power cut. On any failure the temporary file is removed and the error re-raised.
    """
    target = Path(path)
    directory = target.parent
    fd, temp_name = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_name, _mode_for(target))
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise
    _fsync_directory(directory)


def _mode_for(target: Path) -> int:
    """Keep the permissions of the file being replaced; a new file gets rw-r--r--."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        return 0o644


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
