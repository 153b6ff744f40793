"""The roster: the GM's own library of characters, kept between encounters, one file per system.

The desktop passes its data folder; the roster of a system lives there as
``roster-<system>.json``: ``{"format": "killbox-roster", "version": 1, "system": ...,
"characters": [token, ...], "images": {"images/x.png": base64}}`` (a character is a token as
the encounter file writes it; its square means nothing here). Export writes the same format
for any characters chosen; import reads it, checks everything first (file, place, problem in
an EncounterFileError; nothing half-read) and adds the characters under fresh ids. Each
system ships a few sample characters in its package's ``roster.json``. Writes are atomic.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from engine.encounter import EncounterState
from engine.files.atomic import atomic_write_bytes
from engine.files.errors import EncounterFileError, json_path
from engine.files.images import ImageProblem, check_image
from engine.grid import Square
from engine.rules import get_system
from engine.rules.base import Command
from engine.rules.edit_tokens import copy_id, copy_name, nearest_free_square, stat_reasons
from engine.rules.presets import package_data
from engine.tokens import Token

ROSTER_FORMAT = "killbox-roster"
ROSTER_VERSION = 1
SAMPLES_FILE = "roster.json"
_TOKEN = TypeAdapter(Token)
_ORIGIN = Square(0, 0)


@dataclass(frozen=True)
class RosterEntries:
    """Characters and the portraits they name (entry name -> bytes)."""

    characters: tuple[Token, ...] = ()
    images: Mapping[str, bytes] = field(default_factory=dict)


def roster_path(folder: str | os.PathLike[str], system: str) -> Path:
    return Path(folder) / f"roster-{system}.json"


def read_roster(path: str | os.PathLike[str], system: str) -> RosterEntries:
    """A roster or export file for ``system``, checked whole; EncounterFileError otherwise."""
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        problem = f"cannot be read: {error.strerror or error}"
        raise EncounterFileError(path, "file", problem) from error
    try:
        document = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise EncounterFileError(path, "file", f"not valid JSON text: {error}") from error
    return _entries(document, system, path)


def _entries(document: Any, system: str, path: str | os.PathLike[str]) -> RosterEntries:
    if not isinstance(document, dict) or document.get("format") != ROSTER_FORMAT:
        raise EncounterFileError(path, "format", f"must be {ROSTER_FORMAT!r}: not a roster file")
    if document.get("version") != ROSTER_VERSION:
        raise EncounterFileError(
            path, "version", f"version {document.get('version')!r} is not supported (reads 1)"
        )
    if document.get("system") != system:
        raise EncounterFileError(
            path, "system",
            f"these characters are for {document.get('system')!r}, not {system!r}",
        )
    unknown = sorted(set(document) - {"format", "version", "system", "characters", "images",
                                      "note"})
    if unknown:
        raise EncounterFileError(path, unknown[0], "unknown key")
    images: dict[str, bytes] = {}
    pictures = document.get("images", {})
    if not isinstance(pictures, dict):
        raise EncounterFileError(path, "images", "must be an object of name: base64 picture")
    for name, text in pictures.items():
        place = json_path("images", [name])
        if not isinstance(name, str) or not name.startswith("images/") or "/" in name[7:]:
            raise EncounterFileError(path, place, "a picture name must be images/<name>")
        try:
            data = base64.b64decode(str(text), validate=True)
            check_image(data)
        except (binascii.Error, ValueError, ImageProblem) as error:
            raise EncounterFileError(path, place, f"not a valid picture: {error}") from error
        images[name] = data
    characters = document.get("characters")
    if not isinstance(characters, list):
        raise EncounterFileError(path, "characters", "must be a list of characters")
    rules = get_system(system)
    tokens: list[Token] = []
    for index, item in enumerate(characters):
        place = f"characters[{index}]"
        try:
            token = _TOKEN.validate_json(json.dumps(item), strict=True)
        except ValidationError as error:
            first = error.errors(include_url=False)[0]
            where = json_path(place, [p for p in first["loc"] if isinstance(p, str | int)])
            raise EncounterFileError(path, where, first["msg"]) from error
        problems = stat_reasons(rules, token)
        if problems:
            raise EncounterFileError(path, f"{place}.stats", "; ".join(problems))
        if token.portrait is not None and token.portrait not in images:
            raise EncounterFileError(
                path, f"{place}.portrait", f"names the picture {token.portrait!r}, not in the file"
            )
        if any(t.id == token.id for t in tokens):
            raise EncounterFileError(path, f"{place}.id", f"two characters are called {token.id!r}")
        tokens.append(token)
    return RosterEntries(tuple(tokens), images)


def write_roster(
    path: str | os.PathLike[str], system: str, entries: RosterEntries
) -> None:
    """Write characters (and the portraits they name) to a roster file, atomically."""
    named = {t.portrait for t in entries.characters if t.portrait}
    document = {
        "format": ROSTER_FORMAT,
        "version": ROSTER_VERSION,
        "system": system,
        "characters": [_TOKEN.dump_python(t, mode="json") for t in entries.characters],
        "images": {
            name: base64.b64encode(data).decode("ascii")
            for name, data in sorted(entries.images.items())
            if name in named
        },
    }
    text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    _entries(json.loads(text), system, path)  # a roster that would not load is not written
    atomic_write_bytes(path, text.encode("utf-8"))


class Roster:
    """One system's roster in the GM's data folder, with the system's sample characters."""

    def __init__(self, folder: str | os.PathLike[str], system: str) -> None:
        self.folder = Path(folder)
        self.system = system
        self.path = roster_path(folder, system)

    def load(self) -> RosterEntries:
        """The GM's characters (none before the first save)."""
        if not self.path.is_file():
            return RosterEntries()
        return read_roster(self.path, self.system)

    def samples(self) -> RosterEntries:
        """The sample characters the system ships."""
        found = package_data(self.system, SAMPLES_FILE)
        if found is None:
            return RosterEntries()
        where, document = found
        return _entries(document, self.system, where)

    def save(self, token: Token, images: Mapping[str, bytes] | None = None) -> Token:
        """Keep ``token`` (replacing the character of the same id); its conditions and square
        are not kept. ``images`` holds its portrait's bytes (the encounter's pictures)."""
        kept = replace(token, square=_ORIGIN, conditions=())
        current = self.load()
        pictures = dict(current.images)
        if kept.portrait is not None:
            if images is None or kept.portrait not in images:
                raise EncounterFileError(self.path, "portrait",
                                         f"the picture {kept.portrait!r} was not given")
            pictures[kept.portrait] = images[kept.portrait]
        others = tuple(t for t in current.characters if t.id != kept.id)
        write_roster(self.path, self.system, RosterEntries((*others, kept), pictures))
        return kept

    def remove(self, token_id: str) -> None:
        current = self.load()
        if all(t.id != token_id for t in current.characters):
            raise KeyError(f"the roster has no character {token_id!r}")
        rest = tuple(t for t in current.characters if t.id != token_id)
        write_roster(self.path, self.system, RosterEntries(rest, current.images))

    def export(self, path: str | os.PathLike[str], ids: tuple[str, ...] | None = None) -> None:
        """Write some (default: all) of the GM's characters to a file to share."""
        current = self.load()
        chosen = tuple(t for t in current.characters if ids is None or t.id in ids)
        missing = set(ids or ()) - {t.id for t in chosen}
        if missing:
            raise KeyError(f"the roster has no character {sorted(missing)[0]!r}")
        write_roster(path, self.system, RosterEntries(chosen, current.images))

    def import_file(self, path: str | os.PathLike[str]) -> tuple[Token, ...]:
        """Add the characters of an exported file (fresh ids where taken); returns them."""
        incoming = read_roster(path, self.system)
        current = self.load()
        ids = {t.id for t in current.characters}
        added: list[Token] = []
        for token in incoming.characters:
            fresh = token if token.id not in ids else replace(token, id=copy_id(token.id, ids))
            ids.add(fresh.id)
            added.append(fresh)
        pictures = {**current.images, **incoming.images}
        write_roster(self.path, self.system,
                     RosterEntries((*current.characters, *added), pictures))
        return tuple(added)


def place_character(
    character: Token, state: EncounterState, square: Square | None = None
) -> Command:
    """The add_token command that puts a roster character on the map: a fresh id and name
    where taken ("Gunman 2"), on ``square`` or the free square nearest the map's middle."""
    ids = {t.id for t in state.tokens}
    names = {t.name for t in state.tokens}
    token = character
    if token.id in ids:
        token = replace(token, id=copy_id(token.id, ids))
    if token.name in names:
        token = replace(token, name=copy_name(token.name, names))
    if square is None:
        middle = Square(state.battlemap.width // 2, state.battlemap.height // 2)
        square = nearest_free_square(state, token, middle) or middle
    token = token.moved_to(square)
    return Command.build("add_token", token=token)
