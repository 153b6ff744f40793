"""The seven steps of a Spycraft combat, as turn-engine hooks.

1. Everyone starts flat-footed unless he entered the fight on purpose.
2. The base encounter distance comes from the location table, capped by the best sight
   or hearing range present.
3. Initiative: 1d20 + Initiative bonus (no threats or errors), optionally one check per
   group of opponents.
4. Surprise round when not every group is aware: opposed team stealth checks; each
   eligible member takes 1 free, 1 half or 1 full action.
5. Rounds of 1 full or 2 half actions in Initiative order; ties by bonus, then roll-off.
6. Fluid initiative at the end of each round, capped at +10/-10 (Press aside); 50+ forces
   a Press, 0 or less sends the character reeling, flat-footed, and up by 20 (or to 1).
7. Repeat 5 and 6.

Start-combat options (all optional, comma lists of token ids or sides):
``deliberate`` (tokens entering on purpose), ``awareness`` ("all", "some", "none"),
``acting`` (sides trying to ambush, for "some"), ``unaware`` (tokens left out of the
surprise check), ``group_initiative`` (sides that roll one check for the whole side),
``location`` (a key of :data:`BASE_DISTANCE`), ``sight_cap`` (ft, overrides the tokens'
``sight_range`` stat).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.rules.base import Command, CommandError, Event, EventKind, Outcome, RuleSystem
from engine.rules.spycraft import action_dice, board, combat_state
from engine.rules.spycraft.fluid_initiative import (
    HAD_KEYS,
    acts_at,
    capped,
    note_conditions,
    pending,
    settle_count,
)
from engine.rules.spycraft.refresh import finish_refresh
from engine.rules.spycraft.stand_offs import stand_off_round
from engine.rules.spycraft.suppression_zones import expire_suppression
from engine.tokens import Expiry, ExpiryPoint, Side
from engine.turns import order as turn_order
from engine.turns.combat import Combatant, Phase

#: Table: Base Encounter Distance, as (dice, feet per point); "indoors" is line of sight.
BASE_DISTANCE: dict[str, tuple[str, int] | None] = {
    "indoors": None,
    "aquatic": ("6d6", 20),
    "plains": ("6d6", 20),
    "desert": ("6d6", 20),
    "arctic": ("4d6", 10),
    "forest": ("4d6", 10),
    "outdoor urban": ("4d6", 10),
    "jungle": ("2d6", 10),
    "swamp": ("2d6", 10),
    "mountains": ("6d6", 5),
    "underwater": ("6d6", 5),
}


#: Per-round bookkeeping cleared when a new round starts.
ROUND_KEYS = (
    "moved",
    "stepped",
    "incidental_used",
    "pressed",
    "delays",
    "delayed_from",
    "fluid",
    *HAD_KEYS.values(),
    "surprise_used",
    "surprise_free",
    "bonus_only",
    "diverted",
    "feinted",
    "wounded",
    "crit",
    "failed_save",
)


def base_encounter_distance(
    location: str, dice: Dice, sight_ranges: Iterable[float] = ()
) -> tuple[float | None, str]:
    """Step 2: the distance in feet (None: line of sight) and a sentence for the log."""
    try:
        row = BASE_DISTANCE[location]
    except KeyError:
        known = ", ".join(BASE_DISTANCE)
        raise ValueError(f"unknown location {location!r} (known: {known})") from None
    if row is None:
        return None, "Indoors: the groups meet at line of sight."
    expression, feet = row
    roll = dice.roll(expression, f"base encounter distance ({location})")
    distance = float(roll.total * feet)
    ranges = [r for r in sight_ranges if r > 0]
    if ranges and distance > max(ranges):
        return max(ranges), (
            f"Base encounter distance {distance:g} ft ({location}) exceeds the best sight "
            f"or hearing range; it drops to {max(ranges):g} ft."
        )
    return distance, f"Base encounter distance: {distance:g} ft ({location})."


#: Why an ambush ("some" are aware) cannot start yet: nobody springs it.
NO_AMBUSHER = "An ambush needs the side that springs it: name the acting side."


def start_reasons(command: Command) -> list[str]:
    """Step 4 needs, for an ambush, the sides that spring it (the ``acting`` option)."""
    ambush = command.option("awareness", "all") == "some"
    return [NO_AMBUSHER] if ambush and not command.names("acting") else []


def start_combat(
    system: RuleSystem, state: EncounterState, command: Command, dice: Dice
) -> Outcome:
    events: list[Event] = []
    deliberate = set(command.names("deliberate"))
    deliberate |= {t.id for t in state.tokens if board.STATS.flag(t, "deliberate")}

    # Step 1: flat-footedness.
    for token in state.tokens:
        if token.id not in deliberate:
            expiry = Expiry(0, ExpiryPoint.START_OF_TURN, token.id)
            state, event = board.add_condition(state, token.id, board.FLAT_FOOTED, expiry)
            events.append(event)

    # Step 2: base encounter distance.
    location = command.option("location")
    if location:
        cap = command.option("sight_cap")
        ranges = (
            [float(cap)] if cap else [float(board.stat_int(t, "sight_range")) for t in state.tokens]
        )
        _, text = base_encounter_distance(str(location), dice, ranges)
        events.append(Event(EventKind.COMBAT, text))

    # Step 3: initiative checks.
    combatants, rolled = _initiative(state, dice, set(command.names("group_initiative")))
    events.extend(rolled)
    state = _gm_pool(state, command)
    state, combatants, boosted = _boost(state, combatants, set(command.names("boost")), dice)
    events.extend(boosted)
    combatants, tied = roll_offs(state, combatants, dice)
    events.extend(tied)

    # Step 4: surprise round.
    awareness = str(command.option("awareness", "all"))
    if awareness not in ("all", "some", "none"):
        raise ValueError(f"awareness must be all, some or none, not {awareness!r}")
    surprised_sides, more = _surprise(state, command, awareness, dice)
    events.extend(more)
    unaware = set(command.names("unaware"))
    if surprised_sides:
        eligible = {t.id for t in state.tokens if t.side in surprised_sides and t.id not in unaware}
        combatants = [
            replace(
                c,
                budget=system.fresh_budget(state, c.token_id),
                data={**c.data, "surprise": c.token_id in eligible},
                acted=c.token_id not in eligible,
            )
            for c in combatants
        ]
        phase, round_number = Phase.SURPRISE, 0
        events.append(
            Event(EventKind.ROUND, "Surprise round: only the aware act, one action each.")
        )
    else:
        combatants = [replace(c, budget=system.fresh_budget(state, c.token_id)) for c in combatants]
        phase, round_number = Phase.ROUND, 1
        events.append(Event(EventKind.ROUND, "Round 1 begins."))
    combat = replace(
        state.combat, phase=phase, round=round_number, order=turn_order.sort(combatants, acts_at)
    )
    state = replace(state, combat=combat)
    first = turn_order.next_to_act(state.combat)
    if first is not None:
        state, started = system.open_turn(state, first, dice)
        events.extend(started)
        if state.combat.active is not None:
            return state, tuple(events)
    state, closing = end_round(system, state, dice)
    state, opening = new_round(system, state, dice)
    return state, (*events, *closing, *opening)


def _initiative(
    state: EncounterState, dice: Dice, group_sides: set[str]
) -> tuple[list[Combatant], list[Event]]:
    events: list[Event] = []
    combatants: list[Combatant] = []
    side_counts: dict[Side, int] = {}
    for side in sorted(group_sides):
        members = [t for t in state.tokens if t.side.value == side]
        if not members:
            continue
        best = max(board.stat_int(t, "initiative") for t in members)
        roll = dice.roll(f"1d20{best:+d}", f"initiative for the {side} group")
        side_counts[members[0].side] = roll.total
        events.append(
            Event(
                EventKind.INITIATIVE,
                f"The {side} group rolls one Initiative check: {roll.total}.",
                tuple(t.id for t in members),
                roll,
            )
        )
    for token in state.tokens:
        bonus = board.stat_int(token, "initiative")
        if token.side in side_counts:
            count = side_counts[token.side]
        else:
            roll = dice.roll(f"1d20{bonus:+d}", f"{token.name} initiative")
            count = roll.total
            events.append(
                Event(
                    EventKind.INITIATIVE,
                    f"{token.name} rolls Initiative: Count {count}.",
                    (token.id,),
                    roll,
                )
            )
        combatants.append(Combatant(token.id, count, (0, bonus, 0)))
    return combatants, events


def _boost(
    state: EncounterState, combatants: list[Combatant], boosting: set[str], dice: Dice
) -> tuple[EncounterState, list[Combatant], list[Event]]:
    """Step 3's Special Note: an Action Die may boost an Initiative check (and only that,
    never a count later). Each named character spends one and adds its roll."""
    known = {t.id for t in state.tokens}
    unknown = sorted(boosting - known)
    if unknown:
        raise CommandError(f"boost=: there is no token {', '.join(map(repr, unknown))}")
    events: list[Event] = []
    boosted: list[Combatant] = []
    for c in combatants:
        if c.token_id not in boosting:
            boosted.append(c)
            continue
        token = state.token(c.token_id)
        if action_dice.available(state, token) < 1:
            raise CommandError(f"boost=: {token.name} has no Action Dice left")
        state = action_dice.spend_from(state, token.id)
        roll = dice.roll(board.STATS.text(token, action_dice.DIE_STAT),
                         f"{token.name} Action Die (Initiative)")
        boosted.append(replace(c, initiative=c.initiative + roll.total))
        events.append(Event(EventKind.INITIATIVE, f"{token.name} spends an Action Die on his "
                            f"Initiative check: +{roll.total}, Count {c.initiative + roll.total}.",
                            (token.id,), roll))
    return state, boosted, events


def _gm_pool(state: EncounterState, command: Command) -> EncounterState:
    """The GM's Action Dice for the fight (option ``gm_action_dice``)."""
    size = command.option(action_dice.GM_POOL)
    if size is None:
        return state
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise CommandError(f"{action_dice.GM_POOL}= is a count of dice, 0 or more, not {size!r}")
    return action_dice.with_gm_pool(state, size)


def roll_offs(
    state: EncounterState, combatants: Sequence[Combatant], dice: Dice
) -> tuple[list[Combatant], list[Event]]:
    """Equal counts and equal bonuses: each rolls 1d20, high first, re-rolling ties."""
    events: list[Event] = []
    result = list(combatants)
    groups: dict[tuple[float, int, int], list[int]] = {}
    for index, c in enumerate(result):
        delayed, bonus = (*c.tiebreak, 0, 0, 0)[:2]
        groups.setdefault((acts_at(c), delayed, bonus), []).append(index)
    for indices in groups.values():
        pending = [i for i in indices]
        if len(pending) < 2:
            continue
        names = ", ".join(state.token(result[i].token_id).name for i in pending)
        # Those who tie in a roll-off roll off again among themselves, until no two are
        # level: each token's rolls, in order, are its tiebreak. (Asking every roll of the
        # group to differ never ends for more tokens than the die has faces.)
        rolls: dict[int, tuple[int, ...]] = {i: () for i in indices}
        tied = [pending]
        while tied:
            level: dict[tuple[int, ...], list[int]] = {}
            for group in tied:
                for i in group:
                    token = state.token(result[i].token_id)
                    roll = dice.roll("1d20", f"{token.name} initiative roll-off").total
                    rolls[i] = (*rolls[i], roll)
                    level.setdefault(rolls[i], []).append(i)
            tied = [group for group in level.values() if len(group) > 1]
        for i in indices:
            c = result[i]
            result[i] = replace(c, tiebreak=(*c.tiebreak[:2], *rolls[i]))
        ranking = sorted(indices, key=lambda i: tuple(-r for r in rolls[i]))
        order_text = ", ".join(
            f"{state.token(result[i].token_id).name} {'-'.join(map(str, rolls[i]))}"
            for i in ranking
        )
        events.append(
            Event(
                EventKind.INITIATIVE,
                f"Tie at the same Count and bonus ({names}): roll-off {order_text}.",
                tuple(result[i].token_id for i in indices),
            )
        )
    return result, events


def _surprise(
    state: EncounterState, command: Command, awareness: str, dice: Dice
) -> tuple[set[Side], list[Event]]:
    """Step 4: which sides act in a surprise round (empty: no surprise round)."""
    if awareness == "all":
        return set(), [Event(EventKind.COMBAT, "All groups are aware: no surprise round.")]
    unaware = set(command.names("unaware"))
    results: dict[Side, int] = {}
    events: list[Event] = []
    for side in Side:
        members = [t for t in state.tokens if t.side is side and t.id not in unaware]
        if not members:
            continue
        best = max(board.stat_int(t, "stealth") for t in members)
        roll = dice.roll(f"1d20{best:+d}", f"team stealth check ({side.value})")
        results[side] = roll.total
        events.append(
            Event(
                EventKind.ROLL,
                f"The {side.value} group makes a team stealth check: {roll.total}.",
                tuple(t.id for t in members),
                roll,
            )
        )
    if not results:
        return set(), events
    if awareness == "none":
        top = max(results.values())
        winners = {side for side, value in results.items() if value == top}
        if len(winners) > 1:
            events.append(Event(EventKind.COMBAT, "The stealth checks tie: no surprise round."))
            return set(), events
        events.append(
            Event(EventKind.COMBAT, f"The {next(iter(winners)).value} group gets the drop.")
        )
        return winners, events
    acting = {Side(s) for s in command.names("acting")}  # never empty: see start_reasons
    best_acting = max((results[s] for s in acting if s in results), default=None)
    others = [v for s, v in results.items() if s not in acting]
    if best_acting is not None and all(best_acting > v for v in others):
        names = ", ".join(sorted(s.value for s in acting))
        events.append(Event(EventKind.COMBAT, f"The ambush works: {names} act first."))
        return acting & set(results), events
    events.append(Event(EventKind.COMBAT, "The ambush is spotted: no surprise round."))
    return set(), events


# ---- step 6


def end_round(system: RuleSystem, state: EncounterState, dice: Dice) -> Outcome:
    """Apply fluid initiative (capped), then the 50+ and 0-or-less rules."""
    events: list[Event] = []
    next_round = state.combat.round + 1
    state = note_conditions(state)
    for c in state.combat.order:
        token = state.token(c.token_id)
        fluid = sum(value for value, _ in pending(state, c.token_id))
        applied = capped(fluid)
        count = c.initiative + applied
        if fluid:
            note = f" (capped from {fluid:+d})" if applied != fluid else ""
            events.append(
                Event(
                    EventKind.INITIATIVE,
                    f"{token.name}: fluid initiative {applied:+d}{note}, Count {count}.",
                    (token.id,),
                )
            )
        state = turn_order.update(state, replace(c, initiative=count))
        state, more = settle_count(state, token.id, next_round)
        events.extend(more)
    return state, tuple(events)


def new_round(system: RuleSystem, state: EncounterState, dice: Dice) -> Outcome:
    combat = state.combat
    round_number = combat.round + 1
    refilled: list[Combatant] = []
    for c in combat.order:
        data = {k: v for k, v in c.data.items() if k not in ROUND_KEYS and k != "acts_at"}
        data.pop("surprise", None)
        busy = int(data.pop("busy_next", 0))
        budget = {"half": max(0, 2 - busy), "bonus": 0}
        # A Delay's priority held only for the Count it led to (Delay, Table: Actions).
        tiebreak = (0, *c.tiebreak[1:]) if c.tiebreak else c.tiebreak
        refilled.append(replace(c, budget=budget, data=data, acted=False, tiebreak=tiebreak))
    refilled = _apply_joint(state, refilled, round_number)
    refilled, tied = roll_offs(state, refilled, dice)
    state = replace(
        state,
        combat=replace(
            combat,
            phase=Phase.ROUND,
            round=round_number,
            order=turn_order.sort(refilled, acts_at),
            active=None,
        ),
    )
    state = combat_state.new_round(state)
    state, expired = turn_order.expire_round(state, round_number)
    events: list[Event] = [Event(EventKind.ROUND, f"Round {round_number} begins."), *tied, *expired]

    state, standing = stand_off_round(state, dice)
    events.extend(standing)
    first = turn_order.next_to_act(state.combat)
    if first is None:
        return state, tuple(events)
    state, started = system.open_turn(state, first, dice)
    return state, (*events, *started)


def _apply_joint(
    state: EncounterState, combatants: list[Combatant], round_number: int
) -> list[Combatant]:
    """Joint Action: the chosen act on the leader's count this round (counts unchanged)."""
    joints = [
        p for p in state.combat.pending if p.kind == "joint" and p.data.get("round") == round_number
    ]
    if not joints:
        return combatants
    result = list(combatants)
    for joint in joints:
        leader = next((c for c in result if c.token_id == joint.token_id), None)
        if leader is None:
            continue
        order = joint.tokens
        rank = {token_id: i for i, token_id in enumerate(order)}
        result = [
            replace(
                c,
                data={
                    **c.data,
                    "acts_at": leader.initiative + (len(order) - rank[c.token_id]) / 100,
                    "joint": joint.token_id,
                },
            )
            if c.token_id in rank
            else c
            for c in result
        ]
    return result


# ---- during the round


def on_turn_start(
    system: RuleSystem,
    state: EncounterState,
    token_id: str,
    events: tuple[Event, ...],
    dice: Dice,
) -> Outcome:
    """A readied action from last round lapses; a Refresh pays out if undisturbed."""
    more: list[Event] = []
    combat = state.combat
    lapsed = [
        p
        for p in combat.pending
        if p.token_id == token_id
        and p.kind == "ready"
        and int(p.data.get("round", 0)) < combat.round
    ]
    if lapsed:
        state = replace(
            state,
            combat=replace(combat, pending=tuple(p for p in combat.pending if p not in lapsed)),
        )
        more.append(
            Event(
                EventKind.NOTE, f"{state.token(token_id).name}'s Ready action lapses.", (token_id,)
            )
        )

    state = expire_suppression(state, token_id)

    state, healed = finish_refresh(state, token_id, dice)
    more.extend(healed)
    return state, (*events, *more)


def after_action(
    system: RuleSystem,
    state: EncounterState,
    command: Command,
    events: tuple[Event, ...],
    dice: Dice,
) -> Outcome:
    """After any action: a failed check breaks a Joint Action; a lowered count yields the turn."""
    actor = str(command.actor)
    more: list[Event] = []
    if state.combat.has(actor):
        mine = state.combat.combatant(actor)
        leader = mine.data.get("joint")
        if leader and mine.get("failed_check", False):
            state, broke = break_joint(state, str(leader))
            more.extend(broke)
        if mine.get("failed_check", False):
            state = board.set_data(state, actor, failed_check=False)
    state, yielded = yield_if_passed(system, state, dice)
    return state, (*events, *more, *yielded)


def break_joint(state: EncounterState, leader: str) -> tuple[EncounterState, list[Event]]:
    lost = [
        c.token_id
        for c in state.combat.order
        if c.data.get("joint") == leader and c.token_id != state.combat.active and not c.acted
    ]
    for token_id in lost:
        c = state.combat.combatant(token_id)
        state = turn_order.update(state, replace(c, acted=True, budget={"half": 0, "bonus": 0}))
    active = state.combat.active
    if active is not None and state.combat.combatant(active).data.get("joint") == leader:
        state = board.set_budget(state, active, 0)
    names = ", ".join(state.token(t).name for t in lost) or "nobody else"
    return state, [
        Event(
            EventKind.NOTE,
            f"A check failed: the Joint Action falls apart; the remaining actions are lost "
            f"({names}).",
            tuple(lost),
        )
    ]


def yield_if_passed(system: RuleSystem, state: EncounterState, dice: Dice) -> Outcome:
    """If the active token's count fell below someone who has yet to act, they go first.

    Delay and Press lower a count during the token's own turn; the token keeps what is
    left of its budget and acts again when the order reaches its new count.
    """
    combat = state.combat
    active = combat.active
    if active is None or combat.phase is Phase.SURPRISE:
        return state, ()
    mine = combat.combatant(active)
    if mine.budget.get("bonus", 0) > 0:
        return state, ()  # the Press half action is taken at once
    order = turn_order.sort(combat.order, acts_at)
    state = replace(state, combat=replace(combat, order=order))
    ahead = next((c for c in order if not c.acted), None)
    if ahead is None or ahead.token_id == active:
        return state, ()
    state = replace(state, combat=replace(state.combat, active=None))
    name = state.token(active).name
    state, started = system.open_turn(state, ahead.token_id, dice)
    note = Event(
        EventKind.TURN,
        f"{name} now acts at Count {mine.initiative}; "
        f"{state.token(ahead.token_id).name} goes first.",
        (active,),
    )
    return state, (note, *started)
