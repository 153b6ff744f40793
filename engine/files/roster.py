"""The roster: the GM's own library of characters, kept between encounters.

``Roster(data_folder, system)`` keeps a system's characters one per file, in
``<data folder>/roster/<system>/<key>.killbox-character`` (engine/files/character_file.py):
a GM shares one character by sharing its file, and a damaged file loses that character, not
the library (the listing names the file and its problem, and shows the rest). The first time
a system's roster is opened it is filled with the sample characters the system's package
ships (``roster.json``). A roster kept by earlier versions as one ``roster-<system>.json``
in the data folder is imported once into this layout, and the old file is renamed
``.migrated``, never deleted. Writes are atomic, and several characters come in all or
none (a roster file imported, an old roster migrated, the samples of a first start): each is
written and read back in a staging folder beside the roster's files, then all are moved in;
a failure at any step (a full disk, a character that would not read back) takes back what
was moved, so the roster is left as it was, never half-filled.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from engine.encounter import EncounterState
from engine.files.atomic import STALE_AFTER_SECONDS
from engine.files.character_file import (
    CHARACTER_SUFFIX,
    RosterEntry,
    character_from_json,
    read_character,
    read_json,
    write_character,
)
from engine.files.errors import EncounterFileError
from engine.files.roster_file import ROSTER_FORMAT, Character, read_roster_file, roster_from_json
from engine.grid import Square
from engine.rules.base import Command
from engine.rules.edit_tokens import (
    copy_id,
    copy_name,
    highest_number,
    nearest_free_square,
    numbered_base,
)
from engine.rules.placement import place_together
from engine.rules.presets import package_data
from engine.tokens import Token

SAMPLES_FILE = "roster.json"
MIGRATED_SUFFIX = ".migrated"
#: The staging folder of characters coming in together (not listed: no character suffix).
STAGING_PREFIX = ".kbimport-"
_ORIGIN = Square(0, 0)


@dataclass(frozen=True)
class RosterListing:
    """The characters that read (by name), and the files that did not, each saying why."""

    characters: tuple[RosterEntry, ...] = ()
    problems: tuple[EncounterFileError, ...] = ()


def _key(name: str) -> str:
    """A file name from a character's name: "Det. Rosa Vega" -> "det-rosa-vega"."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "character"


class Roster:
    """One system's characters in the GM's data folder."""

    def __init__(self, data_folder: str | os.PathLike[str], system: str) -> None:
        self.system = system
        self.folder = Path(data_folder) / "roster" / system
        self.old_file = Path(data_folder) / f"roster-{system}.json"

    def load(self) -> RosterListing:
        """The characters (the samples on a first start); OSError if the folder cannot be
        made or listed."""
        self._seed()
        self._remove_stale_staging()
        migration = self._migrate()
        problems = [] if migration is None else [migration]
        characters = []
        for path in sorted(self.folder.glob(f"*{CHARACTER_SUFFIX}")):
            try:
                characters.append(read_character(path, self.system))
            except EncounterFileError as problem:
                problems.append(problem)
        characters.sort(key=lambda e: (e.token.name.lower(), e.key))
        return RosterListing(tuple(characters), tuple(problems))

    def path_of(self, key: str) -> Path:
        if not key or key.startswith(".") or "/" in key or os.sep in key:
            raise KeyError(f"{key!r} is not the name of a roster character")
        return self.folder / f"{key}{CHARACTER_SUFFIX}"

    def entry(self, key: str) -> RosterEntry:
        """One character, read and checked; EncounterFileError names its file otherwise."""
        self._seed()
        return read_character(self.path_of(key), self.system)

    def save(self, token: Token, picture: bytes | None = None) -> RosterEntry:
        """Keep ``token`` as a new character (its square, conditions and portrait's name are
        not kept; ``picture`` is its portrait's bytes)."""
        self._seed()
        return self._add(token, picture)

    def _add(self, token: Token, picture: bytes | None) -> RosterEntry:
        entry = self._entry(token, picture, set())
        write_character(self.path_of(entry.key), self.system, entry)
        return entry

    def _entry(self, token: Token, picture: bytes | None, taken: set[str]) -> RosterEntry:
        """The character as kept, under a key no file of the roster nor ``taken`` holds."""
        key = base = _key(token.name)
        number = 2
        while key in taken or self.path_of(key).exists():
            key, number = f"{base}-{number}", number + 1
        taken.add(key)
        kept = replace(token, square=_ORIGIN, conditions=(), portrait=None)
        return RosterEntry(key, kept, picture)

    def _add_all(self, characters: Iterable[Character]) -> tuple[RosterEntry, ...]:
        """Keep every one of ``characters`` or none (see the module's docstring); OSError or
        EncounterFileError when one cannot be kept, the roster then as it was."""
        staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=self.folder))
        moved: list[Path] = []
        try:
            taken: set[str] = set()
            entries = [self._entry(token, picture, taken) for token, picture in characters]
            for entry in entries:
                write_character(staging / self.path_of(entry.key).name, self.system, entry)
            for entry in entries:
                target = self.path_of(entry.key)
                if target.exists():  # written meanwhile by another Killbox: never overwrite
                    raise FileExistsError(f"{target} appeared while characters came in")
                os.replace(staging / target.name, target)
                moved.append(target)
        except BaseException:
            for target in moved:
                with contextlib.suppress(OSError):
                    target.unlink()
            raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return tuple(entries)

    def remove(self, key: str) -> None:
        try:
            self.path_of(key).unlink()
        except FileNotFoundError:
            raise KeyError(f"the roster has no character {key!r}") from None

    def export(self, key: str, path: str | os.PathLike[str]) -> None:
        """Write one character to a file to share (the same format it is kept in)."""
        write_character(path, self.system, self.entry(key))

    def import_file(self, path: str | os.PathLike[str]) -> tuple[RosterEntry, ...]:
        """Add the character of a character file (or all those of a roster file), checked
        whole before any is added; returns them as kept."""
        document = read_json(path)
        characters: tuple[Character, ...]
        if isinstance(document, dict) and document.get("format") == ROSTER_FORMAT:
            characters = roster_from_json(document, self.system, path)
        else:
            entry = character_from_json(document, self.system, path)
            characters = ((entry.token, entry.picture),)
        self._seed()
        return self._add_all(characters)

    def _remove_stale_staging(self) -> None:
        """Take out the staging folders an import killed part-way left (an hour old: one
        still filling in another Killbox is seconds old). Errors are ignored: cleaning never
        stops the roster opening."""
        now = time.time()
        for folder in self.folder.glob(f"{STAGING_PREFIX}*"):
            with contextlib.suppress(OSError):
                if now - folder.lstat().st_mtime > STALE_AFTER_SECONDS:
                    shutil.rmtree(folder)

    def _seed(self) -> None:
        """On a first start, the samples the system ships (a system may ship none)."""
        if self.folder.is_dir():
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        found = package_data(self.system, SAMPLES_FILE)
        if found is not None:
            where, document = found
            try:
                self._add_all(roster_from_json(document, self.system, where))
            except BaseException:
                # No folder: the next start seeds again rather than keep a half-seeded roster.
                shutil.rmtree(self.folder, ignore_errors=True)
                raise

    def _migrate(self) -> EncounterFileError | None:
        """Import an earlier version's ``roster-<system>.json`` once, then rename it. A file
        that does not read stays where it is and is reported until the GM mends it."""
        if not self.old_file.is_file():
            return None
        try:
            characters = read_roster_file(self.old_file, self.system)
        except EncounterFileError as problem:
            return problem
        self._add_all(characters)
        aside, number = self.old_file.with_name(self.old_file.name + MIGRATED_SUFFIX), 2
        while aside.exists():
            aside = self.old_file.with_name(f"{self.old_file.name}{MIGRATED_SUFFIX}-{number}")
            number += 1
        self.old_file.rename(aside)
        return None


def place_character(
    character: Token, state: EncounterState, square: Square | None = None
) -> Command:
    """The add_token command that puts a roster character on the map (see character_copy)."""
    return Command.build("add_token", token=character_copy(character, state, square))


def character_copies(
    character: Token, state: EncounterState, square: Square, count: int
) -> tuple[Token, ...]:
    """``count`` copies of a roster character as they join ``state`` together ("Add 4
    Razor gunmen"): numbered names after any already on the map ("Razor gunman 1".."4",
    or "5".."8" when 1..4 stand there), fresh ids, on the free squares nearest ``square``
    (``engine.rules.placement.place_together``); fewer when the map has no more room there.
    One copy is ``character_copy``'s, named as that names it."""
    if count < 1:
        raise ValueError(f"copies of {character.name}: the count must be 1 or more, not {count}")
    if count == 1:
        one = character_copy(character, state, square)
        return place_together(state, (one,), square)
    ids = {t.id for t in state.tokens}
    base = numbered_base(character.name)
    taken = {t.name for t in state.tokens}
    first = highest_number(base, taken) + 1
    copies: list[Token] = []
    for number in range(first, first + count):
        token_id = copy_id(character.id, ids) if character.id in ids else character.id
        ids.add(token_id)
        copies.append(replace(character, id=token_id, name=f"{base} {number}"))
    return place_together(state, copies, square)


def character_copy(character: Token, state: EncounterState, square: Square | None) -> Token:
    """A roster character as it joins ``state``: a fresh id and name where taken ("Gunman
    2"), on ``square`` or the free square nearest the map's middle."""
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
    return token.moved_to(square)


__all__ = [
    "CHARACTER_SUFFIX",
    "Roster",
    "RosterEntry",
    "RosterListing",
    "character_copies",
    "character_copy",
    "place_character",
]
