"""Encounter files: the ``.killbox`` format, and Universal VTT maps in and out."""

from engine.files.archive import MAX_ENTRIES, MAX_ENTRY_BYTES, MAX_FILE_BYTES, MAX_TOTAL_BYTES
from engine.files.encounter_file import (
    SUFFIX,
    SUPPORTED_VERSIONS,
    EncounterFile,
    encounter_from_json,
    load_encounter,
    referenced_images,
    save_encounter,
)
from engine.files.encounter_text import FORMAT_VERSION, encounter_to_json
from engine.files.errors import EncounterFileError
from engine.files.images import MAX_IMAGE_PIXELS
from engine.files.uvtt import UVTT_SUFFIXES, export_uvtt, import_uvtt

__all__ = [
    "FORMAT_VERSION",
    "MAX_ENTRIES",
    "MAX_ENTRY_BYTES",
    "MAX_FILE_BYTES",
    "MAX_IMAGE_PIXELS",
    "MAX_TOTAL_BYTES",
    "SUFFIX",
    "SUPPORTED_VERSIONS",
    "UVTT_SUFFIXES",
    "EncounterFile",
    "EncounterFileError",
    "encounter_from_json",
    "encounter_to_json",
    "export_uvtt",
    "import_uvtt",
    "load_encounter",
    "referenced_images",
    "save_encounter",
]
