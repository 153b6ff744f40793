"""The interface every rule system implements, and the value types it trades in.

A rule system is looked up by name (see :mod:`engine.rules`). It owns its action catalogue
(data), its initiative scheme, its action economy and its conditions, and it turns
commands into new states:

- :meth:`RuleSystem.preview` never changes anything: it says whether a command is legal,
  why not, and what it would do.
- :meth:`RuleSystem.apply` returns a new state and the events that happened.

Both call :meth:`RuleSystem.check` and nothing else decides legality, so a preview that
says "legal" and an apply that raises :class:`IllegalCommand` cannot disagree.
Subclasses implement ``check``, ``describe`` and ``resolve`` for their own actions; the
turn structure shared by every system (start combat, end turn, end combat, GM placement)
lives here with hooks a system overrides.

This is the one module a system author reads and the one a system imports from (besides
``engine.rules`` to register). Everything else a system works with is re-exported here:

The state (frozen: change it with ``dataclasses.replace`` or the ``with_*`` methods)
  ``EncounterState``  the whole encounter: ``token(id)``, ``token_at(square)``,
                      ``with_token(token)``, ``battlemap``, ``combat``, ``scale``
  ``Token``           a token: ``square``, ``side``, ``speed``, ``stats`` (read them through
                      the schema, never directly), ``weapons``, ``conditions``, ``moved_to(square)``
  ``Weapon``          one carried weapon: ``name``, ``melee``, range and ammunition
  ``Side``            party, ally, enemy or neutral
  ``are_opponents``   whether two sides fight each other (neutrals oppose nobody)
  ``Condition``       a named condition on a token, with its ``Expiry`` (``ExpiryPoint``)
  ``CombatState``     round, ``order`` of combatants, ``active`` token, ``pending``
                      actions, the log, and the system's typed ``system_state``
  ``Combatant``       one token's place in the order: ``initiative``, ``budget`` (what is
                      left of the round's action pools), ``data``, ``acted``
  ``PendingAction``   an action waiting for its moment (a Ready, a Delay)
  ``Phase``           setup, surprise, round or over
  ``register_system_state``  class decorator: the system's own typed fight state
Stats
  ``StatBlock``       a system's stat schema (its ``StatSpec`` entries) and the one way its
                      rules read a token's stats: ``STATS.number(token, "hp")``, ``flag``,
                      ``text``, ``names``, ``optional_number``; ``RuleSystem.stat_block``
  ``UndeclaredStat``  what reading a stat the schema does not declare raises (never a 0)
Turn order (what the turn structure below uses; a system's own turn rules call them too)
  ``update_combatant``  the state with one combatant replaced (spend a budget with it)
  ``order_by_initiative``  combatants in acting order (high count, then tiebreak)
  ``next_to_act``     who acts next this round (None: the round is done)
  ``set_active``, ``mark_acted``  whose turn it is; who has had theirs
Dice
  ``Dice``            the encounter's seeded dice: ``dice.roll("1d20+3", "why")``
  ``Roll``            one roll and its ``total``, carried by an event
The grid, distance and sight
  ``Square``          a square ``(x, y)``; ``GridScale`` what one measures (``FIVE_FOOT``
                      is 5 ft, diagonals alternating 1-2); ``state.scale.squares(speed)``
  ``distance_squares``  squares between two squares under a diagonal rule
  ``path_cost_squares``  the cost in squares of a path, start included
  ``squares_of_footprint``  the squares a token of a size covers
  ``token_line_of_sight``  whether one token sees another past the map's walls;
                      ``has_line_of_sight`` the same for two squares
What a command returns and the map draws
  ``Event``, ``EventKind``  what happened, for the log
  ``Overlay``, ``Modifier``  what the map draws for a preview; ``target_overlay`` (an
                      actor and its targets, with modifiers) and ``route_overlay`` (a path)
                      build the common ones
"""

from __future__ import annotations

import difflib
import math
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import ClassVar, Protocol, runtime_checkable

from engine.battlemap import PortalState
from engine.dice import Dice as Dice
from engine.dice import Roll as Roll
from engine.encounter import EncounterState as EncounterState
from engine.events import Event as Event  # re-exported: systems import it from here
from engine.events import EventKind as EventKind
from engine.geometry.areas import RangeTable
from engine.geometry.cover import CoverTable
from engine.geometry.los import has_line_of_sight as has_line_of_sight
from engine.geometry.los import token_line_of_sight as token_line_of_sight
from engine.geometry.templates import STANDARD_TEMPLATES, Inclusion, TemplateSpec
from engine.grid import FIVE_FOOT as FIVE_FOOT
from engine.grid import GridScale as GridScale
from engine.grid import Square as Square
from engine.grid import distance_squares as distance_squares
from engine.grid import path_cost_squares as path_cost_squares
from engine.grid import squares_of_footprint as squares_of_footprint
from engine.overlay import Modifier as Modifier
from engine.overlay import Overlay
from engine.routes.deviation import DeviationRule
from engine.rules import command_shape
from engine.rules.drag_reach import DragBand as DragBand
from engine.rules.drag_reach import ordinary_band
from engine.rules.gauges import Gauge
from engine.rules.option_kinds import SHAPED_KINDS, RecordOf, ShapedKind
from engine.rules.option_values import ListOf as ListOf
from engine.rules.option_values import MapOf as MapOf
from engine.rules.option_values import (
    Names,
    Pairs,
    PointsValue,
    PointValue,
    Records,
    frozen_option,
    list_problem,
    map_problem,
)
from engine.rules.option_values import Ref as Ref
from engine.rules.overlays import pending_markers
from engine.rules.overlays import route_overlay as route_overlay  # a path action's route
from engine.rules.overlays import target_overlay as target_overlay  # a handler's rings
from engine.rules.placement import footprint_problems
from engine.rules.stat_block import StatBlock as StatBlock  # a system declares its stats in one
from engine.rules.stat_block import UndeclaredStat as UndeclaredStat
from engine.rules.stat_block import block_of
from engine.rules.stat_notation import Notation as Notation  # a schema's stat notation
from engine.rules.stat_notation import die_words
from engine.rules.tracker_entry import TrackerEntry as TrackerEntry
from engine.rules.tracker_entry import TurnStanding as TurnStanding
from engine.rules.tracker_entry import initiative_words, plain_standing
from engine.rules.turn_allowance import FULL_TURN as FULL_TURN
from engine.rules.turn_allowance import TurnAllowance as TurnAllowance
from engine.rules.turn_allowance import TurnKind as TurnKind
from engine.tokens import Condition as Condition
from engine.tokens import Expiry as Expiry
from engine.tokens import ExpiryPoint as ExpiryPoint
from engine.tokens import Side as Side
from engine.tokens import StatNames, StatValue
from engine.tokens import Token as Token
from engine.tokens import Weapon as Weapon
from engine.tokens import are_opponents as are_opponents
from engine.turns import order as turn_order
from engine.turns.combat import Combatant as Combatant
from engine.turns.combat import CombatState as CombatState
from engine.turns.combat import DataValue
from engine.turns.combat import PendingAction as PendingAction
from engine.turns.combat import Phase as Phase
from engine.turns.order import mark_acted as mark_acted
from engine.turns.order import next_to_act as next_to_act
from engine.turns.order import set_active as set_active
from engine.turns.system_state import register_system_state as register_system_state

#: The state with one combatant replaced, the order kept (spend a budget with it).
update_combatant = turn_order.update
#: Combatants in acting order: highest count first, then highest tiebreak, then token id.
order_by_initiative = turn_order.sort

# --------------------------------------------------------------------------- errors


class CommandError(ValueError):
    """A command that cannot be previewed or applied (unknown action, bad arguments...)."""


class IllegalCommand(CommandError):
    """A well-formed command the rules do not allow now; ``reasons`` says why in words."""

    def __init__(self, command: Command, reasons: tuple[str, ...]) -> None:
        self.command = command
        self.reasons = reasons
        super().__init__(f"{command.action} is not allowed: " + "; ".join(reasons))


class UnknownAction(CommandError):
    """A command naming an action the system does not have."""


class BadOptions(CommandError):
    """A command carrying an option its action does not declare, or a value of the wrong
    type or outside the allowed choices; the message names each one."""


class MalformedCommand(CommandError):
    """A command whose fields have the wrong shape (a square that is not two whole numbers,
    a list longer than any map holds) or name what the encounter does not hold (a token, a
    weapon, a square off the map): :mod:`engine.rules.command_shape` says what."""


class OldStateError(ValueError):
    """Text an older file kept where the state is now typed, and that cannot be read.

    Raised by :meth:`RuleSystem.upgrade_state`: ``place`` is where, as keys from the
    encounter down (``("combat", "data", "deck")``, ``("tokens", 2, "conditions", 0,
    "source")``), ``problem`` what is wrong there, in words. The file loader adds the file.
    """

    def __init__(self, place: Sequence[str | int], problem: str) -> None:
        self.place = tuple(place)
        self.problem = problem
        super().__init__(f"{'.'.join(str(key) for key in self.place)}: {problem}")


# --------------------------------------------------------------------------- commands


#: What an option holds: one plain value, a list (token ids...), a mapping as pairs
#: (token id -> card or square, stat -> value), a point or points on the map, or a typed
#: record (a token, weapons); see :mod:`engine.rules.option_values` and
#: :mod:`engine.rules.option_kinds`.
OptionValue = DataValue | Names | Pairs | PointValue | PointsValue | Records
#: What a caller may pass for an option (lists, dicts and (x, y) pairs are frozen).
OptionInput = OptionValue | Mapping[str, object] | Sequence[object]


@dataclass(frozen=True, slots=True)
class Command:
    """One thing a token (or the GM) does, as a small value.

    ``action`` is a catalogue key ("standard_attack") or an engine command ("end_turn").
    ``squares`` is a path, an area or one square, as the action needs; ``options`` holds
    the rest as sorted (name, value) pairs, so equal commands compare and hash equal.

    >>> Command.build("strafe", "kevin", squares=[(3, 4), (4, 4)], weapon="SMG")
    Command(action='strafe', actor='kevin', targets=(), squares=(Square(x=3, y=4), \
Square(x=4, y=4)), weapon='SMG', options=())
    """

    action: str
    actor: str | None = None
    targets: tuple[str, ...] = ()
    squares: tuple[Square, ...] = ()
    weapon: str | None = None
    options: tuple[tuple[str, OptionValue], ...] = ()

    def __post_init__(self) -> None:
        if not self.action:
            raise CommandError("a command needs an action name")
        fields, problems = command_shape.read_fields(
            self.action, self.actor, self.targets, self.squares, self.weapon, self.options
        )
        if fields is None:
            raise MalformedCommand(f"{str(self.action)[:40]}: " + "; ".join(problems))
        object.__setattr__(self, "targets", fields.targets)
        object.__setattr__(self, "squares", fields.squares)
        object.__setattr__(self, "options", fields.options)

    @classmethod
    def build(
        cls,
        action: str,
        actor: str | None = None,
        *,
        targets: tuple[str, ...] | list[str] = (),
        squares: tuple[tuple[int, int], ...] | list[tuple[int, int]] = (),
        weapon: str | None = None,
        **options: OptionInput,
    ) -> Command:
        """Build a command with keyword options (``Command.build("aim", "a", bonus=2)``)."""
        return cls(action, actor, targets, squares, weapon, tuple(options.items()))  # type: ignore[arg-type]

    def value_of(self, name: str, default: OptionValue | None = None) -> OptionValue | None:
        """The option's value of whatever kind (``default`` when left out)."""
        for key, value in self.options:
            if key == name:
                return value
        return default

    def option(self, name: str, default: DataValue | None = None) -> DataValue | None:
        """A one-value option (``default`` when left out); a list or mapping is read with
        :meth:`names` or :meth:`pairs`, never as text."""
        value = self.value_of(name, default)
        if isinstance(value, tuple):
            raise CommandError(f"option {name}= holds a list or mapping, not one value")
        if isinstance(value, Token):
            raise CommandError(f"option {name}= holds a record, not one value")
        return value

    def names(self, name: str) -> Names:
        """A list option's entries in order (empty when left out); CommandError when the
        option holds something else (the option schema refuses that first)."""
        value = self.value_of(name, ())
        if not (isinstance(value, tuple) and all(isinstance(v, str) for v in value)):
            raise CommandError(f"option {name}= must be a list, not {value!r}")
        return tuple(str(v) for v in value)

    def pairs(self, name: str) -> dict[str, str | Square]:
        """A mapping option as a dict (empty when left out); CommandError when the option
        holds something else (the option schema refuses that first)."""
        value = self.value_of(name, ())
        found: dict[str, str | Square] = {}
        for pair in value if isinstance(value, tuple) else (value,):
            if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)
                    and isinstance(pair[1], str | Square)):
                raise CommandError(f"option {name}= must be a mapping, not {value!r}")
            found[pair[0]] = pair[1]
        return found

    def with_options(self, **options: OptionInput) -> Command:
        added = {name: frozen_option(value) for name, value in options.items()}
        return replace(self, options=tuple({**dict(self.options), **added}.items()))

    @property
    def target(self) -> str | None:
        return self.targets[0] if self.targets else None


# --------------------------------------------------------------------------- previews, events


@dataclass(frozen=True, slots=True)
class Preview:
    """What a command would do, without doing it.

    ``reasons`` is empty exactly when ``legal``. ``squares`` are the squares to highlight
    (a path, an area, the squares a Strafe sweeps); ``shapes`` may carry Shapely geometry
    from engine.geometry for the overlay; ``rolls`` lists the rolls apply would make, in
    order, so a GM with physical dice knows what to type; ``initiative`` lists count
    changes by token. ``overlay`` is what the map draws for the command (areas and their
    squares, marks, routes, touched tokens, templates), see :mod:`engine.overlay`: the map
    draws nothing else, so a handler puts there the actor and each target with the
    modifiers against it (``target_overlay(actor_id, targets, modifiers)``).
    """

    command: Command
    legal: bool
    reasons: tuple[str, ...] = ()
    summary: str = ""
    cost: str = ""
    targets: tuple[str, ...] = ()
    squares: tuple[Square, ...] = ()
    shapes: tuple[object, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    shots: int = 0
    initiative: tuple[tuple[str, int], ...] = ()
    rolls: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    overlay: Overlay = field(default_factory=Overlay)

    def __str__(self) -> str:
        if not self.legal:
            return f"not allowed: {'; '.join(self.reasons)}"
        return self.summary


Outcome = tuple[EncounterState, tuple[Event, ...]]


# --------------------------------------------------------------------------- schemas

#: The Python types a stat or an option may hold.
ValueKind = type[int] | type[float] | type[str] | type[bool]

_KIND_WORDS: dict[type, str] = {int: "a whole number", float: "a number", str: "text",
                                 bool: "true or false"}


def _kind_problem(kind: ValueKind, value: object) -> str | None:
    """Why ``value`` is not a ``kind`` (a bool is not a number; a whole number is a float)."""
    if isinstance(value, bool):
        ok = kind is bool
    elif isinstance(value, int):
        ok = kind in (int, float)
    else:
        ok = isinstance(value, kind)
    return None if ok else f"must be {_KIND_WORDS[kind]}, not {value!r}"


#: Every ``Weapon`` field a form edits, with its heading, in the form's order. A system whose
#: rules read fewer of them (or name them otherwise) lists its own as
#: ``RuleSystem.weapon_fields``: a form then shows only those.
ALL_WEAPON_FIELDS: tuple[tuple[str, str], ...] = (
    ("name", "Name"),
    ("damage", "Damage"),
    ("range_increment", "Range incr."),
    ("ammo", "Ammo"),
    ("capacity", "Capacity"),
    ("modes", "Fire modes"),
    ("rate_of_fire", "RoF"),
    ("melee", "Melee"),
    ("traits", "Traits"),
)


@dataclass(frozen=True, slots=True)
class StatSpec:
    """One entry of a system's stat block: what a token's ``stats[name]`` may hold.

    ``default`` is what the rules use when a token has no such stat (None: the rules derive
    it, and ``help`` says how, e.g. a defence worked out from a skill). ``minimum`` and
    ``maximum`` bound numbers; ``choices`` lists the allowed words of a text stat. ``kind``
    is int, float, str or bool, or ``ListOf(Ref.TEXT)`` for names each kept whole (the rules
    read them with ``StatBlock.names``). ``label`` is the short name a form shows; ``help`` a
    sentence in our own words. ``group`` is the heading a form shows the stat under ("" for
    the main block, shown first; a form may fold a group away, e.g. a long skill list); the
    block's order is the order a GM fills it in. ``notation`` says how a form and the
    inspector write the value (``Notation.DIE``: a die size, 8 as "d8").
    """

    name: str
    kind: ValueKind | ListOf
    default: StatValue | StatNames | None
    minimum: float | None = None
    maximum: float | None = None
    required: bool = False
    label: str = ""
    help: str = ""
    choices: tuple[str, ...] = ()
    group: str = ""
    notation: Notation = Notation.NUMBER

    def words(self, value: object) -> str:
        """The value as people read it: a die size as its die ("d8"), a number as it is."""
        if self.notation is Notation.DIE:
            return die_words(value)
        if isinstance(value, float) and value.is_integer():
            return f"{value:g}"
        if isinstance(value, tuple):
            return ", ".join(str(v) for v in value)
        return str(value)

    def problem(self, value: object) -> str | None:
        """Why ``value`` cannot be this stat, in words; None when it can."""
        if isinstance(self.kind, ListOf):
            return list_problem(self.kind, value, self.choices)
        wrong = _kind_problem(self.kind, value)
        if wrong is not None:
            return wrong
        if self.choices and value not in self.choices:
            return f"must be one of {', '.join(self.choices)}, not {value!r}"
        if isinstance(value, int | float) and not isinstance(value, bool):
            if not math.isfinite(value):
                return f"must be a finite number, not {value!r}"
            if self.minimum is not None and value < self.minimum:
                return f"must be at least {_number(self.minimum)}, not {value!r}"
            if self.maximum is not None and value > self.maximum:
                return f"must be at most {_number(self.maximum)}, not {value!r}"
        return None


#: What an option may hold: one value of a plain type, a list, a mapping, or a shaped kind
#: (a point, points, a stat block, a record).
OptionKind = ValueKind | ListOf | MapOf | ShapedKind


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option an action's command may carry (``Command.build(..., name=value)``).

    ``kind`` is int, float, str or bool, a list (``ListOf``) or mapping (``MapOf``) kind
    from :mod:`engine.rules.option_values`, or a point, points, a stat block or a record
    (:mod:`engine.rules.option_kinds`): never a list, a place or a record packed into text.
    ``choices`` lists the allowed values (empty: any value of ``kind``; for a list, its
    entries; for a mapping, its values); ``default`` is what
    the rules assume when the option is left out; ``required`` options must be given.
    ``minimum`` and ``maximum`` bound a number (without them, ``command_shape.MAX_NUMBER``
    either way); every number must be finite and text not absurdly long.
    ``choice_words`` says what each of ``choices`` means, in the same order, for a form to
    show (empty: the values themselves are shown).
    """

    name: str
    kind: OptionKind
    choices: tuple[OptionValue, ...] = ()
    required: bool = False
    default: OptionValue | None = None
    label: str = ""
    minimum: float | None = None
    maximum: float | None = None
    choice_words: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.choice_words and len(self.choice_words) != len(self.choices):
            raise ValueError(f"option {self.name!r}: one word per choice")

    def words_for(self, choice: OptionValue) -> str:
        """What a form shows for one of the choices."""
        if self.choice_words and choice in self.choices:
            return self.choice_words[self.choices.index(choice)]
        if isinstance(choice, str):  # a key reads as words: "called_shot" is "Called shot"
            text = choice.replace("_", " ")
            return text[:1].upper() + text[1:]
        return str(choice)

    def problem(self, value: object) -> str | None:
        if isinstance(self.kind, ListOf):
            return list_problem(self.kind, value, self.choices)
        if isinstance(self.kind, MapOf):
            return map_problem(self.kind, value, self.choices)
        if isinstance(self.kind, SHAPED_KINDS):
            return self.kind.problem(value)
        wrong = _kind_problem(self.kind, value)
        if wrong is not None:
            return wrong
        if self.choices and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            return f"must be one of {allowed}, not {value!r}"
        if isinstance(value, str):
            return command_shape.text_problem(value)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return command_shape.number_problem(value, self.minimum, self.maximum)
        return None


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _close(name: str, known: Iterable[str]) -> str:
    match = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {match[0]!r}?)" if match else ""


def stat_problems(
    specs: tuple[StatSpec, ...], stats: Mapping[str, object]
) -> list[tuple[str, str]]:
    """Every (stat name, problem) in a stat block against a system's schema: unknown names,
    missing required stats, values of the wrong type or out of range."""
    by_name = {spec.name: spec for spec in specs}
    found: list[tuple[str, str]] = []
    for name, value in stats.items():
        spec = by_name.get(name)
        if spec is None:
            found.append((name, f"unknown stat{_close(name, by_name)}"))
            continue
        problem = spec.problem(value)
        if problem is not None:
            found.append((name, problem))
    for spec in specs:
        if spec.required and spec.name not in stats:
            found.append((spec.name, "missing: this stat is required"))
    return found


def option_problems(specs: tuple[OptionSpec, ...], command: Command) -> list[str]:
    """Every option a command carries that its action does not declare, or whose value is
    of the wrong type or not one of the allowed choices (a malformed command)."""
    by_name = {spec.name: spec for spec in specs}
    found: list[str] = []
    for name, value in command.options:
        spec = by_name.get(name)
        if spec is None:
            known = ", ".join(sorted(by_name)) or "none"
            found.append(f"unknown option {name!r}{_close(name, by_name)} (options: {known})")
            continue
        problem = spec.problem(value)
        if problem is not None:
            found.append(f"option {name!r} {problem}")
    return found


def missing_options(specs: tuple[OptionSpec, ...], command: Command) -> list[str]:
    """A reason per required option the command leaves out (an unfinished command, as one
    without its target: refused, not malformed)."""
    given = {name for name, _ in command.options}
    return [f"option {spec.name}= is required" + (f" ({spec.label})" if spec.label else "")
            for spec in specs if spec.required and spec.name not in given]


def with_options(
    catalogue: tuple[ActionSpec, ...], options: Mapping[str, tuple[OptionSpec, ...]]
) -> tuple[ActionSpec, ...]:
    """The catalogue with each action's declared options attached (a system keeps its
    option schema beside its stat block); a key the catalogue lacks is an error."""
    keys = {spec.key for spec in catalogue}
    unknown = sorted(set(options) - keys)
    if unknown:
        raise KeyError(f"options declared for actions not in the catalogue: {unknown}")
    return tuple(replace(spec, options=(*spec.options, *options.get(spec.key, ())))
                 for spec in catalogue)


# --------------------------------------------------------------------------- catalogue data


class Need(StrEnum):
    """What a command for an action must carry."""

    TARGET = "target"  # exactly one target token
    TARGETS = "targets"  # one or more target tokens
    PATH = "path"  # a path of squares, start excluded
    SQUARE = "square"  # one square
    AREA = "area"  # a set of squares
    WEAPON = "weapon"  # one of the actor's weapons
    ACTION = "action"  # another action (Ready, Joint Action...)


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One row of a system's action catalogue, with a summary in our own words."""

    key: str
    name: str
    category: str
    time: str
    summary: str
    shots: str = ""
    modes: tuple[str, ...] = ()
    error_range: str = ""
    tags: tuple[str, ...] = ()
    requirements: str = ""
    needs: tuple[Need, ...] = ()
    #: The options a command for this action may carry; any other is refused.
    options: tuple[OptionSpec, ...] = ()
    #: Aimed at a friend, to help (treat, screen, support): a token's menu lists it first on
    #: a token that is no opponent of the actor, and after the attacks on an opponent.
    helps: bool = False


def helping(actions: tuple[ActionSpec, ...], keys: frozenset[str]) -> tuple[ActionSpec, ...]:
    """``actions`` with those named in ``keys`` marked as help for a friend (``helps``)."""
    unknown = keys - {spec.key for spec in actions}
    if unknown:
        raise ValueError(f"no action {sorted(unknown)} to mark as help")
    return tuple(replace(spec, helps=True) if spec.key in keys else spec for spec in actions)


@dataclass(frozen=True, slots=True)
class ConditionSpec:
    """A condition the system knows, how long it usually lasts, and what it does."""

    name: str
    summary: str
    duration: str = ""


@dataclass(frozen=True, slots=True)
class ActionEconomy:
    """Per-round action pools ("half": 2) and how the system describes them."""

    pools: Mapping[str, int]
    summary: str


@dataclass(frozen=True, slots=True)
class InitiativeScheme:
    """How turn order is decided, as data the tracker shows."""

    kind: str  # "count", "cards", "sides"
    roll: str  # "1d20", "1d8"...
    bonus_stat: str
    summary: str
    high_first: bool = True


ENGINE_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        "start_combat",
        "Start Combat",
        "turn",
        "-",
        "Roll initiative for every token on the map and begin the first round.",
        # A system adds its own start options through RuleSystem.engine_options.
    ),
    ActionSpec(
        "end_turn", "End Turn", "turn", "-", "Finish the active token's turn; the next one acts."
    ),
    ActionSpec("end_combat", "End Combat", "turn", "-", "The fight is over; the log stays."),
    ActionSpec(
        "add_token",
        "Add Token",
        "gm",
        "-",
        "The GM puts a new token on the map (option token= the Token); in a fight, the "
        "system's enter-combat rule brings it in.",
        options=(OptionSpec("token", RecordOf(Token), required=True, label="Token"),),
    ),
    ActionSpec(
        "remove_token",
        "Remove Token",
        "gm",
        "-",
        "The GM takes a token off the map (and out of the turn order).",
        needs=(Need.TARGET,),
    ),
    ActionSpec(
        "place",
        "Place Token",
        "gm",
        "-",
        "The GM moves a token anywhere free on the map, outside the rules.",
        needs=(Need.SQUARE,),
    ),
    ActionSpec(
        "set_portal",
        "Open, Close or Lock",
        "gm",
        "-",
        "The GM opens, closes or locks a door or window (options portal= its id, "
        "state= open, closed or locked); sight and movement follow at once.",
        options=(OptionSpec("portal", str, required=True, label="Door or window"),
                 OptionSpec("state", str, tuple(s.value for s in PortalState), required=True,
                            label="State")),
    ),
)



class GmCommand(Protocol):
    """An editing command the GM gives (draw a wall, edit a token): engine.rules.editing.

    Registered in :data:`GM_COMMANDS` by key; every system checks, previews and applies it
    through the same ``check``/``preview``/``apply`` as its own actions.
    """

    @property
    def spec(self) -> ActionSpec: ...

    def check(self, system: RuleSystem, state: EncounterState, command: Command) -> list[str]: ...

    def describe(self, system: RuleSystem, state: EncounterState, command: Command) -> Preview: ...

    def apply(self, system: RuleSystem, state: EncounterState, command: Command) -> Outcome: ...


#: The GM's editing commands by key (filled by engine.rules.editing, imported by engine.rules).
GM_COMMANDS: dict[str, GmCommand] = {}


def shared_options_of(key: str) -> tuple[OptionSpec, ...]:
    """The options of an engine or GM command, which every system shares (a journal reads
    them without a system); () for a key that is neither."""
    for spec in ENGINE_ACTIONS:
        if spec.key == key:
            return spec.options
    return GM_COMMANDS[key].spec.options if key in GM_COMMANDS else ()


# --------------------------------------------------------------------------- action handlers

#: What one use of an action spends, in the system's own unit: a count of half actions (an
#: int), or a word (a cost or an action type).
ActionCost = int | str


@runtime_checkable
class ActionHandler(Protocol):
    """How one catalogue action works: the one handler protocol of every rule system.

    The system checks what all its actions share (combat running, whose turn, the action
    budget) and then asks the action's handler what is special to it; ``preview`` and
    ``apply`` reach the handler through :meth:`RuleSystem.handler`. A system writes its
    handlers as classes, or as functions gathered in a ``FunctionHandler``
    (``engine.rules.common``); both are this protocol.
    """

    @property
    def key(self) -> str:
        """The catalogue key of the action handled."""
        ...

    @property
    def out_of_turn(self) -> bool:
        """Whether the action may be taken outside the actor's own turn (a trigger, a
        reaction, an Instant action, acting from Hold)."""
        ...

    def check(self, state: EncounterState, command: Command) -> list[str]:
        """Reasons special to this action that the command is not allowed now."""
        ...

    def describe(self, state: EncounterState, command: Command) -> Preview:
        """What the command would do (the system fills in legality and the cost words)."""
        ...

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        """Carry out a command already found legal: the new state and the events."""
        ...

    def cost(self, state: EncounterState, command: Command) -> ActionCost | None:
        """What this use spends, in the system's unit; None: what the catalogue's time says."""
        ...


# --------------------------------------------------------------------------- the interface


class RuleSystem(ABC):
    """A rule system. Subclass, fill the class data, implement the abstract methods.

    Class data: ``name`` (registry key), ``title``, ``scale``, ``default_speed`` (a new
    token's), ``economy``,
    ``initiative_scheme``, ``catalogue`` (tuple of :class:`ActionSpec`, each declaring its
    options), ``conditions``, ``stats`` (the stat block schema: a token with a stat not
    declared here, or a value out of range, is refused on load and by ``add_token``),
    ``shared_options`` (options every catalogue action accepts) and ``engine_options``
    (options the system adds to an engine action, e.g. its ``start_combat`` choices).

    The parts it hands to the shared engine and the desktop (no shared module looks a
    system up by name): ``ordinary_move_key`` (the catalogue action, taking a path, that a
    token drag in combat stands for), ``surprise_round`` (its ``start_combat`` reads who is
    aware and may open with a surprise round), ``cover_table`` and ``range_table`` (what
    cover grades and range bands are worth, for ``engine.geometry``), ``template_inclusion``
    (which squares a template covers), ``templates`` (the templates the GM may lay) and
    ``deviation`` (its Deviation Diagram for ``engine.routes.deviation``, or None: the
    system scatters nothing, and the desktop's Deviation Diagram tool says so) and
    ``difficult_terrain_cost`` (how many times its cost a step into difficult terrain costs,
    a whole number from 1; default 2, double; the graphs of ``engine.routes`` take it as
    ``difficult_cost``).

    Its own fight state is typed (a frozen dataclass registered with
    ``engine.turns.system_state.register_system_state``), never ids or JSON packed into
    text. A system whose older files kept such text converts it once, when the file loads,
    in :meth:`upgrade_state`; its actions then read only the typed state.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    scale: ClassVar[GridScale] = FIVE_FOOT
    #: A new token's speed in the scale's unit: an ordinary person of the system (30 ft).
    default_speed: ClassVar[float] = 30.0
    economy: ClassVar[ActionEconomy]
    initiative_scheme: ClassVar[InitiativeScheme]
    catalogue: ClassVar[tuple[ActionSpec, ...]]
    conditions: ClassVar[tuple[ConditionSpec, ...]] = ()
    stats: ClassVar[tuple[StatSpec, ...]] = ()
    shared_options: ClassVar[tuple[OptionSpec, ...]] = ()
    engine_options: ClassVar[Mapping[str, tuple[OptionSpec, ...]]] = MappingProxyType({})
    ordinary_move_key: ClassVar[str] = "move"
    surprise_round: ClassVar[bool] = False
    cover_table: ClassVar[CoverTable | None] = None
    range_table: ClassVar[RangeTable | None] = None
    template_inclusion: ClassVar[Inclusion] = Inclusion.CENTRE
    templates: ClassVar[tuple[TemplateSpec, ...]] = STANDARD_TEMPLATES
    deviation: ClassVar[DeviationRule | None] = None
    difficult_terrain_cost: ClassVar[int] = 2
    #: The weapon fields its rules read, each with the heading a form gives it (a subset of
    #: ``ALL_WEAPON_FIELDS``, in that order; "name" first).
    weapon_fields: ClassVar[tuple[tuple[str, str], ...]] = ALL_WEAPON_FIELDS

    # ---- catalogue

    def handler(self, key: str) -> ActionHandler:
        """The handler of catalogue action ``key`` (every bundled system has one per action;
        a system that checks and resolves its actions itself may leave this out)."""
        raise UnknownAction(f"{self.title} has no handler for {key!r}")

    def action(self, key: str) -> ActionSpec:
        for spec in (*self.catalogue, *ENGINE_ACTIONS):
            if spec.key == key:
                return spec
        if key in GM_COMMANDS:
            return GM_COMMANDS[key].spec
        raise UnknownAction(f"{self.title} has no action {key!r}")

    def options_of(self, key: str) -> tuple[OptionSpec, ...]:
        """Every option a command for action ``key`` may carry."""
        # By key, as ``action`` finds it: ``spec in self.catalogue`` compared whole specs,
        # field by field, and every check and preview asks this.
        for spec in self.catalogue:
            if spec.key == key:
                return (*spec.options, *self.shared_options)
        spec = self.action(key)
        return (*spec.options, *self.engine_options.get(key, ()))

    def options_for(self, state: EncounterState, actor: str, key: str,
                    ) -> tuple[OptionSpec, ...]:
        """The options a form offers for ``actor``'s action ``key`` now: those of
        :meth:`options_of` that can bear on it in ``state`` (default: all). A system leaves
        out one that cannot matter here (a leave to act, for a token that needs none), so a
        form does not show it on every action; a command may still carry it."""
        return self.options_of(key)

    def check_options(self, command: Command) -> None:
        """Raise :class:`BadOptions` naming every undeclared or ill-typed option."""
        problems = option_problems(self.options_of(command.action), command)
        if problems:
            name = self.action(command.action).name
            raise BadOptions(f"{name}: " + "; ".join(problems))

    # ---- the stat block

    def stat_spec(self, name: str) -> StatSpec:
        for spec in self.stats:
            if spec.name == name:
                return spec
        raise KeyError(f"{self.title} has no stat {name!r}")

    @property
    def stat_block(self) -> StatBlock[StatSpec]:
        """``stats`` as the rules read them: ``self.stat_block.number(token, "hp")``."""
        return block_of(self.title, self.stats)

    def stat(self, token: Token, name: str) -> StatValue | StatNames | None:
        """A declared stat of a token, or the schema's default (None: the rules derive it);
        an undeclared name is an :class:`UndeclaredStat`."""
        return self.stat_block.value(token, name)

    def new_token_stats(self) -> dict[str, StatValue | StatNames]:
        """The stats a token made from nothing (the GM's double-click on the map) starts
        with: each declared stat's default, leaving out those the rules derive (None). A
        system whose defaults would leave such a token down at the first hit (no wounds to
        lose) overrides this with a plausible ordinary character."""
        return {spec.name: spec.default for spec in self.stats if spec.default is not None}

    def stat_problems(self, token: Token) -> list[str]:
        """Every problem with a token's stat block, each naming the stat."""
        return [f"stat {name!r}: {problem}"
                for name, problem in stat_problems(self.stats, token.stats)]

    def condition(self, name: str) -> ConditionSpec:
        for spec in self.conditions:
            if spec.name == name:
                return spec
        raise KeyError(f"{self.title} has no condition {name!r}")

    # ---- health and state (drawn on tokens; changed by the GM's overrides)

    #: The condition that takes a token out of the fight (knock out / revive), if any.
    down_condition: ClassVar[str] = ""

    @property
    def down_conditions(self) -> tuple[str, ...]:
        """Every condition that means out of the fight (drawn crossed out; a revive ends
        them): ``down_condition``, and the others of a system with a ladder of them (dying,
        stable and dead beside disabled, say)."""
        return (self.down_condition,) if self.down_condition else ()

    def down_mark(self, token: Token) -> str:
        """The out-of-the-fight condition the token carries, or "" (it is in the fight)."""
        return next((n for n in self.down_conditions if token.has_condition(n)), "")

    def gauges(self, state: EncounterState, token: Token) -> tuple[Gauge, ...]:
        """The token's health and state in this system's terms (default: none)."""
        return ()

    def tracker_entry(self, state: EncounterState, combatant: Combatant) -> TrackerEntry:
        """How the initiative tracker reads ``combatant`` now. Default: its count, card or
        side by the scheme's kind, and acting, done or still to come by the turn order; a
        system whose tokens keep a turn for later (a Hold) says so here."""
        token = next((t for t in state.tokens if t.id == combatant.token_id), None)
        return TrackerEntry(
            initiative_words(self.initiative_scheme.kind, combatant, token),
            plain_standing(state.combat, combatant),
            out=self.out_words(state, token) if token is not None else "",
        )

    def out_words(self, state: EncounterState, token: Token) -> str:
        """Why ``token`` is out of the fight, in the log's words without "is" ("dead",
        "Incapacitated"), or "": its turn is skipped, or it carries a down condition."""
        allowance = self.turn_allowance(state, token.id)
        if allowance.kind is TurnKind.SKIPPED:
            return allowance.why.removeprefix("is ")
        return self.down_mark(token)

    def take_damage(self, state: EncounterState, token_id: str, amount: int) -> Outcome:
        """The GM deals ``amount`` damage by hand, as this system's damage rule takes it."""
        raise CommandError(f"{self.title} has no damage rule for the GM to apply")

    def heal(self, state: EncounterState, token_id: str, amount: int) -> Outcome:
        """The GM heals ``amount`` by hand, as this system counts healing."""
        raise CommandError(f"{self.title} has no healing rule for the GM to apply")

    def revive(self, state: EncounterState, token_id: str) -> Outcome:
        """What the GM's Revive does once the down conditions are lifted: set right what
        would down the token again (hit points still below 0 left it dying next turn). By
        default nothing more."""
        return state, ()

    def give_condition(self, state: EncounterState, token_id: str, name: str) -> Outcome:
        """The GM puts condition ``name`` on a token by hand (``gm_condition``). Default: the
        bare condition until taken off (one of that name is replaced). A system whose
        conditions bring others along, end at a set moment or cost a turn gives them here."""
        token = state.token(token_id)
        kept = tuple(c for c in token.conditions if c.name != name)
        given = replace(token, conditions=(*kept, Condition(name, source="GM")))
        return state.with_token(given), ()

    def card_choices(self, state: EncounterState, token_id: str) -> tuple[tuple[str, str], ...]:
        """The cards the GM may hand a combatant instead of the one dealt, as (code, words),
        for a system whose initiative is dealt from a deck (default: none, no cards)."""
        return ()

    def set_card(self, state: EncounterState, token_id: str, card: str) -> Outcome:
        """The GM swaps the combatant's dealt card for ``card`` (one of ``card_choices``)."""
        raise CommandError(f"{self.title} deals no cards")

    # ---- files

    def upgrade_state(self, state: EncounterState) -> EncounterState:
        """``state`` as a file held it, with whatever an older file of this system kept as
        text (ids joined by commas, JSON inside a string, a square as ``"x,y"``) turned
        into the typed state the actions read, and the text taken out.

        The file loader (``engine.files``) calls it once on every encounter it reads, after
        the file is validated and before anything else sees the state, so no action ever
        decodes text. Raise :class:`OldStateError` (the place, the problem) for text that
        cannot be read; the loader then refuses the whole file, naming it. A state that
        holds no such text must come back equal, as every file Killbox writes now does.
        Default: nothing to convert (a new system has no older files).
        """
        return state

    # ---- what a system implements

    @abstractmethod
    def legal_actions(self, state: EncounterState, token_id: str) -> tuple[ActionSpec, ...]:
        """Catalogue entries the token may take now (its own possible commands exist)."""

    @abstractmethod
    def example_commands(self, state: EncounterState, token_id: str) -> Iterator[Command]:
        """Concrete commands worth trying for this token now (random play, palettes).

        They need not all be legal; callers filter with :meth:`preview`. Cover every
        action in :meth:`legal_actions` with at least one plausible command.
        """

    def rules_weapon(self, state: EncounterState, command: Command) -> str | None:
        """The weapon the rules themselves use for ``command`` when it names none (a
        Charge's first melee weapon, else Unarmed), or None: the action uses none, or the
        GM chooses. A form shows it as the weapon box's unset entry and starts there, so a
        gun-only token's melee attack does not start with the gun and get refused."""
        return None

    @abstractmethod
    def check_action(self, state: EncounterState, command: Command) -> list[str]:
        """Reasons a catalogue action is not allowed now (empty list: allowed)."""

    @abstractmethod
    def describe_action(self, state: EncounterState, command: Command) -> Preview:
        """What a catalogue action would do (legal fields are filled in by preview)."""

    @abstractmethod
    def resolve_action(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        """Carry out a catalogue action already found legal."""

    def lasting_overlay(self, state: EncounterState) -> Overlay:
        """What stays on the map while it lasts: zones, covered cones, a token on Hold or
        Delaying. The desktop draws it under every tool and redraws it after each command.
        Default: a marker on each token with a pending action; systems add their areas."""
        return pending_markers(state)

    # ---- turn structure hooks (override as the system needs)

    def initiative_for(
        self, state: EncounterState, token: Token, dice: Dice
    ) -> tuple[int, tuple[int, ...], Roll]:
        """Roll a token's initiative: (count, tiebreak, the roll). Default: 1d20 + bonus."""
        bonus = self.stat_block.number(token, self.initiative_scheme.bonus_stat)
        roll = dice.roll(f"{self.initiative_scheme.roll}+{bonus}", f"{token.name} initiative")
        return roll.total, (bonus,), roll

    def fresh_budget(self, state: EncounterState, token_id: str) -> dict[str, int]:
        """A combatant's action pools at the start of a round."""
        return dict(self.economy.pools)

    def move_allowance(self, state: EncounterState, token_id: str) -> int | None:
        """The most squares the token's ordinary move (the path action a token drag sends,
        without options) may cost now, or None when the system names no such bound.

        A drag asks ``engine.routes`` for routes no dearer than this, so a target beyond
        it (or shut away) is answered at once; the move's own check still decides. A bound
        must never be below what that check allows. Default: None (routes of any cost).
        """
        return None

    def drag_bands(self, state: EncounterState, token_id: str) -> tuple[DragBand, ...]:
        """What a drag of the token in combat may spend now, nearest band first
        (``engine.rules.drag_reach``): its ordinary move, then what else the rules let one
        drag spend (a double move, a run...), each band's reach in squares and the options
        its move command carries. A drag's route goes in the first band that reaches its
        cost; none reaching it is out of reach. Default: the ordinary move within
        :meth:`move_allowance` alone (nothing: no bound, routes of any cost)."""
        return ordinary_band(self.move_allowance(state, token_id))

    def start_combat_reasons(self, state: EncounterState, command: Command) -> list[str]:
        """Why this system refuses a ``start_combat`` whose options are each valid but do not
        fit together (an ambush with no ambushing side). Default: no such reason."""
        return []

    def start_combat(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        """Roll initiative for everyone and begin round 1."""
        combatants: list[Combatant] = []
        events: list[Event] = []
        for token in state.tokens:
            count, tiebreak, roll = self.initiative_for(state, token, dice)
            combatants.append(
                Combatant(token.id, count, tiebreak, self.fresh_budget(state, token.id))
            )
            events.append(
                Event(
                    EventKind.INITIATIVE,
                    f"{token.name} rolls initiative: {roll.total}.",
                    (token.id,),
                    roll,
                )
            )
        combat = replace(
            state.combat, phase=Phase.ROUND, round=1, order=turn_order.sort(combatants)
        )
        state = replace(state, combat=combat)
        events.append(Event(EventKind.ROUND, "Round 1 begins."))
        return self._begin_first_turn(state, events, dice)

    def _begin_first_turn(self, state: EncounterState, events: list[Event], dice: Dice) -> Outcome:
        first = turn_order.next_to_act(state.combat)
        if first is None:
            return state, tuple(events)
        state, more = self.open_turn(state, first, dice)
        return state, (*events, *more)

    def turn_allowance(self, state: EncounterState, token_id: str) -> TurnAllowance:
        """What ``token_id`` may do with its turn now: a full turn, a limited one (the
        system's checks enforce the limits), only its start-of-turn roll, or none. Asked by
        :meth:`open_turn` after :meth:`start_turn` has run. Never end a turn the rules
        give. Default: a full turn for everyone."""
        return FULL_TURN

    def open_turn(self, state: EncounterState, token_id: str, dice: Dice) -> Outcome:
        """Start the turn the order reaches, as :meth:`turn_allowance` gives it: a turn
        skipped or over after its roll ends at once with a log line saying why, and the
        next in order opens. When the round runs out so, nobody is active and End turn
        begins the next round (one round per command, even if nobody can act)."""
        events: list[Event] = []
        while True:
            state, started = self.start_turn(state, token_id, dice)
            allowance = self.turn_allowance(state, token_id)
            name = state.token(token_id).name
            state, told = _skip_told(state, token_id, allowance)
            if told:  # said last time: the tracker shows it out, the log stays quiet
                started = tuple(e for e in started if e.text != turn_announcement(name))
            events.extend(started)
            said = allowance.log_line(name)
            if said and not told:
                events.append(Event(EventKind.TURN, said, (token_id,)))
            if not allowance.ends_at_once:
                return state, tuple(events)
            state, ended = self.end_turn(state, token_id, dice)
            events.extend(ended)
            following = turn_order.next_to_act(state.combat)
            if following is None:
                events.append(Event(EventKind.TURN,
                                    f"Nobody else can act in round {state.combat.round}."))
                return state, tuple(events)
            token_id = following

    def start_turn(self, state: EncounterState, token_id: str, dice: Dice) -> Outcome:
        """Make ``token_id`` the active token; expire conditions that end now."""
        state = turn_order.set_active(state, token_id)
        state, expired = turn_order.expire_conditions(state, token_id, start=True)
        name = state.token(token_id).name
        events = (Event(EventKind.TURN, turn_announcement(name), (token_id,)), *expired)
        return state, events

    def end_turn(self, state: EncounterState, token_id: str, dice: Dice) -> Outcome:
        """Close ``token_id``'s turn (conditions ending at the end of its turn go)."""
        state = turn_order.mark_acted(state, token_id)
        return turn_order.expire_conditions(state, token_id, start=False)

    def end_round(self, state: EncounterState, dice: Dice) -> Outcome:
        """End-of-round bookkeeping (fluid initiative...). Default: nothing."""
        return state, ()

    def new_round(self, state: EncounterState, dice: Dice) -> Outcome:
        """Start the next round: refill budgets, re-sort, first token's turn."""
        combat = state.combat
        refilled = [
            replace(c, budget=self.fresh_budget(state, c.token_id), acted=False)
            for c in combat.order
        ]
        round_number = combat.round + 1
        state = replace(
            state,
            combat=replace(
                combat,
                phase=Phase.ROUND,
                round=round_number,
                order=turn_order.sort(refilled),
                active=None,
            ),
        )
        state, expired = turn_order.expire_round(state, round_number)
        events = [Event(EventKind.ROUND, f"Round {round_number} begins."), *expired]
        return self._begin_first_turn(state, events, dice)

    def advance(self, state: EncounterState, dice: Dice) -> Outcome:
        """End the active turn and start the next one (or the next round)."""
        events: list[Event] = []
        active = state.combat.active
        if active is not None:
            state, ended = self.end_turn(state, active, dice)
            events.extend(ended)
        following = turn_order.next_to_act(state.combat)
        if following is not None:
            state, started = self.open_turn(state, following, dice)
            events.extend(started)
            if state.combat.active is not None:
                return state, tuple(events)
        state, closing = self.end_round(state, dice)
        state, opening = self.new_round(state, dice)
        return state, (*events, *closing, *opening)

    # ---- the one place legality is decided

    def check(self, state: EncounterState, command: Command) -> list[str]:
        """Every reason ``command`` is not allowed now; empty means legal.

        An unknown action or a bad option is not a reason but an error (UnknownAction,
        BadOptions): the command itself is malformed. A required option left out is a
        reason, as a missing target is.
        """
        self.action(command.action)  # raises UnknownAction
        self.check_options(command)  # raises BadOptions, for every action alike
        malformed = command_shape.unknown_tokens(state, command.actor, command.targets)
        too_many = command_shape.too_many_squares(state, command.squares)
        if malformed or too_many:
            problems = [*malformed, *([too_many] if too_many else [])]
            raise MalformedCommand(f"{self.action(command.action).name}: " + "; ".join(problems))
        off_map = command_shape.off_the_map(state, command.squares)
        if off_map:
            return [off_map]
        missing = missing_options(self.options_of(command.action), command)
        if missing:
            return missing
        if command.action in GM_COMMANDS:
            return GM_COMMANDS[command.action].check(self, state, command)
        if command.action == "start_combat":
            if state.combat.phase != Phase.SETUP:
                return ["combat has already started"]
            return self.start_combat_reasons(state, command)
        if command.action == "end_combat":
            return ["there is no fight to end"] if state.combat.phase == Phase.OVER else []
        if command.action == "end_turn":
            # With nobody active mid-fight (nobody could act), End turn begins the next round.
            running = state.combat.phase in (Phase.ROUND, Phase.SURPRISE)
            return [] if state.combat.active is not None or running else ["it is nobody's turn"]
        if command.action == "place":
            return _check_place(state, command)
        if command.action == "add_token":
            return _check_add(self, state, command)
        if command.action == "set_portal":
            return _check_portal(state, command)
        if command.action == "remove_token":
            if command.target is None or all(t.id != command.target for t in state.tokens):
                return ["say which token to remove (targets=[id])"]
            return []
        if command.actor is None:
            return [f"{self.action(command.action).name} needs a token to act"]
        try:
            state.token(command.actor)
        except KeyError:
            return [f"there is no token {command.actor!r}"]
        return self.check_action(state, command)

    def preview(self, state: EncounterState, command: Command) -> Preview:
        """Whether ``command`` is legal, why not, and what it would do. Changes nothing."""
        reasons = tuple(self.check(state, command))
        if command.action in GM_COMMANDS:
            gm = GM_COMMANDS[command.action]
            preview = (
                Preview(command, False, summary=gm.spec.summary)
                if reasons
                else gm.describe(self, state, command)
            )
        elif command.action in {spec.key for spec in ENGINE_ACTIONS}:
            preview = _describe_engine_action(self, state, command)
        else:
            preview = self.describe_action(state, command)
            needs = self.action(command.action).needs
            if not preview.overlay and command.squares and Need.PATH in needs:
                # A system whose move walks the command's path and draws nothing of its own
                # (the bundled four draw theirs, tests/engine/rules/test_preview_overlays.py):
                # that path is the route the map draws.
                overlay = route_overlay(state, str(command.actor), command.squares, preview.cost)
                preview = replace(preview, overlay=overlay)
        overlay = preview.overlay.refused(reasons) if reasons else preview.overlay
        return replace(preview, legal=not reasons, reasons=reasons, overlay=overlay)

    def apply(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        """The new state and the events, or :class:`IllegalCommand` naming the reasons."""
        reasons = tuple(self.check(state, command))
        if reasons:
            raise IllegalCommand(command, reasons)
        if command.action in GM_COMMANDS:
            return GM_COMMANDS[command.action].apply(self, state, command)
        if command.action == "start_combat":
            return self.start_combat(state, command, dice)
        if command.action == "end_turn":
            return self.advance(state, dice)
        if command.action == "end_combat":
            combat = replace(state.combat, phase=Phase.OVER, active=None)
            return replace(state, combat=combat), (Event(EventKind.COMBAT, "The fight is over."),)
        if command.action == "add_token":
            token = _token_from(command)
            return state.with_token(token), (
                Event(EventKind.NOTE, f"GM adds {token.name} at {token.square}.", (token.id,)),
            )
        if command.action == "remove_token":
            gone = state.token(str(command.target))
            order = tuple(c for c in state.combat.order if c.token_id != gone.id)
            active = None if state.combat.active == gone.id else state.combat.active
            # What the token was waiting to do goes with it.
            pending = tuple(p for p in state.combat.pending if p.token_id != gone.id)
            combat = replace(state.combat, order=order, active=active, pending=pending)
            state = replace(state.without_token(gone.id), combat=combat)
            removed = (Event(EventKind.NOTE, f"GM removes {gone.name}.", (gone.id,)),)
            if active is None and state.combat.phase in (Phase.ROUND, Phase.SURPRISE):
                state, more = self.advance(state, dice)  # it was his turn: the next one acts
                return state, (*removed, *more)
            return state, removed
        if command.action == "set_portal":
            return _set_portal(state, command)
        if command.action == "place":
            token = state.token(str(command.actor))
            square = command.squares[0]
            moved = state.with_token(token.moved_to(square))
            return moved, (
                Event(EventKind.MOVE, f"GM places {token.name} at {square}.", (token.id,)),
            )
        return self.resolve_action(state, command, dice)


def turn_announcement(name: str) -> str:
    """The log's line as a turn opens."""
    return f"{name}'s turn."


#: Combatant data: why its last turn was skipped, once the log has said so.
SKIP_TOLD = "skip_told"


def _skip_told(state: EncounterState, token_id: str,
               allowance: TurnAllowance) -> tuple[EncounterState, bool]:
    """Whether the log already said, on the token's last turn, that it is skipped for
    this same reason (a dead token is not announced every round); the state remembers
    the reason for next time, and forgets it once the token has a turn again."""
    combatant = state.combat.combatant(token_id)
    before = combatant.data.get(SKIP_TOLD, "")
    now = allowance.why if allowance.kind is TurnKind.SKIPPED else ""
    if before != now:
        data = {k: v for k, v in combatant.data.items() if k != SKIP_TOLD}
        if now:
            data[SKIP_TOLD] = now
        state = turn_order.update(state, replace(combatant, data=data))
    return state, bool(now) and before == now


def _token_from(command: Command) -> Token:
    """The token= option (the option schema has made sure it is a Token)."""
    token = command.value_of("token")
    if not isinstance(token, Token):
        raise CommandError(f"option token= must be a Token record, not {token!r}")
    return token


def _check_add(system: RuleSystem, state: EncounterState, command: Command) -> list[str]:
    token = _token_from(command)
    if any(t.id == token.id for t in state.tokens):
        return [f"a token called {token.id!r} is already on the map"]
    problems = [*system.stat_problems(token), *token.weapon_name_problems()]
    if problems:
        return [f"{token.name}: {problem}" for problem in problems]
    # The footprint first: it names who stands in the way, where the state's own check
    # names only ids.
    problems = footprint_problems(state, token)
    if problems:
        return problems
    try:
        state.with_token(token)
    except ValueError as error:
        return [str(error)]
    return []


#: How the log tells a door or window changing state ("The door between (3,4) and (4,4) opens.").
_PORTAL_VERBS = {
    PortalState.OPEN: "opens",
    PortalState.CLOSED: "closes",
    PortalState.LOCKED: "is locked",
}


def _check_portal(state: EncounterState, command: Command) -> list[str]:
    portal_id = str(command.option("portal", ""))
    wanted = str(command.option("state", ""))
    reasons = []
    if all(p.id != portal_id for p in state.battlemap.portals):
        reasons.append(f"there is no door or window {portal_id!r} (option portal=)")
    if wanted not in {s.value for s in PortalState}:
        reasons.append(f"state= must be open, closed or locked, not {wanted!r}")
    if not reasons and state.battlemap.portal(portal_id).state.value == wanted:
        reasons.append(f"the {state.battlemap.portal(portal_id).label} is already {wanted}")
    return reasons


def _set_portal(state: EncounterState, command: Command) -> Outcome:
    portal = state.battlemap.portal(str(command.option("portal")))
    wanted = PortalState(str(command.option("state")))
    battlemap = state.battlemap.with_portal_state(portal.id, wanted)
    text = f"The {portal.label} {_PORTAL_VERBS[wanted]}."
    return replace(state, battlemap=battlemap), (Event(EventKind.NOTE, text),)


def _check_place(state: EncounterState, command: Command) -> list[str]:
    if command.actor is None or len(command.squares) != 1:
        return ["placing a token needs the token and one square"]
    try:
        token = state.token(command.actor)
    except KeyError:
        return [f"there is no token {command.actor!r}"]
    return footprint_problems(state, token.moved_to(command.squares[0]))


def _describe_engine_action(system: RuleSystem, state: EncounterState, command: Command) -> Preview:
    spec = system.action(command.action)
    summary = spec.summary
    if command.action == "end_turn" and state.combat.active is not None:
        following = turn_order.next_to_act(turn_order.mark_acted(state, state.combat.active).combat)
        who = state.token(following).name if following else "nobody (the round ends)"
        summary = f"End {state.token(state.combat.active).name}'s turn; next: {who}."
    if command.action == "set_portal" and not _check_portal(state, command):
        portal = state.battlemap.portal(str(command.option("portal")))
        verb = _PORTAL_VERBS[PortalState(str(command.option("state")))]
        summary = f"The {portal.label} {verb}."
    if command.action != "place":
        return Preview(command, True, summary=summary)
    # The GM's placing jumps: drawn as a straight line from where the token stands.
    overlay = route_overlay(state, str(command.actor), command.squares[-1:])
    return Preview(command, True, summary=summary, squares=command.squares, overlay=overlay)
