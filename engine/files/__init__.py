"""Encounter files: the ``.killbox`` format (and importers beside it)."""

from engine.files.archive import MAX_ENTRIES, MAX_ENTRY_BYTES, MAX_FILE_BYTES, MAX_TOTAL_BYTES
from engine.files.encounter_file import (
    FORMAT_VERSION,
    SUFFIX,
    SUPPORTED_VERSIONS,
    EncounterFile,
    encounter_from_json,
    encounter_to_json,
    load_encounter,
    referenced_images,
    save_encounter,
)
from engine.files.errors import EncounterFileError
from engine.files.images import MAX_IMAGE_PIXELS

__all__ = [
    "FORMAT_VERSION",
    "MAX_ENTRIES",
    "MAX_ENTRY_BYTES",
    "MAX_FILE_BYTES",
    "MAX_IMAGE_PIXELS",
    "MAX_TOTAL_BYTES",
    "SUFFIX",
    "SUPPORTED_VERSIONS",
    "EncounterFile",
    "EncounterFileError",
    "encounter_from_json",
    "encounter_to_json",
    "load_encounter",
    "referenced_images",
    "save_encounter",
]
