"""The command journal: every change to a session since its base state, one line each.

A journal is a text file of JSON lines. Each line is a record of what the session did:

- ``{"op": "apply", "command": {...}, "dice": [..] | null, "join": bool, "depth": n,
  "rolls": n, "log": n}``: a command applied (the dice the GM typed; ``join`` when it was
  part of the previous undo step); ``depth``, ``rolls`` and ``log`` are the undo depth,
  roll counter and log length afterwards, so a replay that goes another way is caught;
- ``{"op": "undo"}`` and ``{"op": "redo"}``;
- ``{"op": "image", "name": ..., "stem": ..., "data": <base64>}``: a picture added.

A command's options are JSON values (a list of points as ``[[x, y], ...]``, a stat block as
an object, a token or weapons as the objects their schema writes), read back by the kind the
action declares (:mod:`engine.rules.option_kinds`); the text forms earlier versions wrote
(``"x,y x,y"``, JSON inside a string) are read too, so their autosaves still restore.

:meth:`CommandJournal.append` writes a record, flushes it and fsyncs the file before it
returns, so a change the caller shows after that survives a kill -9 or a power cut.
:func:`read_journal` reads a journal back; a last line cut short by a crash is the one
record that never finished, and is dropped. :func:`replay` applies the records to an
:class:`~engine.turns.session.Encounter` opened on the base state, which gives back the
state *and* its undo and redo history.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.grid import Square
from engine.rules.base import (
    Command,
    CommandError,
    OptionSpec,
    RuleSystem,
    UnknownAction,
    shared_options_of,
)
from engine.rules.option_values import option_from_json, option_to_json
from engine.turns.session import Encounter


class JournalError(ValueError):
    """A journal that cannot be read or replayed; the message names the line and why."""


def command_to_json(command: Command) -> dict[str, Any]:
    return {
        "action": command.action,
        "actor": command.actor,
        "targets": list(command.targets),
        "squares": [[square.x, square.y] for square in command.squares],
        "weapon": command.weapon,
        "options": [[name, option_to_json(value)] for name, value in command.options],
    }


def command_from_json(data: Any, system: RuleSystem | None = None) -> Command:
    """The command a record holds; JournalError if it is not one. Each option is read by
    the kind its action declares (``system``'s, or without one the engine's and GM's
    commands' own), so points, stat blocks and records come back typed, also from the text
    forms earlier versions wrote."""
    try:
        if not isinstance(data, dict):
            raise TypeError("a command is a JSON object")
        action = _text(data["action"])
        kinds = {spec.name: spec.kind for spec in _declared(action, system)}
        options = []
        for name, value in data.get("options", ()):
            try:
                options.append((_text(name), option_from_json(value, kinds.get(name))))
            except (TypeError, ValueError) as error:
                raise TypeError(f"option {name!r} {error}") from None
        return Command(
            action,
            _optional_text(data.get("actor")),
            tuple(_text(t) for t in data.get("targets", ())),
            tuple(Square(_whole(x), _whole(y)) for x, y in data.get("squares", ())),
            _optional_text(data.get("weapon")),
            tuple(options),
        )
    except (KeyError, TypeError, ValueError, CommandError) as error:
        raise JournalError(f"not a command: {error}") from error


def _declared(action: str, system: RuleSystem | None) -> tuple[OptionSpec, ...]:
    if system is None:
        return shared_options_of(action)
    try:
        return system.options_of(action)
    except UnknownAction:
        return ()  # replaying it then says the system has no such action


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected text, found {type(value).__name__}")
    return value


def _optional_text(value: Any) -> str | None:
    return None if value is None else _text(value)


def _whole(value: Any) -> int:
    if type(value) is not int:
        raise TypeError(f"expected a whole number, found {type(value).__name__}")
    return value


def apply_record(
    command: Command, dice: Sequence[int] | None, join: bool, fight: Encounter
) -> dict[str, Any]:
    """The record of ``command`` just applied to ``fight`` (with ``dice``, ``join``)."""
    return {
        "op": "apply",
        "command": command_to_json(command),
        "dice": None if dice is None else [int(v) for v in dice],
        "join": join,
        "depth": fight.undo_depth,
        "rolls": fight.state.combat.rolls,
        "log": len(fight.state.combat.log),
    }


def image_record(name: str, stem: str, data: bytes) -> dict[str, Any]:
    """The record of a picture added as ``add_image(data, stem)``, which named it ``name``."""
    encoded = base64.b64encode(data).decode("ascii")
    return {"op": "image", "name": name, "stem": stem, "data": encoded}


UNDO: Mapping[str, Any] = {"op": "undo"}
REDO: Mapping[str, Any] = {"op": "redo"}


class CommandJournal:
    """An open journal file; each :meth:`append` is on disk when it returns."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._file = open(self.path, "ab")  # noqa: SIM115 - open for the session's life

    def append(self, record: Mapping[str, Any]) -> None:
        line = json.dumps(record, separators=(",", ":"), allow_nan=False) + "\n"
        self._file.write(line.encode("utf-8"))
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()

    @property
    def closed(self) -> bool:
        return self._file.closed


def read_journal(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The records of a journal. A last line without its newline (a write a crash cut
    short) is dropped; any other line that is not a record is a JournalError."""
    raw = Path(path).read_bytes()
    lines = raw.split(b"\n")
    complete, torn = lines[:-1], lines[-1]
    del torn  # never acknowledged to anyone: its append did not return
    records: list[dict[str, Any]] = []
    for number, line in enumerate(complete, start=1):
        try:
            record = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            raise JournalError(f"{path}: line {number} is damaged ({error})") from error
        if not isinstance(record, dict) or record.get("op") not in _OPS:
            raise JournalError(f"{path}: line {number} is not a journal record")
        records.append(record)
    return records


_OPS = ("apply", "undo", "redo", "image")


def replay(fight: Encounter, records: Iterable[Mapping[str, Any]]) -> int:
    """Apply the records to ``fight`` (opened on the journal's base state); returns how
    many. JournalError names the record that could not be replayed or went another way
    than when it was written."""
    count = 0
    for count, record in enumerate(records, start=1):
        try:
            _replay_one(fight, record)
        except (CommandError, KeyError, TypeError, ValueError) as error:
            raise JournalError(f"record {count} ({record.get('op')}): {error}") from error
    return count


def _replay_one(fight: Encounter, record: Mapping[str, Any]) -> None:
    op = record["op"]
    if op == "undo":
        fight.undo()
    elif op == "redo":
        fight.redo()
    elif op == "image":
        try:
            data = base64.b64decode(record["data"], validate=True)
        except (binascii.Error, TypeError) as error:
            raise JournalError(f"the picture is damaged ({error})") from error
        name = fight.add_image(data, str(record["stem"]))
        if name != record["name"]:
            raise JournalError(f"the picture came back as {name!r}, not {record['name']!r}")
    elif op == "apply":
        command = command_from_json(record["command"], fight.system)
        dice = record.get("dice")
        if dice is not None and not all(type(v) is int for v in dice):
            raise JournalError("the dice are not whole numbers")
        fight.apply(command, dice, join=bool(record.get("join")))
        found = (fight.undo_depth, fight.state.combat.rolls, len(fight.state.combat.log))
        wanted = (record.get("depth"), record.get("rolls"), record.get("log"))
        if found != wanted:
            raise JournalError(
                f"{command.action} went another way on replay (undo depth, rolls, log lines "
                f"{found}, written as {wanted})"
            )
    else:
        raise JournalError(f"unknown record {op!r}")
