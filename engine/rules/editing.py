"""The GM's editing commands: prepare a fight by command, checked, previewed and undone like play.

Every command below is an engine action of every rule system (``system.action(key)``), next
to add_token, remove_token, place and set_portal: ``fight.preview(cmd)`` says whether it is
allowed and why not, ``fight.apply(cmd)`` does it (one undo step), and the result saves in
the ``.killbox`` file. A refused command names each problem (a token that would stand in a
wall or off the map, an unknown option, a bad value).

Options are typed values (:mod:`engine.rules.option_kinds`), never text to split, so ids
and names may hold any character. Places on the map are in square units, grid corners at
whole numbers: a point is ``(x, y)``, a line of points ``[(x, y), (x, y), ...]``. Squares
are ``squares=[(x, y), ...]``; a rectangle of squares is ``rect=[(x1, y1), (x2, y2)]``
(corner squares, inclusive). A stat block is a mapping, weapons a list of ``Weapon``
records. An option the command does not declare, or a value of the wrong kind, is a
``CommandError`` (``BadOptions``) naming it; a journal keeps each value in its JSON form.

=================  =============================================================================
command            options (``Command.build(key, targets=..., squares=..., **options)``)
=================  =============================================================================
add_wall           points=[(x, y), ...] (a polyline, one wall per stretch);
                   blocks= both (default) | sight | movement
remove_wall        points=[(x, y), ...] (the ends of each wall stretch to erase)
move_wall_point    at=(x, y) to=(x, y) (every wall, door and window end at ``at`` moves)
add_portal         points=[(x1, y1), (x2, y2)]; kind= door (default) | window;
                   state= closed (default) | open | locked; id= (default door-N / window-N).
                   On a wall the wall is cut there; across a gap both ends must touch a wall
remove_portal      portal=ID; fill= true (default: a wall closes the gap) | false
set_terrain        squares=[...] and/or rect=[(x1, y1), (x2, y2)];
                   kind= difficult | impassable | normal; name= (the patch, default
                   "difficult ground" / "impassable ground")
add_cover          points=[(x, y), ...] (outline) or rect=[(x1, y1), (x2, y2)] (squares);
                   grade= light | half (default) | three_quarters | total; height= feet
                   (default 3); name= (default "cover"); id= (default cover-N);
                   blocks_sight= false (default); blocks_movement= true (default)
remove_cover       cover=ID
add_light          at=(x, y); range= squares (default 6); colour= "#rrggbb[aa]";
                   intensity= (default 1)
remove_light       at=(x, y) (the light nearest that point, within half a square)
set_background     image="images/NAME" (an entry added with ``Encounter.add_image``; ""
                   takes the picture away); pixels_per_square=; offset_x=; offset_y=
set_grid           any of pixels_per_square= (may be fractional), offset_x=, offset_y=
                   (picture pixels of the map's top-left grid corner), width=, height=
                   (the map's size in squares)
edit_token         targets=[id]; any of name=, side= party|ally|enemy|neutral, size=,
                   speed=, facing= (degrees), portrait="images/NAME" ("" for none),
                   hidden= (GM only), notes=, stats= {name: value, ...} (merged, checked
                   against the system's stat schema), clear_stats= [name, ...] (taken out:
                   the schema's default applies), weapons= [Weapon(...), ...] (replaces
                   them all)
duplicate_token    targets=[id]; squares=[(x, y)] (default: nearest free square);
                   name= (default "Gunman 2" after "Gunman"); id= (default "gunman-2")
set_fog            squares=[...] and/or rect=[(x1, y1), (x2, y2)]; mode= reveal | hide | automatic
                   (the party's sight again); all=true with mode=automatic clears them all
edit_encounter     any of name=, description= (shown to all), briefing= (the GM's text)
=================  =============================================================================

``add_token token=Token(...)`` (an engine command beside these) takes the token as a record.

Pictures: ``Encounter.add_image(data)`` checks a PNG, JPEG or WebP and returns the entry name
a command then gives (set_background image=, edit_token portrait=); the encounter refuses a
command naming a picture it does not hold.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.battlemap import CoverGrade, PortalKind, PortalState, TerrainKind
from engine.encounter import EncounterState
from engine.fog import FogMode
from engine.rules import edit_fog, edit_map, edit_tokens
from engine.rules.base import (
    GM_COMMANDS,
    ActionSpec,
    Command,
    ListOf,
    Need,
    OptionKind,
    OptionSpec,
    Outcome,
    Preview,
    Ref,
    RuleSystem,
)
from engine.rules.edit_map import NORMAL, WALL_BLOCKS
from engine.rules.edit_options import Refused
from engine.rules.option_kinds import PointKind, PointsKind, RecordOf, StatsKind
from engine.tokens import Side, Weapon

Build = Callable[[RuleSystem, EncounterState, Command], Outcome]

#: Options that name a picture entry of the encounter (the session checks it holds them).
IMAGE_OPTIONS = ("image", "portrait")


@dataclass(frozen=True, slots=True)
class EditCommand:
    """One editing command: its catalogue entry and the function that carries it out.

    ``check``, ``describe`` and ``apply`` all run ``build``, so they cannot disagree.
    """

    spec: ActionSpec
    build: Build

    def check(self, system: RuleSystem, state: EncounterState, command: Command) -> list[str]:
        try:
            self.build(system, state, command)
        except Refused as refused:
            return list(refused.reasons)
        return []

    def describe(self, system: RuleSystem, state: EncounterState, command: Command) -> Preview:
        new, events = self.build(system, state, command)
        touched = {token for event in events for token in event.tokens}
        squares = tuple(
            square for token in new.tokens if token.id in touched for square in token.squares
        )
        if command.action == "set_terrain":
            squares = tuple(sorted(set(command.squares)))
        summary = " ".join(event.text for event in events)
        return Preview(command, True, summary=summary, targets=tuple(sorted(touched)),
                       squares=squares)

    def apply(self, system: RuleSystem, state: EncounterState, command: Command) -> Outcome:
        return self.build(system, state, command)


def _on_map(build: Callable[[EncounterState, Command], Outcome]) -> Build:
    def run(system: RuleSystem, state: EncounterState, command: Command) -> Outcome:
        return build(state, command)

    return run


def _spec(key: str, name: str, summary: str, *options: OptionSpec, target: bool = False
          ) -> ActionSpec:
    needs = (Need.TARGET,) if target else ()
    return ActionSpec(key, name, "edit", "-", summary, needs=needs, options=options)


def _o(name: str, kind: OptionKind, label: str, *choices: str, required: bool = False,
       default: object = None) -> OptionSpec:
    return OptionSpec(name, kind, tuple(choices), required, default, label)  # type: ignore[arg-type]


_POINTS = _o("points", PointsKind(), "Points", required=True)
_RECT = _o("rect", PointsKind(whole=True), "Squares from corner to corner")
_AT = _o("at", PointKind(), "Point", required=True)
_ID = _o("id", str, "Id")
_NAME = _o("name", str, "Name")
_GRID = (
    _o("pixels_per_square", float, "Pixels a square"),
    _o("offset_x", float, "Grid offset x (pixels)"),
    _o("offset_y", float, "Grid offset y (pixels)"),
)

EDIT_COMMANDS: tuple[EditCommand, ...] = (
    EditCommand(_spec("add_wall", "Draw Wall", "The GM draws a wall along a line of grid "
                      "points; it blocks sight, movement or both.", _POINTS,
                      _o("blocks", str, "Blocks", *WALL_BLOCKS, default="both")),
                _on_map(edit_map.build_add_wall)),
    EditCommand(_spec("remove_wall", "Erase Wall", "The GM erases wall stretches.", _POINTS),
                _on_map(edit_map.build_remove_wall)),
    EditCommand(_spec("move_wall_point", "Move Wall Point", "The GM drags a wall corner; every "
                      "wall, door and window ending there follows.", _AT,
                      _o("to", PointKind(), "To", required=True)),
                _on_map(edit_map.build_move_wall_point)),
    EditCommand(_spec("add_portal", "Add Door or Window", "The GM puts a door or window in a "
                      "wall (the wall is cut there).", _POINTS,
                      _o("kind", str, "Kind", *(k.value for k in PortalKind), default="door"),
                      _o("state", str, "State", *(s.value for s in PortalState),
                         default="closed"), _ID),
                _on_map(edit_map.build_add_portal)),
    EditCommand(_spec("remove_portal", "Remove Door or Window", "The GM takes a door or window "
                      "out; by default a wall closes the gap.",
                      _o("portal", str, "Door or window", required=True),
                      _o("fill", bool, "Wall the gap", default=True)),
                _on_map(edit_map.build_remove_portal)),
    EditCommand(_spec("set_terrain", "Paint Terrain", "The GM marks squares difficult, "
                      "impassable or plain ground again.", _RECT,
                      _o("kind", str, "Ground", *(k.value for k in TerrainKind), NORMAL,
                         required=True), _NAME),
                _on_map(edit_map.build_set_terrain)),
    EditCommand(_spec("add_cover", "Place Cover", "The GM places a cover object (crates, a car, "
                      "a low wall) with its grade and height.",
                      _o("points", PointsKind(), "Outline"), _RECT,
                      _o("grade", str, "Grade", *(g.value for g in CoverGrade), default="half"),
                      _o("height", float, "Height (ft)", default=3.0), _NAME, _ID,
                      _o("blocks_sight", bool, "Blocks sight", default=False),
                      _o("blocks_movement", bool, "Blocks movement", default=True)),
                _on_map(edit_map.build_add_cover)),
    EditCommand(_spec("remove_cover", "Remove Cover", "The GM takes a cover object away.",
                      _o("cover", str, "Cover object", required=True)),
                _on_map(edit_map.build_remove_cover)),
    EditCommand(_spec("add_light", "Place Light", "The GM places a light.", _AT,
                      _o("range", float, "Range (squares)", default=6.0),
                      _o("colour", str, "Colour", default="#ffffffff"),
                      _o("intensity", float, "Intensity", default=1.0)),
                _on_map(edit_map.build_add_light)),
    EditCommand(_spec("remove_light", "Remove Light", "The GM takes a light away.", _AT),
                _on_map(edit_map.build_remove_light)),
    EditCommand(_spec("set_background", "Set Map Picture", "The GM sets (or takes away) the "
                      "battle-map picture and its grid.",
                      _o("image", str, "Picture entry", required=True), *_GRID),
                _on_map(edit_map.build_set_background)),
    EditCommand(_spec("set_grid", "Set Grid", "The GM fits the grid to the picture (pixels a "
                      "square, offset) or resizes the map.", *_GRID,
                      _o("width", int, "Width (squares)"), _o("height", int, "Height (squares)")),
                _on_map(edit_map.build_set_grid)),
    EditCommand(_spec("edit_token", "Edit Token", "The GM changes a token: name, side, size, "
                      "speed, facing, picture, GM-only, notes, stats, weapons.",
                      _NAME, _o("side", str, "Side", *(side.value for side in Side)),
                      _o("size", int, "Size (squares)"), _o("speed", float, "Speed"),
                      _o("facing", float, "Facing (degrees)"),
                      _o("portrait", str, "Picture entry"), _o("hidden", bool, "GM only"),
                      _o("notes", str, "Notes"), _o("stats", StatsKind(), "Stats"),
                      _o("clear_stats", ListOf(Ref.TEXT), "Stats to clear"),
                      _o("weapons", RecordOf(Weapon, many=True), "Weapons"), target=True),
                edit_tokens.build_edit_token),
    EditCommand(_spec("duplicate_token", "Duplicate Token", "The GM copies a token with its "
                      "stats and weapons under the next name (Gunman 2).", _NAME, _ID,
                      target=True),
                edit_tokens.build_duplicate_token),
    EditCommand(_spec("set_fog", "Fog by Hand", "The GM reveals squares to the players, hides "
                      "them though the party sees them, or hands them back to sight.", _RECT,
                      _o("mode", str, "Fog", *(m.value for m in FogMode), required=True),
                      _o("all", bool, "Every hand-set square", default=False)),
                _on_map(edit_fog.build_set_fog)),
    EditCommand(_spec("edit_encounter", "Edit Encounter", "The GM names the fight and writes "
                      "its description and briefing.", _NAME,
                      _o("description", str, "Description"), _o("briefing", str, "Briefing")),
                edit_tokens.build_edit_encounter),
)

#: The editing commands' catalogue entries (a palette or menu lists these).
EDIT_ACTIONS: tuple[ActionSpec, ...] = tuple(edit.spec for edit in EDIT_COMMANDS)


def images_named(command: Command) -> tuple[str, ...]:
    """The picture entries an editing command names (empty for every other command)."""
    if command.action not in GM_COMMANDS:
        return ()
    return tuple(
        str(value) for name, value in command.options if name in IMAGE_OPTIONS and value
    )


for _edit in EDIT_COMMANDS:
    GM_COMMANDS[_edit.spec.key] = _edit

__all__ = [
    "EDIT_ACTIONS",
    "EDIT_COMMANDS",
    "EditCommand",
    "Refused",
    "images_named",
]
