"""How each Spycraft action checks, previews and resolves: one handler object per action.

A handler only decides what is special to its action; the system checks what every
action shares (whose turn, the action budget, Proficiency and Incidental tags, targets
and weapons that exist) before it is asked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, TypeVar

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.rules.base import ActionSpec, Command, Outcome, Preview
from engine.rules.spycraft.catalogue import action_spec


class Handler:
    """The default handler: allowed whenever the shared checks pass; no special effect."""

    key: ClassVar[str]
    #: May be taken outside the actor's own turn (a trigger, a reaction).
    out_of_turn: ClassVar[bool] = False

    @property
    def spec(self) -> ActionSpec:
        return action_spec(self.key)

    def check(self, state: EncounterState, command: Command) -> list[str]:
        return []

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(str(command.actor)).name
        return Preview(command, True, summary=f"{actor}: {self.spec.name}. {self.spec.summary}")

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        raise NotImplementedError(self.key)

    def halves(self, state: EncounterState, command: Command) -> int | None:
        """Half actions this use costs; None means "use the catalogue time"."""
        return None


HANDLERS: dict[str, Handler] = {}

H = TypeVar("H", bound=type[Handler])


def handles(key: str) -> Callable[[H], H]:
    """Class decorator: register one instance of the handler under an action key."""

    def register(cls: H) -> H:
        cls.key = key
        action_spec(key)  # the catalogue must know it
        HANDLERS[key] = cls()
        return cls

    return register
