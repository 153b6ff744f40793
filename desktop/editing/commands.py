"""The engine's editing commands, built from what the GM did on the map.

This is the one module of desktop/ that spells the editing commands' options (documented in
``engine/rules/editing.py``), so a change there touches only this file. Every builder returns
a plain Command; the caller applies it through the controller (one undo step each, checked
by the engine).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.grid import Point, Square
from engine.rules.base import Command, OptionInput
from engine.tokens import Token


def _blocks(blocks_sight: bool, blocks_movement: bool) -> str:
    if blocks_sight and blocks_movement:
        return "both"
    return "sight" if blocks_sight else "movement"


def add_walls(points: Sequence[Point], blocks_sight: bool, blocks_movement: bool) -> Command:
    """One wall along a polyline (every consecutive pair of points is a stretch)."""
    return Command.build(
        "add_wall", points=list(points), blocks=_blocks(blocks_sight, blocks_movement)
    )


def remove_wall(start: Point, end: Point) -> Command:
    return Command.build("remove_wall", points=[start, end])


def move_wall_point(old: Point, new: Point) -> Command:
    """Every wall, door and window end at ``old`` moves to ``new``."""
    return Command.build("move_wall_point", at=old, to=new)


def add_portal(start: Point, end: Point, kind: str) -> Command:
    return Command.build("add_portal", points=[start, end], kind=kind)


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
        points=list(outline),
        name=name,
        grade=grade,
        height=height_ft,
        blocks_sight=blocks_sight,
    )


def remove_cover(cover_id: str) -> Command:
    return Command.build("remove_cover", cover=cover_id)


def add_light(position: Point, radius: float) -> Command:
    return Command.build("add_light", at=position, range=radius)


def remove_light(position: Point) -> Command:
    return Command.build("remove_light", at=position)


def add_token(token: Token) -> Command:
    """A new token on the map (the engine's add_token takes the Token record)."""
    return Command.build("add_token", token=token)


def edit_token(before: Token, after: Token) -> Command:
    """The changes from ``before`` to ``after`` as one edit_token command (only what changed)."""
    changes: dict[str, OptionInput] = {}
    for field in ("name", "size", "speed", "facing", "hidden", "notes"):
        if getattr(after, field) != getattr(before, field):
            changes[field] = getattr(after, field)
    if after.side != before.side:
        changes["side"] = after.side.value
    if after.portrait != before.portrait:
        changes["portrait"] = after.portrait or ""
    if after.stats != before.stats:
        changes["stats"] = after.stats  # merged into the stat block...
        gone = [name for name in before.stats if name not in after.stats]
        if gone:  # ...so a stat the GM emptied is taken out by name
            changes["clear_stats"] = gone
    if after.weapons != before.weapons:
        changes["weapons"] = after.weapons
    return Command.build("edit_token", targets=[before.id]).with_options(**changes)


def duplicate_token(token_id: str) -> Command:
    """A copy beside the original with the same stats and weapons and the next name."""
    return Command.build("duplicate_token", targets=[token_id])


def set_briefing(text: str) -> Command:
    return Command.build("edit_encounter", briefing=text)
