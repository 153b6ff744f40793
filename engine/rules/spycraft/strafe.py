"""Spycraft Strafe as a plan: the chain's refusals, its targets with their Defense steps, its
shots, and what the map draws for it. Check, preview and resolution all read this one plan.

Strafe follows its description, not the table's "2 per square": 3 shots a square, at most a
third of the shots left (rounded down) in squares and never more than 10, 9 or more shots
loaded. One attack is compared with each *opponent* standing in a strafed square, from one
end of the chain to the other; each target gets a cumulative +2 to Defense, and an opponent
on two strafed squares is two targets. A friend in the sweep is not a target (nor a step).
Every square must lie within the weapon's maximum range (10 range increments).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.encounter import EncounterState
from engine.geometry.strafe import ChainCheck, check_chain
from engine.grid import Square, distance_squares
from engine.overlay import (
    Modifier,
    Overlay,
    OverlayArea,
    OverlayToken,
    Role,
    SquareMark,
    Tone,
)
from engine.rules.spycraft import attack_math as am
from engine.tokens import Token, Weapon, are_opponents
from engine.words import counted

SHOTS_PER_SQUARE = 3
MINIMUM_SHOTS = 9
MAXIMUM_SQUARES = 10
DEFENSE_STEP = 2


@dataclass(frozen=True, slots=True)
class StrafeTarget:
    """An opponent in one strafed square and the Defense bonus the sweep gives it there."""

    token_id: str
    square: Square
    defense_bonus: int


@dataclass(frozen=True, slots=True)
class StrafePlan:
    """Everything about one Strafe before the roll."""

    chain: ChainCheck
    problems: tuple[tuple[Square | None, str], ...]
    targets: tuple[StrafeTarget, ...]
    bystanders: tuple[tuple[str, Square], ...]
    shots: int

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(reason for _, reason in self.problems))

    def reasons_at(self, square: Square) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r for s, r in self.problems if s == square))


def plan_strafe(
    state: EncounterState,
    shooter: Token,
    weapon: Weapon,
    squares: tuple[Square, ...],
    *,
    from_end: bool = False,
) -> StrafePlan:
    """The Strafe along ``squares`` (in order) with ``weapon``; Defense steps count from the
    first square, or from the last with ``from_end``."""
    # No Strafe sweeps more than MAXIMUM_SQUARES: a longer chain is refused for its length,
    # and only its first squares are checked (and drawn), so a huge list costs no geometry.
    checked = squares[: MAXIMUM_SQUARES + 1]
    chain = check_chain(state, shooter.id, checked)
    problems: list[tuple[Square | None, str]] = []
    shots_left = weapon.ammo
    if shots_left < MINIMUM_SHOTS:
        problems.append(
            (
                None,
                f"the {weapon.name} has {counted(shots_left, 'shot')} left; Strafe needs "
                f"{MINIMUM_SHOTS} or more",
            )
        )
    limit = min(MAXIMUM_SQUARES, shots_left // SHOTS_PER_SQUARE)
    if not squares:
        problems.append((None, "choose at least one square to strafe"))
    elif len(squares) > limit:
        problems.append(
            (
                None,
                f"{counted(len(squares), 'square')} is too many: with "
                f"{counted(shots_left, 'shot')} left the "
                f"{weapon.name} can strafe at most {limit}",
            )
        )
    problems.extend(chain.problems)
    reach = am.max_range_ft(weapon)
    own, rule = shooter.squares, state.scale.diagonal
    for square in checked:
        distance = state.scale.distance(min(distance_squares(p, square, rule) for p in own))
        if distance > reach:
            problems.append((square, f"{square} is beyond {weapon.name}'s range"))
    targets: list[StrafeTarget] = []
    bystanders: list[tuple[str, Square]] = []
    swept = tuple(zip(chain.squares, chain.occupants, strict=True))
    for square, token_id in reversed(swept) if from_end else swept:
        if token_id is None or token_id == shooter.id:
            continue
        token = state.token(token_id)
        if are_opponents(shooter.side, token.side):
            targets.append(StrafeTarget(token.id, square, DEFENSE_STEP * (len(targets) + 1)))
        else:
            bystanders.append((token.id, square))
    return StrafePlan(
        chain, tuple(problems), tuple(targets), tuple(bystanders), SHOTS_PER_SQUARE * len(squares)
    )


def strafe_overlay(
    state: EncounterState,
    plan: StrafePlan,
    actor_id: str | None = None,
    attack: Sequence[Modifier] = (),
    defence: Mapping[str, Sequence[Modifier]] | None = None,
) -> Overlay:
    """The sweep, a mark per square (its place; a target's Defense step; a friend spared; a
    refused square and why), the shooter and the opponents the one roll is compared with,
    each with the roll's ``attack`` modifiers, its own ``defence`` ones and its steps (the
    shooter carries the ``attack`` ones when the sweep holds no opponent)."""
    steps = {t.square: t for t in plan.targets}
    spared = dict((square, token_id) for token_id, square in plan.bystanders)
    marks = []
    for index, square in enumerate(plan.chain.squares, start=1):
        refused = plan.reasons_at(square)
        target = steps.get(square)
        if target is not None:
            label = f"{index}\n+{target.defense_bonus} Defense"
        elif square in spared:
            label = f"{index}\nnot a target"
        else:
            label = f"{index}"
        marks.append(
            SquareMark(
                square,
                label,
                Tone.REFUSED if refused else Tone.LEGAL,
                "\n".join(refused)
                or (
                    f"{state.token(spared[square]).name} is not an opponent: not a target"
                    if square in spared
                    else ""
                ),
            )
        )
    steps_of: dict[str, list[Modifier]] = {}
    for t in plan.targets:  # an opponent on two strafed squares is two targets: two steps
        steps_of.setdefault(t.token_id, []).append(
            Modifier("Strafe", t.defense_bonus, f"to Defense at {t.square}")
        )
    own = defence or {}
    # With no opponent in the sweep, the roll's modifiers ride on the shooter (one roll).
    shooter = () if steps_of else tuple(attack)
    tokens = [OverlayToken(actor_id, Role.ACTOR, shooter)] if actor_id is not None else []
    tokens += [
        OverlayToken(i, Role.TARGET, (*attack, *own.get(i, ()), *steps))
        for i, steps in steps_of.items()
    ]
    tokens += [
        OverlayToken(token_id, Role.SPARED, note="not an opponent: not a target")
        for token_id in dict.fromkeys(token_id for token_id, _ in plan.bystanders)
    ]
    tone = Tone.REFUSED if plan.problems else Tone.LEGAL
    area = OverlayArea(
        "Strafe", frozenset(plan.chain.squares), tone, "; ".join(plan.reasons), plan.chain.shape
    )
    return Overlay(areas=(area,), marks=tuple(marks), tokens=tuple(tokens))
