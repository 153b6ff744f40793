"""Spycraft health on the token and by the GM's hand: vitality, wounds and subdual.

Vitality and wounds show as bars against ``max_vitality`` and ``max_wounds`` (a standard
NPC has wounds only). GM damage takes the same road as a hit (vitality first, the rest to
wounds; see :func:`engine.rules.spycraft.attack_math.apply_damage`). GM healing restores
wounds first, then vitality, never past the maxima: the rules heal the two at different
rates, and a GM healing by hand is usually undoing harm in the order it hurts most (our
choice; the texts have no "heal N" rule).

An unconscious or dead character has no turn (``turn_allowance``) and takes no action, in
turn or out of it. The rule texts we hold do not say what a downed character may do; in
Spycraft 2.0 an unconscious character is helpless and acts not at all, which is what we
follow. A surrendered character still has his turn (he acts with permission).

A token the GM makes on the map starts as an ordinary first-level special character, not
with the schema's 0 vitality and 0 wounds (which dropped it at the first hit): wound points
equal the Constitution score (10 + twice the modifier, 10 at the schema's +0), and vitality
is one level of a middling class, 9 plus the Constitution modifier. The stat block keeps no
class or level, so the vitality is our choice; the GM types the character's own figures.
"""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.events import Event, EventKind
from engine.rules.base import Outcome, TurnAllowance, TurnKind
from engine.rules.gauges import Gauge, maximum_of, points_gauge
from engine.rules.spycraft import attack_math, board
from engine.tokens import StatNames, StatValue, Token
from engine.words import counted

#: The states in which a character takes no action at all, with the words the log uses.
CANNOT_ACT = ((board.DEAD, "is dead"), (board.UNCONSCIOUS, "is unconscious"))


def cannot_act(token: Token) -> str:
    """Why the token can do nothing ("is unconscious"), or "" when it can act."""
    return next((why for name, why in CANNOT_ACT if token.has_condition(name)), "")


#: The Constitution score a +0 modifier stands for (a score is 10 + twice its modifier,
#: the lower of the two scores that give it).
AVERAGE_SCORE = 10
#: A new token's vitality for its one level, before the Constitution modifier: a middling
#: class's vitality a level (our choice; the stat block has no class or level).
FIRST_LEVEL_VITALITY = 9


def new_token_stats(
    defaults: dict[str, StatValue | StatNames],
) -> dict[str, StatValue | StatNames]:
    """``defaults`` (the schema's) with a first-level character's vitality and wounds, full:
    wounds are the Constitution score, vitality a level's worth plus the modifier."""
    given = defaults.get("con", 0)
    con = given if isinstance(given, int) else 0
    wounds = AVERAGE_SCORE + 2 * con
    vitality = max(0, FIRST_LEVEL_VITALITY + con)
    return {**defaults, "wounds": wounds, "max_wounds": wounds,
            "vitality": vitality, "max_vitality": vitality}


def turn_allowance(state: EncounterState, token_id: str) -> TurnAllowance:
    why = cannot_act(state.token(token_id))
    return TurnAllowance(TurnKind.SKIPPED, why) if why else TurnAllowance()


def gauges(state: EncounterState, token: Token) -> tuple[Gauge, ...]:
    shown: list[Gauge] = []
    stats = board.STATS
    if stats.number(token, "vitality") > 0 or (maximum_of(stats, token, "vitality") or 0) > 0:
        shown.append(points_gauge(stats, token, "vitality", "Vitality"))
    shown.append(points_gauge(stats, token, "wounds", "Wounds"))
    if stats.number(token, "subdual") > 0:
        shown.append(Gauge("subdual", "Subdual", stats.number(token, "subdual"), harm=True))
    return tuple(shown)


def take_damage(state: EncounterState, token_id: str, amount: int) -> Outcome:
    state, events = attack_math.apply_damage(state, token_id, amount, source=" (GM)")
    return state, tuple(events)


def heal(state: EncounterState, token_id: str, amount: int) -> Outcome:
    token = state.token(token_id)
    left = amount
    changes: dict[str, int] = {}
    for stat in ("wounds", "vitality"):
        now = board.stat_int(token, stat)
        ceiling = maximum_of(board.STATS, token, stat)
        room = left if ceiling is None else max(0, min(left, ceiling - now))
        changes[stat] = now + room
        left -= room
    state = state.with_token(board.with_stats(token, **changes))
    gained = amount - left
    events = [
        Event(
            EventKind.DAMAGE,
            f"{token.name} heals {counted(gained, 'point')} (GM); "
            f"now {changes['vitality']} vitality, "
            f"{counted(changes['wounds'], 'wound')}.",
            (token_id,),
        )
    ]
    if changes["wounds"] > 0 and token.has_condition(board.UNCONSCIOUS):
        state = board.remove_condition(state, token_id, board.UNCONSCIOUS)
        events.append(
            Event(EventKind.CONDITION, f"{token.name} comes round.", (token_id,))
        )
    return state, tuple(events)
