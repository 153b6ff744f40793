"""Several characters of one system in one file: the ``killbox-roster`` format.

Each system package ships its sample characters as ``roster.json`` in this format, and the
GM's roster was one such file per system (``roster-<system>.json``) before it became one file
per character (engine/files/roster.py imports it once). ``{"format": "killbox-roster",
"version": 1, "system": ..., "characters": [token, ...], "images": {"images/x.png": base64}}``;
a character's ``portrait`` names one of the images. Checked whole, as a character file is.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

from engine.files.character_file import check_picture, check_system, check_token, read_json
from engine.files.errors import EncounterFileError, json_path
from engine.tokens import Token

ROSTER_FORMAT = "killbox-roster"
ROSTER_VERSION = 1
_KEYS = {"format", "version", "system", "characters", "images", "note"}

#: A character and its picture (the token's ``portrait`` cleared: the picture goes with it).
Character = tuple[Token, bytes | None]


def read_roster_file(path: str | os.PathLike[str], system: str) -> tuple[Character, ...]:
    """The characters of a roster file of ``system``; EncounterFileError otherwise."""
    return roster_from_json(read_json(path), system, path)


def roster_from_json(
    document: Any, system: str, path: str | os.PathLike[str]
) -> tuple[Character, ...]:
    """The characters of a parsed roster file, checked whole."""
    if not isinstance(document, dict) or document.get("format") != ROSTER_FORMAT:
        raise EncounterFileError(path, "format", f"must be {ROSTER_FORMAT!r}: not a roster file")
    if document.get("version") != ROSTER_VERSION:
        raise EncounterFileError(
            path, "version", f"version {document.get('version')!r} is not supported (reads 1)"
        )
    check_system(document, system, path)
    unknown = sorted(set(document) - _KEYS, key=str)
    if unknown:
        raise EncounterFileError(path, str(unknown[0]), "unknown key")
    images = _images(document.get("images", {}), path)
    characters = document.get("characters")
    if not isinstance(characters, list):
        raise EncounterFileError(path, "characters", "must be a list of characters")
    found: list[Character] = []
    ids: set[str] = set()
    for index, item in enumerate(characters):
        place = f"characters[{index}]"
        token = check_token(item, system, path, place)
        if token.portrait is not None and token.portrait not in images:
            raise EncounterFileError(
                path, f"{place}.portrait", f"names the picture {token.portrait!r}, not in the file"
            )
        if token.id in ids:
            raise EncounterFileError(path, f"{place}.id", f"two characters are called {token.id!r}")
        ids.add(token.id)
        picture = images.get(token.portrait) if token.portrait else None
        found.append((replace(token, portrait=None), picture))
    return tuple(found)


def _images(pictures: Any, path: str | os.PathLike[str]) -> dict[str, bytes]:
    if not isinstance(pictures, dict):
        raise EncounterFileError(path, "images", "must be an object of name: base64 picture")
    images: dict[str, bytes] = {}
    for name, text in pictures.items():
        place = json_path("images", [name])
        if not isinstance(name, str) or not name.startswith("images/") or "/" in name[7:]:
            raise EncounterFileError(path, place, "a picture name must be images/<name>")
        images[name] = check_picture(text, path, place)
    return images
