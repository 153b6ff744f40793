"""The GM's token and encounter edits: edit a token, duplicate one, name and brief the fight.

Like :mod:`engine.rules.edit_map`, each ``build_*`` returns the new state and its events or
raises :class:`~engine.rules.edit_options.Refused` with every reason.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import replace
from typing import Any

from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules.base import Command, Event, EventKind, Outcome, RuleSystem
from engine.rules.edit_options import Options, Refused
from engine.rules.placement import footprint_problems
from engine.tokens import Side, Token

_IMAGE_NAME = re.compile(r"^images/[^/\\\x00]+$")
_NUMBERED = re.compile(r"^(?P<base>.*?)(?: (?P<number>\d+))?$")
_NUMBERED_ID = re.compile(r"^(?P<base>.*?)(?:-(?P<number>\d+))?$")


def _target(state: EncounterState, command: Command, options: Options) -> Token | None:
    if command.target is None:
        options.problems.append("say which token (targets=[id])")
        return None
    try:
        return state.token(command.target)
    except KeyError:
        options.problems.append(f"there is no token {command.target!r}")
        return None


def _placed(state: EncounterState, token: Token) -> EncounterState:
    """The state holding ``token``, refused where it cannot stand."""
    reasons = footprint_problems(state, token)
    if reasons:
        raise Refused(*reasons)
    return state.with_token(token)


def stat_reasons(system: RuleSystem, token: Token) -> list[str]:
    """The system's complaints about a token's stat block (its declared stat schema), and
    any weapon name two of its weapons share."""
    return [*system.stat_problems(token), *token.weapon_name_problems()]


def build_edit_token(system: RuleSystem, state: EncounterState, command: Command) -> Outcome:
    """``edit_token targets=[id]`` with any of ``name side size speed facing portrait hidden
    notes stats clear_stats weapons``. ``stats`` is a mapping merged into the stat block
    (checked against the system's stat schema); ``clear_stats`` names stats to take out (the
    rules then use the schema's default); ``weapons`` a list of Weapon records that replaces
    them all; ``portrait=""`` takes the picture away."""
    options = Options(command)
    token = _target(state, command, options)
    changes: dict[str, Any] = {}
    if options.has("name"):
        changes["name"] = options.text("name").strip()
        if not changes["name"]:
            options.problems.append("name= must not be empty")
    if options.has("side"):
        changes["side"] = options.choice("side", Side, Side.NEUTRAL)
    if options.has("size"):
        changes["size"] = options.whole("size", 1, minimum=1)
    if options.has("speed"):
        changes["speed"] = options.number("speed", 0.0, minimum=0)
    if options.has("facing"):
        changes["facing"] = options.number("facing", 0.0) % 360.0
    if options.has("portrait"):
        portrait = options.text("portrait")
        if portrait and not _IMAGE_NAME.match(portrait):
            options.problems.append(
                f"portrait= must name a picture entry images/<name>, not {portrait!r}"
            )
        changes["portrait"] = portrait or None
    if options.has("hidden"):
        changes["hidden"] = options.flag("hidden", False)
    if options.has("notes"):
        changes["notes"] = options.text("notes")
    if options.has("stats") or options.has("clear_stats"):
        merged = options.stats("stats") if options.has("stats") else {}
        cleared = set(command.names("clear_stats"))
        for name in sorted(cleared & set(merged)):
            options.problems.append(f"stat {name!r} is both set (stats=) and cleared "
                                    "(clear_stats=)")
        if token is not None:
            for name in sorted(cleared - set(token.stats)):
                options.problems.append(f"{token.name} has no stat {name!r} to clear")
            kept = {k: v for k, v in token.stats.items() if k not in cleared}
            changes["stats"] = {**kept, **merged}
    if options.has("weapons"):
        changes["weapons"] = options.weapons("weapons")
    if not changes and not options.problems:
        options.problems.append("say what to change (name=, side=, size=, speed=, facing=, "
                                "portrait=, hidden=, notes=, stats=, clear_stats= or weapons=)")
    options.done()
    assert token is not None
    try:
        edited = replace(token, **changes)
    except ValueError as error:
        raise Refused(str(error)) from error
    reasons = stat_reasons(system, edited)
    if reasons:
        raise Refused(*reasons)
    new = _placed(state, edited)
    what = ", ".join(sorted(changes))
    return new, (Event(EventKind.NOTE, f"GM edits {token.name} ({what}).", (token.id,)),)


def _next_number(pattern: re.Pattern[str], base: str, taken: set[str], joiner: str) -> int:
    numbers = [1]
    for text in taken:
        match = pattern.match(text)
        if match and match["base"] == base:
            numbers.append(int(match["number"] or 1))
    number = max(numbers) + 1
    while f"{base}{joiner}{number}" in taken:
        number += 1
    return number


def copy_name(name: str, taken: set[str]) -> str:
    """The next name in a series: "Gunman" -> "Gunman 2", "Gunman 2" -> "Gunman 3"."""
    base = numbered_base(name)
    return f"{base} {_next_number(_NUMBERED, base, taken, ' ')}"


def numbered_base(name: str) -> str:
    """A name without its number: "Gunman 2" -> "Gunman" ("Gunman" stays)."""
    return _NUMBERED.match(name)["base"] or name  # type: ignore[index]


def highest_number(base: str, taken: set[str]) -> int:
    """The highest number of ``base`` among ``taken`` ("Gunman" alone is 1); 0 for none."""
    numbers = [0]
    for text in taken:
        match = _NUMBERED.match(text)
        if match and match["base"] == base:
            numbers.append(int(match["number"] or 1))
    return max(numbers)


def copy_id(token_id: str, taken: set[str]) -> str:
    """A fresh id in the same series: "gunman" -> "gunman-2"."""
    base = _NUMBERED_ID.match(token_id)["base"] or token_id  # type: ignore[index]
    return f"{base}-{_next_number(_NUMBERED_ID, base, taken, '-')}"


def nearest_free_square(state: EncounterState, token: Token, start: Square) -> Square | None:
    """The free square nearest ``start`` (by steps) where ``token`` could stand, or None."""
    seen = {start}
    queue = deque([start])
    while queue:
        square = queue.popleft()
        if not footprint_problems(state, token.moved_to(square)):
            return square
        for neighbour in square.neighbours():
            if neighbour not in seen and state.battlemap.in_bounds(neighbour):
                seen.add(neighbour)
                queue.append(neighbour)
    return None


def build_duplicate_token(system: RuleSystem, state: EncounterState, command: Command) -> Outcome:
    """``duplicate_token targets=[id] squares=[where]? name=? id=?``: a copy with the same
    stats and weapons, a new id and the next name ("Gunman 2"), on the square given or the
    nearest free one; conditions are not copied."""
    options = Options(command)
    original = _target(state, command, options)
    ids = {t.id for t in state.tokens}
    names = {t.name for t in state.tokens}
    new_id = options.text("id")
    new_name = options.text("name")
    if new_id in ids:
        options.problems.append(f"a token called {new_id!r} is already on the map")
    if len(command.squares) > 1:
        options.problems.append("say one square for the copy (squares=[(x, y)])")
    options.done()
    assert original is not None
    copy = replace(
        original,
        id=new_id or copy_id(original.id, ids),
        name=new_name or copy_name(original.name, names),
        conditions=(),
    )
    if command.squares:
        square: Square | None = command.squares[0]
    else:
        square = nearest_free_square(state, copy, original.square)
        if square is None:
            raise Refused(f"there is no free square for a copy of {original.name}")
    assert square is not None
    copy = copy.moved_to(square)
    new = _placed(state, copy)
    return new, (
        Event(
            EventKind.NOTE,
            f"GM copies {original.name} as {copy.name} at {square}.",
            (original.id, copy.id),
        ),
    )


def build_edit_encounter(system: RuleSystem, state: EncounterState, command: Command) -> Outcome:
    """``edit_encounter name= description= briefing=``: the fight's name and texts."""
    options = Options(command)
    changes: dict[str, Any] = {}
    for field in ("name", "description", "briefing"):
        if options.has(field):
            changes[field] = options.text(field)
    if "name" in changes and not changes["name"].strip():
        options.problems.append("name= must not be empty")
    if not changes and not options.problems:
        options.problems.append("say what to change (name=, description= or briefing=)")
    options.done()
    return replace(state, **changes), (
        Event(EventKind.NOTE, f"GM edits the encounter ({', '.join(sorted(changes))})."),
    )
