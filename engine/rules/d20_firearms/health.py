"""d20 health on the token and by the GM's hand: hit points and the ladder below them.

The texts we hold are silent on what happens at 0 hit points and below, so we follow the
d20 Modern core rules, in our own words:

- **Disabled** at exactly 0: the soldier still acts, a single attack or movement action a
  turn, and a strenuous one (an attack) then costs it 1 hit point, leaving it dying.
- **Dying** from -1 to -9: unconscious and helpless, no actions. On each of its turns it
  rolls d%: 10 or less (10%) and it becomes stable; otherwise it loses 1 hit point.
- **Stable**: still unconscious and helpless, but no longer losing hit points. A stable
  soldier who takes damage again is dying again (our reading: fresh wounds reopen it).
  Any healing of a dying soldier, or a Treat Injury check (DC 15) by someone beside it,
  makes it stable.
- **Massive damage**: one hit (an attack, a coup de grace, Suppressive Fire's damage; a
  critical hit's dice together) of at least the soldier's Constitution score calls for a
  Fortitude save, DC 15; a failure drops it to -1 hit points, dying. Our choices: a blank
  Constitution score counts as 10 + 2 x the Con modifier (the lowest score with that
  modifier); a hit that already leaves the soldier at -1 or below rolls nothing (the save
  could not change it); the GM's hand-typed damage rolls nothing either (the GM applies what
  the table rolled).
- **Dead** at -10 or below, or when a coup de grace's Fortitude save fails. A dead token
  has no turn and is no target for an attack, an area's fire or first aid. Healing does
  not bring it back; the GM may take the Dead mark off by hand.

The token carries exactly one of these marks (conditions), so the tracker and the map show
which; :func:`settle` puts the right one on after any change of hit points, and the rules
read the state through :func:`engine.rules.d20_firearms.board.health`.
"""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.events import Event, EventKind
from engine.rules import common, hit_points
from engine.rules.base import Outcome
from engine.rules.d20_firearms import board
from engine.rules.d20_firearms import combat_rules as special
from engine.rules.d20_firearms.schema import STATS
from engine.rules.gauges import Gauge, GaugeStyle, points_gauge
from engine.tokens import Condition, Token
from engine.words import counted

Health = board.Health

#: The mark (condition) each state below full health puts on the token.
MARKS = {Health.DISABLED: board.DOWN, Health.DYING: board.DYING, Health.STABLE: board.STABLE,
         Health.DEAD: board.DEAD}

#: Why a soldier in this state takes no action at all (the log and the refusals say it).
CANNOT_ACT = {Health.DYING: "is dying (below 0 hit points)",
              Health.STABLE: "is stable but unconscious (below 0 hit points)",
              Health.DEAD: "is dead"}


def cannot_act(token: Token) -> str:
    """Why the token can do nothing ("is dying (below 0 hit points)"), or "" if it can act."""
    return CANNOT_ACT.get(board.health(token), "")


def state_words(token: Token) -> str:
    """The token's state in the log's words, after its name ("is dying (-3 hit points)...")."""
    hp = counted(board.hit_points(token), "hit point")
    now = board.health(token)
    if now is Health.DISABLED:
        return (f"is Disabled ({hp}): a single attack or movement action a turn")
    if now is Health.DYING:
        return (f"is dying ({hp}): unconscious, it rolls d% on its turn to "
                "stabilise")
    if now is Health.STABLE:
        return f"is stable ({hp}): unconscious, no longer losing hit points"
    if now is Health.DEAD:
        return f"is dead ({hp})"
    return f"is back in the fight ({hp})"


def settle(state: EncounterState, token_id: str) -> tuple[EncounterState, Event | None]:
    """Give the token the one mark its health calls for (none when fit) and take off the
    others; the event says the new state, or None when the marks were already right."""
    token = state.token(token_id)
    wanted = MARKS.get(board.health(token))
    marks = [c.name for c in token.conditions if c.name in board.DOWN_MARKS]
    if marks == ([wanted] if wanted else []):
        return state, None
    kept = tuple(c for c in token.conditions if c.name not in board.DOWN_MARKS)
    marked = (*kept, Condition(wanted)) if wanted else kept
    state = common.put(state, replace(token, conditions=marked))
    return state, Event(EventKind.CONDITION, f"{token.name} {state_words(state.token(token_id))}.",
                        (token_id,))


def mark(state: EncounterState, token_id: str, name: str) -> tuple[EncounterState, Event]:
    """Put mark ``name`` (Stable, Dead) on the token in place of the others, and settle."""
    token = state.token(token_id)
    kept = tuple(c for c in token.conditions if c.name not in board.DOWN_MARKS)
    state = common.put(state, replace(token, conditions=(*kept, Condition(name))))
    state, event = settle(state, token_id)
    return state, event or Event(EventKind.CONDITION, f"{token.name} "
                                 f"{state_words(state.token(token_id))}.", (token_id,))


def mark_down(state: EncounterState, token_id: str) -> tuple[EncounterState, Event]:
    """After damage left the token at 0 hit points or below: a stable one is dying again,
    the rest as their hit points say (the dead stay dead)."""
    state = common.remove_condition(state, token_id, board.STABLE)
    state, event = settle(state, token_id)
    token = state.token(token_id)
    return state, event or Event(EventKind.CONDITION, f"{token.name} {state_words(token)}.",
                                 (token_id,))


def massive_damage(state: EncounterState, token_id: str, damage: int, dice: Dice,
                   ) -> tuple[EncounterState, list[Event]]:
    """After a hit of ``damage`` has been taken: the Fortitude save against massive damage
    when the hit reached the Constitution score and the soldier still stands above -1."""
    token = state.token(token_id)
    threshold = special.massive_damage_threshold(
        STATS.optional_number(token, "con_score"), STATS.number(token, "con_mod"))
    if damage < threshold or board.hit_points(token) <= special.MASSIVE_DAMAGE_HIT_POINTS:
        return state, []
    dc = special.MASSIVE_DAMAGE_DC
    save = dice.roll(f"1d20{STATS.number(token, 'fortitude'):+d}",
                     f"{token.name} Fortitude against massive damage")
    heading = f"{token.name} takes massive damage ({damage}, Con {threshold})"
    if save.total >= dc:
        return state, [Event(EventKind.ROLL, f"{heading} and saves: Fortitude {save.total} "
                             f"against DC {dc}.", (token_id,), save)]
    state = common.set_stat(state, token_id, hp=special.MASSIVE_DAMAGE_HIT_POINTS)
    events = [Event(EventKind.ROLL, f"{heading} and fails the Fortitude save ({save.total} "
                    f"against DC {dc}): down to {special.MASSIVE_DAMAGE_HIT_POINTS} hit points.",
                    (token_id,), save)]
    state, down = mark_down(state, token_id)
    return state, [*events, down]


def dying_roll(state: EncounterState, token_id: str, dice: Dice) -> Outcome:
    """A dying soldier's roll on its turn: d% of 10 or less and it is stable, otherwise it
    loses 1 hit point (at -10, dead)."""
    state, settled = settle(state, token_id)  # a GM may have typed the hit points
    events = [settled] if settled else []
    token = state.token(token_id)
    if board.health(token) is not Health.DYING:
        return state, tuple(events)
    roll = dice.roll(special.STABILISE_ROLL, f"{token.name} rolls to stabilise (dying)")
    if special.stabilises(roll.total):
        events.append(Event(EventKind.ROLL, f"{token.name} rolls {roll.total} on d% (needs "
                            f"{special.STABILISE_CHANCE} or less) and stabilises.", (token_id,),
                            roll))
        state, marked = mark(state, token_id, board.STABLE)
        return state, (*events, marked)
    hp = board.hit_points(token) - special.DYING_LOSS
    state = common.set_stat(state, token_id, hp=hp)
    events.append(Event(EventKind.DAMAGE, f"{token.name} rolls {roll.total} on d% (needs "
                        f"{special.STABILISE_CHANCE} or less) and bleeds: "
                        f"{special.DYING_LOSS} hit point lost ({hp} left).", (token_id,), roll))
    state, settled = settle(state, token_id)
    return state, (*events, *([settled] if settled else []))


# ---- the GM's hand

def gauges(token: Token) -> tuple[Gauge, ...]:
    """Hit points as a bar, and the state below full health (Disabled, Dying, Stable, Dead)
    as a flag: read from the hit points, so hit points the GM typed in the stat editor show
    at once, before the mark is put on (at the token's next turn or hit)."""
    bar = points_gauge(STATS, token, "hp", "HP")
    mark = MARKS.get(board.health(token))
    return (bar,) if mark is None else (bar, Gauge(mark, mark, 1, 1, GaugeStyle.FLAG,
                                                   harm=True))


#: The hit points the GM's Revive leaves a token that had fewer: the least a fit soldier
#: has (0 is Disabled). Our choice: the texts have no GM revive.
REVIVED_HIT_POINTS = 1


def revive(state: EncounterState, token_id: str) -> Outcome:
    """The GM's Revive (its marks already lifted): hit points below ``REVIVED_HIT_POINTS``
    rise to it, as a token left at -3 was dying again on its next turn."""
    token = state.token(token_id)
    if board.hit_points(token) >= REVIVED_HIT_POINTS:
        return state, ()
    state = common.set_stat(state, token_id, hp=REVIVED_HIT_POINTS)
    return state, (Event(EventKind.NOTE, f"{token.name} is back on "
                         f"{counted(REVIVED_HIT_POINTS, 'hit point')}.", (token_id,)),)


def take_damage(state: EncounterState, token_id: str, amount: int) -> Outcome:
    """The GM's damage takes the road of a hit: at 0 or below, the mark its hit points say."""
    state, events = common.lose_hit_points(STATS, state, token_id, amount, mark_down)
    return state, tuple(events)


def heal(state: EncounterState, token_id: str, amount: int) -> Outcome:
    """Healing up to ``max_hp``; a dying soldier healed at all is stable (still below 0),
    one healed above 0 is back in the fight; the dead are not healed."""
    token = state.token(token_id)
    if board.health(token) is Health.DEAD:
        return state, (Event(EventKind.NOTE, f"{token.name} is dead: healing does not bring "
                             "it back (the GM may set its hit points and take the Dead mark "
                             "off).", (token_id,)),)
    was_dying = board.health(token) is Health.DYING
    state, events = hit_points.heal(STATS, state, token_id, amount, board.DOWN)
    healed = state.token(token_id)
    if board.hit_points(healed) > special.DISABLED_HIT_POINTS:  # back up: no mark holds
        if any(healed.has_condition(n) for n in (board.DYING, board.STABLE)):
            events = (*events, Event(EventKind.CONDITION, f"{healed.name} "
                                     f"{state_words(replace(healed, conditions=()))}.",
                                     (token_id,)))
        state = common.put(state, replace(healed, conditions=tuple(
            c for c in healed.conditions if c.name not in board.DOWN_MARKS)))
    elif was_dying and board.hit_points(healed) < special.DISABLED_HIT_POINTS:
        state = common.put(state, replace(healed, conditions=(
            *healed.conditions, Condition(board.STABLE))))
    state, settled = settle(state, token_id)
    return state, (*events, *([settled] if settled else []))
