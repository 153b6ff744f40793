"""The GM's hand on everything: damage, healing, conditions, ammunition, counts and budgets.

At a real table the GM overrules the rules all the time ("he takes 6", "she's no longer
Shaken", "you reloaded last turn"). Each override is an engine command like any action:
checked, previewed, logged in plain words and undone with the rest of the history. What a
number means (vitality before wounds, damage against Toughness, hit points) is the rule
system's business: damage and healing go to :meth:`RuleSystem.take_damage` and
:meth:`RuleSystem.heal` in the system's own package.

Every override names its token as the command's one target; options carry the rest:

- ``gm_damage`` / ``gm_heal``: ``amount`` (a whole number, 1 or more);
- ``gm_condition``: ``condition`` (its name) and ``present`` (True adds, False removes);
  what an added condition brings along is the system's :meth:`RuleSystem.give_condition`;
- ``gm_ammo``: the command's ``weapon`` and ``ammo`` (0..the weapon's capacity);
- ``gm_stat``: ``stat`` and ``value`` (a whole number: wounds, fatigue, hit points...);
- ``gm_initiative``: ``value``, the new count (the order is sorted again);
- ``gm_budget``: ``pool`` and ``value``, what is left of that pool this round;
- ``gm_card``: ``card``, the code of the card to hand over instead of the dealt one, for a
  system that deals initiative cards (:meth:`RuleSystem.card_choices` lists them);
- ``gm_knock_out`` / ``gm_revive``: the system's out-of-the-fight condition on or off;
- ``gm_leave_order``: the token leaves the turn order (a dead one the GM is done with) and
  stays on the map; not the acting token (its turn must end first).

``gm_seed`` names no token: it sets the encounter's dice seed (option ``seed``) and pins it,
so every roll from there on follows it and a replay rolls the same. ``fresh=True`` says the
app drew it at random for a new fight (its log line says so).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.encounter import EncounterState
from engine.events import Event, EventKind
from engine.rules.base import (
    GM_COMMANDS,
    ActionSpec,
    Command,
    Need,
    OptionSpec,
    Outcome,
    Preview,
    RuleSystem,
)
from engine.tokens import Condition, Token
from engine.turns import order as turn_order
from engine.words import counted


def _specs() -> tuple[ActionSpec, ...]:
    def gm(key: str, name: str, summary: str, *options: OptionSpec) -> ActionSpec:
        return ActionSpec(key, name, "gm", "-", summary, needs=(Need.TARGET,), options=options)

    def whole(name: str, label: str) -> OptionSpec:
        return OptionSpec(name, int, required=True, label=label)

    return (
        gm("gm_damage", "Apply Damage", "The GM deals damage by hand (option amount=).",
           whole("amount", "Damage")),
        gm("gm_heal", "Heal", "The GM heals by hand (option amount=).", whole("amount", "Healing")),
        gm(
            "gm_condition",
            "Add or Remove a Condition",
            "The GM puts a condition on a token or takes it off (options condition=, present=).",
            OptionSpec("condition", str, required=True, label="Condition"),
            OptionSpec("present", bool, default=True, label="On (untick to remove)"),
        ),
        gm("gm_ammo", "Set Ammunition", "The GM sets a weapon's rounds (weapon, option ammo=).",
           whole("ammo", "Rounds")),
        gm("gm_stat", "Change a Count", "The GM sets a stat (options stat=, value=).",
           OptionSpec("stat", str, required=True, label="Stat"), whole("value", "Value")),
        gm("gm_initiative", "Change Initiative", "The GM sets a token's count (option value=).",
           whole("value", "Initiative")),
        gm("gm_budget", "Change Actions Left", "The GM sets what a pool has left (pool=, value=).",
           OptionSpec("pool", str, required=True, label="Pool"), whole("value", "Left")),
        gm("gm_card", "Change the Card", "The GM swaps a dealt card for another (card= code).",
           OptionSpec("card", str, label="Card (code)")),
        gm("gm_knock_out", "Knock Out", "The GM takes a token out of the fight."),
        gm("gm_revive", "Revive", "The GM brings a downed token back into the fight."),
        gm("gm_leave_order", "Take Out of the Order",
           "The GM takes a token out of the turn order; it stays on the map."),
        ActionSpec(
            "gm_seed", "Set the Dice Seed", "gm", "-", "The GM pins the dice seed (seed=).",
            options=(OptionSpec("seed", int, required=True, label="Seed", minimum=0,
                                maximum=2**63),
                     OptionSpec("fresh", bool, default=False, label="Drawn for a new fight")),
        ),
    )


GM_ACTION_KEYS = frozenset(
    (
        "gm_damage",
        "gm_heal",
        "gm_condition",
        "gm_ammo",
        "gm_stat",
        "gm_initiative",
        "gm_budget",
        "gm_card",
        "gm_knock_out",
        "gm_revive",
        "gm_leave_order",
        "gm_seed",
    )
)
#: The combat data key that says the seed was chosen (drawn for this fight or pinned).
SEED_PINNED = "seed_pinned"


def seed_pinned(state: EncounterState) -> bool:
    return bool(state.combat.data.get(SEED_PINNED, False))
_SPECS = _specs()


def specs() -> tuple[ActionSpec, ...]:
    """The overrides' catalogue entries."""
    return _SPECS


# --------------------------------------------------------------------------- checking


def _number(command: Command, name: str) -> int:
    value = command.option(name, 0)
    return value if isinstance(value, int) else 0


def _whole(command: Command, name: str, minimum: int | None = None) -> tuple[int, list[str]]:
    value = command.option(name)
    if isinstance(value, bool) or not isinstance(value, int):
        return 0, [f"option {name}= must be a whole number, not {value!r}"]
    if minimum is not None and value < minimum:
        return value, [f"option {name}= must be {minimum} or more, not {value}"]
    return value, []


def check(system: RuleSystem, state: EncounterState, command: Command) -> list[str]:
    """Every reason the override cannot be applied (empty: it can)."""
    if command.action == "gm_seed":
        return _whole(command, "seed", 0)[1]
    target = command.target
    token = next((t for t in state.tokens if t.id == target), None)
    if token is None or len(command.targets) != 1:
        return ["say which one token (targets=[id])"]
    key = command.action
    if key in ("gm_damage", "gm_heal"):
        return _whole(command, "amount", 1)[1]
    if key == "gm_condition":
        name = command.option("condition")
        present = command.option("present", True)
        if not isinstance(name, str) or not name.strip():
            return ["option condition= must name the condition"]
        if not isinstance(present, bool):
            return ["option present= must be true or false"]
        if not present and not token.has_condition(name):
            return [f"{token.name} is not {name}"]
        return []
    if key == "gm_ammo":
        return _check_ammo(token, command)
    if key == "gm_stat":
        stat = command.option("stat")
        if not isinstance(stat, str) or not stat:
            return ["option stat= must name the stat"]
        value, reasons = _whole(command, "value")
        if reasons:
            return reasons
        try:  # the system's declared stat block says what the stat may hold
            problem = system.stat_spec(stat).problem(value)
        except KeyError as error:
            return [str(error.args[0])]
        return [f"{stat} {problem}"] if problem else []
    if key == "gm_card":
        return _check_card(system, state, token, command)
    if key in ("gm_initiative", "gm_budget"):
        if not state.combat.has(token.id):
            return [f"{token.name} is not in the initiative order"]
        reasons = _whole(command, "value", 0 if key == "gm_budget" else None)[1]
        if key == "gm_budget":
            pool = command.option("pool")
            pools = state.combat.combatant(token.id).budget
            if pool not in pools:
                reasons.append(f"pool= must be one of {', '.join(pools) or 'none'}, not {pool!r}")
        return reasons
    if key == "gm_leave_order":
        if not state.combat.has(token.id):
            return [f"{token.name} is not in the initiative order"]
        if state.combat.active == token.id:
            return [f"it is {token.name}'s turn: end it first"]
        return []
    down = system.down_condition
    if not down:
        return [f"{system.title} has no out-of-the-fight condition"]
    mark = system.down_mark(token)
    if key == "gm_knock_out" and mark:
        return [f"{token.name} is already {mark}"]
    if key == "gm_revive" and not mark:
        return [f"{token.name} is not {down}"]
    return []


def _check_card(
    system: RuleSystem, state: EncounterState, token: Token, command: Command
) -> list[str]:
    if not state.combat.has(token.id):
        return [f"{token.name} is not in the initiative order"]
    choices = dict(system.card_choices(state, token.id))
    if not choices:
        return [f"{system.title} deals no cards"]
    card = command.option("card")
    if not isinstance(card, str) or card.strip().upper() not in choices:
        return [f"card= must be a card nobody holds (such as {next(iter(choices))}), not {card!r}"]
    return []


def _check_ammo(token: Token, command: Command) -> list[str]:
    if command.weapon is None:
        return ["say which weapon (weapon=)"]
    try:
        weapon = token.weapon(command.weapon)
    except KeyError as error:
        return [str(error.args[0])]
    ammo, reasons = _whole(command, "ammo", 0)
    if not reasons and not weapon.uses_ammunition:
        reasons.append(f"{weapon.name} uses no ammunition")
    elif not reasons and ammo > weapon.capacity:
        most = counted(weapon.capacity, "round")
        reasons.append(f"{weapon.name} holds at most {most}, not {ammo}")
    return reasons


# --------------------------------------------------------------------------- describing


def summary(state: EncounterState, command: Command) -> str:
    """What the override would do, in words (only called on a legal command)."""
    if command.action == "gm_seed":
        if command.option("fresh", False):
            return f"Fresh dice for this fight (seed {command.option('seed')})."
        return f"GM pins the dice seed to {command.option('seed')}."
    name = state.token(str(command.target)).name
    option = command.option
    key = command.action
    texts: dict[str, Callable[[], str]] = {
        "gm_damage": lambda: f"GM deals {option('amount')} damage to {name}.",
        "gm_heal": lambda: f"GM heals {name} by {option('amount')}.",
        "gm_condition": lambda: (
            f"GM makes {name} {option('condition')}."
            if option("present", True)
            else f"GM ends {name}'s {option('condition')}."
        ),
        "gm_ammo": lambda: f"GM sets {name}'s {command.weapon} to "
                           f"{counted(int(option('ammo') or 0), 'round')}.",
        "gm_stat": lambda: f"GM sets {name}'s {option('stat')} to {option('value')}.",
        "gm_initiative": lambda: f"GM sets {name}'s initiative to {option('value')}.",
        "gm_budget": lambda: f"GM sets {name}'s {option('pool')} left to {option('value')}.",
        "gm_card": lambda: f"GM gives {name} another card ({option('card')}).",
        "gm_knock_out": lambda: f"GM knocks {name} out of the fight.",
        "gm_revive": lambda: f"GM brings {name} back into the fight.",
        "gm_leave_order": lambda: f"GM takes {name} out of the turn order.",
    }
    return texts[key]()


def describe(system: RuleSystem, state: EncounterState, command: Command) -> Preview:
    known = command.action == "gm_seed" or command.target in {t.id for t in state.tokens}
    text = summary(state, command) if known else ""
    return Preview(command, True, summary=text, targets=command.targets)


# --------------------------------------------------------------------------- applying


def apply(system: RuleSystem, state: EncounterState, command: Command) -> Outcome:
    """Carry out a checked override; the first event says in words what the GM did."""
    if command.action == "gm_seed":
        data = {**state.combat.data, SEED_PINNED: True}
        combat = replace(state.combat, seed=_number(command, "seed"), data=data)
        return replace(state, combat=combat), (Event(EventKind.NOTE, summary(state, command)),)
    token = state.token(str(command.target))
    said = Event(EventKind.NOTE, summary(state, command), (token.id,))
    key = command.action
    if key == "gm_damage":
        state, events = system.take_damage(state, token.id, _number(command, "amount"))
        return state, (said, *events)
    if key == "gm_heal":
        state, events = system.heal(state, token.id, _number(command, "amount"))
        return state, (said, *events)
    if key == "gm_card":
        state, events = system.set_card(state, token.id, str(command.option("card")).upper())
        return state, (said, *events)
    if key == "gm_knock_out":
        return _set_condition(state, token, system.down_condition, True), (said,)
    if key == "gm_leave_order":
        order = tuple(c for c in state.combat.order if c.token_id != token.id)
        pending = tuple(p for p in state.combat.pending if p.token_id != token.id)
        return replace(state, combat=replace(state.combat, order=order, pending=pending)), (said,)
    if key == "gm_revive":
        for mark in system.down_conditions:
            state = _set_condition(state, state.token(token.id), mark, False)
        state, events = system.revive(state, token.id)
        return state, (said, *events)
    if key == "gm_condition":
        name = str(command.option("condition")).strip()
        if not command.option("present", True):
            return _set_condition(state, token, name, False), (said,)
        # The system gives the condition with what its rule brings along.
        state, events = system.give_condition(state, token.id, name)
        return state, (said, *events)
    if key == "gm_ammo":
        weapons = tuple(
            w.with_ammo(_number(command, "ammo")) if w.name == command.weapon else w
            for w in token.weapons
        )
        return state.with_token(replace(token, weapons=weapons)), (said,)
    value = _number(command, "value")
    if key == "gm_stat":
        stats = {**token.stats, str(command.option("stat")): value}
        return state.with_token(replace(token, stats=stats)), (said,)
    combatant = state.combat.combatant(token.id)
    if key == "gm_initiative":
        state = turn_order.update(state, replace(combatant, initiative=value))
        order = turn_order.sort(state.combat.order)
        return replace(state, combat=replace(state.combat, order=order)), (said,)
    budget = {**combatant.budget, str(command.option("pool")): value}
    return turn_order.update(state, replace(combatant, budget=budget)), (said,)


def _set_condition(state: EncounterState, token: Token, name: str, present: bool) -> EncounterState:
    kept = tuple(c for c in token.conditions if c.name != name)
    conditions = (*kept, Condition(name, source="GM")) if present else kept
    return state.with_token(replace(token, conditions=conditions))


class _Override:
    """One override as a GM command (engine.rules.base.GM_COMMANDS): the module's functions."""

    def __init__(self, spec: ActionSpec) -> None:
        self._spec = spec

    @property
    def spec(self) -> ActionSpec:
        return self._spec

    def check(self, system: RuleSystem, state: EncounterState, command: Command) -> list[str]:
        return check(system, state, command)

    def describe(self, system: RuleSystem, state: EncounterState, command: Command) -> Preview:
        return describe(system, state, command)

    def apply(self, system: RuleSystem, state: EncounterState, command: Command) -> Outcome:
        return apply(system, state, command)


for _spec in _SPECS:
    GM_COMMANDS[_spec.key] = _Override(_spec)
