"""Cities Without Number on the turn engine.

Side initiative: each side rolls 1d8 plus its best Dexterity modifier once, at the start of
the fight, and the sides act in that order every round (PCs first on a tie). Every member
of a side shares its count, and the GM may let them go in any order: any member of the
acting side who has not finished may act, and becomes the active token. With the option
``individual=true`` on ``start_combat`` each combatant rolls instead.

Each round a combatant has one Main and one Move action (the Main may become a second
Move), On Turn actions as the GM allows, and Instant actions, which may be taken out of
turn. A held action lets the rest of the turn be spent as Instant actions until the round
ends.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.rules import common, hit_points, register_system
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
from engine.rules.cities_without_number import (
    board,
    combat_rules,
    combat_state,
    economy,
    initiative,
    movement,
    options,
    schema,
    tables,
    version_1,
)
from engine.rules.cities_without_number.actions import HANDLERS, attack_actions, cost_of
from engine.rules.cities_without_number.catalogue import ACTIONS
from engine.rules.cities_without_number.economy import ActionType
from engine.rules.cities_without_number.examples import example_commands
from engine.rules.common import HandlerSystem, fight_reasons, not_your_turn
from engine.rules.gauges import Gauge
from engine.tokens import Token
from engine.turns import order as turn_order
from engine.turns.combat import Combatant, Phase

#: Types a holder may fire off, out of turn, as Instant actions until the round ends.
HELD_TYPES = frozenset({ActionType.MAIN, ActionType.MOVE, ActionType.ON_TURN})

CONDITIONS: tuple[ConditionSpec, ...] = (
    ConditionSpec(board.PRONE, "Lying flat: -2 to ranged and +2 to melee attacks against, "
                  "half movement.", "until standing up"),
    ConditionSpec(board.TOTAL_DEFENSE, "+2 to Melee and Ranged AC, no Shock.",
                  "until the start of the next turn"),
    ConditionSpec(board.CHARGING, "-2 to both ACs after a Charge.", "until the end of the round"),
    ConditionSpec(board.SCREENING, "Body-blocking attacks on a ward within 3 m.",
                  "until the start of the next turn"),
    ConditionSpec(board.SCREENED, "Guarded by a screening ally.",
                  "until the start of the screener's next turn"),
    ConditionSpec(board.HOLDING, "Waiting to spend the rest of the turn as Instant actions.",
                  "until the end of the round"),
    ConditionSpec(board.DOWN, "At 0 hit points: out of the fight.", "until stabilised"),
)


class CitiesWithoutNumberSystem(HandlerSystem):
    """Cities Without Number: side initiative, Main/Move/On Turn/Instant actions."""

    name = "cities-without-number"
    ordinary_move_key = "run"
    cover_table = tables.COVER
    range_table = tables.RANGES
    difficult_terrain_cost = tables.DIFFICULT_TERRAIN_COST
    weapon_fields = tables.WEAPON_FIELDS
    template_inclusion = tables.INCLUSION
    title = "Cities Without Number"
    scale = tables.SCALE
    default_speed = 10.0  # a Move action's 10 m
    economy = ActionEconomy(
        dict(economy.FRESH_BUDGET),
        "Each round: one Main and one Move action (the Main may be a second Move), On Turn "
        "actions as plausible, and Instant actions at any time, even out of turn.",
    )
    initiative_scheme = InitiativeScheme(
        "sides", "1d8", initiative.DEX_STAT,
        "Each side rolls 1d8 + its best Dexterity modifier; high side first, PCs win ties; "
        "members of a side act in any order. Option: individual initiative.",
    )
    catalogue = with_options(ACTIONS, options.OPTIONS)
    engine_options = options.ENGINE_OPTIONS
    conditions = CONDITIONS
    stats = schema.STATS
    handlers = HANDLERS
    unknown_action = "Cities Without Number has no rules for {key}"

    # ---- health: hit points (engine.rules.hit_points)

    down_condition = board.DOWN

    def gauges(self, state: EncounterState, token: Token) -> tuple[Gauge, ...]:
        return hit_points.gauges(schema.STATS, token, board.DOWN, ("strain", "System Strain"))

    def take_damage(self, state: EncounterState, token_id: str, amount: int) -> Outcome:
        return hit_points.take_damage(schema.STATS, state, token_id, amount, _mark_down,
                                      combat_rules.HIT_POINT_FLOOR)

    def heal(self, state: EncounterState, token_id: str, amount: int) -> Outcome:
        return hit_points.heal(schema.STATS, state, token_id, amount, board.DOWN)

    def turn_allowance(self, state: EncounterState, token_id: str) -> TurnAllowance:
        """A token at 0 hit points is out of the fight and has no turn until stabilised
        and healed (the texts we hold are silent; the game's Mortally Wounded character
        is helpless and takes no action, which we follow)."""
        if board.out_of_fight(state.token(token_id)):
            return TurnAllowance(TurnKind.SKIPPED, f"is {board.DOWN}")
        return TurnAllowance()

    # ---- files: a version-1 file's text becomes typed state once, at load
    upgrade_state = staticmethod(version_1.upgrade)

    # ---- whose turn

    def own_turn(self, state: EncounterState, actor_id: str) -> bool:
        """The actor's turn, or a turn its side may share (side initiative, not yet done)."""
        combat = state.combat
        if combat.active == actor_id:
            return True
        if combat.active is None or not combat.has(actor_id):
            return False
        if combat.data.get(options.INDIVIDUAL, False):
            return False
        mine, theirs = combat.combatant(actor_id), combat.combatant(combat.active)
        return (not mine.acted and mine.initiative == theirs.initiative
                and mine.tiebreak == theirs.tiebreak)

    def shared_reasons(self, state: EncounterState, command: Command) -> list[str]:
        self.handler(command.action)
        combat = state.combat
        actor_id = str(command.actor)
        actor = state.token(actor_id)
        refused = fight_reasons(state, actor, board.out_of_fight, "is down")
        if refused:
            return refused
        cost = cost_of(state, command)
        holding = bool(common.data(state, actor_id, "holding", False))
        own = self.own_turn(state, actor_id)
        if holding and cost in HELD_TYPES:
            own = False  # the held rest of the turn goes off as Instant actions
            out_of_turn_ok = True
        else:
            out_of_turn_ok = self.handler(command.action).out_of_turn
        if not own and not out_of_turn_ok:
            return [not_your_turn(state, actor)]
        budget = combat.combatant(actor_id).budget
        refusal = economy.refusal(budget, cost, own_turn=True)
        return [refusal] if refusal else []

    def cost_words(self, state: EncounterState, command: Command) -> str:
        return f"{cost_of(state, command)} action"

    def rules_weapon(self, state: EncounterState, command: Command) -> str | None:
        try:
            return attack_actions.rules_weapon(state, command)
        except KeyError:  # no such actor, or a ranged pick with no ranged weapon
            return None

    def example_commands(self, state: EncounterState, token_id: str) -> Iterator[Command]:

        return example_commands(state, token_id)

    def resolve_action(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor_id = str(command.actor)
        cost = cost_of(state, command)
        combat = state.combat
        events: list[Event] = []
        holding = bool(common.data(state, actor_id, "holding", False))
        if combat.active != actor_id and self.own_turn(state, actor_id) and not (
            holding or self.handler(command.action).out_of_turn
        ):
            # A side-mate steps up: the GM picked who goes next within the side.
            state = turn_order.set_active(state, actor_id)
            events.append(Event(EventKind.TURN, f"{state.token(actor_id).name} acts for the "
                                "side.", (actor_id,)))
        mine = state.combat.combatant(actor_id)
        state = turn_order.update(state, replace(
            mine, budget=economy.spend(mine.budget, cost, own_turn=True)))
        if command.action == "hold_action":
            return self._hold(state, command, dice, events)
        state, more = self.handler(command.action).resolve(state, command, dice)
        if holding and cost in HELD_TYPES:
            more = (Event(EventKind.NOTE, f"{state.token(actor_id).name} acts on the held "
                          "action (it resolves first).", (actor_id,)), *more)
        return state, (*events, *more)

    def _hold(self, state: EncounterState, command: Command, dice: Dice,
              events: list[Event]) -> Outcome:
        actor_id = str(command.actor)
        state = common.set_data(state, actor_id, holding=True)
        state, marked = board.add_condition(state, actor_id, board.HOLDING,
                                            board.end_of_round(state))
        name = state.token(actor_id).name
        events.extend((Event(EventKind.INITIATIVE, f"{name} holds the rest of the turn "
                             "(Hold an Action).", (actor_id,)), marked))
        if state.combat.active == actor_id:
            state, ended = self.advance(state, dice)
            events.extend(ended)
        return state, tuple(events)

    # ---- initiative

    def fresh_budget(self, state: EncounterState, token_id: str) -> dict[str, int]:
        return dict(economy.FRESH_BUDGET)

    def move_allowance(self, state: EncounterState, token_id: str) -> int | None:
        """A Move goes at most the token's speed (halved while prone)."""
        return state.scale.squares(movement.speed(state.token(token_id)))

    def drag_bands(self, state: EncounterState, token_id: str) -> tuple[DragBand, ...]:
        """A Move, then a second Move with the Main action while both are unspent."""
        rate = self.move_allowance(state, token_id) or 0
        budget = (state.combat.combatant(token_id).budget if state.combat.has(token_id)
                  else {})
        return movement.drag_bands(rate, budget)

    def start_combat(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        individual = bool(command.option(options.INDIVIDUAL, False))
        allies_with_party = not bool(command.option(options.ALLIES_SEPARATE, False))
        combatants: list[Combatant] = []
        events: list[Event] = []
        if individual:
            for token in state.tokens:
                bonus = initiative.dex_mod(token)
                roll = dice.roll(f"{initiative.INITIATIVE_DIE}{bonus:+d}",
                                 f"{token.name} initiative")
                combatants.append(Combatant(token.id, roll.total,
                                            initiative.individual_tiebreak(token),
                                            self.fresh_budget(state, token.id)))
                events.append(Event(EventKind.INITIATIVE, f"{token.name} rolls initiative: "
                                    f"{roll.total}.", (token.id,), roll))
        else:
            order = initiative.roll_sides(state.tokens, dice, allies_with_party=allies_with_party)
            for side in order:
                pc = 1 if initiative.pc_side(side.side) else 0
                for member in side.members:
                    combatants.append(Combatant(member, side.total, (pc, side.bonus),
                                                self.fresh_budget(state, member)))
                events.append(Event(EventKind.INITIATIVE, f"The {side.side} side rolls "
                                    f"{side.total} (1d8{side.bonus:+d}).", side.members,
                                    side.roll))
        combat = replace(state.combat, phase=Phase.ROUND, round=1,
                         order=turn_order.sort(combatants),
                         data={**state.combat.data, options.INDIVIDUAL: individual})
        state = replace(state, combat=combat)
        events.append(Event(EventKind.ROUND, "Round 1 begins."))
        return self._begin_first_turn(state, events, dice)

    def new_round(self, state: EncounterState, dice: Dice) -> Outcome:
        combat = state.combat
        cleared = tuple(replace(c, data={}) for c in combat.order)
        state = combat_state.clear_swarms(replace(state, combat=replace(combat, order=cleared)))
        return super().new_round(state, dice)


SYSTEM = register_system(CitiesWithoutNumberSystem)


def _mark_down(state: EncounterState, token_id: str) -> tuple[EncounterState, Event]:
    return board.add_condition(state, token_id, board.DOWN)
