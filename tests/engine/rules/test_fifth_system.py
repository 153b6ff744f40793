"""A fifth rule system, written from the contract (engine/rules/base.py) alone, in this file.

"Tiny Skirmish": each turn a token may Move (a path up to its speed) and Shoot (one ranged
weapon at one opponent it can see: 1d20 + ``aim`` against ``guard``, a hit takes one of its
``hits``; at 0 it is out). It is registered by name, runs the whole conformance suite, and
plays a round in the desktop with no edit anywhere else. This is the worked example of
docs/ARCHITECTURE.md ("How to add a rule system").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from engine.rules import get_system, register_system, unregister_system
from engine.rules.base import (
    FIVE_FOOT,
    ActionCost,
    ActionEconomy,
    ActionHandler,
    ActionSpec,
    BadOptions,
    Command,
    Dice,
    EncounterState,
    Event,
    EventKind,
    InitiativeScheme,
    Need,
    OptionSpec,
    Outcome,
    Phase,
    Preview,
    RuleSystem,
    StatSpec,
    Token,
    are_opponents,
    path_cost_squares,
    target_overlay,
    token_line_of_sight,
    update_combatant,
)
from tests.engine.rules import test_conformance as conformance

NAME = "tiny-skirmish"


class TinySkirmish(RuleSystem):
    name = NAME
    title = "Tiny Skirmish"
    scale = FIVE_FOOT
    economy = ActionEconomy({"move": 1, "shoot": 1}, "Each turn: one Move and one Shoot.")
    initiative_scheme = InitiativeScheme("count", "1d20", "aim", "1d20 + Aim, high first.")
    catalogue = (
        ActionSpec("move", "Move", "movement", "move", "Walk a path up to your speed.",
                   needs=(Need.PATH,)),
        ActionSpec("shoot", "Shoot", "attack", "shoot", "1d20 + Aim against the target's "
                   "Guard; a hit takes one Hit.", needs=(Need.TARGET, Need.WEAPON),
                   options=(OptionSpec("steady", bool, default=False, label="Steady (+2)"),)),
    )
    stats = (
        StatSpec("aim", int, 0, -5, 10, label="Aim", help="Added to the Shoot roll."),
        StatSpec("guard", int, 10, 1, 30, label="Guard", help="What a Shoot roll must reach."),
        StatSpec("hits", int, 3, 0, 10, label="Hits", help="Hits left; at 0 the token is out."),
    )

    def __init__(self) -> None:
        self.handlers: dict[str, ActionHandler] = {"move": Move(), "shoot": Shoot(self)}

    # ---- shared pieces

    def _left(self, state: EncounterState, token_id: str, pool: str) -> int:
        if not state.combat.has(token_id):
            return 0
        return state.combat.combatant(token_id).budget.get(pool, 0)

    def _spend(self, state: EncounterState, token_id: str, pool: str) -> EncounterState:
        mine = state.combat.combatant(token_id)
        return update_combatant(state, replace(mine, budget={**mine.budget, pool: 0}))

    def _out(self, token: Token) -> bool:
        return self.stat(token, "hits") == 0

    # ---- the contract

    def legal_actions(self, state: EncounterState, token_id: str) -> tuple[ActionSpec, ...]:
        return tuple(spec for spec in self.catalogue
                     if not self._turn_reasons(state, Command(spec.key, token_id)))

    def example_commands(self, state: EncounterState, token_id: str) -> Iterator[Command]:
        token = state.token(token_id)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            square = (token.square.x + dx, token.square.y + dy)
            yield Command.build("move", token_id, squares=[square])
        for other in state.tokens:
            for weapon in token.weapons:
                yield Command.build("shoot", token_id, targets=[other.id], weapon=weapon.name)
                yield Command.build("shoot", token_id, targets=[other.id], weapon=weapon.name,
                                    steady=True)

    def _turn_reasons(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        if state.combat.active != actor.id:
            return [f"it is not {actor.name}'s turn"]
        if self._out(actor):
            return [f"{actor.name} is out"]
        if self._left(state, actor.id, command.action) < 1:
            return [f"{actor.name} has already used its {command.action} this turn"]
        return []

    def handler(self, key: str) -> ActionHandler:
        return self.handlers[key]

    def check_action(self, state: EncounterState, command: Command) -> list[str]:
        return self._turn_reasons(state, command) or self.handler(command.action).check(
            state, command)

    def describe_action(self, state: EncounterState, command: Command) -> Preview:
        return self.handler(command.action).describe(state, command)

    def resolve_action(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        state = self._spend(state, str(command.actor), command.action)
        return self.handler(command.action).resolve(state, command, dice)


class Move:
    """Walk a free path up to the token's speed: one of the contract's ActionHandlers."""

    key = "move"
    out_of_turn = False

    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        if not command.squares:
            return ["a Move needs a path"]
        for square in command.squares:
            other = state.token_at(square)
            if not state.battlemap.in_bounds(square) or (other and other.id != actor.id):
                return [f"{square} is not free"]
        cost = path_cost_squares((actor.square, *command.squares), state.scale.diagonal)
        if cost > state.scale.squares(actor.speed):
            return ["the path is longer than the token's speed"]
        return []

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(str(command.actor))
        return Preview(command, True, summary=f"{actor.name} moves.", cost="the move",
                       squares=command.squares)

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        moved = state.with_token(actor.moved_to(command.squares[-1]))
        return moved, (Event(EventKind.MOVE, f"{actor.name} moves.", (actor.id,)),)

    def cost(self, state: EncounterState, command: Command) -> ActionCost | None:
        return None  # the catalogue's time: the turn's one move


class Shoot:
    """1d20 + Aim (+2 steady) against the target's Guard; a hit takes one Hit."""

    key = "shoot"
    out_of_turn = False

    def __init__(self, system: RuleSystem) -> None:
        self.system = system

    def _aim(self, actor: Token, command: Command) -> int:
        return int(self.system.stat(actor, "aim") or 0) + (2 if command.option("steady") else 0)

    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        if len(command.targets) != 1 or command.weapon is None:
            return ["Shoot needs one target and a weapon"]
        try:
            target = state.token(command.targets[0])
            weapon = actor.weapon(command.weapon)
        except KeyError as error:
            return [str(error.args[0])]
        out = self.system.stat(target, "hits") == 0
        if weapon.melee or not are_opponents(actor.side, target.side) or out:
            return [f"{actor.name} cannot shoot {target.name} with the {weapon.name}"]
        if not token_line_of_sight(state.battlemap, actor, target):
            return [f"{actor.name} cannot see {target.name}"]
        return []

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(str(command.actor))
        return Preview(command, True, summary=f"{actor.name} shoots "
                       f"(1d20{self._aim(actor, command):+d}).", cost="the shot",
                       targets=command.targets, rolls=("1d20",),
                       overlay=target_overlay(actor.id, command.targets))

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        target = state.token(command.targets[0])
        aim = self._aim(actor, command)
        roll = dice.roll(f"1d20{aim:+d}", f"{actor.name} shoots {target.name}")
        if roll.total < int(self.system.stat(target, "guard") or 0):
            return state, (Event(EventKind.ATTACK, f"{actor.name} misses {target.name}.",
                                 (actor.id, target.id), roll),)
        hits = max(0, int(self.system.stat(target, "hits") or 0) - 1)
        state = state.with_token(replace(target, stats={**target.stats, "hits": hits}))
        return state, (Event(EventKind.DAMAGE, f"{actor.name} hits {target.name} ({hits} "
                             "hits left).", (actor.id, target.id), roll),)

    def cost(self, state: EncounterState, command: Command) -> ActionCost | None:
        return None  # the catalogue's time: the turn's one shot


SYSTEM = TinySkirmish()


@pytest.fixture(autouse=True, scope="module")
def registered() -> Iterator[None]:
    """Registered by name for this module's tests only: suites elsewhere that list every
    registered system keep their own expectations about the bundled four."""
    register_system(SYSTEM)
    yield
    unregister_system(NAME)


def test_it_is_found_by_name() -> None:
    assert get_system(NAME) is SYSTEM


def test_a_misspelt_option_is_refused_naming_it() -> None:
    with pytest.raises(BadOptions, match=r"unknown option 'steadyy'.*did you mean 'steady'"):
        SYSTEM.check_options(Command.build("shoot", "a1", targets=["e1"], steadyy=True))
    with pytest.raises(BadOptions, match="'steady' must be true or false"):
        SYSTEM.check_options(Command.build("shoot", "a1", targets=["e1"], steady=1))


# ---- the conformance suite, run for this system


def test_conformance_registration() -> None:
    conformance.test_system_is_registered_with_its_data(NAME)


def test_conformance_guided_play_applies_every_action_from_random_play_alone(
    tmp_path: Path,
) -> None:
    coverage = conformance.guided_play(NAME, tmp_path)
    assert coverage.from_play == set(coverage.catalogue) and coverage.from_setups == set()


def test_conformance_illegal_commands_are_refused() -> None:
    conformance.test_illegal_commands_are_refused_with_reasons(NAME)


def test_conformance_save_and_load_mid_fight(tmp_path: Path) -> None:
    conformance.test_save_and_load_mid_fight_give_the_same_state(NAME, tmp_path)


def test_conformance_property_undo_and_round_trip() -> None:
    conformance.test_property_undo_and_round_trip_hold_for_any_seed(NAME)


def test_conformance_every_part_of_a_played_state_refuses_to_change() -> None:
    conformance.test_every_part_of_a_played_state_refuses_to_change(NAME)


def test_conformance_every_catalogue_entry_has_a_handler() -> None:
    conformance.test_every_catalogue_entry_has_a_handler(NAME)


# ---- a round in the desktop


@pytest.mark.gui
@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints",
                           "This plugin does not support raise")
def test_a_round_in_the_desktop(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt

    from tests.desktop.test_main_window import drag
    from tests.desktop.tools.conftest import make_window

    state = conformance.small_encounter(NAME)
    win = make_window(qtbot, tmp_path, state)
    controller = win.controller
    assert controller.system is SYSTEM
    controller.apply(Command.build("gm_seed", seed=0))  # pinned: the same first turn every run
    qtbot.mouseClick(win.initiative.start_button, Qt.MouseButton.LeftButton)
    assert controller.state.combat.phase is Phase.ROUND
    active = controller.state.combat.active
    assert active is not None
    mover = controller.state.token(active)
    start = mover.square
    free = next(s for s in ((start.x + 1, start.y), (start.x - 1, start.y), (start.x, start.y + 1))
                if controller.state.battlemap.in_bounds(type(start)(*s))
                and controller.state.token_at(type(start)(*s)) is None)
    drag(qtbot, win, start, type(start)(*free))
    assert controller.state.token(active).square == type(start)(*free)
    foe = next(t for t in controller.state.tokens if are_opponents(mover.side, t.side))
    rifle = next(w for w in mover.weapons if not w.melee)
    tool = win.start_action(active, SYSTEM.action("shoot"), (foe.id,), rifle.name)
    before = len(controller.state.combat.log)
    assert tool.confirm(), tool.preview
    assert len(controller.state.combat.log) > before
    assert "shoots" in controller.state.combat.log[-1].text or any(
        foe.name in entry.text for entry in controller.state.combat.log[before:])
    # The round goes on: every combatant has its turn, then the next round begins.
    first_round = controller.state.combat.round
    everyone = {c.token_id for c in controller.state.combat.order}
    had_a_turn = {active}
    for _ in everyone:
        qtbot.mouseClick(win.initiative.next_button, Qt.MouseButton.LeftButton)
        if controller.state.combat.round != first_round:
            break
        assert controller.state.combat.active not in had_a_turn
        had_a_turn.add(str(controller.state.combat.active))
    assert controller.state.combat.round == first_round + 1
    assert had_a_turn == everyone


def test_each_action_has_a_handler_of_the_contract_s_protocol() -> None:
    for spec in SYSTEM.catalogue:
        handler = SYSTEM.handler(spec.key)
        assert isinstance(handler, ActionHandler) and handler.key == spec.key
