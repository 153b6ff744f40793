"""The GM's roster on disk: one small JSON file per character, by rule system.

``<data folder>/roster/<system>/<key>.json`` holds ``{"format": "killbox-character",
"version": 1, "system": ..., "token": {...}, "picture": base64 PNG or null}``. An exported
character is the same file, so export copies it and import checks and copies it back. The
first time a system's roster is opened it is seeded with the characters of the bundled
encounter of that system (the sample characters that ship with Killbox). Writes are atomic.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from engine.files.atomic import atomic_write_bytes
from engine.grid import Square
from engine.rules import UnknownSystem, get_system
from engine.tokens import Token

FORMAT = "killbox-character"
VERSION = 1
SUFFIX = ".killbox-character"
_TOKEN = TypeAdapter(Token)
_MAPS = Path(__file__).resolve().parents[1] / "maps"


class RosterError(ValueError):
    """A character file that cannot be read or written; the message names the file."""


@dataclass(frozen=True)
class RosterEntry:
    key: str
    system: str
    token: Token
    picture: bytes | None = None


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "character"


def character_json(entry: RosterEntry) -> bytes:
    data = {
        "format": FORMAT,
        "version": VERSION,
        "system": entry.system,
        "token": _TOKEN.dump_python(entry.token, mode="json"),
        "picture": base64.b64encode(entry.picture).decode() if entry.picture else None,
    }
    return json.dumps(data, indent=1).encode()


def read_character(path: Path) -> RosterEntry:
    """A character file, checked; RosterError says which file and what is wrong."""
    try:
        data: Any = json.loads(path.read_bytes())
    except OSError as error:
        raise RosterError(f"{path}: {error.strerror or error}") from error
    except ValueError as error:
        raise RosterError(f"{path}: not a Killbox character file ({error})") from error
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RosterError(f"{path}: not a Killbox character file")
    if data.get("version") != VERSION:
        raise RosterError(f"{path}: character file version {data.get('version')!r} unknown")
    system = str(data.get("system", ""))
    try:
        get_system(system)
    except UnknownSystem as error:
        raise RosterError(f"{path}: {error}") from error
    try:
        token = _TOKEN.validate_python(data.get("token"))
    except (ValidationError, ValueError) as error:
        first = str(error).splitlines()[0]
        raise RosterError(f"{path}: the character is not a valid token ({first})") from error
    picture = data.get("picture")
    try:
        raw = base64.b64decode(picture, validate=True) if picture else None
    except ValueError as error:
        raise RosterError(f"{path}: the picture is not base64 ({error})") from error
    return RosterEntry(path.stem, system, token, raw)


class Roster:
    """The characters in ``folder`` (the user's data folder's ``roster``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _system_folder(self, system: str) -> Path:
        folder = self.folder / system
        if not folder.exists():
            folder.mkdir(parents=True)
            for token in sample_characters(system):
                self._write(RosterEntry(_key(token.name), system, token))
        return folder

    def entries(self, system: str) -> Iterator[RosterEntry]:
        """The system's characters by name (unreadable files are skipped, not fatal)."""
        found = []
        for path in sorted(self._system_folder(system).glob(f"*{SUFFIX}")):
            try:
                found.append(read_character(path))
            except RosterError:
                continue
        return iter(sorted(found, key=lambda e: e.token.name.lower()))

    def _write(self, entry: RosterEntry) -> Path:
        path = self.folder / entry.system / f"{entry.key}{SUFFIX}"
        atomic_write_bytes(path, character_json(entry))
        return path

    def save(self, system: str, token: Token, picture: bytes | None) -> RosterEntry:
        """Keep a token (at square 0,0, without conditions or its picture's file name)."""
        folder = self._system_folder(system)
        key, number = _key(token.name), 2
        base = key
        while (folder / f"{key}{SUFFIX}").exists():
            key, number = f"{base}-{number}", number + 1
        kept = replace(token, square=Square(0, 0), conditions=(), portrait=None)
        entry = RosterEntry(key, system, kept, picture)
        self._write(entry)
        return entry

    def remove(self, system: str, key: str) -> None:
        (self._system_folder(system) / f"{key}{SUFFIX}").unlink(missing_ok=True)

    def export(self, system: str, key: str, path: Path) -> None:
        entry = read_character(self._system_folder(system) / f"{key}{SUFFIX}")
        atomic_write_bytes(path, character_json(entry))

    def import_file(self, path: Path) -> RosterEntry:
        entry = read_character(path)
        return self.save(entry.system, entry.token, entry.picture)


def sample_characters(system: str) -> list[Token]:
    """The characters of the bundled encounters of a system, one of each name."""
    from engine.files import load_encounter

    seen: dict[str, Token] = {}
    for path in sorted(_MAPS.glob("*.killbox")):
        state = load_encounter(path).state
        if state.system != system:
            continue
        for token in state.tokens:
            seen.setdefault(token.name, replace(token, square=Square(0, 0), conditions=()))
    return list(seen.values())
