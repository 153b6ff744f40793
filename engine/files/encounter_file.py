"""The ``.killbox`` encounter file: a zip of ``encounter.json`` and the pictures it names.

``encounter.json`` is ``{"format": "killbox-encounter", "version": 1, "encounter": {...}}``,
the encounter being ``EncounterState`` as pydantic serialises it. The state is serialised
generically, so fields added to the model later (with defaults) need no change here.

Loading validates everything before returning anything; any problem is an
``EncounterFileError`` naming the file, the place and what is wrong. Whatever an older file
kept as text where its rule system's state is now typed is converted here, once, by the
system's ``upgrade_state``, so the rules never decode text. Saving writes a
temporary file and renames it over the old one, and refuses a state that would not load.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from pydantic import TypeAdapter, ValidationError
from pydantic_core import ErrorDetails, PydanticSerializationError

from engine.encounter import EncounterState
from engine.files.archive import (
    ARCHIVE,
    read_entries,
    read_entries_from_bytes,
    unsafe_name_reason,
    zip_bytes,
)
from engine.files.atomic import atomic_write_bytes
from engine.files.encounter_limits import check_encounter_limits
from engine.files.encounter_text import (
    FORMAT_NAME,
    STATE,
    NotFinite,
    document_bytes,
)
from engine.files.errors import EncounterFileError, json_path
from engine.files.images import ImageProblem, check_image
from engine.files.json_text import JsonProblem, parse_json, without_cycle_collection
from engine.files.references import check_references
from engine.limits import MAX_IMAGES, MAX_JSON_CONTAINERS, MAX_TOTAL_IMAGE_PIXELS
from engine.rules import get_system
from engine.rules.base import OldStateError, RuleSystem
from engine.words import counted

#: The versions this Killbox reads.
SUPPORTED_VERSIONS: tuple[int, ...] = (1,)
#: The file name suffix of an encounter file.
SUFFIX = ".killbox"

ENCOUNTER_ENTRY = "encounter.json"
#: Image entries live in this folder of the archive, e.g. ``images/background.png``.
IMAGE_FOLDER = "images/"

#: How the in-memory document is named in errors from ``encounter_from_json``.
MEMORY = "<memory>"


@dataclasses.dataclass(frozen=True, slots=True)
class _Document:
    """The whole of ``encounter.json``, to build the state from a file's own text (format,
    version and keys are checked on the parsed document first)."""

    format: str
    version: int
    encounter: EncounterState


_DOCUMENT = TypeAdapter(_Document)


@dataclasses.dataclass(frozen=True)
class EncounterFile:
    """An encounter and the pictures it uses, keyed by entry name (``images/bg.png``)."""

    state: EncounterState
    images: Mapping[str, bytes] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        # A read-only copy: the caller's dict cannot change a loaded file afterwards.
        object.__setattr__(self, "images", MappingProxyType(dict(self.images)))


def encounter_from_json(data: Any, path: str | os.PathLike[str] = MEMORY) -> EncounterState:
    """The state in an ``encounter.json`` document, checked; ``path`` names it in errors.

    Raises EncounterFileError for a wrong format or version, a value of the wrong type,
    a broken model rule (two tokens on one square...) or a key the model does not know
    (the model forbids extra keys, so validation finds those in the same pass).
    """
    encounter = _checked_document(data, path)
    try:
        text = json.dumps(encounter, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise EncounterFileError(path, "encounter", f"is not plain JSON data ({exc})") from exc
    except RecursionError as exc:
        raise EncounterFileError(path, "encounter", "nested too deeply") from exc
    _check_before_building(encounter, path)
    return _built(text, path, STATE, lambda: encounter)


def _encounter_from_text(text: str, path: str | os.PathLike[str]) -> EncounterState:
    """As ``encounter_from_json`` for the text of a file: the model is built from that very
    text, not from the parsed document written out again (0.4 s at every limit)."""
    encounter = _checked_document(_parse_json(text, path), path)
    _check_before_building(encounter, path)
    # The parsed document is let go before the model is built (both at once were a third
    # of a load's peak memory); a refused file is parsed again to name the place.
    del encounter
    return _built(text, path, _DOCUMENT, lambda: _parse_json(text, path)["encounter"])


def _checked_document(data: Any, path: str | os.PathLike[str]) -> Any:
    """The ``encounter`` of a document whose format, version and keys are right."""
    if not isinstance(data, dict):
        raise EncounterFileError(path, ENCOUNTER_ENTRY, "must hold a JSON object")
    for key in ("format", "version"):
        if key not in data:
            raise EncounterFileError(path, key, "missing: this is not a Killbox encounter")
    if data["format"] != FORMAT_NAME:
        raise EncounterFileError(
            path, "format", f"must be {FORMAT_NAME!r}, found {_show(data['format'])}"
        )
    version = data["version"]
    if type(version) is not int or version not in SUPPORTED_VERSIONS:
        supported = ", ".join(str(v) for v in SUPPORTED_VERSIONS)
        newer = (
            " (written by a newer Killbox?)"
            if type(version) is int and version > max(SUPPORTED_VERSIONS)
            else ""
        )
        raise EncounterFileError(
            path, "version",
            f"version {_show(version)} is not supported{newer}; this Killbox reads version "
            f"{supported}",
        )
    unknown = sorted(set(data) - {"format", "version", "encounter"})
    if unknown:
        raise EncounterFileError(path, json_path("", [unknown[0]]), "unknown key")
    if "encounter" not in data:
        raise EncounterFileError(path, "encounter", "missing")
    return data["encounter"]


def _check_before_building(encounter: Any, path: str | os.PathLike[str]) -> None:
    """Every limit, on the parsed document, and the rule system imported."""
    check_encounter_limits(encounter, path)
    _load_system_of(encounter)


def _built(
    text: str, path: str | os.PathLike[str],
    adapter: TypeAdapter[EncounterState] | TypeAdapter[_Document],
    parsed: Callable[[], Any],
) -> EncounterState:
    """The state built from ``text`` (the encounter alone, or the whole document) and
    checked; ``parsed`` gives the encounter's parsed form, to name a refused place."""
    try:
        # Strict JSON validation: arrays become tuples and strings enums, but "12" is not a
        # number and 1 is not true, as a hand-edited file should be read.
        with without_cycle_collection():
            built = adapter.validate_json(text, strict=True)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        if adapter is _DOCUMENT:  # places inside the encounter, as the other adapter says
            errors = [{**error, "loc": error["loc"][1:]} for error in errors]
        place, problem = _describe_validation_error(errors, parsed())
        raise EncounterFileError(path, place, problem) from exc
    state = built.encounter if isinstance(built, _Document) else built
    state = _upgraded(_check_rule_system(state, path), state, path)
    check_references(state, path)
    return state


def _load_system_of(encounter: Any) -> None:
    """Import the encounter's rule system first: it registers its typed combat state
    (engine.turns.system_state), which validation then reads. An unknown name is left for
    whoever opens the encounter to report."""
    name = encounter.get("system") if isinstance(encounter, dict) else None
    if isinstance(name, str):
        with contextlib.suppress(KeyError):
            get_system(name)


def load_encounter(path: str | os.PathLike[str]) -> EncounterFile:
    """Read and check a ``.killbox`` file; nothing is returned unless all of it is sound
    (every picture is decoded once, so a damaged one is refused here, not drawn blank)."""
    return _parse_entries(read_entries(path), path, decode=True)


def save_encounter(path: str | os.PathLike[str], encounter_file: EncounterFile) -> None:
    """Write an encounter file atomically; the previous file survives any failure.

    The new file is checked exactly as ``load_encounter`` would check it before anything is
    written, so a saved file always loads (EncounterFileError names what would not).
    OSError from the file system (disk full, no permission, a read-only file:
    ``engine.files.atomic.ReadOnlyFile``) passes through, the previous file intact.
    """
    try:
        entries = {ENCOUNTER_ENTRY: document_bytes(encounter_file.state)}
    except NotFinite as exc:
        raise EncounterFileError(
            path, exc.place, "is not a finite number; cannot be saved") from exc
    except (PydanticSerializationError, TypeError, ValueError) as exc:
        raise EncounterFileError(path, "encounter", f"cannot be serialised: {exc}") from exc
    for name in sorted(encounter_file.images):
        _check_image_name(name, path)
        entries[name] = bytes(encounter_file.images[name])
    archive = zip_bytes(entries)
    # The very bytes about to be written go through the loader's checks (archive limits,
    # entries, JSON, the model, the rule system): nothing Killbox writes is refused on load.
    _parse_entries(read_entries_from_bytes(archive, path), path)
    atomic_write_bytes(path, archive)


def referenced_images(state: EncounterState) -> dict[str, str]:
    """Every image entry the state names, as JSON path -> entry name."""
    refs: dict[str, str] = {}
    background = state.battlemap.background
    if background is not None:
        refs["encounter.battlemap.background.image"] = background.image
    for index, token in enumerate(state.tokens):
        if token.portrait is not None:
            refs[f"encounter.tokens[{index}].portrait"] = token.portrait
    return refs


def _parse_entries(
    entries: Mapping[str, bytes], path: str | os.PathLike[str], *, decode: bool = False
) -> EncounterFile:
    if ENCOUNTER_ENTRY not in entries:
        raise EncounterFileError(
            path, ENCOUNTER_ENTRY, "missing: every .killbox archive must hold encounter.json"
        )
    pictures = len(entries) - 1
    if pictures > MAX_IMAGES:
        raise EncounterFileError(
            path, ARCHIVE, f"holds {pictures:,} pictures, more than the limit of {MAX_IMAGES:,}"
        )
    images: dict[str, bytes] = {}
    pixels = 0
    for name, data in entries.items():
        if name == ENCOUNTER_ENTRY:
            continue
        _check_image_name(name, path)
        try:
            _, (width, height) = check_image(data, decode=decode)
        except ImageProblem as exc:
            raise EncounterFileError(path, name, str(exc)) from exc
        pixels += width * height
        if pixels > MAX_TOTAL_IMAGE_PIXELS:
            raise EncounterFileError(
                path, name,
                f"the pictures hold {pixels:,} pixels so far, more than the limit of "
                f"{MAX_TOTAL_IMAGE_PIXELS:,} for all of a file's pictures together",
            )
        images[name] = data
    # One stretch without the cycle collector for parsing and building together: between
    # the two it would walk the whole parsed document once more.
    with without_cycle_collection():
        state = _encounter_from_text(_decoded(entries[ENCOUNTER_ENTRY], path), path)
    for place, name in referenced_images(state).items():
        if name not in images:
            raise EncounterFileError(
                path, place, f"names the image {name!r}, which is not in the archive"
            )
    return EncounterFile(state, images)


def _check_image_name(name: str, path: str | os.PathLike[str]) -> None:
    reason = unsafe_name_reason(name)
    if reason is not None:
        raise EncounterFileError(path, name or ARCHIVE, f"{reason}; refused")
    if not name.startswith(IMAGE_FOLDER) or name.endswith("/"):
        raise EncounterFileError(
            path, name,
            f"unexpected entry: an encounter file holds {ENCOUNTER_ENTRY} and pictures "
            f"under {IMAGE_FOLDER}",
        )


def _decoded(raw: bytes, path: str | os.PathLike[str]) -> str:
    try:
        return raw.decode("utf-8-sig")  # a BOM from a Windows editor is harmless
    except UnicodeDecodeError as exc:
        raise EncounterFileError(
            path, ENCOUNTER_ENTRY, f"is not UTF-8 text (byte {exc.start})"
        ) from exc


def _parse_json(text: str, path: str | os.PathLike[str]) -> Any:
    try:
        return parse_json(text, MAX_JSON_CONTAINERS)
    except JsonProblem as exc:
        place = f"{ENCOUNTER_ENTRY} {exc.place}" if exc.place else ENCOUNTER_ENTRY
        raise EncounterFileError(path, place, exc.problem) from exc


#: Pydantic's words for a key the model does not have (a dataclass's and a mapping's).
_UNKNOWN_KEY_ERRORS = frozenset({"unexpected_keyword_argument", "extra_forbidden"})


def _describe_validation_error(errors: list[ErrorDetails], data: Any) -> tuple[str, str]:
    """The first failing place as a JSON path, and every complaint pydantic made about it."""
    places = [_loc_path(error["loc"], error["type"], data) for error in errors]
    first = places[0]
    problems: list[str] = []
    for place, error in zip(places, errors, strict=True):
        message = ("unknown key" if error["type"] in _UNKNOWN_KEY_ERRORS
                   else error["msg"].removeprefix("Value error, "))
        if place == first and message not in problems:
            problems.append(message)
    problem = _join_alternatives(problems)
    if errors[0]["type"] not in {"missing", *_UNKNOWN_KEY_ERRORS} and _is_scalar(
            errors[0]["input"]):
        problem += f" (found {_show(errors[0]['input'])})"
    others = len({p for p in places if p != first})
    if others:
        problem += f" (and problems at {counted(others, 'more place')})"
    return json_path("encounter", first), problem


def _join_alternatives(problems: list[str]) -> str:
    """Union members fail one by one; say it once: "should be a valid integer or a valid
    number" rather than the same sentence four times."""
    prefix = "Input should be "
    if len(problems) > 1 and all(p.startswith(prefix) for p in problems):
        options = [p.removeprefix(prefix) for p in problems]
        return prefix + ", ".join(options[:-1]) + " or " + options[-1]
    return "; ".join(problems)


def _loc_path(loc: tuple[int | str, ...], kind: str, data: Any) -> tuple[int | str, ...]:
    """Keep the part of a pydantic location that exists in the data.

    Pydantic adds the union member tried (``stats.k.int``) to a location; such parts are
    not in the document, so they are dropped. A missing key is kept, as the last part.
    """
    kept: list[int | str] = []
    node = data
    for key in loc:
        in_dict = isinstance(node, dict) and key in node
        in_list = isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node)
        if in_dict or in_list:
            node = node[key]
        elif kind == "missing" and key == loc[-1]:
            kept.append(key)
            break
        else:
            break
        kept.append(key)
    return tuple(kept)


def _check_rule_system(state: EncounterState, path: str | os.PathLike[str]) -> RuleSystem:
    """The encounter's rule system. Refuse one Killbox does not know, and any token stat its
    schema refuses (an unknown name such as ``defence``, a wrong type, a value out of range,
    a missing required stat): the rules would otherwise read a silent default."""
    from engine.rules import UnknownSystem, get_system
    from engine.rules.base import stat_problems

    try:
        system = get_system(state.system)
    except UnknownSystem as exc:
        raise EncounterFileError(path, "encounter.system", str(exc)) from None
    for index, token in enumerate(state.tokens):
        for name, problem in stat_problems(system.stats, token.stats):
            place = json_path("encounter", ["tokens", index, "stats", name])
            raise EncounterFileError(path, place, f"{problem} ({system.title} stat block)")
    return system


def _upgraded(system: RuleSystem, state: EncounterState,
              path: str | os.PathLike[str]) -> EncounterState:
    """The state with the text an older file of its system kept turned into typed state,
    once, here: the rules read only the typed form. Text that cannot be read refuses the
    file, naming the place."""
    try:
        return system.upgrade_state(state)
    except OldStateError as exc:
        raise EncounterFileError(path, json_path("encounter", exc.place), exc.problem) from exc


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _show(value: Any) -> str:
    text = repr(value) if _is_scalar(value) else type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."
