"""How each Spycraft action checks, previews and resolves: one handler object per action.

Each is an :class:`~engine.rules.base.ActionHandler`, the contract's one handler protocol,
written as a class: :class:`SpycraftHandler` holds the defaults and ``@handles(key)``
registers one instance per action. A handler only decides what is special to its action;
the system checks what every action shares (whose turn, the action budget, Proficiency and
Incidental tags, targets and weapons that exist) before it is asked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, TypeVar

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.rules.base import ActionSpec, Command, Need, Outcome, Preview
from engine.rules.overlays import target_overlay
from engine.rules.spycraft.catalogue import action_spec


class SpycraftHandler:
    """The default handler: allowed whenever the shared checks pass; no special effect.

    A subclass sets ``out_of_turn = True`` for a trigger or a reaction and overrides
    :meth:`cost` where one use costs other than the catalogue's time.
    """

    _key: ClassVar[str]
    #: May be taken outside the actor's own turn (a trigger, a reaction).
    out_of_turn: ClassVar[bool] = False

    @property
    def key(self) -> str:
        return self._key

    @property
    def spec(self) -> ActionSpec:
        return action_spec(self.key)

    def check(self, state: EncounterState, command: Command) -> list[str]:
        return []

    def describe(self, state: EncounterState, command: Command) -> Preview:
        """Names the action; the command's targets are whom it acts on."""
        actor = state.token(str(command.actor))
        return Preview(command, True, summary=f"{actor.name}: {self.spec.name}. "
                       f"{self.spec.summary}", targets=command.targets,
                       overlay=target_overlay(actor.id, command.targets))

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        raise NotImplementedError(self.key)

    def cost(self, state: EncounterState, command: Command) -> int | None:
        """Half actions this use costs; None means "use the catalogue time" (Proficiency
        doubling and the Incidental tag are the system's, on top)."""
        return None


HANDLERS: dict[str, SpycraftHandler] = {}

H = TypeVar("H", bound=type[SpycraftHandler])


def handles(key: str) -> Callable[[H], H]:
    """Class decorator: register one instance of the handler under an action key."""

    def register(cls: H) -> H:
        cls._key = key
        action_spec(key)  # the catalogue must know it
        HANDLERS[key] = cls()
        return cls

    return register


def structure_reasons(state: EncounterState, command: Command) -> list[str]:
    """What a command lacks for its action: targets that exist, a weapon the actor
    carries, the right number of squares on the map."""
    spec = action_spec(command.action)
    actor = state.token(str(command.actor))
    reasons: list[str] = []
    for target in command.targets:
        try:
            state.token(target)
        except KeyError:
            reasons.append(f"there is no token {target!r} to target")
    if Need.TARGET in spec.needs and len(command.targets) != 1:
        reasons.append(f"{spec.name} needs exactly one target")
    if Need.TARGETS in spec.needs and not command.targets:
        reasons.append(f"{spec.name} needs at least one target")
    if command.weapon is not None and command.option("mode") != "pick_up":
        try:
            actor.weapon(command.weapon)
        except KeyError as error:
            reasons.append(str(error.args[0]))
    if Need.SQUARE in spec.needs and len(command.squares) != 1:
        reasons.append(f"{spec.name} needs one square")
    if Need.PATH in spec.needs and not command.squares and spec.key not in _PATH_OPTIONAL:
        reasons.append(f"{spec.name} needs a path")
    if Need.AREA in spec.needs and not command.squares:
        reasons.append(f"{spec.name} needs squares")
    for square in command.squares:
        if not state.battlemap.in_bounds(square):
            reasons.append(f"square {square} is off the map")
    return reasons


def full_check(state: EncounterState, command: Command) -> list[str]:
    """Structure first, then the action's own rules (for actions taken inside others)."""
    reasons = structure_reasons(state, command)
    return reasons or HANDLERS[command.action].check(state, command)


_PATH_OPTIONAL = ("total_defense", "bull_rush")
