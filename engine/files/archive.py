"""Reading a zip archive defensively: safe entry names, capped sizes, one error type.

Everything zipfile or zlib can throw at a damaged archive is turned into
``EncounterFileError`` here, so callers see one kind of failure.
"""

from __future__ import annotations

import io
import os
import re
import zipfile
import zlib
from collections.abc import Mapping
from typing import IO

from engine.files.errors import EncounterFileError

#: Largest uncompressed size of one zip entry (a background picture is a few MB at most).
MAX_ENTRY_BYTES = 64 * 1024 * 1024
#: Largest uncompressed size of all entries together.
MAX_TOTAL_BYTES = 256 * 1024 * 1024
#: Most entries an archive may hold (an encounter has one JSON and a handful of images).
MAX_ENTRIES = 4096

#: Largest archive file accepted: the entries' cap plus room for zip headers.
MAX_FILE_BYTES = MAX_TOTAL_BYTES + 16 * 1024 * 1024

#: The place named in errors about the archive as a whole.
ARCHIVE = "zip archive"

_DRIVE = re.compile(r"^[A-Za-z]:")
_CHUNK = 1024 * 1024
_ZIP_ERRORS = (
    zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError,
    NotImplementedError, RuntimeError, ValueError, IndexError, OverflowError,
)


def unsafe_name_reason(name: str) -> str | None:
    """Why an entry name could escape the folder it is unpacked in (zip slip), or None."""
    if not name:
        return "the entry has an empty name"
    if "\\" in name:
        return "the entry name contains a backslash"
    if "\x00" in name:
        return "the entry name contains a NUL character"
    if name.startswith("/"):
        return "the entry name is an absolute path"
    if _DRIVE.match(name):
        return "the entry name starts with a drive letter"
    parts = name.rstrip("/").split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "the entry name contains an empty, '.' or '..' part"
    return None


def read_entries(path: str | os.PathLike[str]) -> dict[str, bytes]:
    """Every file entry of the archive at ``path`` as name -> bytes, after checking it all."""
    try:
        size = os.stat(path).st_size
    except OSError as exc:
        raise EncounterFileError(path, ARCHIVE, f"cannot be read: {exc.strerror or exc}") from exc
    _check_file_size(size, path)
    try:
        with open(path, "rb") as handle:
            return read_entries_from(handle, path)
    except OSError as exc:
        raise EncounterFileError(path, ARCHIVE, f"cannot be read: {exc.strerror or exc}") from exc


def read_entries_from_bytes(data: bytes, path: str | os.PathLike[str]) -> dict[str, bytes]:
    """As ``read_entries``, from the bytes of a whole archive (a save checks what it wrote)."""
    _check_file_size(len(data), path)
    return read_entries_from(io.BytesIO(data), path)


def _check_file_size(size: int, path: str | os.PathLike[str]) -> None:
    if size == 0:
        raise EncounterFileError(path, ARCHIVE, "the file is empty")
    if size > MAX_FILE_BYTES:
        raise EncounterFileError(
            path, ARCHIVE,
            f"the file is {size:,} bytes, more than the limit of {MAX_FILE_BYTES:,} bytes",
        )


def read_entries_from(handle: IO[bytes], path: str | os.PathLike[str]) -> dict[str, bytes]:
    """As ``read_entries``, from an open binary file; ``path`` only names it in errors."""
    try:
        archive = zipfile.ZipFile(handle)
    except zipfile.BadZipFile as exc:
        raise EncounterFileError(
            path, ARCHIVE, f"not a zip archive, or a damaged one ({exc})"
        ) from exc
    except _ZIP_ERRORS as exc:
        raise EncounterFileError(path, ARCHIVE, f"the zip directory is damaged ({exc})") from exc
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_ENTRIES:
            raise EncounterFileError(
                path, ARCHIVE, f"holds {len(infos)} entries, more than the limit of {MAX_ENTRIES}"
            )
        files: list[zipfile.ZipInfo] = []
        seen: set[str] = set()
        total = 0
        for info in infos:
            name = info.filename
            reason = unsafe_name_reason(name)
            if reason is not None:
                raise EncounterFileError(path, name or ARCHIVE, f"{reason}; refused")
            if name in seen:
                raise EncounterFileError(path, name, "the archive holds two entries of this name")
            seen.add(name)
            if info.is_dir():
                continue
            if info.file_size > MAX_ENTRY_BYTES:
                raise EncounterFileError(path, name, _too_big(info.file_size))
            total += info.file_size
            if total > MAX_TOTAL_BYTES:
                raise EncounterFileError(
                    path, ARCHIVE,
                    f"the entries unpack to more than the limit of {MAX_TOTAL_BYTES:,} bytes",
                )
            files.append(info)
        return {info.filename: _read_entry(archive, info, path) for info in files}


def _read_entry(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, path: str | os.PathLike[str]
) -> bytes:
    # Read in chunks and stop past the cap: the size in the directory may lie.
    chunks: list[bytes] = []
    read = 0
    try:
        with archive.open(info) as entry:
            while chunk := entry.read(_CHUNK):
                read += len(chunk)
                if read > MAX_ENTRY_BYTES:
                    raise EncounterFileError(path, info.filename, _too_big(read))
                chunks.append(chunk)
    except EncounterFileError:
        raise
    except _ZIP_ERRORS as exc:
        raise EncounterFileError(
            path, info.filename, f"the entry is damaged and cannot be unpacked ({exc})"
        ) from exc
    return b"".join(chunks)


def _too_big(size: int) -> str:
    return f"unpacks to {size:,} bytes or more, over the limit of {MAX_ENTRY_BYTES:,} bytes"


def zip_bytes(entries: Mapping[str, bytes]) -> bytes:
    """A deterministic zip of ``entries`` in the given order (fixed timestamps, no extras).

    JSON is deflated; pictures are already compressed, so they are stored as they are.
    """
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in entries.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = (
                zipfile.ZIP_DEFLATED if name.endswith(".json") else zipfile.ZIP_STORED
            )
            archive.writestr(info, data)
    return buffer.getvalue()
