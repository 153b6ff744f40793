"""Spycraft Stand Offs as state: who is in one, the Resolve contest each round opens with,
and the damage that ends one for everybody.

A Stand Off is a pending action of kind ``standoff`` whose ``tokens`` are the ids of those
frozen in it. The actions that start, join and leave one live in ``initiative_actions``
(Stand Off) and ``stand_off_actions`` (Surrender, Take the Shot).
"""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.rules.base import Event, EventKind
from engine.rules.spycraft import board
from engine.tokens import Side, Token
from engine.turns.combat import PendingAction


def stand_offs(state: EncounterState) -> list[PendingAction]:
    return [p for p in state.combat.pending if p.kind == "standoff"]


def stand_off_members(pending: PendingAction) -> list[str]:
    return list(pending.tokens)


def stand_off_round(state: EncounterState, dice: Dice) -> tuple[EncounterState, list[Event]]:
    """The Resolve contest at the start of each round, for every Stand Off."""
    events: list[Event] = []
    for pending in stand_offs(state):
        members = [state.token(m) for m in stand_off_members(pending) if _present(state, m)]
        sides: dict[Side, list[Token]] = {}
        for token in members:
            sides.setdefault(token.side, []).append(token)
        results: dict[Side, int] = {}
        best_wis: dict[Side, int] = {}
        for side, group in sides.items():
            bonus = max(board.skill(t, "resolve_wis") for t in group)
            roll = dice.roll(f"1d20{bonus:+d}", f"Stand Off Resolve ({side.value})")
            results[side] = roll.total
            best_wis[side] = max(board.stat_int(t, "wis") for t in group)
            events.append(
                Event(
                    EventKind.ROLL,
                    f"Stand Off: the {side.value} side rolls Resolve {roll.total}.",
                    tuple(t.id for t in group),
                    roll,
                )
            )
        if len(results) < 2:
            continue
        winner = max(results, key=lambda side: results[side])
        for side, group in sides.items():
            if side is winner:
                continue
            for token in group:
                stress = dice.roll(f"1d6{max(1, best_wis[winner]):+d}", "Stand Off stress")
                total = board.stat_int(token, "stress") + stress.total
                state = state.with_token(board.with_stats(state.token(token.id), stress=total))
                events.append(
                    Event(
                        EventKind.DAMAGE,
                        f"{token.name} takes {stress.total} stress (now {total}).",
                        (token.id,),
                        stress,
                    )
                )
                threshold = board.stat_int(token, "stress_threshold")
                if threshold and total > threshold:
                    cracker = max(sides[winner], key=lambda t: board.skill(t, "resolve_wis"))
                    state, _ = board.add_condition(
                        state, token.id, board.CRACKED, source=cracker.id
                    )
                    events.append(
                        Event(
                            EventKind.NOTE,
                            f"{token.name} cracks: he must Surrender or Take the Shot.",
                            (token.id,),
                        )
                    )
    return state, events


def _present(state: EncounterState, token_id: str) -> bool:
    return any(t.id == token_id for t in state.tokens)


def end_stand_offs_for(state: EncounterState, token_id: str) -> tuple[EncounterState, list[Event]]:
    """Damage to anyone in a Stand Off ends it: everyone fights on as normal."""
    ended = [p for p in stand_offs(state) if token_id in stand_off_members(p)]
    if not ended:
        return state, []
    kept = tuple(p for p in state.combat.pending if p not in ended)
    state = replace(state, combat=replace(state.combat, pending=kept))
    return state, [Event(EventKind.NOTE, "Blood is drawn: the Stand Off ends.", (token_id,))]
