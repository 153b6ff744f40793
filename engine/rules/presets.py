"""Per-system data a GM prepares with: weapon presets and sample characters.

Each rule-system package may ship ``weapons.json`` (``{"format": "killbox-weapons", "version":
1, "system": ..., "note": where the numbers come from, "weapons": [...]}``) and
``roster.json`` (sample characters, see :mod:`engine.files.roster_file`). A system without them
(one defined in a test, say) simply has none.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from pydantic import TypeAdapter, ValidationError

from engine.rules import get_system
from engine.rules.base import RuleSystem
from engine.tokens import Weapon

WEAPONS_FILE = "weapons.json"
_WEAPONS = TypeAdapter(tuple[Weapon, ...])


class PresetError(ValueError):
    """A system's shipped data file is broken: names the file, the place and the problem."""


def package_data(system: str | RuleSystem, file_name: str) -> tuple[str, Any] | None:
    """(where, parsed JSON) of a data file in the system's package, or None if it has none."""
    rules = get_system(system) if isinstance(system, str) else system
    package = type(rules).__module__.rpartition(".")[0] or type(rules).__module__
    try:
        resource = resources.files(package) / file_name
        text = resource.read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, TypeError):
        return None
    where = f"{package}/{file_name}"
    try:
        return where, json.loads(text)
    except json.JSONDecodeError as error:
        raise PresetError(f"{where}: line {error.lineno}: not valid JSON: {error.msg}") from error


@cache
def weapon_presets(system: str | RuleSystem) -> tuple[Weapon, ...]:
    """The weapons a system ships as presets (pistol, SMG, rifles, shotgun, ...), in order."""
    found = package_data(system, WEAPONS_FILE)
    if found is None:
        return ()
    where, document = found
    if not isinstance(document, dict) or document.get("format") != "killbox-weapons":
        raise PresetError(f"{where}: format: must be 'killbox-weapons'")
    try:
        return _WEAPONS.validate_python(document.get("weapons"))
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        place = "weapons" + "".join(
            f"[{part}]" if isinstance(part, int) else f".{part}" for part in first["loc"]
        )
        raise PresetError(f"{where}: {place}: {first['msg']}") from error
