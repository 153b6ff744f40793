"""Spycraft initiative actions: Delay, Press, Ready, Joint Action, Aim, Brace, Anticipate,
Diversion, Regroup, Refresh, Drop a Ready Item, and fluid initiative events.
(Stand Off is in ``stand_off_actions``; the fluid initiative numbers in ``fluid_initiative``.)

Count changes: Delay, Press and a Ready's trigger move the Initiative Count at once (their
own texts set their limits). Every other change (Aim, Brace, Regroup, Kick, Called Shot,
Diversion, the table's events) is a fluid modifier, summed over the round and applied at
its end within +10/-10.
"""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.geometry.results import TemplateResult
from engine.overlay import Overlay, OverlayToken, Role
from engine.rules.base import Command, Event, EventKind, Outcome, Preview
from engine.rules.overlays import area_overlay, lasting_area, overlay_tokens, target_overlay
from engine.rules.spycraft import action_dice, board
from engine.rules.spycraft.catalogue import action_spec
from engine.rules.spycraft.checks import (
    failed_save_fluid,
    lose_opposed_check,
    note_failed_check,
    opposed,
    save,
    straight,
)
from engine.rules.spycraft.fluid_initiative import FLUID_EVENTS, acts_at, settle_count
from engine.rules.spycraft.geometry_bridge import (
    braced_cone,
    cone_facing,
    line_of_sight,
)
from engine.rules.spycraft.handlers import HANDLERS, SpycraftHandler, full_check, handles
from engine.rules.spycraft.item_actions import drop_weapon
from engine.tokens import Side, are_opponents
from engine.turns import order as turn_order
from engine.turns.combat import Combatant, PendingAction
from engine.words import counted

MIN_DELAY_COUNT = 5
PRESS_MIN_COUNT = 25
PRESS_COST = 20
READY_CANCEL_DC = 15
#: Conditions that do not stop Regroup or Refresh (the character's own stances).
STANCES = {board.AIMING, board.BRACED, board.ANTICIPATING, board.DEFENSIVE}


def _actor(state: EncounterState, command: Command) -> str:
    return str(command.actor)


# ---- Delay


@handles("delay")
class Delay(SpycraftHandler):
    """Options: ``to`` (a count to delay to) or ``times`` (how many Delays, default 1)."""

    def steps(self, state: EncounterState, command: Command) -> int:
        mine = state.combat.combatant(_actor(state, command))
        target = command.option("to")
        if target is not None:
            return mine.initiative - int(target)
        return int(command.option("times", 1) or 1)

    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(_actor(state, command))
        mine = state.combat.combatant(actor.id)
        steps = self.steps(state, command)
        reasons: list[str] = []
        if steps < 1:
            reasons.append("a Delay lowers the Initiative Count by at least 1")
        limit = board.stat_int(actor, "initiative") + 10
        used = int(mine.get("delays", 0))
        if used + steps > limit:
            reasons.append(
                f"{actor.name} may Delay at most {counted(limit, 'time')} a round "
                f"(Initiative bonus +10); {used} used"
            )
        if mine.initiative - steps < MIN_DELAY_COUNT:
            reasons.append(f"a Delay cannot take the Initiative Count below {MIN_DELAY_COUNT}")
        return reasons

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(_actor(state, command))
        mine = state.combat.combatant(actor.id)
        steps = self.steps(state, command)
        return Preview(
            command,
            True,
            summary=(
                f"{actor.name} delays from Count {mine.initiative} to {mine.initiative - steps}."
            ),
            initiative=((actor.id, -steps),),
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(_actor(state, command))
        mine = state.combat.combatant(actor.id)
        steps = self.steps(state, command)
        count = mine.initiative - steps
        data = {
            **mine.data,
            "delays": int(mine.get("delays", 0)) + steps,
            "delayed_from": mine.initiative,
        }
        state = turn_order.update(state, replace(mine, initiative=count, data=data))
        state = _delay_priority(state, mine.initiative)
        return state, (
            Event(
                EventKind.INITIATIVE,
                f"{actor.name} delays to Initiative Count {count}.",
                (actor.id,),
            ),
        )


def _delay_priority(state: EncounterState, count: int) -> EncounterState:
    """Two or more who Delay during the same Count act before everyone else on the Count
    they delay to, among themselves in standard order; a lone Delay gets no priority (equal
    Counts then go to the higher Initiative bonus). The priority ends with the round."""
    group = [c for c in state.combat.order if c.data.get("delayed_from") == count]
    if len(group) < 2:
        return state
    for combatant in group:
        tiebreak = (1, *combatant.tiebreak[1:]) if combatant.tiebreak else (1,)
        state = turn_order.update(state, replace(combatant, tiebreak=tiebreak))
    return state


# ---- Press


@handles("press")
class Press(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(_actor(state, command))
        mine = state.combat.combatant(actor.id)
        reasons: list[str] = []
        if mine.initiative < PRESS_MIN_COUNT:
            reasons.append(
                f"Press needs an Initiative Count of {PRESS_MIN_COUNT}+ ({mine.initiative})"
            )
        if mine.get("pressed", False):
            reasons.append(f"{actor.name} already Pressed this round")
        return reasons

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(_actor(state, command))
        mine = state.combat.combatant(actor.id)
        return Preview(
            command,
            True,
            summary=(
                f"{actor.name} Presses: a half action now at Count {mine.initiative}; his other "
                f"actions come at Count {mine.initiative - PRESS_COST}."
            ),
            initiative=((actor.id, -PRESS_COST),),
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(_actor(state, command))
        mine = state.combat.combatant(actor.id)
        count = mine.initiative - PRESS_COST
        budget = {**mine.budget, "bonus": mine.budget.get("bonus", 0) + 1}
        data = {**mine.data, "pressed": True, "must_press": False, "bonus_only": True}
        state = turn_order.update(state, replace(mine, initiative=count, budget=budget, data=data))

        state, more = settle_count(state, actor.id, state.combat.round + 1)
        return state, (
            Event(
                EventKind.INITIATIVE,
                f"{actor.name} Presses: 1 half action now, then acts at Initiative Count {count}.",
                (actor.id,),
            ),
            *more,
        )


# ---- Ready and its trigger


def readied(state: EncounterState, token_id: str) -> PendingAction | None:
    for pending in state.combat.pending:
        if pending.token_id == token_id and pending.kind == "ready":
            return pending
    return None


@handles("ready")
class Ready(SpycraftHandler):
    """Options: ``then`` (a half action's key) and ``trigger`` (in words)."""

    def check(self, state: EncounterState, command: Command) -> list[str]:
        reasons: list[str] = []
        if command.option("then") is None:  # which ones it may hold: its option's choices
            reasons.append("Ready needs a half action to hold (then=...)")
        if not command.option("trigger"):
            reasons.append("Ready needs a trigger (trigger=...)")
        if readied(state, _actor(state, command)) is not None:
            reasons.append("a Ready action is already waiting")
        return reasons

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(_actor(state, command))
        mine = state.combat.combatant(actor.id)
        then = str(command.option("then"))
        pending = PendingAction(
            actor.id,
            "ready",
            str(command.option("trigger")),
            then,
            {"round": state.combat.round, "count": mine.initiative},
        )
        combat = replace(state.combat, pending=(*state.combat.pending, pending))
        state = replace(state, combat=combat)
        return state, (
            Event(
                EventKind.ACTION,
                f'{actor.name} readies {action_spec(then).name}: "{pending.trigger}".',
                (actor.id,),
            ),
        )


@handles("trigger_ready")
class TriggerReady(SpycraftHandler):
    """The trigger happened. The command carries the readied action's targets, squares and
    weapon; ``count`` is the Initiative Count it happens on (default: the active token's);
    ``cancel=True`` tries a Reflex save (DC 15) to hold back."""

    out_of_turn = True

    def inner(self, state: EncounterState, command: Command) -> Command:
        pending = readied(state, _actor(state, command))
        assert pending is not None
        options = {k: v for k, v in command.options if k not in ("count", "cancel")}
        return Command(
            pending.action,
            command.actor,
            command.targets,
            command.squares,
            command.weapon,
            tuple(options.items()),
        )

    def trigger_count(self, state: EncounterState, command: Command) -> int:
        given = command.option("count")
        if given is not None:
            return int(given)
        active = state.combat.active
        if active is None:
            return state.combat.combatant(_actor(state, command)).initiative
        return state.combat.combatant(active).initiative

    def check(self, state: EncounterState, command: Command) -> list[str]:
        pending = readied(state, _actor(state, command))
        if pending is None:
            return [f"{state.token(_actor(state, command)).name} has no Ready action waiting"]
        if command.option("cancel", False):
            return []
        return full_check(state, self.inner(state, command))

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(_actor(state, command))
        pending = readied(state, actor.id)
        if pending is None:
            return Preview(command, False, summary="no Ready waiting")
        mine = state.combat.combatant(actor.id)
        count = self.trigger_count(state, command)
        change = (
            count - mine.initiative
            if count < mine.initiative and pending.data.get("round") == state.combat.round
            else 0
        )
        what = action_spec(pending.action).name
        summary = f"{actor.name}'s Ready fires: {what}."
        initiative = ((actor.id, change),) if change else ()
        if command.option("cancel", False):
            summary = f"{actor.name} tries to hold back his {what} (Reflex DC {READY_CANCEL_DC})."
            return Preview(command, True, summary=summary, initiative=initiative,
                           targets=command.targets,
                           overlay=target_overlay(actor.id, command.targets))
        # What fires is the readied action: the map shows its own preview.
        fired = HANDLERS[pending.action].describe(state, self.inner(state, command))
        return Preview(command, True, summary=summary, initiative=initiative,
                       targets=fired.targets, squares=fired.squares, modifiers=fired.modifiers,
                       overlay=fired.overlay)

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(_actor(state, command))
        pending = readied(state, actor.id)
        assert pending is not None
        events: list[Event] = []
        inner = self.inner(state, command)
        count = self.trigger_count(state, command)
        mine = state.combat.combatant(actor.id)
        go = True
        if command.option("cancel", False):
            braced = -4 if actor.has_condition(board.BRACED) else 0
            ok, _, event = save(dice, actor, "reflex", READY_CANCEL_DC, braced)
            state = failed_save_fluid(state, actor.id, ok)
            events.append(event)
            go = not ok
            if ok:
                events.append(Event(EventKind.ACTION, f"{actor.name} holds his fire.", (actor.id,)))
        state = replace(
            state,
            combat=replace(
                state.combat, pending=tuple(p for p in state.combat.pending if p is not pending)
            ),
        )
        if go:
            handler = HANDLERS[pending.action]
            reasons = full_check(state, inner)
            if reasons:
                events.append(
                    Event(
                        EventKind.NOTE,
                        f"{actor.name} must act but cannot: {'; '.join(reasons)}.",
                        (actor.id,),
                    )
                )
            else:
                events.append(
                    Event(
                        EventKind.ACTION,
                        f"Trigger: {pending.trigger}. {actor.name} acts.",
                        (actor.id,),
                    )
                )
                state, done = handler.resolve(state, inner, dice)
                events.extend(done)
        if pending.data.get("round") == state.combat.round and count < mine.initiative:
            state = board.set_count(state, actor.id, count)
            events.append(
                Event(
                    EventKind.INITIATIVE,
                    f"{actor.name}'s Initiative Count drops to {count}.",
                    (actor.id,),
                )
            )
        events.append(Event(EventKind.NOTE, f"{actor.name}'s Ready action ends.", (actor.id,)))
        return state, tuple(events)


# ---- Joint Action


def joint_order(command: Command, leader: str) -> tuple[str, ...]:
    """The acting order a Joint Action command asks for: its ``order`` option (token ids
    in order), else the leader and then the targets."""
    return command.names("order") or (leader, *command.targets)


@handles("joint_action")
class JointAction(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(_actor(state, command))
        reasons: list[str] = []
        most = max(1, board.stat_int(actor, "cha") + 1)
        if command.names("order"):
            named = sorted(joint_order(command, actor.id))
            if named != sorted((actor.id, *command.targets)):
                reasons.append("the order must name the leader and each chosen teammate once")
        if len(command.targets) > most:
            reasons.append(f"{actor.name} may lead at most {counted(most, 'teammate')} "
                           "(Cha modifier +1)")
        for target in command.targets:
            mate = state.token(target)
            if (
                target == actor.id
                or are_opponents(actor.side, mate.side)
                or mate.side is Side.NEUTRAL
            ):
                reasons.append(f"{mate.name} is not a willing teammate or ally")
        return reasons

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(_actor(state, command))
        dc = 10 * len(command.targets)
        return Preview(
            command,
            True,
            summary=(
                f"{actor.name} plans a Joint Action with "
                f"{counted(len(command.targets), 'teammate')}: "
                f"Tactics DC {dc}; next round they all act on his count."
            ),
            targets=command.targets,
            overlay=target_overlay(actor.id, command.targets),
            rolls=(f"Tactics 1d20{board.skill(actor, 'tactics'):+d} vs DC {dc}",),
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(_actor(state, command))
        dc = 10 * len(command.targets)
        ok, _, _, _, checked = straight(
            dice,
            command,
            actor,
            board.skill(actor, "tactics"),
            dc,
            "Tactics check for a Joint Action",
            1,
        )
        events = list(checked)
        if ok:
            pending = PendingAction(
                actor.id,
                "joint",
                "",
                "joint_action",
                {"round": state.combat.round + 1},
                tokens=joint_order(command, actor.id),
            )
            state = replace(
                state, combat=replace(state.combat, pending=(*state.combat.pending, pending))
            )
            names = ", ".join(state.token(t).name for t in command.targets)
            events.append(
                Event(
                    EventKind.ACTION,
                    f"Next round {names} act on {actor.name}'s count.",
                    (actor.id, *command.targets),
                )
            )
        else:
            state = note_failed_check(state, actor.id)
        return state, tuple(events)


# ---- Aim, Brace, Anticipate, Diversion


@handles("aim")
class Aim(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(_actor(state, command))
        target = state.token(str(command.target))
        if not line_of_sight(state, actor, target):
            return [f"{actor.name} cannot see {target.name}"]
        return []

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(_actor(state, command))
        target = state.token(str(command.target))
        return Preview(
            command,
            True,
            summary=(
                f"{actor.name} aims at {target.name}: +1 Initiative, +1 to Standard Attacks on him."
            ),
            targets=(target.id,),
            overlay=target_overlay(actor.id, (target.id,)),
            initiative=((actor.id, 1),),
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(_actor(state, command))
        state = board.remove_condition(state, actor.id, board.AIMING)
        state, _ = board.add_condition(state, actor.id, board.AIMING, source=str(command.target))
        state = board.add_fluid(state, actor.id, 1)
        target = state.token(str(command.target))
        return state, (
            Event(EventKind.ACTION, f"{actor.name} aims at {target.name}.", (actor.id, target.id)),
        )


def _brace_cone(state: EncounterState, command: Command) -> TemplateResult | None:
    """The cone the command points, as the braced condition will store it (None: no square)."""
    if not command.squares:
        return None
    actor = state.token(_actor(state, command))
    return braced_cone(state, actor, cone_facing(actor, command.squares[0]))


@handles("brace")
class Brace(SpycraftHandler):
    """The command's square names the direction of the 90-degree cone."""

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(_actor(state, command))
        cone = _brace_cone(state, command)
        overlay = Overlay()
        if cone is not None:  # the cone and the opponents in it, who face the +1
            overlay = area_overlay("Brace", cone.squares, outline=cone.shape).plus(
                Overlay(tokens=(OverlayToken(actor.id, Role.ACTOR), *overlay_tokens(cone.tokens)))
            )
        return Preview(
            command,
            True,
            summary=(
                f"{actor.name} braces toward {command.squares[0] if command.squares else '?'}: "
                "+1 Initiative; +1 to attacks in the cone."
            ),
            squares=command.squares,
            shapes=(cone.shape,) if cone is not None else (),
            targets=overlay.token_ids(Role.AFFECTED),
            initiative=((actor.id, 1),),
            overlay=overlay,
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(_actor(state, command))
        facing = cone_facing(actor, command.squares[0])
        state, _ = board.add_condition(state, actor.id, board.BRACED, source=facing)
        state = board.add_fluid(state, actor.id, 1)
        return state, (
            Event(
                EventKind.ACTION,
                f"{actor.name} braces his weapon toward {command.squares[0]}.",
                (actor.id,),
            ),
        )


def brace_overlay(state: EncounterState) -> Overlay:
    """Each braced token's cone, on the map until the token moves (the +1 lasts as long)."""
    parts = []
    for token in state.tokens:
        for brace in board.conditions_named(token, board.BRACED):
            if brace.source:
                cone = braced_cone(state, token, brace.source)
                label = f"Braced: {token.name} has +1 to attacks into this cone until moving"
                parts.append(lasting_area(label, cone.squares, cone.shape))
    return Overlay().plus(*parts)


@handles("anticipate")
class Anticipate(SpycraftHandler):
    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(_actor(state, command))
        target = state.token(str(command.target))
        dc = 10 + board.stat_int(target, "bab")
        ok, crit, fumble, _, checked = straight(
            dice,
            command,
            actor,
            board.skill(actor, "sense_motive"),
            dc,
            f"Sense Motive to anticipate {target.name}",
        )
        events = list(checked)
        if ok:
            kept = tuple(
                c
                for c in actor.conditions
                if not (c.name == board.ANTICIPATING and c.source == target.id)
            )
            state = state.with_token(replace(actor, conditions=kept))
            bonus = max(1, board.stat_int(actor, "wis"))
            state, ev = board.add_condition(
                state,
                actor.id,
                board.ANTICIPATING,
                board.until_next_turn(state, actor.id),
                source=target.id,
                value=bonus,
            )
            events.append(
                Event(
                    EventKind.CONDITION,
                    f"{actor.name} anticipates {target.name}: +{bonus} dodge Defense against "
                    "him for a full round.",
                    (actor.id, target.id),
                )
            )
            if crit:
                events.append(
                    Event(
                        EventKind.NOTE,
                        f"Critical: {target.name}'s threat range against {actor.name} shrinks "
                        f"by {bonus} (minimum 20).",
                        (target.id,),
                    )
                )
        else:
            state = note_failed_check(state, actor.id)
            if fumble:
                state, ev = board.add_condition(
                    state, actor.id, board.FLAT_FOOTED, board.until_next_turn(state, actor.id)
                )
                events.append(ev)
        return state, tuple(events)


@handles("diversion")
class Diversion(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(_actor(state, command))
        target = state.token(str(command.target))
        reasons: list[str] = []
        if not line_of_sight(state, actor, target):
            reasons.append(f"{actor.name} and {target.name} must see each other")
        if state.combat.has(target.id) and state.combat.combatant(target.id).get("diverted", False):
            reasons.append(f"{target.name} already fell for a Diversion this round")
        return reasons

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(_actor(state, command))
        target = state.token(str(command.target))
        result = opposed(
            dice,
            command,
            actor,
            board.skill(actor, "bluff"),
            target,
            board.skill(target, "sense_motive"),
            "Diversion (Bluff vs Sense Motive)",
            1,
        )
        events = list(result.events)
        if result.actor_wins:
            drop = dice.roll(
                "2d4+2" if result.actor_critical else "1d4+1", "Diversion: Initiative lost"
            )
            state = board.add_fluid(state, target.id, -drop.total)
            if state.combat.has(target.id):
                state = board.set_data(state, target.id, diverted=True)
            events.append(
                Event(
                    EventKind.INITIATIVE,
                    f"{target.name} loses {drop.total} Initiative (fluid).",
                    (target.id,),
                    drop,
                )
            )
        else:
            state, failed = lose_opposed_check(
                state, actor.id, target.id, result.other_critical
            )
            events.extend(failed)
        return state, tuple(events)


# ---- Regroup, Refresh


def _condition_reasons(state: EncounterState, command: Command, what: str) -> list[str]:
    actor = state.token(_actor(state, command))
    bad = [c.name for c in actor.conditions if c.name not in STANCES]
    return [f"{what} is only for a character without conditions ({', '.join(bad)})"] if bad else []


@handles("regroup")
class Regroup(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        return _condition_reasons(state, command, "Regroup")

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(_actor(state, command))
        gain = 5 + max(0, board.stat_int(actor, "int"))
        return Preview(
            command,
            True,
            summary=(
                f"{actor.name} regroups: +{gain} Initiative at the end of the round (at "
                "most +10 in all)."
            ),
            initiative=((actor.id, gain),),
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(_actor(state, command))
        gain = 5 + max(0, board.stat_int(actor, "int"))
        state = board.add_fluid(state, actor.id, gain)
        return state, (
            Event(
                EventKind.ACTION,
                f"{actor.name} regroups (+{gain} Initiative at round's end).",
                (actor.id,),
            ),
        )


@handles("refresh")
class Refresh(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        reasons = _condition_reasons(state, command, "Refresh")
        actor = state.token(_actor(state, command))
        if action_dice.available(state, actor) < 1:
            reasons.append(f"{actor.name} has no Action Die left to heal with (Refresh)")
        return reasons

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(_actor(state, command))
        state, _ = board.add_condition(state, actor.id, board.REFRESHING)
        state = board.set_data(state, actor.id, refresh_spoiled=False)
        return state, (
            Event(
                EventKind.ACTION,
                f"{actor.name} catches his breath (Refresh): if nobody attacks him before his "
                "next turn, he heals.",
                (actor.id,),
            ),
        )


# ---- Drop a Ready Item, fluid events


@handles("drop_ready_item")
class DropReadyItem(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        return [] if command.weapon else ["say which item to drop (weapon=...)"]

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:

        actor = state.token(_actor(state, command))
        where = command.squares[0] if command.squares else actor.square
        state, event = drop_weapon(state, actor.id, str(command.weapon), where)
        return state, (event,)


@handles("fluid_event")
class FluidEvent(SpycraftHandler):
    """A row of Table: Fluid Initiative Modifiers the GM applies (``event=<key>``, ``times``)."""

    out_of_turn = True

    def check(self, state: EncounterState, command: Command) -> list[str]:

        key = str(command.option("event", ""))
        if key not in FLUID_EVENTS:
            return [f"unknown fluid initiative event {key!r} (known: {', '.join(FLUID_EVENTS)})"]
        return []

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:

        actor = state.token(_actor(state, command))
        value, words = FLUID_EVENTS[str(command.option("event"))]
        times = int(command.option("times", 1) or 1)
        state = board.add_fluid(state, actor.id, value * times)
        return state, (
            Event(
                EventKind.INITIATIVE,
                f"{actor.name} {words}: {value * times:+d} Initiative at round's end.",
                (actor.id,),
            ),
        )


@handles("action_check")
class ActionCheck(SpycraftHandler):
    """Anything else: ``name`` (what), optional ``skill`` (a stat) and ``dc`` to roll
    against, ``full=True`` for a full action. A failed check breaks a Joint Action."""

    def cost(self, state: EncounterState, command: Command) -> int | None:
        return 2 if command.option("full", False) else 1

    def check(self, state: EncounterState, command: Command) -> list[str]:
        if command.option("dc") is not None and not command.option("skill"):
            return ["a check against a DC names the skill (or attribute) it is rolled with"]
        return []

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(_actor(state, command))
        what = str(command.option("name", "an action"))
        dc = command.option("dc")
        rolls: tuple[str, ...] = ()
        if dc is not None and command.option("skill"):  # refused without one: no roll shown
            bonus = board.skill(actor, str(command.option("skill", "")))
            rolls = (f"{command.option('skill', 'check')} 1d20{bonus:+d} vs DC {dc}",)
        return Preview(command, True, summary=f"{actor.name}: {what}.", rolls=rolls)

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(_actor(state, command))
        what = str(command.option("name", "an action"))
        events = [Event(EventKind.ACTION, f"{actor.name}: {what}.", (actor.id,))]
        dc = command.option("dc")
        if dc is not None:
            skill = str(command.option("skill", ""))
            label = f"{skill or 'check'} ({what})"
            ok, _, _, _, checked = straight(
                dice, command, actor, board.skill(actor, skill), int(dc), label
            )
            events.extend(checked)
            if not ok:
                state = note_failed_check(state, actor.id)
        return state, tuple(events)


@handles("enter_combat")
class EnterCombat(SpycraftHandler):
    """A token placed mid-fight rolls Initiative (``deliberate=True``: not flat-footed).
    If his count has already passed this round he first acts next round."""

    out_of_turn = True

    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(_actor(state, command))
        if state.combat.has(actor.id):
            return [f"{actor.name} is already in the fight"]
        return []

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:

        actor = state.token(_actor(state, command))
        bonus = board.stat_int(actor, "initiative")
        roll = dice.roll(f"1d20{bonus:+d}", f"{actor.name} initiative")
        active = state.combat.active
        now = acts_at(state.combat.combatant(active)) if active else float("inf")
        passed = roll.total > now or state.combat.phase.value == "surprise"
        newcomer = Combatant(
            actor.id, roll.total, (0, bonus, 0), {"half": 2, "bonus": 0}, {}, passed
        )
        order = turn_order.sort((*state.combat.order, newcomer), acts_at)
        state = replace(state, combat=replace(state.combat, order=order))
        events = [
            Event(
                EventKind.INITIATIVE,
                f"{actor.name} enters the fight: Initiative Count {roll.total}"
                + (" (he acts from next round)." if passed else "."),
                (actor.id,),
                roll,
            )
        ]
        if not command.option("deliberate", False):
            state, flat = board.add_condition(
                state, actor.id, board.FLAT_FOOTED, board.until_next_turn(state, actor.id)
            )
            events.append(flat)
        return state, tuple(events)
