"""Opening and saving encounter documents through ``engine.files`` (the only file code).

Universal VTT maps (.dd2vtt, .uvtt, .df2vtt) are imported; everything else is a .killbox file.
"""

from __future__ import annotations

import errno
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.files.atomic import ReadOnlyFile
from engine.rules import DEFAULT_SYSTEM, get_system

UVTT_SUFFIXES = (".dd2vtt", ".uvtt", ".df2vtt")
KILLBOX_SUFFIX = ".killbox"
OPENABLE_SUFFIXES = (KILLBOX_SUFFIX, *UVTT_SUFFIXES)


class DocumentError(Exception):
    """A file could not be opened or saved; the message says which and why."""


@dataclass(frozen=True)
class Document:
    """What the app holds: the state, the images it refers to, and where it came from."""

    state: EncounterState
    images: Mapping[str, bytes] = field(default_factory=dict)
    path: Path | None = None  # None until saved as .killbox (an imported map has none)


def _files() -> Any:
    try:
        return importlib.import_module("engine.files")
    except ImportError as error:  # the file module is built by another part of the project
        raise DocumentError(f"encounter files are not available yet ({error})") from error


def is_uvtt(path: Path) -> bool:
    return path.suffix.lower() in UVTT_SUFFIXES


@dataclass(frozen=True)
class ImportOptions:
    """How a Universal VTT map comes in (engine.files.uvtt.import_uvtt's choices)."""

    #: The rule system the encounter is for. A map names none: the GM picks it, and a map
    #: dropped on the window takes the system of the encounter open.
    system: str
    #: Object outlines (crates, pillars) block sight like low cover, not as full walls.
    objects_block_sight: bool = True
    #: A portal exported as not closed is a "window" or an open "door".
    open_portals_as: str = "window"


#: ``progress(fraction, stage)`` while a Universal VTT map loads.
ImportProgress = Callable[[float, str], None]


def load_document(
    path: Path, options: ImportOptions | None = None, progress: ImportProgress | None = None
) -> Document:
    """Open a .killbox file, or import a Universal VTT map with ``options`` (required for one:
    a map names no rule system)."""
    if not path.is_file():
        raise DocumentError(f"{path}: no such file")
    files = _files()
    error_type: type[BaseException] = getattr(files, "EncounterFileError", ValueError)
    try:
        if is_uvtt(path):
            try:
                uvtt = importlib.import_module("engine.files.uvtt")
            except ImportError as error:
                raise DocumentError(f"{path}: Universal VTT import is not available yet") from error
            if options is None:
                raise DocumentError(f"{path}: say which rule system to import this map for")
            loaded = uvtt.import_uvtt(
                path,
                objects_block_sight=options.objects_block_sight,
                open_portals_as=options.open_portals_as,
                system=options.system,
                progress=progress,
            )
            return Document(loaded.state, dict(loaded.images), None)
        loaded = files.load_encounter(path)
    except error_type as error:
        raise DocumentError(str(error)) from error
    except OSError as error:
        raise DocumentError(f"{path}: {error.strerror or error}") from error
    return Document(loaded.state, dict(loaded.images), path)


def save_document(document: Document, path: Path) -> Document:
    """Save atomically (engine.files writes a temporary file, then renames it)."""
    files = _files()
    error_type: type[BaseException] = getattr(files, "EncounterFileError", ValueError)
    existed = path.exists()
    try:
        files.save_encounter(path, files.EncounterFile(document.state, dict(document.images)))
    except error_type as error:
        raise DocumentError(f"could not save {path}: {error}") from error
    except OSError as error:
        kept = " The file on disk is unchanged." if existed else ""
        raise DocumentError(f"could not save {path}: {os_problem(error)}.{kept}") from error
    return Document(document.state, document.images, path)


#: What the GM reads for the file-system errors a save meets.
_OS_PROBLEMS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the folder is on a read-only disk",
    errno.EACCES: "Killbox may not write there (permission denied)",
    errno.EPERM: "Killbox may not write there (not permitted)",
    errno.ENAMETOOLONG: "the file name is too long for this disk",
    errno.ENOENT: "the folder does not exist",
}


def os_problem(error: OSError) -> str:
    """A file-system error in words (a read-only file says so itself)."""
    if isinstance(error, ReadOnlyFile):
        return str(error.strerror)
    return _OS_PROBLEMS.get(error.errno or 0, error.strerror or str(error))


def blank_state(name: str = "New encounter", width: int = 30, height: int = 20) -> EncounterState:
    """An empty map when Killbox has nothing to open: in the engine's starting system."""
    system = get_system(DEFAULT_SYSTEM)
    return EncounterState(
        name=name, system=system.name, scale=system.scale, battlemap=BattleMap(width, height)
    )


def default_map_path() -> Path:
    """The bundled encounter that opens on first start."""
    return Path(__file__).resolve().parents[1] / "maps" / "warehouse.killbox"
