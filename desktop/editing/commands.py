"""The engine's editing commands, built from what the GM did on the map.

This is the one module of desktop/ that spells the editing commands' options (documented in
``engine/rules/editing.py``), so a change there touches only this file. Every builder returns
a plain Command; the caller applies it through the controller (one undo step each, checked
by the engine).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict

from engine.grid import Point, Square
from engine.rules.base import Command
from engine.rules.edit_options import points_text
from engine.tokens import Token, Weapon


def _blocks(blocks_sight: bool, blocks_movement: bool) -> str:
    if blocks_sight and blocks_movement:
        return "both"
    return "sight" if blocks_sight else "movement"


def add_walls(points: Sequence[Point], blocks_sight: bool, blocks_movement: bool) -> Command:
    """One wall along a polyline (every consecutive pair of points is a stretch)."""
    return Command.build(
        "add_wall", points=points_text(points), blocks=_blocks(blocks_sight, blocks_movement)
    )


def remove_wall(start: Point, end: Point) -> Command:
    return Command.build("remove_wall", points=points_text([start, end]))


def move_wall_point(old: Point, new: Point) -> Command:
    """Every wall, door and window end at ``old`` moves to ``new``."""
    return Command.build("move_wall_point", at=points_text([old]), to=points_text([new]))


def add_portal(start: Point, end: Point, kind: str) -> Command:
    return Command.build("add_portal", points=points_text([start, end]), kind=kind)


def remove_portal(portal_id: str) -> Command:
    return Command.build("remove_portal", portal=portal_id)


def set_terrain(squares: Iterable[Square], kind: str) -> Command:
    """``kind`` is a TerrainKind value, or "normal" to make squares plain ground again."""
    return Command.build("set_terrain", squares=sorted(squares), kind=kind)


def add_cover(
    outline: Sequence[Point], name: str, grade: str, height_ft: float, blocks_sight: bool
) -> Command:
    return Command.build(
        "add_cover",
        points=points_text(outline),
        name=name,
        grade=grade,
        height=height_ft,
        blocks_sight=blocks_sight,
    )


def remove_cover(cover_id: str) -> Command:
    return Command.build("remove_cover", cover=cover_id)


def add_light(position: Point, radius: float) -> Command:
    return Command.build("add_light", at=points_text([position]), range=radius)


def remove_light(position: Point) -> Command:
    return Command.build("remove_light", at=points_text([position]))


def weapons_json(weapons: Iterable[Weapon]) -> str:
    return json.dumps([asdict(weapon) for weapon in weapons])


def add_token(token: Token) -> Command:
    """A new token on the map (the engine's add_token reads the token as JSON)."""
    from pydantic import TypeAdapter

    return Command.build("add_token", token=TypeAdapter(Token).dump_json(token).decode())


def edit_token(before: Token, after: Token) -> Command:
    """The changes from ``before`` to ``after`` as one edit_token command (only what changed)."""
    changes: dict[str, str | int | float | bool] = {}
    for field in ("name", "size", "speed", "facing", "hidden", "notes"):
        if getattr(after, field) != getattr(before, field):
            changes[field] = getattr(after, field)
    if after.side != before.side:
        changes["side"] = after.side.value
    if after.portrait != before.portrait:
        changes["portrait"] = after.portrait or ""
    if after.stats != before.stats:
        changes["stats"] = json.dumps(after.stats)
    if after.weapons != before.weapons:
        changes["weapons"] = weapons_json(after.weapons)
    return Command.build("edit_token", targets=[before.id]).with_options(**changes)


def duplicate_token(token_id: str) -> Command:
    """A copy beside the original with the same stats and weapons and the next name."""
    return Command.build("duplicate_token", targets=[token_id])


def set_briefing(text: str) -> Command:
    return Command.build("edit_encounter", briefing=text)
