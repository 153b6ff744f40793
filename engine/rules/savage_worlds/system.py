"""Savage Worlds Adventure Edition on the turn engine.

Turn order comes from the Action Deck: every round each combatant not on Hold is dealt a
card and the cards act from high to low (suits break ties); the deck travels in the combat
data as one string. A turn holds up to three actions (each one after the first costs -2 to
the Trait rolls that follow: we apply the Multi-Action penalty progressively, since the
engine cannot know in advance how many actions a player means to take) and movement up to
Pace in inches. At the start of a turn a Shaken character rolls Spirit and a Stunned one
Vigor to recover.

Hold: a holder acts when it likes; acting after the active token has done something is an
interrupt (opposed Athletics, none for a Joker). The engine has one active token at a time,
so a tie ("simultaneous") lets the holder go first and the interrupted token resumes after.
If everyone still fighting is on Hold when a round begins, the Holds lapse and all are dealt.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.overlay import Overlay
from engine.rules import common, register_system
from engine.rules.base import (
    ActionEconomy,
    Command,
    CommandError,
    ConditionSpec,
    DragBand,
    Event,
    EventKind,
    InitiativeScheme,
    Outcome,
    TrackerEntry,
    TurnStanding,
    with_options,
)
from engine.rules.common import HandlerSystem, fight_reasons, not_your_turn
from engine.rules.savage_worlds import (
    blast_marks,
    board,
    card_swap,
    combat_state,
    fatigue,
    health,
    hold,
    incapacitation,
    injuries,
    options,
    rerolls,
    schema,
    tables,
    trait_bonuses,
    version_1,
)
from engine.rules.savage_worlds import conditions as cond
from engine.rules.savage_worlds.actions import HANDLERS
from engine.rules.savage_worlds.catalogue import ACTION, ACTIONS, FREE, MOVEMENT, WHOLE_TURN
from engine.rules.savage_worlds.conditions import SWCondition
from engine.rules.savage_worlds.deck import ActionDeck, Card
from engine.rules.savage_worlds.examples import example_commands
from engine.rules.savage_worlds.movement_actions import drag_bands as movement_drag_bands
from engine.rules.savage_worlds.movement_actions import pace_left
from engine.rules.savage_worlds.templates import TEMPLATES
from engine.rules.savage_worlds.traits import trait_roll
from engine.tokens import Token
from engine.turns import order as turn_order
from engine.turns.combat import Combatant, Phase

MAX_ACTIONS = 3
#: What may follow a roll without ending its chance of a Benny's reroll (``rerolls``).
KEEP_ROLLS = frozenset({"soak", "reroll"})
#: Actions a Shaken character may still take (free actions and movement).
SHAKEN_ALLOWED = frozenset({"move", "stand_up", "go_prone"})

CONDITIONS: tuple[ConditionSpec, ...] = (
    *(ConditionSpec(str(rule.name), rule.summary, str(rule.lasts)) for rule in cond.RULES.values()),
    ConditionSpec(board.INCAPACITATED, "Out of the fight: too many Wounds. A Wild Card rolls "
                  "Vigor at once: a critical failure kills, a failure is Bleeding Out.",
                  "until healed"),
    ConditionSpec(board.DEAD, "Dead: out of the fight for good.", "for good"),
    *(ConditionSpec(str(rule.name), rule.summary, "as the Incapacitation roll says")
      for rule in injuries.RULES.values()),
)


class SavageWorldsSystem(HandlerSystem):
    """Savage Worlds Adventure Edition: Action Deck initiative, Hold, special actions."""

    name = "savage-worlds"
    ordinary_move_key = "move"
    cover_table = tables.COVER
    range_table = tables.RANGES
    difficult_terrain_cost = tables.DIFFICULT_TERRAIN_COST
    template_inclusion = tables.INCLUSION
    templates = TEMPLATES
    title = "Savage Worlds Adventure Edition"
    scale = tables.SCALE
    default_speed = 6.0  # Pace 6"
    economy = ActionEconomy(
        {"actions": MAX_ACTIONS, "pace": 6},
        "Each turn: one action, or up to three at -2 per extra action, and movement up to "
        "Pace in inches (a run adds a d6). Aim and Defend take the whole turn.",
    )
    initiative_scheme = InitiativeScheme(
        "cards", "Action Deck", "",
        "Action Deck: a card each round, high to low, suits break ties (spades, hearts, "
        "diamonds, clubs). A Joker acts any time with +2 to Trait and damage rolls and the "
        "deck is shuffled after that round. Hold skips the deal.",
    )
    catalogue = with_options(ACTIONS, options.OPTIONS)
    engine_options = options.ENGINE_OPTIONS
    conditions = CONDITIONS
    stats = schema.STATS

    # ---- health (engine.rules.savage_worlds.health)
    down_condition = board.INCAPACITATED
    gauges = staticmethod(health.gauges)
    take_damage = staticmethod(health.take_damage)
    heal = staticmethod(health.heal)
    turn_allowance = staticmethod(health.turn_allowance)
    # ---- the GM swaps a dealt card (engine.rules.savage_worlds.card_swap)
    card_choices = staticmethod(card_swap.card_choices)
    set_card = staticmethod(card_swap.set_card)
    handlers = HANDLERS
    unknown_action = "Savage Worlds has no rules for {key}"

    def tracker_entry(self, state: EncounterState, combatant: Combatant) -> TrackerEntry:
        """A token on Hold has passed its card's place but not acted: it reads On Hold."""
        entry = super().tracker_entry(state, combatant)
        if combatant.token_id != state.combat.active and hold.is_on_hold(
                state.token(combatant.token_id)):
            return replace(entry, standing=TurnStanding.HOLDING, note=str(SWCondition.ON_HOLD))
        return entry

    def give_condition(self, state: EncounterState, token_id: str, name: str) -> Outcome:
        """The GM's hand gives a Savage Worlds condition as its rule does: with its end (a
        Distracted lasts to the end of the victim's next turn), Stunned with Distracted and
        prone, and a holder who is Shaken or Stunned loses the Hold and the turn."""
        try:
            known = SWCondition(name)
        except ValueError:
            return super().give_condition(state, token_id, name)
        if known is SWCondition.STUNNED:
            state, events = board.stun(state, token_id)
        elif known in fatigue.LEVELS:  # one level more, or Exhausted (``fatigue``)
            state, events = fatigue.give(state, token_id, known)
        elif known is SWCondition.BLEEDING_OUT:  # only the Incapacitated bleed out
            state = board.plain_condition(state, token_id, board.INCAPACITATED)
            state, events = board.add_condition(state, token_id, known, source="GM")
        else:
            state, events = board.add_condition(state, token_id, known, source="GM")
        return state, tuple(events)

    def lasting_overlay(self, state: EncounterState) -> Overlay:
        """Besides the waiting tokens: where missed blasts came down (``blast_marks``)."""
        return super().lasting_overlay(state).plus(blast_marks.overlay(state))

    # ---- catalogue

    def example_commands(self, state: EncounterState, token_id: str) -> Iterator[Command]:

        return example_commands(state, token_id)

    # ---- legality

    def shared_reasons(self, state: EncounterState, command: Command) -> list[str]:
        spec = self.action(command.action)
        combat = state.combat
        actor_id = str(command.actor)
        actor = state.token(actor_id)
        # A Soak takes back the hit that Shook, Stunned, held or took him out (soak_actions);
        # a Benny rerolls the Vigor roll that left him dying (reroll_actions).
        soak = command.action in KEEP_ROLLS
        refused = fight_reasons(state, actor, lambda t: not soak and board.out_of_fight(t),
                                "is out of the fight")
        if refused or soak:
            return refused
        reasons: list[str] = []
        if not self.handler(command.action).out_of_turn and combat.active != actor_id:
            reasons.append(not_your_turn(state, actor))
        if actor.has_condition(SWCondition.STUNNED):
            reasons.append(f"{actor.name} is Stunned and can do nothing")
        elif actor.has_condition(SWCondition.SHAKEN) and command.action not in SHAKEN_ALLOWED:
            reasons.append(f"{actor.name} is Shaken: free actions and movement only")
        if actor.has_condition(SWCondition.BOUND) and command.action != "break_free":
            reasons.append(f"{actor.name} is Bound and can only try to break free")
        used = int(common.data(state, actor_id, "actions_taken", 0))
        whole = bool(common.data(state, actor_id, "turn_used", False))
        if spec.time == ACTION and (used >= MAX_ACTIONS or whole):
            reasons.append(f"{actor.name} has no actions left this turn")
        if spec.time == WHOLE_TURN and (used or whole):
            reasons.append(f"{spec.name} takes the whole turn")
        if spec.time == MOVEMENT and common.data(state, actor_id, "aiming_turn", False):
            reasons.append("an aimer stays put all turn")
        return reasons

    def cost_words(self, state: EncounterState, command: Command) -> str:
        time = self.action(command.action).time
        return {ACTION: "1 action", WHOLE_TURN: "the whole turn", FREE: "free",
                MOVEMENT: "movement"}[time]

    # ---- resolving

    def resolve_action(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        if command.action not in KEEP_ROLLS:  # another action: no Benny rerolls what went before
            state = rerolls.forget_all(state)
        if command.action == "hold":
            return self._go_on_hold(state, command, dice)
        if command.action == "act_from_hold":
            return self._act_from_hold(state, command, dice)
        # Spend after resolving: the Multi-Action penalty counts the actions taken before.
        state, events = self.handler(command.action).resolve(state, command, dice)
        return self._spend(state, command), events

    def _spend(self, state: EncounterState, command: Command) -> EncounterState:
        spec = self.action(command.action)
        actor = str(command.actor)
        if spec.time == ACTION:
            used = int(common.data(state, actor, "actions_taken", 0)) + 1
            state = common.set_data(state, actor, actions_taken=used)
            return self._show_actions_left(state, actor, MAX_ACTIONS - used)
        if spec.time == WHOLE_TURN:
            state = common.set_data(state, actor, turn_used=True)
            if command.action == "aim":
                state = common.set_data(state, actor, aiming_turn=True)
            return self._show_actions_left(state, actor, 0)
        return state

    @staticmethod
    def _show_actions_left(state: EncounterState, actor: str, left: int) -> EncounterState:
        """The budget is what the tracker shows as "Left"; the Multi-Action count that the
        rules read stays in ``actions_taken``."""
        mine = state.combat.combatant(actor)
        budget = {**mine.budget, "actions": max(0, left)}
        return turn_order.update(state, replace(mine, budget=budget))

    def _go_on_hold(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        # The card dealt this round stays with the holder (the tracker shows it, and it is
        # discarded with the others at the round's end); the next deal passes it by.
        state = common.put(state, hold.go_on_hold(actor, state.combat.round))
        event = Event(EventKind.INITIATIVE, f"{actor.name} goes on Hold.", (actor.id,))
        state, more = self.advance(state, dice)
        return state, (event, *more)

    def _act_from_hold(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        active_id = state.combat.active
        events: list[Event] = []
        result = hold.InterruptResult.HOLDER_FIRST
        if active_id is not None and self._is_interrupt(state, active_id, command):
            other = state.token(active_id)
            if hold.needs_interrupt_roll(actor):
                state, mine = self._athletics(state, actor, dice)
                state, theirs = self._athletics(state, other, dice)
                result = hold.interrupt(mine, theirs)
                events.append(Event(EventKind.ROLL, f"{actor.name} tries to cut in on "
                                    f"{other.name}: Athletics {mine} against {theirs} - "
                                    f"{result} (Hold).", (actor.id, other.id)))
            else:
                events.append(Event(EventKind.NOTE, f"{actor.name} cuts in with the Joker.",
                                    (actor.id,)))
        state = common.put(state, hold.release_hold(state.token(actor.id)))
        mine_c = state.combat.combatant(actor.id)
        if result is hold.InterruptResult.HOLDER_AFTER and active_id is not None:
            theirs_c = state.combat.combatant(active_id)
            after = replace(mine_c, acted=False, initiative=theirs_c.initiative,
                            tiebreak=(*theirs_c.tiebreak, -1))
            state = turn_order.update(state, after)
            order = turn_order.sort(state.combat.order)
            state = replace(state, combat=replace(state.combat, order=order))
            events.append(Event(EventKind.INITIATIVE, f"{actor.name} loses the Hold and acts "
                                f"after {state.token(active_id).name}.", (actor.id,)))
            return state, tuple(events)
        state = turn_order.update(state, replace(mine_c, acted=False))
        events.append(Event(EventKind.INITIATIVE, f"{actor.name} acts from Hold.", (actor.id,)))
        state, started = self.start_turn(state, actor.id, dice)
        return state, (*events, *started)

    @staticmethod
    def _is_interrupt(state: EncounterState, active_id: str, command: Command) -> bool:
        started = int(common.data(state, active_id, "actions_taken", 0)) > 0 or int(
            common.data(state, active_id, "moved_inches", 0)) > 0
        return started or bool(command.option("interrupt", False))

    @staticmethod
    def _athletics(state: EncounterState, token: Token, dice: Dice) -> tuple[EncounterState, int]:
        """An opposed Athletics roll to cut in (or resist it), with the roller's Joker,
        wounds, Distracted and Support on Athletics (spent)."""
        die, untrained = board.trait_die(token, "athletics")
        modifier = untrained + sum(
            m.value for m in trait_bonuses.resisting_modifiers(token, "athletics"))
        total = trait_roll(die, dice, modifier=modifier, wild_card=board.is_wild_card(token),
                           purpose=f"{token.name} Athletics to interrupt").total
        return trait_bonuses.spend_support(state, token.id, "athletics"), total

    # ---- initiative by the Action Deck

    def fresh_budget(self, state: EncounterState, token_id: str) -> dict[str, int]:
        token = state.token(token_id)  # a Leg injury slows it (``injuries``)
        return {"actions": MAX_ACTIONS,
                "pace": max(0, int(token.speed) - injuries.pace_lost(token))}

    def move_allowance(self, state: EncounterState, token_id: str) -> int | None:
        """A Move without running goes at most the Pace left this turn (None out of combat)."""
        if not any(c.token_id == token_id for c in state.combat.order):
            return None
        return state.scale.squares(pace_left(state, token_id))

    def drag_bands(self, state: EncounterState, token_id: str) -> tuple[DragBand, ...]:
        """A Move within the Pace left, then a run with the running die (rolled at the
        drop); nothing out of combat, as :meth:`move_allowance`."""
        if not any(c.token_id == token_id for c in state.combat.order):
            return ()
        return movement_drag_bands(state, token_id)

    def _deal(
        self, state: EncounterState, deck: ActionDeck, dice: Dice
    ) -> tuple[EncounterState, ActionDeck, list[Combatant], list[Event]]:
        """Deal a card to everyone neither on Hold nor out of the fight, and to those
        Bleeding Out (their turn holds its Vigor roll)."""
        fighting = [t for t in state.tokens if not board.out_of_fight(t)]
        events: list[Event] = []
        if fighting and not hold.to_deal(fighting):
            # Everyone still fighting is holding: nobody would ever act, so (our ruling)
            # the Holds lapse and everyone is dealt in again.
            for token in fighting:
                state = common.put(state, hold.release_hold(token))
            events.append(Event(EventKind.INITIATIVE,
                                "Everyone is on Hold: the Holds lapse and cards are dealt."))
        deck, hands = deck.deal(_dealt_in(state), dice)
        combatants: list[Combatant] = []
        for token in state.tokens:
            budget = self.fresh_budget(state, token.id)
            card = hands.get(token.id)
            if card is None:
                held = hold.is_on_hold(token)
                combatants.append(Combatant(token.id, 0, (0,), budget, {"card": ""},
                                            acted=True))
                if held:
                    events.append(Event(EventKind.INITIATIVE, f"{token.name} stays on Hold "
                                        "(no card).", (token.id,)))
                continue
            combatants.append(Combatant(token.id, card.sort_key[0], (card.sort_key[1],),
                                        budget, {"card": card.code}))
            events.append(Event(EventKind.INITIATIVE, f"{token.name} is dealt the {card}.",
                                (token.id,)))
            if card.is_joker:
                state, more = board.add_condition(state, token.id, SWCondition.JOKER)
                events.extend(more)
        return state, deck, combatants, events

    def _store_deck(self, state: EncounterState, deck: ActionDeck) -> EncounterState:
        return combat_state.with_deck(state, deck)

    def deck(self, state: EncounterState) -> ActionDeck:
        return combat_state.deck_of(state)

    # ---- files: a version-1 file's deck text becomes the typed deck once, at load
    upgrade_state = staticmethod(version_1.upgrade)

    def start_combat(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        """Shuffle and deal; option ``cards`` (token id -> card code, ``{"a": "AS"}``) holds
        cards the GM dealt by hand (the others come off the shuffled deck)."""
        deck = ActionDeck.fresh().shuffled(dice)
        typed = typed_cards(state, command.pairs("cards"))
        if typed:
            order = _dealt_in(state)
            try:
                deck = deck.stacked([typed.get(token_id) for token_id in order])
            except ValueError as error:
                raise CommandError(f"cards=: {error}") from None
        state, deck, combatants, events = self._deal(state, deck, dice)
        combat = replace(state.combat, phase=Phase.ROUND, round=1,
                         order=turn_order.sort(combatants))
        state = self._store_deck(replace(state, combat=combat), deck)
        state = combat_state.with_landings(state, ())  # a new fight: no old blast marks
        events.append(Event(EventKind.ROUND, "Round 1 begins."))
        return self._begin_first_turn(state, events, dice)

    def end_round(self, state: EncounterState, dice: Dice) -> Outcome:
        deck = self.deck(state)
        dealt = [Card.from_code(str(c.get("card", ""))) for c in state.combat.order
                 if c.get("card", "")]
        joker = deck.joker_dealt
        deck = deck.end_round(dealt, dice)
        events = (Event(EventKind.NOTE, "A Joker was dealt: the Action Deck is shuffled."),) \
            if joker else ()
        return self._store_deck(state, deck), events

    def new_round(self, state: EncounterState, dice: Dice) -> Outcome:
        round_number = state.combat.round + 1
        state = replace(state, combat=replace(state.combat, round=round_number, active=None))
        state, expired = turn_order.expire_round(state, round_number)
        state, deck, combatants, dealt = self._deal(state, self.deck(state), dice)
        combat = replace(state.combat, phase=Phase.ROUND, order=turn_order.sort(combatants))
        state = self._store_deck(replace(state, combat=combat), deck)
        events = [Event(EventKind.ROUND, f"Round {round_number} begins."), *expired, *dealt]
        return self._begin_first_turn(state, events, dice)

    def start_turn(self, state: EncounterState, token_id: str, dice: Dice) -> Outcome:
        state, events = super().start_turn(state, token_id, dice)
        state = rerolls.forget_all(state, on_turn_only=True)  # a new turn: actions' rolls go
        if common.data(state, token_id, "turn_started", False):
            return state, events  # resuming after an interruption
        state = common.set_data(state, token_id, turn_started=True)
        state = blast_marks.clear_for(state, token_id)
        token = state.token(token_id)
        more: list[Event] = []
        if incapacitation.bleeding_out(token):
            state, bled = incapacitation.bleed(state, token_id, dice)
            return state, (*events, *bled)  # its turn ends there (turn_allowance)
        if board.out_of_fight(token):
            return state, events  # no recovery roll: its turn is skipped (turn_allowance)
        if token.has_condition(SWCondition.SHAKEN):
            die, _ = board.trait_die(token, "spirit")
            roll = trait_roll(die, dice, modifier=trait_bonuses.resisting_total(token, "spirit"),
                              wild_card=board.is_wild_card(token),
                              purpose=f"{token.name} Spirit to recover")
            token = trait_bonuses.without_support(cond.recover_from_shaken(token, roll.total),
                                                  "spirit")
            words = "shakes it off" if not token.has_condition(SWCondition.SHAKEN) \
                else "stays Shaken"
            more.append(Event(EventKind.ROLL, f"{token.name} rolls Spirit {roll}: {words}.",
                              (token_id,)))
        if token.has_condition(SWCondition.STUNNED):
            die, _ = board.trait_die(token, "vigor")
            roll = trait_roll(die, dice, modifier=trait_bonuses.resisting_total(token, "vigor"),
                              wild_card=board.is_wild_card(token),
                              purpose=f"{token.name} Vigor to recover")
            token = trait_bonuses.without_support(
                cond.recover_from_stunned(token, roll.total, state.combat.round), "vigor")
            words = "comes round, still Vulnerable for a while" \
                if not token.has_condition(SWCondition.STUNNED) \
                else "stays Stunned and can do nothing this turn"
            more.append(Event(EventKind.ROLL, f"{token.name} rolls Vigor {roll}: {words}.",
                              (token_id,)))
        return common.put(state, token), (*events, *more)


SYSTEM = register_system(SavageWorldsSystem)


def _dealt_in(state: EncounterState) -> list[str]:
    """Who is dealt a card, in map order: not on Hold, and fighting or Bleeding Out."""
    return hold.to_deal([t for t in state.tokens if incapacitation.dealt_in(t)])


def typed_cards(state: EncounterState, dealt: Mapping[str, object]) -> dict[str, Card]:
    """The cards the GM dealt by hand, by token id; a bad entry is a CommandError."""
    typed: dict[str, Card] = {}
    for token_id, code in dealt.items():
        if all(t.id != token_id for t in state.tokens):
            raise CommandError(f"cards=: there is no token {token_id!r}")
        try:
            typed[token_id] = Card.from_code(str(code))
        except ValueError as error:
            raise CommandError(f"cards=: {error}") from None
    return typed
