"""Spycraft 2.0 on the turn engine: the checks every action shares, and the budget.

Each round a combatant has 2 half actions (a full action spends both), any number of free
actions, and a bonus 5-ft step if he takes no other movement. The Proficiency tag doubles
an action's time for a character without the proficiency; the Incidental tag lets one
such action a round ride free on a movement action.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.overlay import Overlay, OverlayToken, Role
from engine.rules.base import (
    ActionEconomy,
    ActionSpec,
    Command,
    ConditionSpec,
    DragBand,
    Event,
    EventKind,
    InitiativeScheme,
    Need,
    OptionSpec,
    Outcome,
    Preview,
    RuleSystem,
    UnknownAction,
    with_options,
)
from engine.rules.gauges import Gauge
from engine.rules.spycraft import (
    action_dice,
    board,
    health,
    options,
    schema,
    tables,
    version_1,
)
from engine.rules.spycraft.actions import HANDLERS
from engine.rules.spycraft.catalogue import (
    ACTIONS,
    ATTACK,
    HALVES,
    IDL,
    MOVEMENT,
    PRF,
    TRICK,
    TRICKS,
    action_spec,
)
from engine.rules.spycraft.examples import example_commands
from engine.rules.spycraft.flow import (
    after_action,
    end_round,
    new_round,
    on_turn_start,
    start_combat,
    start_reasons,
)
from engine.rules.spycraft.fluid_initiative import fluid_gauges, note_conditions
from engine.rules.spycraft.grapple_actions import in_grapple
from engine.rules.spycraft.handlers import SpycraftHandler, structure_reasons
from engine.rules.spycraft.initiative_actions import brace_overlay
from engine.rules.spycraft.movement import (
    drag_bands,
    slowed_by_terrain,
    speed_squares,
    terrain_note,
)
from engine.rules.spycraft.stand_off_actions import needs_leave, surrender_reasons
from engine.rules.spycraft.suppression_zones import crossing_overlay, suppression_overlay
from engine.tokens import StatNames, StatValue, Token
from engine.turns import order as turn_order
from engine.turns.combat import Phase
from engine.words import counted

#: The options every action takes only for a surrendered character (his captors' leave).
SHARED_NAMES = frozenset(o.name for o in options.SHARED_OPTIONS)

CONDITIONS: tuple[ConditionSpec, ...] = (
    ConditionSpec(
        board.FLAT_FOOTED,
        "Caught off guard: no Dex or dodge bonus to Defense, no attacks of opportunity.",
        "until the start of his next Initiative Count",
    ),
    ConditionSpec(
        board.REELING,
        "Off balance: -2 to attacks and Defense (our d20-style number).",
        "until the end of his next turn",
    ),
    ConditionSpec(
        board.SPRAWLED,
        "Knocked flat: -4 melee attacks; +4 Defense vs ranged, -4 vs melee.",
        "until he stands",
    ),
    ConditionSpec(
        board.PRONE,
        "Lying down: -4 melee attacks; +4 Defense vs ranged, -4 vs melee.",
        "until he stands",
    ),
    ConditionSpec(
        board.CROUCHED, "Keeping low: +2 Defense against ranged attacks.", "until he stands"
    ),
    ConditionSpec(board.HELD, "Caught in a Grapple.", "until he escapes"),
    ConditionSpec(board.PINNED, "Pinned in a Grapple.", "until he breaks the pin"),
    ConditionSpec(board.VULNERABLE, "Busy holding someone in a Grapple.", "while holding"),
    ConditionSpec(
        board.AIMING,
        "+1 to Standard Attacks at one target that stays put.",
        "until he or the target moves",
    ),
    ConditionSpec(
        board.BRACED, "+1 to attacks into a cone, +2 Str for recoil, -4 Reflex.", "until he moves"
    ),
    ConditionSpec(board.ANTICIPATING, "Dodge bonus against one foe.", "1 full round"),
    ConditionSpec(board.DEFENSIVE, "-4 to attacks and skills, +2 dodge Defense.", "1 full round"),
    ConditionSpec(board.TOTAL_DEFENSE, "+4 dodge Defense.", "1 full round"),
    ConditionSpec(board.COVER_FIRED, "-4 to attacks and skills (Cover Fire).", "1 full round"),
    ConditionSpec(
        board.SUPPRESSED,
        "-4 to attacks and skills (Suppressive Fire).",
        "until the shooter's next Initiative Count",
    ),
    ConditionSpec(board.TAUNTED, "Must attack the taunter with his next action.", "until he does"),
    ConditionSpec(board.ENRAGED, "Enraged by a Taunt.", "2d4 rounds"),
    ConditionSpec(board.FRIGHTENED, "Frightened by a Threaten.", "2d4 rounds"),
    ConditionSpec(
        board.CHEAP_SHOT, "-2 with one attribute or -10 ft Speed.", "the scene, or a Fortitude save"
    ),
    ConditionSpec(
        board.CRACKED, "Broken in a Stand Off: must Surrender or Take the Shot.", "until he chooses"
    ),
    ConditionSpec(board.SURRENDERED, "Gave up: acts only with his captors' leave.", "the scene"),
    ConditionSpec(
        board.REFRESHING,
        "Sitting out to heal with Refresh.",
        "until the start of his next Initiative Count",
    ),
)


class SpycraftSystem(RuleSystem):
    """Spycraft 2.0 combat: fluid initiative, half and full actions, Table: Actions."""

    name = "spycraft"
    ordinary_move_key = "standard_move"
    surprise_round = True
    cover_table = tables.COVER
    range_table = tables.RANGES
    difficult_terrain_cost = tables.DIFFICULT_TERRAIN_COST
    template_inclusion = tables.INCLUSION
    deviation = tables.DEVIATION
    title = "Spycraft 2.0"
    economy = ActionEconomy(
        {"half": 2},
        "Each round: 1 full or 2 half actions, free actions, and a bonus 5-ft step "
        "if no other movement is taken.",
    )
    initiative_scheme = InitiativeScheme(
        "count",
        "1d20",
        "initiative",
        "Initiative Count = 1d20 + Initiative bonus, high first; ties by bonus, then a "
        "roll-off. Counts shift each round with fluid modifiers (at most +10/-10).",
    )
    catalogue = with_options(ACTIONS, options.OPTIONS)
    shared_options = options.SHARED_OPTIONS
    engine_options = options.ENGINE_OPTIONS
    conditions = CONDITIONS
    stats = schema.STATS

    # ---- health (engine.rules.spycraft.health)
    down_condition = board.UNCONSCIOUS
    def gauges(self, state: EncounterState, token: Token) -> tuple[Gauge, ...]:
        """Vitality, wounds and subdual; Action Dice; the fluid Initiative gathered this
        round."""
        return (*health.gauges(state, token), *action_dice.gauges(token),
                *fluid_gauges(state, token))
    take_damage = staticmethod(health.take_damage)
    heal = staticmethod(health.heal)
    turn_allowance = staticmethod(health.turn_allowance)

    def new_token_stats(self) -> dict[str, StatValue | StatNames]:
        """A first-level character's vitality and wounds, full (not the schema's 0s)."""
        return health.new_token_stats(super().new_token_stats())

    # ---- files: a version-1 file's text becomes typed state once, at load
    upgrade_state = staticmethod(version_1.upgrade)

    # ---- catalogue queries

    def handler(self, key: str) -> SpycraftHandler:
        try:
            return HANDLERS[key]
        except KeyError:
            raise UnknownAction(f"Spycraft has no rules for {key!r} yet") from None

    def options_for(self, state: EncounterState, actor: str, key: str,
                    ) -> tuple[OptionSpec, ...]:
        """Every option but the captors' leave (``permitted``), which only a surrendered
        character's actions take: its tick box sat on every action form."""
        found = self.options_of(key)
        if needs_leave(state.token(actor), key):
            return found
        return tuple(o for o in found if o.name not in SHARED_NAMES)

    def move_allowance(self, state: EncounterState, token_id: str) -> int | None:
        """A Standard Move costs at most the token's Speed now (prone, Cheap Shot...)."""
        return speed_squares(state, state.token(token_id))

    def drag_bands(self, state: EncounterState, token_id: str) -> tuple[DragBand, ...]:
        """A Standard Move, then a double move with both half actions."""
        return drag_bands(state, token_id)

    def legal_actions(self, state: EncounterState, token_id: str) -> tuple[ActionSpec, ...]:
        """Actions the token can afford now (turn, budget, tags, Grapple, Taunt, Press).

        An action that needs nothing (Crouch, Press, Regroup...) is checked in full; one
        that needs a target, a path, a weapon or a required option is listed when
        affordable, and its command is then checked with ``preview``.
        """
        found: list[ActionSpec] = []
        for spec in self.catalogue:
            if spec.key not in HANDLERS or spec.key == "enter_combat":
                continue
            probe = as_standard_attack(Command(spec.key, token_id))
            if self._shared_reasons(state, probe, structural=False):
                continue
            picks = spec.needs or any(option.required for option in spec.options)
            if not picks and self.handler(spec.key).check(state, probe):
                continue
            found.append(spec)
        return tuple(found)

    def example_commands(self, state: EncounterState, token_id: str) -> Iterator[Command]:

        return example_commands(state, token_id)

    # ---- the checks every action shares

    def cost(self, state: EncounterState, command: Command) -> int:
        """Half actions the command spends (Proficiency doubling and Incidental included)."""
        handler = self.handler(command.action)
        spec = handler.spec
        halves = handler.cost(state, command)
        if halves is None:
            halves = HALVES[spec.time]
        actor = state.token(str(command.actor))
        if PRF in spec.tags and not board.is_proficient(actor, spec.key, command.weapon):
            halves *= 2
        if IDL in spec.tags and command.option("incidental", False):
            halves = 0
        return halves

    def _shared_reasons(
        self, state: EncounterState, command: Command, *, structural: bool = True
    ) -> list[str]:
        handler = self.handler(command.action)
        spec = handler.spec
        combat = state.combat
        actor_id = str(command.actor)
        actor = state.token(actor_id)
        if combat.phase in (Phase.SETUP, Phase.OVER):
            return ["combat is not running: start combat first"]
        if not combat.has(actor_id):
            if spec.key == "enter_combat":
                return []
            return [f"{actor.name} is not in the initiative order (Enter Combat first)"]
        mine = combat.combatant(actor_id)
        down = health.cannot_act(actor)
        if down:
            return [f"{actor.name} {down} and can do nothing"]
        reasons: list[str] = []
        if not handler.out_of_turn and combat.active != actor_id:
            active = state.token(combat.active).name if combat.active else "nobody"
            reasons.append(f"it is {active}'s turn, not {actor.name}'s")
        if spec.category == TRICK and spec.key != "fight_defensively":
            reasons.append(f"{spec.name} is a trick: add trick={spec.key} to a Standard Attack")
            return reasons

        reasons.extend(surrender_reasons(state, actor, command))
        if mine.get("must_press", False) and spec.key not in ("press", "delay"):
            reasons.append("his Initiative Count reached 50: his first action must be a Press")
        if mine.get("surprise", False) is False and combat.phase is Phase.SURPRISE:
            reasons.append(f"{actor.name} does not act in the surprise round")
        if handler.out_of_turn:  # no budget or turn to check, but the picks still count
            if structural:
                reasons.extend(self._structure_reasons(state, command, actor))
            return reasons
        reasons.extend(self._compulsions(state, command, actor))
        halves = self.cost(state, command) if structural else HALVES[spec.time]
        left = mine.budget.get("half", 0) + mine.budget.get("bonus", 0)
        if halves > 2:
            # Proficiency doubled a full action: it takes this whole round and half the next.
            if left < 2 or mine.get("moved", False):
                reasons.append(
                    f"without the proficiency {spec.name} takes {_halves_words(halves)}: "
                    "it must start with a fresh round"
                )
        elif halves > left:
            reasons.append(
                f"{spec.name} needs {_halves_words(halves)}; {actor.name} has "
                f"{_halves_words(left)} left this round"
            )
        if combat.phase is Phase.SURPRISE:
            if halves == 0 and mine.get("surprise_free", False):
                reasons.append("only 1 free action in the surprise round")
            if halves > 0 and mine.get("surprise_used", False):
                reasons.append("only 1 action in the surprise round")
        if spec.category == MOVEMENT and mine.get("stepped", False):
            reasons.append("he took a 5-ft step this round, so no other movement")
        if mine.get("bonus_only", False) and halves > 1:
            reasons.append("the Press half action must be a half action")
        if IDL in spec.tags and command.option("incidental", False):
            if mine.get("incidental_used", False):
                reasons.append("the free Incidental action is already used this round")
            elif not mine.get("moved", False) and not command.option("with_move", False):
                reasons.append("an Incidental action rides free only with a movement action")
        if structural:
            reasons.extend(self._structure_reasons(state, command, actor))
        return reasons

    def _compulsions(self, state: EncounterState, command: Command, actor: Token) -> list[str]:
        """A Grapple allows only Grapple checks; a Taunt demands an attack on the taunter."""

        spec = self.handler(command.action).spec
        reasons: list[str] = []
        if (
            in_grapple(state, actor)
            and HALVES[spec.time] > 0
            and spec.key not in ("grapple_check", "grapple")
        ):
            reasons.append(f"{actor.name} is in a Grapple: only Grapple checks (or free actions)")
        for taunt in board.conditions_named(actor, board.TAUNTED):
            elsewhere = spec.category != ATTACK or (
                bool(command.targets) and command.target != taunt.source
            )
            if elsewhere and HALVES[spec.time] > 0 and taunt.source:
                taunter = state.token(taunt.source).name
                reasons.append(f"{actor.name} was taunted: his next action must attack {taunter}")
        return reasons

    def _structure_reasons(
        self, state: EncounterState, command: Command, actor: Token
    ) -> list[str]:
        return structure_reasons(state, command)

    # ---- RuleSystem hooks

    def check_action(self, state: EncounterState, command: Command) -> list[str]:
        command = as_standard_attack(command)
        declared = {option.name for option in self.options_of(command.action)}
        reasons = self._shared_reasons(state, command) + action_dice.reasons(
            state, command, declared)
        if reasons:
            return reasons
        return self.handler(command.action).check(state, command)

    def lasting_overlay(self, state: EncounterState) -> Overlay:
        return (super().lasting_overlay(state)
                .plus(suppression_overlay(state), brace_overlay(state)))

    def describe_action(self, state: EncounterState, command: Command) -> Preview:
        command = as_standard_attack(command)
        handler = self.handler(command.action)
        try:
            preview = _with_crossings(state, command, handler.describe(state, command))
        except Exception as error:
            # An illegal command may be too broken to describe (no weapon, no target);
            # its preview then just names the action, and check() says what is wrong.
            # A legal command that cannot be described is a bug: let it surface.
            if not self.check(state, command):
                raise
            return Preview(command, False, summary=f"{handler.spec.name}: {error}")
        try:
            cost = self.cost(state, command)
        except KeyError:
            return preview
        return replace(preview, cost=preview.cost or _halves_words(cost))

    def apply(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        """Every command, noting before and after it the conditions that cost fluid
        Initiative at the round's end, so one that ends during the round still counts."""
        state, events = super().apply(note_conditions(state), command, dice)
        return note_conditions(state), events

    def resolve_action(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        command = as_standard_attack(command)
        handler = self.handler(command.action)
        if not handler.out_of_turn:
            state = self.spend(state, command)
        new_state, events = handler.resolve(state, command, dice)
        new_state, events = action_dice.settle(new_state, tuple(events))

        return after_action(self, new_state, command, events, dice)

    def spend(self, state: EncounterState, command: Command) -> EncounterState:
        """Take the command's cost out of the actor's budget and note what it used."""
        handler = self.handler(command.action)
        spec = handler.spec
        actor = str(command.actor)
        halves = self.cost(state, command)
        mine = state.combat.combatant(actor)
        budget = dict(mine.budget)
        bonus = min(budget.get("bonus", 0), halves)
        budget["bonus"] = budget.get("bonus", 0) - bonus
        spill = max(0, halves - bonus - budget.get("half", 0))
        budget["half"] = max(0, budget.get("half", 0) - (halves - bonus))
        data = dict(mine.data)
        if spec.category == MOVEMENT:
            data["moved"] = True
        if IDL in spec.tags and command.option("incidental", False):
            data["incidental_used"] = True
        if state.combat.phase is Phase.SURPRISE:
            if halves == 0:
                data["surprise_free"] = True
            else:
                data["surprise_used"] = True
                budget["half"] = 0
        if spec.key != "press":
            data["must_press"] = False
        if halves > 0:
            data["bonus_only"] = False
        if spill:
            data["busy_next"] = spill

        return turn_order.update(state, replace(mine, budget=budget, data=data))

    # ---- the seven steps (flow.py)

    def start_combat_reasons(self, state: EncounterState, command: Command) -> list[str]:
        return start_reasons(command)

    def start_combat(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:

        return start_combat(self, state, command, dice)

    def end_round(self, state: EncounterState, dice: Dice) -> Outcome:

        return end_round(self, state, dice)

    def new_round(self, state: EncounterState, dice: Dice) -> Outcome:

        return new_round(self, state, dice)

    def start_turn(self, state: EncounterState, token_id: str, dice: Dice) -> Outcome:
        state, events = super().start_turn(state, token_id, dice)

        return on_turn_start(self, state, token_id, events, dice)

    def log(self, text: str, *tokens: str) -> Event:
        return Event(EventKind.ACTION, text, tokens)


def _halves_words(halves: int) -> str:
    if halves == 0:
        return "a free action"
    if halves == 1:
        return "1 half action"
    if halves == 2:
        return "1 full action (2 half actions)"
    return f"{counted(halves, 'half action')} (into the next round)"


def as_standard_attack(command: Command) -> Command:
    """A trick chosen as an action is the Standard Attack carrying it (``trick=`` its key):
    the table says a trick rides on a Standard Attack, so that is what it costs and does."""
    if command.action not in TRICKS:
        return command
    return replace(command, action="standard_attack").with_options(trick=command.action)


def _with_crossings(state: EncounterState, command: Command, preview: Preview) -> Preview:
    """A move's preview names the final attacks its path draws from suppressed squares, and
    the fluid Initiative it costs when terrain slows it."""
    path = preview.squares or command.squares
    if Need.PATH not in action_spec(command.action).needs or not path or command.actor is None:
        return preview
    mover = state.token(command.actor)
    if slowed_by_terrain(state, mover, tuple(path)) and state.combat.has(mover.id):
        preview = replace(preview, notes=(*preview.notes, terrain_note(mover)))
    overlay, notes = crossing_overlay(state, command.actor, tuple(path))
    if not notes:
        return preview
    # The shooters whose final attacks the move draws are among the tokens it acts on.
    threats = tuple(t for t in overlay.token_ids(Role.THREAT) if t not in preview.targets)
    drawn = _one_ring_each(preview.overlay.plus(overlay))
    return replace(preview, notes=(*preview.notes, *notes), overlay=drawn,
                   targets=(*preview.targets, *threats))


def _one_ring_each(overlay: Overlay) -> Overlay:
    """One ring per token, its first role kept and the notes joined: a Bull Rush's target
    may also be the shooter whose zone the approach crosses, a shooter may hold two zones."""
    rings: dict[str, OverlayToken] = {}
    for ring in overlay.tokens:
        kept = rings.get(ring.token_id)
        if kept is None:
            rings[ring.token_id] = ring
            continue
        note = "; ".join(n for n in (kept.note, ring.note) if n)
        rings[ring.token_id] = replace(kept, modifiers=(*kept.modifiers, *ring.modifiers),
                                       note=note)
    return replace(overlay, tokens=tuple(rings.values()))
