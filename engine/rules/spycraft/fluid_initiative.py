"""Spycraft fluid initiative: the events that move a count, when they apply, and its limits.

Every change to a count other than Delay, Press and a Ready's trigger is "fluid": summed
over the round and applied at its end within +10/-10 (Table: Fluid Initiative Modifiers).
A count of 50 or more forces a Press next round; 0 or less sends the character reeling,
flat-footed, and back up by 20 (at least to 1). Joint Action members act on their leader's
count without changing their own (:func:`acts_at`).
"""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.rules.base import Event, EventKind
from engine.rules.gauges import Gauge, GaugeStyle
from engine.rules.spycraft import board
from engine.tokens import Expiry, ExpiryPoint, Token
from engine.turns.combat import Combatant

FLUID_CAP = 10

#: Table: Fluid Initiative Modifiers, the events a GM can log by key (value per event).
FLUID_EVENTS: dict[str, tuple[int, str]] = {
    "terrain": (-2, "Speed reduced by terrain"),
    "tactical_weapon": (-2, "fired a tactical weapon"),
    "non_proficient_weapon": (-4, "used a weapon without proficiency"),
    "final_attack": (-2, "took a final attack"),
    "critical_miss": (-2, "critical miss or failure (per Action Die)"),
    "triumph": (10, "scored a Triumph"),
    "bleeding": (-1, "bleeding"),
    "fatigued": (-3, "fatigued this round"),
    "exhausted": (-10, "exhausted this round"),
    "critical_injury": (-10, "suffered a critical injury"),
    "wounds": (-2, "lost wounds"),
    "critical_hit": (-5, "suffered a critical hit"),
    "failed_save": (-2, "failed a saving throw"),
    "failed_stress_save": (-5, "failed a save against a stress condition"),
    "failed_blast_save": (-5, "failed a save against blast damage"),
}


#: Conditions that cost Initiative at the end of every round they were present, even when
#: they ended during that round (once per round each).
CONDITION_FLUID = {board.BLEEDING: -1, board.FATIGUED: -3, board.EXHAUSTED: -10}

#: Combatant data: the counted conditions he has had at some point this round.
HAD_KEYS = {condition: f"had {condition}" for condition in CONDITION_FLUID}


def note_conditions(state: EncounterState) -> EncounterState:
    """Remember the counted conditions each combatant has now, for the round's end (the
    system calls this before and after every command, so one that ends still counts)."""
    tokens = {t.id: t for t in state.tokens}
    for c in state.combat.order:
        token = tokens.get(c.token_id)
        if token is None:
            continue
        changes = {key: True for condition, key in HAD_KEYS.items()
                   if token.has_condition(condition) and not c.get(key, False)}
        if changes:
            state = board.set_data(state, c.token_id, **changes)
    return state


def pending(state: EncounterState, token_id: str) -> list[tuple[int, str]]:
    """The fluid modifiers the combatant has gathered this round so far: (value, why)."""
    c = state.combat.combatant(token_id)
    token = state.token(token_id)
    rows: list[tuple[int, str]] = []
    queued = int(c.get("fluid", 0))
    if queued:
        rows.append((queued, "this round's actions and events"))
    if c.get("crit", False):
        rows.append(FLUID_EVENTS["critical_hit"])
    elif c.get("wounded", False):
        rows.append(FLUID_EVENTS["wounds"])
    for condition, value in CONDITION_FLUID.items():
        if token.has_condition(condition) or c.get(HAD_KEYS[condition], False):
            rows.append((value, condition))
    return rows


def capped(total: int) -> int:
    return max(-FLUID_CAP, min(FLUID_CAP, total))


def fluid_gauges(state: EncounterState, token: Token) -> tuple[Gauge, ...]:
    """What the round's fluid modifiers so far will do to the count (a flag on the token and
    in the tracker; none while nothing is gathered)."""
    if not state.combat.has(token.id):
        return ()
    rows = pending(state, token.id)
    total = sum(value for value, _ in rows)
    if not total:
        return ()
    why = ", ".join(words for _, words in rows)
    # Not harm, whichever way it goes: the count moves, the token is no worse off.
    return (Gauge("fluid", f"Count {capped(total):+d}", 1, style=GaugeStyle.FLAG,
                  detail=f"at round's end ({why})"),)


PRESS_FORCED_AT = 50


def acts_at(combatant: Combatant) -> float:
    """The count a combatant acts on this round (a Joint Action moves him; counts stay).

    Joint Action members share the leader's count, in the order the leader chose.
    """
    joint = combatant.data.get("acts_at")
    if isinstance(joint, int | float) and not isinstance(joint, bool):
        return float(joint)
    return float(combatant.initiative)


def settle_count(
    state: EncounterState, token_id: str, next_round: int
) -> tuple[EncounterState, list[Event]]:
    """The 50-or-more and 0-or-less rules for a count that just changed."""
    c = state.combat.combatant(token_id)
    token = state.token(token_id)
    events: list[Event] = []
    if c.initiative >= PRESS_FORCED_AT:
        state = board.set_data(state, token_id, must_press=True)
        events.append(
            Event(
                EventKind.INITIATIVE,
                f"{token.name}'s Count is {c.initiative}: his first action next round must be "
                "a Press.",
                (token_id,),
            )
        )
    elif c.initiative <= 0:
        state, reel = board.add_condition(
            state, token_id, board.REELING, Expiry(next_round, ExpiryPoint.END_OF_TURN, token_id)
        )
        state, flat = board.add_condition(
            state,
            token_id,
            board.FLAT_FOOTED,
            Expiry(next_round, ExpiryPoint.START_OF_TURN, token_id),
        )
        raised = max(c.initiative + 20, 1)
        state = board.set_count(state, token_id, raised)
        events.extend(
            [
                reel,
                flat,
                Event(
                    EventKind.INITIATIVE,
                    f"{token.name}'s Count fell to {c.initiative}: reeling, flat-footed, and "
                    f"back up to {raised}.",
                    (token_id,),
                ),
            ]
        )
    return state, events
