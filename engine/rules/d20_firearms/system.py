"""The d20 modern-firearms ruleset on the turn engine.

The text speaks of attack actions, movement actions and full-round actions, and makes
Full-Auto Fire three attack actions at 1x, 2x and 3x recoil. We model a round as a pool of
interchangeable attack-or-movement actions (3 by default; ``start_combat`` takes the option
``actions_per_round``), a full-round action as the whole untouched pool, and free actions
as costing nothing. Initiative is the usual d20 roll: 1d20 + Initiative bonus, high first.

Overwatch must be followed at once by the shot: any other action (free actions aside)
drops the Overwatch bonus, and so does losing sight of the target.

Below 0 hit points we follow the d20 Modern core rules (the texts are silent; see
``health``): Disabled at 0, dying from -1 (a d% roll each turn: 10% stable, else 1 hit
point lost), dead at -10. A dying soldier's turn is only that roll; a stable or dead one
has none.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.geometry.los import has_line_of_sight, token_line_of_sight
from engine.grid import FIVE_FOOT
from engine.overlay import Overlay
from engine.rules import common, register_system
from engine.rules.base import (
    ActionEconomy,
    Command,
    ConditionSpec,
    DragBand,
    Event,
    EventKind,
    InitiativeScheme,
    Outcome,
    TurnAllowance,
    TurnKind,
    with_options,
)
from engine.rules.common import HandlerSystem, fight_reasons, not_your_turn
from engine.rules.d20_firearms import (
    board,
    economy,
    health,
    options,
    schema,
    tables,
    version_1,
)
from engine.rules.d20_firearms.actions import HANDLERS, attack_actions, cost_of
from engine.rules.d20_firearms.catalogue import ACTIONS, ATTACK, SKILL, SPECIAL, action_spec
from engine.rules.d20_firearms.economy import Cost
from engine.rules.d20_firearms.examples import example_commands
from engine.rules.d20_firearms.fire_support_actions import end_covering_fire, watch_overlay
from engine.rules.d20_firearms.movement_actions import drag_bands as movement_drag_bands
from engine.rules.d20_firearms.movement_actions import speed_now
from engine.rules.d20_firearms.take_cover_actions import COVER_OWED
from engine.rules.gauges import Gauge
from engine.tokens import Condition, Token
from engine.turns import order as turn_order
from engine.words import counted

#: The actions that strain a Disabled character (attacks, special attacks and first aid;
#: moving, handling items and free actions do not).
STRENUOUS = frozenset({ATTACK, SPECIAL, SKILL})

#: The one action taken out of turn: diving for cover after a Covering Fire save.

#: Actions that keep an Overwatch bonus alive (the shot itself, more Overwatch, free ones).
KEEPS_OVERWATCH = frozenset({"overwatch", "attack", "full_auto", "stop_aiming", "drop_item"})

CONDITIONS: tuple[ConditionSpec, ...] = (
    ConditionSpec(board.AIMING, "+1 critical threat range; Perception +5 in the 60-ft cone, -5 "
                  "outside; half speed.", "until ended (a free action)"),
    ConditionSpec(board.OVERWATCH, "Extra threat range on the next shot at the watched target.",
                  "until the next action, or until sight is lost"),
    ConditionSpec(board.CHARGING, "-2 Defense after a Charge.", "until the next turn"),
    ConditionSpec(board.SUPPRESSED, "-4 to Perception and attacks; half speed next turn, or "
                  "draw the shooter's fire.", "until the end of the next turn"),
    ConditionSpec(board.TAKING_COVER, "Dived for cover from Covering Fire.",
                  "until the next turn"),
    ConditionSpec(board.DOWN, "At 0 hit points: a single attack or movement action a turn "
                  "(an attack then costs 1 hit point and leaves it dying).", "until healed"),
    ConditionSpec(board.DYING, "-1 to -9 hit points: unconscious and helpless; each turn a d% "
                  "roll, 10 or less to stabilise, else 1 hit point lost (dead at -10).",
                  "until stable, healed or dead"),
    ConditionSpec(board.STABLE, "Below 0 hit points but no longer losing them: unconscious "
                  "and helpless; damage makes it dying again.", "until healed"),
    ConditionSpec(board.DEAD, "At -10 hit points, or a failed save against a coup de grace: "
                  "no turn, no target.", "until the GM says otherwise"),
)


class D20FirearmsSystem(HandlerSystem):
    """d20 modern firearms: a pool of attack-or-movement actions and the special actions."""

    name = "d20-firearms"
    ordinary_move_key = "move"
    cover_table = tables.COVER
    range_table = tables.RANGES
    difficult_terrain_cost = tables.DIFFICULT_TERRAIN_COST
    template_inclusion = tables.INCLUSION
    title = "d20 Modern Firearms"
    scale = FIVE_FOOT
    economy = ActionEconomy(
        economy.fresh_budget(),
        "Each round: a pool of attack-or-movement actions (3 unless the table sets another "
        "number); a full-round action takes the whole pool; Full-Auto is three attack "
        "actions at 1x, 2x and 3x recoil; free actions cost nothing.",
    )
    initiative_scheme = InitiativeScheme(
        "count", "1d20", "initiative", "1d20 + Initiative bonus, high first.",
    )
    catalogue = with_options(ACTIONS, options.OPTIONS)
    engine_options = options.ENGINE_OPTIONS
    conditions = CONDITIONS
    stats = schema.STATS

    # ---- health: hit points (engine.rules.hit_points)

    down_condition = board.DOWN

    @property
    def down_conditions(self) -> tuple[str, ...]:
        return board.DOWN_MARKS

    def gauges(self, state: EncounterState, token: Token) -> tuple[Gauge, ...]:
        return health.gauges(token)

    take_damage = staticmethod(health.take_damage)
    heal = staticmethod(health.heal)
    revive = staticmethod(health.revive)

    # ---- files: a version-1 file's text becomes typed state once, at load
    upgrade_state = staticmethod(version_1.upgrade)
    handlers = HANDLERS
    unknown_action = "the d20 firearms rules have no {key}"

    def pool(self, state: EncounterState) -> int:
        value = state.combat.data.get(economy.ACTIONS_OPTION, economy.DEFAULT_ACTIONS_PER_ROUND)
        return int(value)

    def fresh_budget(self, state: EncounterState, token_id: str) -> dict[str, int]:
        return economy.fresh_budget(self.pool(state))

    def move_allowance(self, state: EncounterState, token_id: str) -> int | None:
        """A Move (no options) goes at most the speed it has now (Aiming, suppressed)."""
        return state.scale.squares(speed_now(state, state.token(token_id), Command("move")))

    def drag_bands(self, state: EncounterState, token_id: str) -> tuple[DragBand, ...]:
        """A Move, then a double and a triple move while the pool holds the actions."""
        left = (state.combat.combatant(token_id).budget.get(economy.ACTIONS, 0)
                if state.combat.has(token_id) else 1)
        return movement_drag_bands(state, token_id, left, board.disabled(state.token(token_id)))

    def shared_reasons(self, state: EncounterState, command: Command) -> list[str]:
        self.handler(command.action)
        combat = state.combat
        actor_id = str(command.actor)
        actor = state.token(actor_id)
        why = health.cannot_act(actor)
        refused = fight_reasons(state, actor, lambda _: bool(why), why)
        if refused:
            return refused
        diving = self.handler(command.action).out_of_turn and bool(
            common.data(state, actor_id, COVER_OWED, False))
        if combat.active != actor_id and not diving:
            return [not_your_turn(state, actor)]
        budget, cost = combat.combatant(actor_id).budget, cost_of(state, command)
        refusal = economy.refusal(budget, cost, self.pool(state))
        if refusal is None and board.disabled(actor):
            refusal = economy.disabled_refusal(budget, cost, self.pool(state))
        return [refusal] if refusal else []

    def turn_allowance(self, state: EncounterState, token_id: str) -> TurnAllowance:
        """Dying: only its roll to stabilise (made in :meth:`start_turn`). Stable or dead: no
        turn. Disabled (0): a single attack or movement action, enforced in
        :meth:`shared_reasons`."""
        token = state.token(token_id)
        why = health.cannot_act(token)
        if why:
            kind = TurnKind.ROLL_ONLY if board.is_dying(token) else TurnKind.SKIPPED
            return TurnAllowance(kind, why)
        if board.disabled(token):
            return TurnAllowance(TurnKind.LIMITED, "is Disabled (0 hit points): a single "
                                 "attack or movement action this turn, and an attack costs "
                                 "1 hit point")
        return TurnAllowance()

    def cost_words(self, state: EncounterState, command: Command) -> str:
        cost = cost_of(state, command)
        if cost is Cost.FREE:
            return "free"
        pool = self.pool(state)
        return f"{economy.actions_needed(cost, pool)} of {counted(pool, 'action')}"

    def lasting_overlay(self, state: EncounterState) -> Overlay:
        return super().lasting_overlay(state).plus(watch_overlay(state))

    def rules_weapon(self, state: EncounterState, command: Command) -> str | None:
        if command.action != "charge":  # the only d20 action whose rules pick a weapon
            return None
        try:
            return attack_actions.charge_weapon(state, command)
        except KeyError:  # no such actor
            return None

    def example_commands(self, state: EncounterState, token_id: str) -> Iterator[Command]:

        return example_commands(state, token_id)

    def resolve_action(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor_id = str(command.actor)
        mine = state.combat.combatant(actor_id)
        state = turn_order.update(state, replace(
            mine, budget=economy.spend(mine.budget, cost_of(state, command), self.pool(state))))
        events: list[Event] = []
        if command.action not in KEEPS_OVERWATCH and state.token(actor_id).has_condition(
                board.OVERWATCH):
            state = common.remove_condition(state, actor_id, board.OVERWATCH)
            events.append(Event(EventKind.CONDITION, f"{state.token(actor_id).name} breaks off "
                                "the Overwatch (the shot must come next).", (actor_id,)))
        disabled = board.disabled(state.token(actor_id))
        state, more = self.handler(command.action).resolve(state, command, dice)
        events.extend(more)
        spec = action_spec(command.action)
        if disabled and spec.category in STRENUOUS and spec.time != str(economy.Cost.FREE):
            state, strained = _strain(state, actor_id)
            events.extend(strained)
        return state, tuple(events)

    def start_combat(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        size = int(command.option(economy.ACTIONS_OPTION, economy.DEFAULT_ACTIONS_PER_ROUND)
                   or economy.DEFAULT_ACTIONS_PER_ROUND)
        economy.fresh_budget(size)  # refuses a pool smaller than 1
        combat = replace(state.combat, data={**state.combat.data, economy.ACTIONS_OPTION: size})
        return super().start_combat(replace(state, combat=combat), command, dice)

    def start_turn(self, state: EncounterState, token_id: str, dice: Dice) -> Outcome:
        state, events = super().start_turn(state, token_id, dice)
        token = state.token(token_id)
        watch = board.overwatch(token)
        if watch is not None and not self._still_in_sight(state, token, watch):
            state = common.remove_condition(state, token_id, board.OVERWATCH)
            events = (*events, Event(EventKind.CONDITION, f"{token.name} has lost sight of what "
                                     "it watched: the Overwatch bonus is gone.", (token_id,)))
        state = common.set_data(state, token_id, located=False, **{COVER_OWED: False})
        state = end_covering_fire(state, token_id)
        if board.is_dying(state.token(token_id)):
            state, rolled = health.dying_roll(state, token_id, dice)
            events = (*events, *rolled)
        return state, events


    @staticmethod
    def _still_in_sight(state: EncounterState, token: Token, watch: Condition) -> bool:
        """Whether the Overwatch's square or token is still in the watcher's sight (one
        watching nothing in particular keeps it)."""
        if watch.square is not None:
            return any(has_line_of_sight(state.battlemap, s, watch.square)
                       for s in token.squares)
        if not watch.source:
            return True
        if not any(t.id == watch.source for t in state.tokens):
            return False
        return token_line_of_sight(state.battlemap, token, state.token(watch.source))


SYSTEM = register_system(D20FirearmsSystem)


def _strain(state: EncounterState, token_id: str) -> tuple[EncounterState, tuple[Event, ...]]:
    """A Disabled character's strenuous action costs 1 hit point once done (the d20 rule;
    the texts we hold are silent), which leaves it dying. One already dying or above 0
    after its action (hit or healed meanwhile) is left as it is."""
    token = state.token(token_id)
    if not board.disabled(token) or board.hit_points(token) != 0:
        return state, ()
    state = common.set_stat(state, token_id, hp=-1)
    strained = Event(EventKind.DAMAGE, f"{token.name} strains while Disabled: 1 damage (-1 "
                     "hit points, dying).", (token_id,))
    state, marked = health.mark_down(state, token_id)
    return state, (strained, marked)
