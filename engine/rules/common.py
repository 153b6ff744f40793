"""What the rule-system packages that write their handlers as functions share.

Three layers, each used the same way by those systems:

- state reads and writes (``put``, ``data``, ``lose_hit_points``...), called
  as ``common.<name>`` beside each package's own ``board`` (which keeps what differs:
  condition names, ``add_condition``, the distance name in its unit);
- the action-handler registry (``FunctionHandler``, ``HandlerTable``, ``actor_of``,
  ``chosen_weapon``...), used by each ``handlers`` module: a handler made of functions, an
  :class:`~engine.rules.base.ActionHandler` as the contract defines it;
- :class:`HandlerSystem`, a :class:`RuleSystem` that checks, describes and lists actions by
  asking a handler table, leaving each system its own shared reasons and cost words.

Only what is truly the same lives here; a helper whose wording or rule differs per system
(adding conditions, the weapon fallback, initiative, the turn rules) stays in its package.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import ClassVar

from engine.dice import Dice, Roll
from engine.encounter import EncounterState
from engine.grid import Square, distance_squares
from engine.routes.graph import graph_for
from engine.routes.search import cheapest_route
from engine.rules.base import (
    ActionCost,
    ActionSpec,
    Command,
    Event,
    EventKind,
    Modifier,
    Outcome,
    Preview,
    RuleSystem,
    StatBlock,
    UnknownAction,
)
from engine.rules.overlays import target_overlay
from engine.rules.stat_block import DeclaredStat
from engine.tokens import Expiry, ExpiryPoint, Token, Weapon, are_opponents
from engine.turns import order as turn_order
from engine.turns.combat import DataValue, Phase
from engine.words import counted

# --- reading the state ----------------------------------------------------------------------


def within(a: Token, b: Token, squares: int) -> bool:
    """Some square of ``a`` is at most ``squares`` from some square of ``b`` (a melee reach)."""
    return any(
        max(abs(p.x - q.x), abs(p.y - q.y)) <= squares for p in a.squares for q in b.squares
    )


def adjacent(a: Token, b: Token) -> bool:
    return within(a, b, 1)


def walk_beside(state: EncounterState, actor: Token, other: Token, *, difficult_cost: int,
                ) -> tuple[Square, ...]:
    """The squares (start excluded) of the cheapest walk that ends beside ``other``, or ()
    when the actor is there already or cannot get there: a move worth offering (examples)."""
    if adjacent(actor, other):
        return ()
    graph = graph_for(state, difficult_cost=difficult_cost)
    for square in other.square.neighbours():
        if state.battlemap.in_bounds(square) and adjacent(actor.moved_to(square), other):
            route = cheapest_route(graph, actor.id, square)
            if route is not None:
                return route.squares[1:]
    return ()


def distance_between(state: EncounterState, a: Token, b: Token) -> float:
    """Nearest square to nearest square, in the encounter's unit (ft, inches or m)."""
    squares = min(
        distance_squares(p, q, state.scale.diagonal) for p in a.squares for q in b.squares
    )
    return state.scale.distance(squares)


def foes_and_friends(state: EncounterState, actor: Token) -> tuple[list[Token], list[Token]]:
    """The actor's opponents and its other allies or neutrals, in map order."""
    foes = [t for t in state.tokens if are_opponents(actor.side, t.side)]
    friends = [
        t for t in state.tokens if t.id != actor.id and not are_opponents(actor.side, t.side)
    ]
    return foes, friends


def data(state: EncounterState, token_id: str, key: str, default: DataValue = 0) -> DataValue:
    """A combatant's per-fight value (``default`` when the token is not in the fight)."""
    if not state.combat.has(token_id):
        return default
    return state.combat.combatant(token_id).get(key, default)


def next_turn_round(state: EncounterState, token_id: str) -> int:
    """The round of the token's next turn: this one unless it has acted or is acting."""
    combat = state.combat
    if combat.has(token_id):
        mine = combat.combatant(token_id)
        if mine.acted or combat.active == token_id:
            return combat.round + 1
    return combat.round


def until_next_turn(state: EncounterState, token_id: str) -> Expiry:
    """Until the start of the token's next turn."""
    return Expiry(next_turn_round(state, token_id), ExpiryPoint.START_OF_TURN, token_id)


# --- writing the state ----------------------------------------------------------------------


def put(state: EncounterState, token: Token) -> EncounterState:
    return state.with_token(token)


def remove_condition(state: EncounterState, token_id: str, name: str) -> EncounterState:
    token = state.token(token_id)
    return put(state, replace(token, conditions=tuple(c for c in token.conditions
                                                      if c.name != name)))


def set_stat(state: EncounterState, token_id: str, **changes: DataValue) -> EncounterState:
    token = state.token(token_id)
    return put(state, replace(token, stats={**token.stats, **changes}))


def set_data(state: EncounterState, token_id: str, **changes: DataValue) -> EncounterState:
    mine = state.combat.combatant(token_id)
    return turn_order.update(state, replace(mine, data={**mine.data, **changes}))


MarkDown = Callable[[EncounterState, str], tuple[EncounterState, Event]]


def lose_hit_points(
    stats: StatBlock[DeclaredStat], state: EncounterState, target_id: str, amount: int,
    mark_down: MarkDown, floor: int | None = None, roll: Roll | None = None,
) -> tuple[EncounterState, list[Event]]:
    """Take ``amount`` off the ``hp`` stat (read through ``stats``, the system's block); at
    0 or less ``mark_down`` the token. ``floor``: the fewest hit points a system counts (a
    system whose hit points stop at 0 says 0; None lets them go below). ``roll``: the
    damage roll, whose faces the damage line shows."""
    target = state.token(target_id)
    hp = stats.number(target, "hp") - amount
    if floor is not None:
        hp = max(hp, min(floor, stats.number(target, "hp")))
    state = set_stat(state, target_id, hp=hp)
    events = [Event(EventKind.DAMAGE, f"{target.name} takes {amount} damage "
                    f"({counted(hp, 'hit point')} left).", (target_id,), roll)]
    if hp <= 0:
        state, down = mark_down(state, target_id)
        events.append(down)
    return state, events


class ModifierTotals:
    """``to_hit`` and ``damage_bonus`` of an attack plan: the sums of its named modifiers."""

    __slots__ = ()
    modifiers: tuple[Modifier, ...]
    damage_modifiers: tuple[Modifier, ...]

    @property
    def to_hit(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def damage_bonus(self) -> int:
        return sum(m.value for m in self.damage_modifiers)


# --- action handlers ------------------------------------------------------------------------

Check = Callable[[EncounterState, Command], list[str]]
Describe = Callable[[EncounterState, Command], Preview]
Resolve = Callable[[EncounterState, Command, Dice], Outcome]
CostOf = Callable[[EncounterState, Command], ActionCost | None]


def catalogue_cost(state: EncounterState, command: Command) -> ActionCost | None:
    """The default cost: what the catalogue's time says (None)."""
    return None


@dataclass(frozen=True, slots=True)
class FunctionHandler:
    """What one catalogue action does, as functions: its own checks, its preview, its
    resolution and its cost; ``out_of_turn`` when it may be taken in another's turn. It is
    an :class:`~engine.rules.base.ActionHandler`."""

    key: str
    check: Check
    describe: Describe
    resolve: Resolve
    cost: CostOf = catalogue_cost
    out_of_turn: bool = False


class HandlerTable(dict[str, FunctionHandler]):
    """A system's handlers by action key; registering refuses a key not in the catalogue."""

    def __init__(self, spec_of: Callable[[str], ActionSpec]) -> None:
        super().__init__()
        self.spec_of = spec_of

    def register(self, key: str, check: Check, describe: Describe, resolve: Resolve, *,
                 cost: CostOf = catalogue_cost, out_of_turn: bool = False) -> None:
        self.spec_of(key)
        self[key] = FunctionHandler(key, check, describe, resolve, cost, out_of_turn)

    def simple_describe(self, name: str) -> Describe:
        """A preview that names the action and the actor and gives the catalogue summary."""

        def describe(state: EncounterState, command: Command) -> Preview:
            actor = actor_of(state, command)
            return Preview(command, True, summary=f"{name}: {actor.name}. "
                           f"{self.spec_of(command.action).summary}", targets=command.targets,
                           overlay=target_overlay(actor.id, command.targets))

        return describe


def actor_of(state: EncounterState, command: Command) -> Token:
    return state.token(str(command.actor))


def target_of(state: EncounterState, command: Command, *,
              missing: str = "choose a target") -> Token:
    if command.target is None:
        raise KeyError(missing)
    return state.token(command.target)


def chosen_weapon(actor: Token, command: Command, *, melee: bool | None = None,
                  ) -> Weapon | None:
    """The command's named weapon, else the actor's first (melee, ranged or any); None if none."""
    if command.weapon is not None:
        return actor.weapon(command.weapon)
    return next((w for w in actor.weapons if melee is None or w.melee == melee), None)


def error_reasons(error: Exception) -> list[str]:
    """An error caught while checking, as the one reason a GM reads."""
    return [str(error.args[0]) if error.args else str(error)]


# --- the system -----------------------------------------------------------------------------


class HandlerSystem(RuleSystem):
    """A rule system whose catalogue actions are handled by a :class:`HandlerTable`.

    Legality is the system's shared reasons (``shared_reasons``: combat running, whose turn,
    the action economy) and then the handler's own check; a preview's cost defaults to
    ``cost_words``. Subclasses still write ``example_commands`` and ``resolve_action``.
    """

    handlers: ClassVar[HandlerTable]
    #: Message for an action key with no handler; ``{key}`` is the key.
    unknown_action: ClassVar[str]

    def handler(self, key: str) -> FunctionHandler:
        try:
            return self.handlers[key]
        except KeyError:
            raise UnknownAction(self.unknown_action.format(key=repr(key))) from None

    @abstractmethod
    def shared_reasons(self, state: EncounterState, command: Command) -> list[str]:
        """Reasons any action of this system is refused now (before the handler's own)."""

    @abstractmethod
    def cost_words(self, state: EncounterState, command: Command) -> str:
        """What the command costs, for a preview whose handler gave no cost."""

    def legal_actions(self, state: EncounterState, token_id: str) -> tuple[ActionSpec, ...]:
        return tuple(
            spec for spec in self.catalogue
            if not self.shared_reasons(state, Command(spec.key, token_id))
        )

    def check_action(self, state: EncounterState, command: Command) -> list[str]:
        handler = self.handler(command.action)
        reasons = self.shared_reasons(state, command)
        if reasons:
            return reasons
        try:
            return handler.check(state, command)
        except (KeyError, ValueError) as error:
            return error_reasons(error)

    def describe_action(self, state: EncounterState, command: Command) -> Preview:
        handler = self.handler(command.action)
        try:
            preview = handler.describe(state, command)
            cost = self.cost_words(state, command)
        except (KeyError, IndexError, ValueError) as error:
            return Preview(command, False, summary=f"{self.action(command.action).name}: {error}")
        return replace(preview, cost=preview.cost or cost)


def fight_reasons(state: EncounterState, actor: Token, out_of_fight: Callable[[Token], bool],
                  out_words: str) -> list[str]:
    """Refusals before any action: no fight running, the actor not in it, or out of it."""
    combat = state.combat
    if combat.phase is not Phase.ROUND:
        return ["combat is not running: start combat first"]
    if not combat.has(actor.id):
        return [f"{actor.name} is not in the fight"]
    if out_of_fight(actor):
        return [f"{actor.name} {out_words}"]
    return []


def not_your_turn(state: EncounterState, actor: Token) -> str:
    whose = state.token(state.combat.active).name if state.combat.active else "nobody"
    return f"it is {whose}'s turn, not {actor.name}'s"
