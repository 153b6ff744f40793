"""The shape of a command, checked where commands enter, before any rule or geometry reads one.

A :class:`~engine.rules.base.Command` may come from a script, a journal or the desktop, so
its fields may hold anything. Two checks stand at the door, and both only say what is wrong,
in words (``engine.rules.base`` raises ``MalformedCommand``, a ``CommandError``, with them):

- :func:`read_fields`, when a command is built: the action and the names are text, each
  square is two whole numbers (never true or false), the options are (name, value) pairs
  holding text, a number, true/false, names or (name, value) pairs, and no list is longer
  than anything a map can hold. Counts are taken before any element is looked at, so a
  huge list is refused at once.
- :func:`unknown_tokens` and :func:`too_many_squares`, when a rule system first sees the
  command (``RuleSystem.check``, which both preview and apply call): the actor and the
  targets are tokens on the map, and no more squares are named than the map has. A square
  off the map is a refusal in words (:func:`off_the_map`), given before any rule or geometry
  looks at the squares. Which weapons an actor may name is the action's business (a
  weapon lying on the floor may be picked up).

Option values are checked against each action's declared schema by ``OptionSpec.problem``,
which asks :func:`number_problem` and :func:`text_problem` here for what every option shares
(finite numbers of a sane size, text of a sane length).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence, Sized
from dataclasses import is_dataclass
from itertools import islice
from numbers import Integral
from typing import NamedTuple

from engine import limits
from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules.option_values import frozen_option

#: No command names more squares than a map at its size limit holds, or more targets than
#: a map holds tokens.
MAX_SQUARES = limits.MAX_MAP_SIDE * limits.MAX_MAP_SIDE
MAX_TARGETS = limits.MAX_TOKENS
#: Options on one command (the longest schema declares about a dozen).
MAX_OPTIONS = 100
#: Characters of one text option (a token's JSON, a wall's points) and of a name (an action
#: key, a token id, a weapon).
MAX_TEXT = 1_000_000
MAX_NAME = 10_000
#: A number option without bounds of its own lies within +- this: a million inches, rounds
#: or Initiative Counts is already nonsense at a table, and larger values overflow the floats
#: and loops the rules run on them.
MAX_NUMBER = 1_000_000

#: Entries of a list or mapping option (token ids, sides, cards dealt by hand).
MAX_LIST_ENTRIES = 10_000

#: How far from a map's corner a square may lie.
_REACH = int(limits.MAX_COORDINATE)

#: What a one-value option may hold (engine.turns.combat.DataValue).
_SCALARS = (bool, int, float, str)
#: Any option's value as a Command holds it: one value, names, (name, value) pairs, a point
#: (x, y), points, or a typed record (a frozen dataclass: a Token, Weapons).
OptionValue = object


class Fields(NamedTuple):
    """A command's fields, normalised (tuples, Squares, sorted options)."""

    targets: tuple[str, ...]
    squares: tuple[Square, ...]
    options: tuple[tuple[str, OptionValue], ...]


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _items(value: object, what: str, limit: int, problems: list[str]) -> list[object] | None:
    """The elements of a list-like field, or None (with the problem) when it is not one or
    holds more than ``limit``: counted before any element is read."""
    if isinstance(value, str | bytes | bytearray) or not isinstance(value, Iterable):
        problems.append(f"{what} must be a list, not {_show(value)}")
        return None
    if isinstance(value, Sized) and len(value) > limit:
        problems.append(f"{what}: {len(value):,} is more than {limit:,}")
        return None
    items = list(islice(value, limit + 1))
    if len(items) > limit:
        problems.append(f"{what}: more than {limit:,}")
        return None
    return items


def _name_problem(value: object, what: str, optional: bool) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        return f"{what} must be text, not {_show(value)}"
    if len(value) > MAX_NAME:
        return f"{what} is {len(value):,} characters long, more than {MAX_NAME:,}"
    return None


def _whole(value: object) -> bool:
    """A whole number (numpy's too), never true or false."""
    return isinstance(value, Integral) and not isinstance(value, bool)


def _square(value: object) -> Square | str:
    """A square, or why ``value`` is not one (two whole numbers, x then y)."""
    if isinstance(value, tuple | list) and len(value) == 2:
        # The common case, checked without the general path's calls (a long list of
        # squares is read at about a microsecond a square).
        x, y = value[0], value[1]
        if (type(x) is int and type(y) is int and -_REACH <= x <= _REACH
                and -_REACH <= y <= _REACH):
            return value if isinstance(value, Square) else Square(x, y)
    wrong = f"a square must be two whole numbers (x, y), not {_show(value)}"
    if not isinstance(value, Sequence) or isinstance(value, str | bytes) or len(value) != 2:
        return wrong
    x, y = value[0], value[1]
    if not (_whole(x) and _whole(y)):
        return wrong
    if abs(int(x)) > limits.MAX_COORDINATE or abs(int(y)) > limits.MAX_COORDINATE:
        return f"square {_show(value)} is far off any map"
    return Square(int(x), int(y))


def read_fields(
    action: object, actor: object, targets: object, squares: object, weapon: object,
    options: object,
) -> tuple[Fields | None, list[str]]:
    """The command's fields normalised, or None and every problem with their shape."""
    problems = [p for p in (_name_problem(action, "the action", False),
                            _name_problem(actor, "the actor", True),
                            _name_problem(weapon, "the weapon", True)) if p]
    read_targets: list[str] = []
    for target in _items(targets, "targets", MAX_TARGETS, problems) or ():
        problem = _name_problem(target, "a target", False)
        if problem:
            problems.append(problem)
        else:
            read_targets.append(str(target))
    read_squares: list[Square] = []
    for raw in _items(squares, "squares", MAX_SQUARES, problems) or ():
        square = _square(raw)
        if isinstance(square, str):
            problems.append(square)
            break  # one bad square says enough; a list of junk is not read to its end
        read_squares.append(square)
    read_options: dict[str, OptionValue] = {}
    for pair in _items(options, "options", MAX_OPTIONS, problems) or ():
        if not isinstance(pair, tuple | list) or len(pair) != 2 or not isinstance(pair[0], str):
            problems.append(f"an option must be a (name, value) pair, not {_show(pair)}")
            continue
        name, value = pair
        value = _option_value(value)
        if value is None:
            problems.append(f"option {name!r} must be text, a number, true/false, a list of "
                            f"names or a mapping of names, not {_show(pair[1])}")
            continue
        if name in read_options:
            problems.append(f"option {name!r} is given twice")
        read_options[name] = value
    if problems:
        return None, problems
    return Fields(tuple(read_targets), tuple(read_squares),
                  tuple(sorted(read_options.items()))), []


def _record(value: object) -> bool:
    """A typed record a command may carry: an instance of a frozen dataclass (a Token, a
    Weapon), which hashes like the rest of the command."""
    if not is_dataclass(value) or isinstance(value, type):
        return False
    params = getattr(type(value), "__dataclass_params__", None)
    if params is None or not params.frozen:
        return False
    try:
        hash(value)
    except TypeError:
        return False  # a frozen record holding a list or dict
    return True


def _entry_ok(entry: object) -> bool:
    """One entry of a list or mapping option: text, a number, a square or point, names, a
    (name, value) pair or a record; nothing nested deeper."""
    if isinstance(entry, _SCALARS) or _record(entry):
        return True
    if isinstance(entry, Square):
        return not isinstance(_square(entry), str)  # not a square far off any map
    if not isinstance(entry, tuple) or len(entry) > MAX_LIST_ENTRIES:
        return False
    return all(isinstance(part, _SCALARS) or (isinstance(part, Square) and _entry_ok(part))
               or (isinstance(part, tuple) and all(isinstance(p, str) for p in part))
               for part in entry)


def _option_value(value: object) -> OptionValue | None:
    """The value as a Command holds it (engine.rules.option_values.frozen_option), or None
    when no option kind can hold it: a scalar, a record, or a list or mapping of plain
    entries (``_entry_ok``), each list at most MAX_LIST_ENTRIES long. Whether it is the
    kind its action declares is the option schema's to say."""
    if isinstance(value, _SCALARS) or _record(value):
        return value
    if isinstance(value, Sized) and len(value) > MAX_LIST_ENTRIES:
        return None
    if not isinstance(value, list | tuple | Mapping):
        return None
    try:
        frozen = frozen_option(value)
    except (TypeError, ValueError, IndexError):
        return None
    if not all(_entry_ok(entry) for entry in frozen):
        return None
    return frozen  # type: ignore[no-any-return]


def number_problem(value: float, minimum: float | None, maximum: float | None) -> str | None:
    """Why a number option's value is unusable: not finite, or outside its bounds (or, with
    none declared, outside +-MAX_NUMBER)."""
    if not math.isfinite(value):
        return f"must be a finite number, not {value!r}"
    low = -MAX_NUMBER if minimum is None else minimum
    high = MAX_NUMBER if maximum is None else maximum
    if value < low:
        return f"must be at least {low:g}, not {_show(value)}"
    if value > high:
        return f"must be at most {high:g}, not {_show(value)}"
    return None


def text_problem(value: str) -> str | None:
    if len(value) > MAX_TEXT:
        return f"is {len(value):,} characters long, more than {MAX_TEXT:,}"
    return None


def unknown_tokens(state: EncounterState, actor: str | None, targets: tuple[str, ...]) -> list[str]:
    """The actor or targets a command names that are not on the map (a malformed command:
    nothing a player picks on the map names a token that is not there)."""
    tokens = {token.id for token in state.tokens}
    problems: list[str] = []
    if actor is not None and actor not in tokens:
        problems.append(f"there is no token {_show(actor)}")
    unknown = [target for target in targets if target not in tokens]
    if unknown:
        problems.append(f"there is no token {_show(unknown[0])}"
                        + (f" (nor {len(unknown) - 1} more)" if len(unknown) > 1 else ""))
    return problems


def too_many_squares(state: EncounterState, squares: tuple[Square, ...]) -> str | None:
    """A command naming more squares than its map has is malformed, whatever the action."""
    battlemap = state.battlemap
    if len(squares) > battlemap.width * battlemap.height:
        return (f"{len(squares):,} squares is more than the map holds "
                f"({battlemap.width}x{battlemap.height})")
    return None


def off_the_map(state: EncounterState, squares: tuple[Square, ...]) -> str | None:
    """The first square off the map, in words: a refusal, not a malformed command (a drag or a
    hover reaches past the map's edge, and the map says why it cannot go there)."""
    battlemap = state.battlemap
    off = next((square for square in squares if not battlemap.in_bounds(square)), None)
    if off is None:
        return None
    return f"square {off} is off the map ({battlemap.width}x{battlemap.height} squares)"
