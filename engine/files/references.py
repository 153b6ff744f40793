"""What a loaded encounter must agree with itself on, checked before the fight is used.

The model checks each value on its own (a wall has length, two tokens never share a
square); this checks what ties values together: the initiative order and the pending
actions name tokens that exist, no token holds two places in the order, whose turn it is
is one of them, no action pool is below zero, and no token carries two weapons of one name
(a command names its weapon by name). A file breaking one of these would
load and then fail with a traceback at the first command.
"""

from __future__ import annotations

import os

from engine.encounter import EncounterState
from engine.files.errors import EncounterFileError, json_path


def check_references(state: EncounterState, path: str | os.PathLike[str]) -> None:
    """Raise EncounterFileError at the first reference ``state`` cannot resolve."""
    tokens = {token.id for token in state.tokens}
    for index, token in enumerate(state.tokens):
        for problem in token.weapon_name_problems():
            raise _fail(path, ["tokens", index, "weapons"], problem)
    combat = state.combat
    placed: set[str] = set()
    for index, combatant in enumerate(combat.order):
        place: list[str | int] = ["combat", "order", index]
        if combatant.token_id not in tokens:
            raise _fail(path, [*place, "token_id"],
                        f"names the token {combatant.token_id!r}, which is not on the map")
        if combatant.token_id in placed:
            raise _fail(path, [*place, "token_id"],
                        f"the token {combatant.token_id!r} is in the initiative order twice")
        placed.add(combatant.token_id)
        for pool, left in combatant.budget.items():
            if left < 0:
                raise _fail(path, [*place, "budget", pool],
                            f"an action pool cannot be below zero, found {left}")
    if combat.active is not None and combat.active not in placed:
        raise _fail(path, ["combat", "active"],
                    f"it is the turn of {combat.active!r}, who is not in the initiative order")
    for index, pending in enumerate(combat.pending):
        if pending.token_id not in tokens:
            raise _fail(path, ["combat", "pending", index, "token_id"],
                        f"names the token {pending.token_id!r}, which is not on the map")


def _fail(path: str | os.PathLike[str], keys: list[str | int], problem: str) -> EncounterFileError:
    return EncounterFileError(path, json_path("encounter", keys), problem)
