"""Charge: which opponents a token can Charge, with the path, and why not for the others.

The rule system hands its Charge rule over as a value (``ClosestSpaceCharge`` or
``RunUpCharge``, with its numbers); nothing here knows a system or its numbers.

``ClosestSpaceCharge``: move up to a multiple of Speed (another multiple in the surprise
round) in a straight line to the *closest* space from which the target can be attacked.
That space must be free; no square on any line from the start to that space (the footprint
swept along the move, see ``lines.walk_line``) may block or slow movement or hold a
creature (one in a condition the rule names as passable, or one its ``passable_creature``
test accepts, excepted); the charger must see the target at the start; no short step
(the system's ``short_step``, named in its words) that round; the charger must move before
attacking. Among equally close spaces the charger takes the most direct one whose path is
clear.
The reasons for a refusal list what the cheap checks found; line of sight, the costliest,
is asked only when nothing else forbids it.

``RunUpCharge``: a straight line of at least a minimum run and at most a multiple of the
normal move, ending next to the target. Rules-silent choices: the line is an ordinary move
that may not turn (walls, impassable squares and opponents stop it, allies may be crossed,
difficult terrain costs the system's multiple); the charger picks the cheapest space next to
the target that such a line reaches; only the route is judged here (the attack's weapon is
the rule's business).

"Can attack from" = within the charger's ``reach`` (in squares, the rule system's: its
declared stat, say) of any square of the target, without overlapping it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.geometry.los import token_line_of_sight
from engine.grid import (
    DiagonalRule,
    GridScale,
    Square,
    Unit,
    distance_squares,
    squares_of_footprint,
)
from engine.routes.errors import RouteError
from engine.routes.graph import MovementGraph
from engine.routes.lines import LineWalk, walk_line
from engine.routes.results import Route
from engine.routes.search import Walker
from engine.tokens import Token, are_opponents
from engine.words import counted

LineOfSight = Callable[[Token, Token], bool]


@dataclass(frozen=True, slots=True)
class ClosestSpaceCharge:
    """A Charge straight to the closest space to attack from (numbers from the system)."""

    speed_multiple: int
    surprise_speed_multiple: int
    attack_bonus: int
    defence_penalty: int
    penalty_lasts: str
    #: The system's words for the one-square step a Charge forbids in the same round.
    short_step: str
    #: Conditions (lower case) of a creature on the line that does not block the Charge.
    passable_conditions: frozenset[str] = frozenset()
    #: The rule's own test for a creature that does not block the Charge (None: only the
    #: conditions count); e.g. one at 0 or fewer hit points.
    passable_creature: Callable[[Token], bool] | None = None


@dataclass(frozen=True, slots=True)
class RunUpCharge:
    """A Charge that needs a run-up: at least ``minimum_run`` (in ``minimum_unit``: m, ft or
    in), at most ``speed_multiple`` x the normal move, ending next to the target."""

    minimum_run: float
    minimum_unit: str
    speed_multiple: int
    attack_bonus: int
    defence_penalty: int
    penalty_lasts: str


ChargeRule = ClosestSpaceCharge | RunUpCharge


@dataclass(frozen=True, slots=True)
class ChargeOption:
    """One opponent as a Charge target: allowed with a route, or the reasons why not."""

    target_id: str
    allowed: bool
    route: Route | None
    reasons: tuple[str, ...] = ()
    attack_bonus: int = 0
    defence_penalty: int = 0
    penalty_lasts: str = ""
    #: Each straight line tried and refused, start first, with why: a preview draws them.
    tried: tuple[tuple[Route, str], ...] = ()


@dataclass(frozen=True, slots=True)
class ChargeReport:
    """For one charger: every opponent it can Charge and every one it cannot, with why."""

    charger_id: str
    allowed: tuple[ChargeOption, ...]
    refused: tuple[ChargeOption, ...]

    def option(self, target_id: str) -> ChargeOption:
        for option in (*self.allowed, *self.refused):
            if option.target_id == target_id:
                return option
        raise KeyError(f"{target_id!r} is not an opponent of {self.charger_id!r}")


def attack_squares(
    charger: Token, target: Token, width: int, height: int, reach: int
) -> list[Square]:
    """Anchors from which the charger's footprint is within ``reach`` squares of the target's."""
    size, tsize = charger.size, target.size
    found = []
    for y in range(target.square.y - reach - size + 1, target.square.y + tsize + reach):
        for x in range(target.square.x - reach - size + 1, target.square.x + tsize + reach):
            if not (0 <= x <= width - size and 0 <= y <= height - size):
                continue
            gap_x = max(target.square.x - (x + size - 1), x - (target.square.x + tsize - 1), 0)
            gap_y = max(target.square.y - (y + size - 1), y - (target.square.y + tsize - 1), 0)
            if 1 <= max(gap_x, gap_y) <= reach:
                found.append(Square(x, y))
    return found


def _attack_spaces(
    movement: MovementGraph, charger: Token, target: Token, reach: int
) -> list[Square]:
    """Attack squares; with a reach of 1, a wall between the two squares rules one out."""
    spaces = attack_squares(charger, target, movement.width, movement.height, reach)
    if reach != 1:
        return spaces
    adjacency = movement.graph._adj
    targets = set(target.squares)
    return [
        space
        for space in spaces
        if any(
            t in adjacency[s] for s in squares_of_footprint(space, charger.size) for t in targets
        )
    ]


def _far_lower_bound(charger: Token, target: Token, rule: DiagonalRule, reach: int) -> int:
    """Distance to the nearest attack square when the charger stands outside their ring.

    The ring's outer box holds every attack anchor, and its edge is part of the ring, so
    from outside the box the nearest anchor is the charger's square clamped onto it.
    Inside the box the answer is 0 (enumerate the squares instead).
    """
    low_x = target.square.x - reach - charger.size + 1
    high_x = target.square.x + target.size + reach - 1
    low_y = target.square.y - reach - charger.size + 1
    high_y = target.square.y + target.size + reach - 1
    x, y = charger.square
    clamped = Square(min(max(x, low_x), high_x), min(max(y, low_y), high_y))
    return distance_squares(charger.square, clamped, rule)


def _times(multiple: int) -> str:
    return {1: "Speed", 2: "twice Speed"}.get(multiple, f"{multiple}x Speed")


def _too_far(
    target: Token, nearest: int, limit: int, surprise: bool, scale: GridScale, multiple: int
) -> str:
    what = f"{_times(multiple)} in the surprise round" if surprise else _times(multiple)
    return (
        f"the closest square to attack {target.name} from is {scale.describe(nearest)} away, "
        f"more than {what} ({scale.describe(limit)})"
    )


def _default_sight(movement: MovementGraph) -> LineOfSight:
    return lambda viewer, target: token_line_of_sight(movement.battlemap, viewer, target)


def charge_options(
    movement: MovementGraph,
    charger_id: str,
    *,
    rule: ChargeRule,
    reach: int,
    line_of_sight: LineOfSight | None = None,
    surprise_round: bool = False,
    took_short_step: bool = False,
) -> ChargeReport:
    """Every opponent of the charger, split into those it can Charge and those it cannot.

    ``reach``: how many squares from the target the charger may attack it (the system's).
    """
    charger = movement.token(charger_id)
    sight = line_of_sight or _default_sight(movement)
    walker = Walker(movement, charger)
    allowed: list[ChargeOption] = []
    refused: list[ChargeOption] = []
    for target in movement.tokens.values():
        if target.id == charger.id or not are_opponents(charger.side, target.side):
            continue
        option = _charge(
            movement, walker, target, rule, reach, sight, surprise_round, took_short_step
        )
        (allowed if option.allowed else refused).append(option)
    return ChargeReport(charger.id, tuple(allowed), tuple(refused))


def charge(
    movement: MovementGraph,
    charger_id: str,
    target_id: str,
    *,
    rule: ChargeRule,
    reach: int,
    line_of_sight: LineOfSight | None = None,
    surprise_round: bool = False,
    took_short_step: bool = False,
) -> ChargeOption:
    """Whether the charger can Charge one target, with the route or the reasons (``reach``
    as in ``charge_options``)."""
    charger = movement.token(charger_id)
    target = movement.token(target_id)
    return _charge(
        movement,
        Walker(movement, charger),
        target,
        rule,
        reach,
        line_of_sight or _default_sight(movement),
        surprise_round,
        took_short_step,
    )


def _charge(
    movement: MovementGraph,
    walker: Walker,
    target: Token,
    rule: ChargeRule,
    reach: int,
    sight: LineOfSight,
    surprise_round: bool,
    took_short_step: bool,
) -> ChargeOption:
    if reach < 1:
        raise RouteError(f"a reach of {counted(reach, 'square')} reaches nobody")
    if isinstance(rule, ClosestSpaceCharge):
        return _closest_space_charge(
            movement, walker, target, rule, reach, sight, surprise_round, took_short_step
        )
    return _run_up_charge(movement, walker, target, rule, reach)


def _closest_space_charge(
    movement: MovementGraph,
    walker: Walker,
    target: Token,
    rule_: ClosestSpaceCharge,
    reach: int,
    sight: LineOfSight,
    surprise_round: bool,
    took_short_step: bool,
) -> ChargeOption:
    charger = walker.mover
    scale = movement.scale
    rule = scale.diagonal
    reasons: list[str] = []
    if took_short_step:
        reasons.append(f"a {rule_.short_step} was taken this round, and a Charge forbids one")
    multiple = rule_.surprise_speed_multiple if surprise_round else rule_.speed_multiple
    limit = scale.squares(multiple * charger.speed)
    far = _far_lower_bound(charger, target, rule, reach)
    if far > limit:
        why = _too_far(target, far, limit, surprise_round, scale, multiple)
        return _refused(target, [*reasons, why])
    spaces = _attack_spaces(movement, charger, target, reach)
    if not spaces:
        return _refused(target, [*reasons, f"no square to attack {target.name} from"])
    distances = {s: distance_squares(charger.square, s, rule) for s in spaces}
    nearest = min(distances.values())
    if nearest == 0:
        reasons.append(f"already next to {target.name}: a Charge must move before the attack")
        return _refused(target, reasons)
    if nearest > limit:
        why = _too_far(target, nearest, limit, surprise_round, scale, multiple)
        return _refused(target, [*reasons, why])
    # Equally close spaces: the most direct line first (a GM charges straight when he can).
    closest = sorted(
        (s for s, d in distances.items() if d == nearest),
        key=lambda s: ((s.x - charger.square.x) ** 2 + (s.y - charger.square.y) ** 2, s),
    )
    walks: list[LineWalk] = []
    for space in closest:
        occupied = _space_problem(movement, walker, space)
        if occupied is not None:
            walks.append(_blocked_walk(walker, space, occupied, rule_))
            continue
        walks.append(walk_line(walker, space, strict=True, passable=rule_.passable_conditions,
                               helpless=rule_.passable_creature))
    good = next((w for w in walks if w.clear), None)
    tried: list[tuple[Route, str]] = []
    if good is None:
        found = [(space, p) for space, walk in zip(closest, walks, strict=True)
                 for p in walk.problems]
        reasons.extend(_toward(found))
        tried.extend((w.route, "; ".join(_toward([(s, p) for p in w.problems])))
                     for s, w in zip(closest, walks, strict=True))
    # Line of sight is the costliest check: asked only when nothing else forbids the Charge.
    if not reasons and not sight(charger, target):
        reasons.append(f"no line of sight to {target.name} at the start of the turn")
    if good is not None and not reasons:
        return _allowed(target, good.route, rule_)
    return _refused(target, reasons, tried)


def _toward(found: Sequence[tuple[Square, str]]) -> list[str]:
    """Each problem once, naming the spaces whose line it is on ("toward (5,5) and (5,6):
    square (2,5) on the straight line blocks movement"): several spaces are tried, and the
    bare problem did not say which line it was on. One that names its space stays as is."""
    spaces: dict[str, list[Square]] = {}
    for space, problem in found:
        at = spaces.setdefault(problem, [])
        if str(space) not in problem and space not in at:
            at.append(space)
    return [f"toward {_and(at)}: {problem}" if at else problem
            for problem, at in spaces.items()]


def _and(squares: Sequence[Square]) -> str:
    words = [str(s) for s in squares]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _allowed(target: Token, route: Route, rule: ChargeRule) -> ChargeOption:
    return ChargeOption(
        target.id, True, route, (), rule.attack_bonus, rule.defence_penalty, rule.penalty_lasts
    )


def _run_up_charge(
    movement: MovementGraph, walker: Walker, target: Token, rule_: RunUpCharge, reach: int
) -> ChargeOption:
    charger = walker.mover
    scale = movement.scale
    rule = scale.diagonal
    limit = scale.squares(rule_.speed_multiple * charger.speed)
    per_unit = _unit_in(scale.unit.value) / _unit_in(rule_.minimum_unit)
    minimum = math.ceil(rule_.minimum_run / per_unit / scale.square_size - 1e-9)
    run_up = f"{rule_.minimum_run:g} {rule_.minimum_unit}"
    moves = _times(rule_.speed_multiple).replace("Speed", "the normal move")
    spaces = _attack_spaces(movement, charger, target, reach)
    candidates = sorted(spaces, key=lambda s: (distance_squares(charger.square, s, rule), s))
    reasons: list[str] = []
    tried: list[tuple[Route, str]] = []
    found: list[tuple[Square, str]] = []  # the lines' problems, named by space at the end
    for space in candidates:
        distance = distance_squares(charger.square, space, rule)
        if distance < minimum:
            reasons.append(
                f"{space} is only {scale.describe(distance)} away; a Charge needs a run of at "
                f"least {run_up} ({scale.describe(minimum)})"
            )
            continue
        if distance > limit:
            reasons.append(
                f"{space} is {scale.describe(distance)} away, more than {moves} "
                f"({scale.describe(limit)})"
            )
            break
        walk = walk_line(walker, space, strict=False)
        if walk.route.cost.squares > limit:
            why = (f"the line to {space} costs {walk.route.cost} with difficult terrain, more "
                   f"than {moves}")
            reasons.append(why)
            tried.append((walk.route, why))
            continue
        if walk.clear:
            return _allowed(target, walk.route, rule_)
        found.extend((space, p) for p in walk.problems)
        tried.append((walk.route, "; ".join(_toward([(space, p) for p in walk.problems]))))
    reasons.extend(_toward(found))
    if not spaces:
        reasons.append(f"no square to attack {target.name} from")
    return _refused(target, reasons, tried)


def _unit_in(unit: str) -> float:
    """How many metres one of ``unit`` is (``engine.grid.Unit`` says)."""
    try:
        return Unit(unit).metres
    except ValueError:
        raise RouteError(f"no length unit {unit!r} (m, ft or in)") from None


def _space_problem(movement: MovementGraph, walker: Walker, space: Square) -> str | None:
    for square in squares_of_footprint(space, walker.size):
        if square in movement.impassable:
            return f"the closest square to attack from, {square}, blocks movement"
        holder = movement.occupant.get(square)
        if holder is not None and holder != walker.mover.id:
            name = movement.tokens[holder].name
            return f"the closest square to attack from, {square}, is occupied by {name}"
    return None


def _blocked_walk(
    walker: Walker, space: Square, problem: str, rule: ClosestSpaceCharge
) -> LineWalk:
    walk = walk_line(walker, space, strict=True, passable=rule.passable_conditions,
                     helpless=rule.passable_creature)
    return LineWalk(walk.route, walk.swept, (problem, *walk.problems))


def _refused(
    target: Token, reasons: list[str], tried: Sequence[tuple[Route, str]] = ()
) -> ChargeOption:
    return ChargeOption(target.id, False, None, tuple(dict.fromkeys(reasons)), tried=tuple(tried))
