"""One roster character in one file: what the GM keeps, shares and imports.

``<key>.killbox-character`` holds ``{"format": "killbox-character", "version": 1, "system":
..., "token": {...}, "picture": base64 PNG/JPEG/WebP or null}``. The token is written as the
encounter file writes a token; its square means nothing here and its ``portrait`` is null
(the picture travels in the file itself). Reading checks everything first and says the file,
the place and the problem in an EncounterFileError: the system, the token's fields, its stat
block against the system's schema, and the picture. Nothing is half-read.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from engine.files.atomic import atomic_write_bytes
from engine.files.errors import EncounterFileError, json_path
from engine.files.images import ImageProblem, check_image
from engine.rules import get_system
from engine.rules.edit_tokens import stat_reasons
from engine.tokens import Token

CHARACTER_FORMAT = "killbox-character"
CHARACTER_VERSION = 1
CHARACTER_SUFFIX = ".killbox-character"
_KEYS = {"format", "version", "system", "token", "picture"}
_TOKEN = TypeAdapter(Token)


@dataclass(frozen=True)
class RosterEntry:
    """A character of the roster: its file's name (without the suffix), token and picture."""

    key: str
    token: Token
    picture: bytes | None = None


def read_json(path: str | os.PathLike[str]) -> Any:
    """The JSON document in ``path``; EncounterFileError when it cannot be read or parsed."""
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        problem = f"cannot be read: {error.strerror or error}"
        raise EncounterFileError(path, "file", problem) from error
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise EncounterFileError(path, "file", f"not valid JSON text: {error}") from error


def check_token(item: Any, system: str, path: str | os.PathLike[str], place: str) -> Token:
    """A token as a file holds it, checked field by field and against the system's stats."""
    try:
        token = _TOKEN.validate_json(json.dumps(item), strict=True)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        where = json_path(place, [p for p in first["loc"] if isinstance(p, str | int)])
        raise EncounterFileError(path, where, first["msg"]) from error
    problems = stat_reasons(get_system(system), token)
    if problems:
        raise EncounterFileError(path, f"{place}.stats", "; ".join(problems))
    return token


def check_picture(text: Any, path: str | os.PathLike[str], place: str) -> bytes:
    """A base64 picture, decoded and checked as the encounter file checks its images."""
    try:
        data = base64.b64decode(str(text), validate=True)
        check_image(data)
    except (binascii.Error, ValueError, ImageProblem) as error:
        raise EncounterFileError(path, place, f"not a valid picture: {error}") from error
    return data


def check_system(document: dict[str, Any], system: str, path: str | os.PathLike[str]) -> None:
    if document.get("system") != system:
        raise EncounterFileError(
            path, "system",
            f"this is for {document.get('system')!r}, not {system!r}",
        )


def character_from_json(
    document: Any, system: str, path: str | os.PathLike[str]
) -> RosterEntry:
    """The character in a parsed character file of ``system``, checked whole."""
    if not isinstance(document, dict) or document.get("format") != CHARACTER_FORMAT:
        raise EncounterFileError(
            path, "format", f"must be {CHARACTER_FORMAT!r}: not a Killbox character file"
        )
    if document.get("version") != CHARACTER_VERSION:
        raise EncounterFileError(
            path, "version",
            f"version {document.get('version')!r} is not supported (reads {CHARACTER_VERSION})",
        )
    check_system(document, system, path)
    unknown = sorted(set(document) - _KEYS, key=str)
    if unknown:
        raise EncounterFileError(path, str(unknown[0]), "unknown key")
    token = check_token(document.get("token"), system, path, "token")
    if token.portrait is not None:
        raise EncounterFileError(
            path, "token.portrait", "must be null: the character's picture is the file's 'picture'"
        )
    text = document.get("picture")
    picture = None if text is None else check_picture(text, path, "picture")
    return RosterEntry(Path(path).name.removesuffix(CHARACTER_SUFFIX), token, picture)


def read_character(path: str | os.PathLike[str], system: str) -> RosterEntry:
    """A character file of ``system``, checked whole; EncounterFileError otherwise."""
    return character_from_json(read_json(path), system, path)


def write_character(path: str | os.PathLike[str], system: str, entry: RosterEntry) -> None:
    """Write a character file atomically; one that would not read back is not written."""
    document = {
        "format": CHARACTER_FORMAT,
        "version": CHARACTER_VERSION,
        "system": system,
        "token": _TOKEN.dump_python(entry.token, mode="json"),
        "picture": base64.b64encode(entry.picture).decode("ascii") if entry.picture else None,
    }
    text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    character_from_json(json.loads(text), system, path)
    atomic_write_bytes(path, text.encode("utf-8"))
