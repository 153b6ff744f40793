"""Spycraft Grapple: starting one, joining one, the opposed checks inside, and every
Grapple benefit.

Board choice: tokens never share a square in Killbox, so grapplers stay in their own
adjacent squares (the rules put them in the held opponent's square); "any combatant may
move through adjacent squares" is then moot.

Inside a Grapple the only non-free action a participant may take is the opposed
full-action Athletics check (``grapple_check``). The winner takes a benefit named by the
command: ``benefit`` when the acting character wins, ``their_benefit`` when the opponent
does (default "escape" for a held loser's opponent... see ``_default_benefit``); a
critical win grants a second (``benefit2``).
"""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules.base import Command, Event, EventKind, Outcome
from engine.rules.spycraft import attack_math as am
from engine.rules.spycraft import board
from engine.rules.spycraft.checks import note_failed_check, opposed
from engine.rules.spycraft.handlers import SpycraftHandler, handles
from engine.rules.spycraft.item_actions import drop_weapon, is_ready
from engine.tokens import Token

BENEFITS = (
    "break_pin",
    "disarm",
    "draw",
    "escape",
    "injure",
    "second",
    "manipulate",
    "move",
    "mute",
    "pin",
    "sprawl",
    "throw",
    "use_weapon",
)
#: How many may grapple one target, by its size relative to theirs (-1 smaller, 0, +1).
MAX_GRAPPLERS = {-1: 2, 0: 4, 1: 8}
COOPERATIVE_BONUS = 2
SECOND_OPPONENT_PENALTY = -4
MUTE_PENALTY = -2


def holders_of(state: EncounterState, target_id: str) -> list[Token]:
    target = state.token(target_id)
    ids = {c.source for c in target.conditions if c.name in (board.HELD, board.PINNED) and c.source}
    return [state.token(i) for i in sorted(ids) if _exists(state, i)]


def held_by(state: EncounterState, holder_id: str) -> list[Token]:
    return [
        t
        for t in state.tokens
        if any(c.name in (board.HELD, board.PINNED) and c.source == holder_id for c in t.conditions)
    ]


def _exists(state: EncounterState, token_id: str) -> bool:
    try:
        state.token(token_id)
    except KeyError:
        return False
    return True


def in_grapple(state: EncounterState, token: Token) -> bool:
    return (
        token.has_condition(board.HELD)
        or token.has_condition(board.PINNED)
        or bool(held_by(state, token.id))
    )


def _one_handed_or_unarmed(token: Token) -> bool:

    return not any(w.two_handed and is_ready(w) for w in token.weapons)


@handles("grapple")
class Grapple(SpycraftHandler):
    """``join=True`` joins a Grapple already holding the target (no check)."""

    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        reasons: list[str] = []
        if not _one_handed_or_unarmed(actor):
            reasons.append(f"{actor.name} must be unarmed or hold a one-handed weapon")
        if not board.adjacent(actor, target):
            reasons.append(f"{target.name} is not adjacent")
        size = board.size_difference(actor, target)
        if size > 1:
            reasons.append(f"{target.name} is more than one size bigger")
        holders = holders_of(state, target.id)
        if command.option("join", False):
            if not holders:
                reasons.append(f"nobody is grappling {target.name} yet")
            if len(holders) >= MAX_GRAPPLERS.get(max(-1, min(1, size)), 2):
                reasons.append(f"no room for another grappler on {target.name}")
        else:
            holding = held_by(state, actor.id)
            if holding and not command.option("second", False):
                reasons.append(f"{actor.name} already holds {holding[0].name}")
            if len(holding) >= 2:
                reasons.append(f"{actor.name} cannot grapple more than 2 opponents")
            if command.option("second", False) and any(
                t.has_condition(board.PINNED) for t in holding
            ):
                reasons.append(
                    "a second opponent may be grappled only while the first is held, not pinned"
                )
        if actor.id in {h.id for h in holders}:
            reasons.append(f"{actor.name} already holds {target.name}")
        return reasons

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        events: list[Event] = []
        if command.option("join", False):
            state, ev = board.add_condition(state, target.id, board.HELD, source=actor.id)
            state, vul = board.add_condition(state, actor.id, board.VULNERABLE, source=target.id)
            return state, (
                Event(
                    EventKind.ACTION,
                    f"{actor.name} joins the Grapple on {target.name}.",
                    (actor.id, target.id),
                ),
                vul,
            )
        a_bonus, b_bonus = board.size_bonus(actor, target)
        a_bonus += board.skill(actor, "athletics")
        if command.option("second", False) or held_by(state, actor.id):
            a_bonus += SECOND_OPPONENT_PENALTY
        err = 0 if board.is_proficient(actor, self.key) else 2
        result = opposed(
            dice,
            command,
            actor,
            a_bonus,
            target,
            board.skill(target, "athletics") + b_bonus,
            "Grapple (Athletics)",
            err,
        )
        events.extend(result.events)
        if result.actor_wins:
            state, ev = board.add_condition(state, target.id, board.HELD, source=actor.id)
            events.append(
                Event(EventKind.CONDITION, f"{target.name} is held by {actor.name}.", (target.id,))
            )
            state, vul = board.add_condition(state, actor.id, board.VULNERABLE, source=target.id)
            events.append(vul)
            if result.actor_critical and command.option("benefit"):
                state, more = apply_benefit(
                    state, dice, actor.id, target.id, str(command.option("benefit")), command
                )
                events.extend(more)
        else:
            state = note_failed_check(state, actor.id)
            if result.other_critical:
                state, ev = board.add_condition(state, actor.id, board.SPRAWLED)
            else:
                state, ev = board.add_condition(
                    state, actor.id, board.FLAT_FOOTED, board.until_next_turn(state, actor.id)
                )
            events.append(ev)
        return state, tuple(events)


def _side_bonus(state: EncounterState, token: Token, opponent: Token) -> int:
    """Cooperative check: the best Athletics among those on this token's side of the
    Grapple, +2 for each other helper (an aid-another reading; the text gives no number)."""
    if token.id in {h.id for h in holders_of(state, opponent.id)}:
        team = holders_of(state, opponent.id)
    else:
        team = [token]
    best = max(board.skill(t, "athletics") for t in team)
    bonus = best + COOPERATIVE_BONUS * (len(team) - 1)
    if any(c.name == board.MUTE and c.source == token.id for c in opponent.conditions):
        bonus += MUTE_PENALTY
    if len(held_by(state, token.id)) >= 2:
        bonus += SECOND_OPPONENT_PENALTY
    return bonus


@handles("grapple_check")
class GrappleCheck(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        linked = (
            target.id in {t.id for t in held_by(state, actor.id)}
            or actor.id in {t.id for t in holders_of(state, actor.id)}
            or target.id in {h.id for h in holders_of(state, actor.id)}
        )
        # Which benefits may be named is the options' choices (engine/rules/spycraft/options.py).
        return [] if linked else [f"{actor.name} and {target.name} are not grappling each other"]

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        a_size, b_size = board.size_bonus(actor, target)
        err = 0 if board.is_proficient(actor, "grapple") else 2
        result = opposed(
            dice,
            command,
            actor,
            _side_bonus(state, actor, target) + a_size,
            target,
            _side_bonus(state, target, actor) + b_size,
            "Grapple check (Athletics)",
            err,
        )
        events = list(result.events)
        if result.actor_wins:
            winner, loser, key, critical = actor, target, "benefit", result.actor_critical
        else:
            state = note_failed_check(state, actor.id)
            winner, loser, key, critical = target, actor, "their_benefit", result.other_critical
        # Winning a check shakes off a mute.
        state = _clear_mute(state, winner, loser)
        choice = str(command.option(key, _default_benefit(state, winner, loser)))
        state, more = apply_benefit(state, dice, winner.id, loser.id, choice, command)
        events.extend(more)
        if critical and command.option("benefit2"):
            state, more = apply_benefit(
                state, dice, winner.id, loser.id, str(command.option("benefit2")), command
            )
            events.extend(more)
        return state, tuple(events)


def _clear_mute(state: EncounterState, winner: Token, loser: Token) -> EncounterState:
    current = state.token(winner.id)
    if any(c.name == board.MUTE for c in current.conditions):
        state = state.with_token(
            replace(
                current, conditions=tuple(c for c in current.conditions if c.name != board.MUTE)
            )
        )
    return state


def _default_benefit(state: EncounterState, winner: Token, loser: Token) -> str:
    me = state.token(winner.id)
    if me.has_condition(board.PINNED):
        return "break_pin"
    if me.has_condition(board.HELD):
        return "escape"
    return "pin"


def _release(state: EncounterState, held_id: str, holder_id: str | None = None) -> EncounterState:
    held = state.token(held_id)
    kept = tuple(
        c
        for c in held.conditions
        if not (
            c.name in (board.HELD, board.PINNED) and (holder_id is None or c.source == holder_id)
        )
    )
    state = state.with_token(replace(held, conditions=kept))
    for token in list(state.tokens):
        if any(c.name == board.VULNERABLE for c in token.conditions) and not held_by(
            state, token.id
        ):
            state = board.remove_condition(state, token.id, board.VULNERABLE)
    return state


def apply_benefit(
    state: EncounterState, dice: Dice, winner_id: str, loser_id: str, benefit: str, command: Command
) -> tuple[EncounterState, list[Event]]:
    winner, loser = state.token(winner_id), state.token(loser_id)

    def say(text: str) -> Event:
        return Event(EventKind.ACTION, text, (winner_id, loser_id))

    if benefit == "pin":
        if not any(c.name == board.HELD and c.source == winner_id for c in loser.conditions):
            return state, [say(f"{winner.name} cannot pin {loser.name}: not holding him.")]
        pinned = tuple(
            replace(c, name=board.PINNED) if c.name == board.HELD and c.source == winner_id else c
            for c in loser.conditions
        )
        state = state.with_token(replace(loser, conditions=pinned))
        return state, [say(f"{winner.name} pins {loser.name}.")]
    if benefit == "break_pin":
        me = state.token(winner_id)
        freed = tuple(
            replace(c, name=board.HELD) if c.name == board.PINNED else c for c in me.conditions
        )
        state = state.with_token(replace(me, conditions=freed))
        return state, [say(f"{winner.name} breaks the pin (still held).")]
    if benefit == "escape":
        state = _release(state, winner_id)
        return state, [
            say(
                f"{winner.name} escapes the hold and must step away at once (a Standard Move "
                "of 5 ft or more)."
            )
        ]
    if benefit in ("injure", "use_weapon"):
        weapon = None
        if benefit == "use_weapon":
            one_handed = [w for w in loser.weapons if not w.two_handed]
            weapon = one_handed[0] if one_handed else None
        else:
            one_handed = [w for w in winner.weapons if not w.two_handed and w.melee]
            weapon = one_handed[0] if one_handed else None
        damage = am.roll_damage(dice, winner, weapon, "Grapple damage")
        state, dealt = am.apply_damage(
            state,
            loser_id,
            damage.total,
            subdual=bool(command.option("subdual", False)),
            attacker=winner_id,
        )
        return state, [say(f"{winner.name} hurts {loser.name} in the Grapple."), *dealt]
    if benefit == "disarm":

        if not loser.weapons:
            return state, [say(f"{loser.name} has nothing to drop.")]
        state, ev = drop_weapon(state, loser_id, loser.weapons[0].name, loser.square)
        return state, [
            say(f"{winner.name} forces {loser.name} to drop {loser.weapons[0].name}."),
            ev,
        ]
    if benefit == "sprawl":
        state, ev = board.add_condition(state, loser_id, board.SPRAWLED)
        hurt = dice.roll(f"1d4{board.stat_int(winner, 'str'):+d}", "Sprawl Opponent subdual")
        state, dealt = am.apply_damage(state, loser_id, max(0, hurt.total), subdual=True)
        state, prone = board.add_condition(state, winner_id, board.PRONE)
        return state, [say(f"{winner.name} slams {loser.name} down."), ev, *dealt, prone]
    if benefit == "throw":
        target_square = command.squares[0] if command.squares else None
        free = [
            s
            for s in loser.square.neighbours()
            if state.battlemap.in_bounds(s) and state.token_at(s) is None
        ]
        where = target_square if target_square in free else (free[0] if free else None)
        if where is None:
            return state, [say(f"No free square to throw {loser.name} into.")]
        state = _release(state, loser_id, winner_id)
        state = state.with_token(state.token(loser_id).moved_to(Square(*where)))
        hurt = am.roll_damage(
            dice, winner, None, "Throw damage", max(1, board.stat_int(winner, "str"))
        )
        state, dealt = am.apply_damage(state, loser_id, hurt.total, attacker=winner_id)
        state, ev = board.add_condition(state, loser_id, board.SPRAWLED)
        return state, [say(f"{winner.name} throws {loser.name} to {where}."), *dealt, ev]
    if benefit == "mute":
        state, ev = board.add_condition(state, loser_id, board.MUTE, source=winner_id)
        return state, [
            say(
                f"{winner.name} clamps a hand over {loser.name}'s mouth (-2 to his own "
                "Athletics while it lasts)."
            ),
            ev,
        ]
    notes = {
        "draw": f"{winner.name} draws a one-handed weapon or item.",
        "second": f"{winner.name} may now Grapple a second opponent (at -4).",
        "manipulate": f"{winner.name} works {loser.name}'s gear (armor unbuckled: DR halved "
        "until fixed).",
        "move": f"{winner.name} moves, dragging {loser.name} along (the GM places both).",
    }
    return state, [say(notes[benefit])]
