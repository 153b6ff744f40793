"""One conformance suite for every registered rule system (OpenSpiel's basic tests, for us).

For each name in ``system_names()``: seeded random legal play from a small encounter, with
invariants at every step (nothing mutable reachable from the state; undoing the step gives
back the serialised snapshot taken before it); undo back to the start gives the snapshot
taken before play; a save and load in the middle gives an equal state, and play continued
from the loaded copy matches play continued from the original.

The random play is coverage-guided: it starts from the system's play encounter
(``play_encounters.py``: the small encounter with the system's kit) and at each step tries
first, in random order, the legal commands of catalogue actions no seed has applied yet (and
their kit's lead-ins), then those this seed has not, then the rest; the GM may bring in one
reinforcement. Across the seeds it must apply every catalogue action (the failure names those
missed); each action's first application is also saved and loaded back. The positions of
``tests/engine/rules/legal_setups.py`` are then played on with the same checks for anything
still missing, which after random play is nothing.
"""

from __future__ import annotations

import json
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.files import EncounterFile, encounter_to_json, load_encounter, save_encounter
from engine.grid import Square
from engine.rules import get_system, system_names
from engine.rules.base import Command, CommandError, IllegalCommand
from engine.tokens import Side, Token, Weapon
from engine.turns.session import Encounter
from tests.engine.immutability import mutable_parts
from tests.engine.rules.legal_setups import legal_setup
from tests.engine.rules.overlay_checks import overlay_problems
from tests.engine.rules.play_encounters import lead_ins, play_encounter

SEEDS = (1, 2, 3, 4, 5)
STEPS = 60
#: Guided steps played on from a legal set-up, after its own command.
SETUP_STEPS = 8

SYSTEMS = system_names()
#: How many wanted or fresh commands a step previews at most before the rest.
KEEN_TRIES = 40
#: How often a step with nothing wanted or fresh to do ends the turn.
END_TURN_CHANCE = 0.3
#: Actions random play does not rush to once some seed has played them: a side that
#: surrenders at once ends every Stand Off before its first Resolve contest.
RELUCTANT = frozenset({"surrender"})


def small_encounter(system_name: str) -> EncounterState:
    system = get_system(system_name)
    rifle = Weapon(
        "rifle",
        "2d8",
        10.0 * system.scale.square_size,
        30,
        30,
        ("single-shot", "burst", "full auto"),
    )
    knife = Weapon("knife", "1d4", 0.0, melee=True)
    speed = 6 * system.scale.square_size
    tokens = (
        Token("a1", "Ann", Side.PARTY, Square(1, 1), speed=speed, weapons=(rifle, knife)),
        Token("a2", "Bob", Side.PARTY, Square(2, 4), speed=speed, weapons=(rifle,)),
        Token("e1", "Cal", Side.ENEMY, Square(7, 2), speed=speed, weapons=(rifle,)),
        Token("e2", "Dee", Side.ENEMY, Square(6, 6), speed=speed, weapons=(knife,)),
    )
    return EncounterState("Conformance", system_name, system.scale, BattleMap(10, 8), tokens)


def snapshot(state: EncounterState) -> str:
    """The state as the file format writes it, keys sorted: equal text, equal state."""
    return json.dumps(encounter_to_json(state), sort_keys=True)


#: Where the GM may put a newcomer mid-fight (the first free one).
ARRIVAL_SQUARES = (Square(9, 7), Square(0, 7), Square(9, 0), Square(0, 0))


def reinforcement(state: EncounterState) -> Command | None:
    """The GM puts one more enemy on the map mid-fight (once a game), as a GM does when
    reinforcements arrive: it must then come into the fight by the system's own rule."""
    if any(token.id == "r1" for token in state.tokens):
        return None
    square = next((s for s in ARRIVAL_SQUARES if state.token_at(s) is None), None)
    if square is None:
        return None
    scout = state.tokens[0]
    newcomer = Token("r1", "Rex", Side.ENEMY, square, speed=scout.speed, weapons=scout.weapons)
    return Command.build("add_token", token=newcomer)


def candidates(fight: Encounter, *, arrivals: bool = False) -> list[Command]:
    """End Turn and the active token's example commands; with ``arrivals``, the GM's
    reinforcement too."""
    active = fight.state.combat.active
    found: list[Command] = [Command("end_turn")]
    if active is not None:
        found.extend(fight.example_commands(active))
        arrival = reinforcement(fight.state) if arrivals else None
        if arrival is not None:
            found.append(arrival)
    return found


def catalogue_keys(fight: Encounter) -> set[str]:
    return {spec.key for spec in fight.system.catalogue}


def play_step(
    fight: Encounter,
    rng: random.Random,
    wanted: Collection[str] = frozenset(),
    first: Sequence[Command] = (),
    fresh: Collection[str] = frozenset(),
    arrivals: bool = False,
) -> Command:
    """Apply one random legal command, checking the preview/apply contract on the way.

    ``first`` commands are tried before any other, then those of the ``wanted`` actions (in
    random order), then those of the ``fresh`` ones, then the rest; ``arrivals`` lets the
    GM bring in a reinforcement."""
    options = candidates(fight, arrivals=arrivals)
    rng.shuffle(options)
    # A turn whose wanted and fresh actions are spent ends now and then, rather than after
    # a long run of free actions (delays, drops, steps) that only use up the game's steps.
    done = rng.random() < END_TURN_CHANCE
    # Stable: each tier stays in random order.
    options.sort(key=lambda command: (command.action not in wanted, command.action not in fresh,
                                      not (done and command.action == "end_turn")))
    # Each preview costs: a step tries a bounded random share of the wanted and fresh
    # commands before the rest (many are illegal until play brings their moment about).
    keen = [c for c in options if c.action in wanted or c.action in fresh]
    options = [*keen[:KEEN_TRIES], *options[len(keen):], *keen[KEEN_TRIES:]]
    snap = snapshot(fight.state)  # previews and the apply must leave this state as it is
    for command in (*first, *options):
        before = fight.state
        preview = fight.preview(command)
        assert fight.state == before, f"preview of {command.action} changed the state"
        assert preview.legal == (not preview.reasons)
        if not preview.legal:
            with pytest.raises(CommandError):
                fight.system.apply(before, command, fight.dice_for(None))
            continue
        if command.action in catalogue_keys(fight):
            assert overlay_problems(before, command, preview) == [], command
        fight.apply(command)
        after = fight.state
        assert fight.undo() == before and snapshot(fight.state) == snap, command
        assert fight.redo() == after, command
        return command
    raise AssertionError("no legal command at all (end_turn should always be legal)")


def check_invariants(state: EncounterState) -> None:
    mutable = list(mutable_parts(state))
    assert not mutable, f"mutable parts in the state: {mutable[:5]}"
    occupied: dict[Square, str] = {}
    for token in state.tokens:
        for square in token.squares:
            assert state.battlemap.in_bounds(square)
            assert square not in occupied
            occupied[square] = token.id
        for weapon in token.weapons:
            assert weapon.ammo >= 0
    combat = state.combat
    ids = [c.token_id for c in combat.order]
    assert len(ids) == len(set(ids))
    assert combat.active is None or combat.active in ids
    assert combat.rolls >= 0
    for combatant in combat.order:
        assert all(value >= 0 for value in combatant.budget.values()), combatant


@pytest.mark.parametrize("name", SYSTEMS)
def test_system_is_registered_with_its_data(name: str) -> None:
    system = get_system(name)
    assert system.name == name and system.title
    keys = [spec.key for spec in system.catalogue]
    assert len(keys) == len(set(keys)), "duplicate action keys"
    for spec in system.catalogue:
        assert spec.summary and spec.name, spec.key
    assert system.economy.pools


@dataclass
class Coverage:
    """The catalogue actions guided play applied: from the small encounter (across the
    seeds), and the rest from legal set-ups."""

    catalogue: frozenset[str]
    from_play: set[str] = field(default_factory=set)
    from_setups: set[str] = field(default_factory=set)

    def missing(self) -> set[str]:
        return set(self.catalogue) - self.from_play - self.from_setups


def _guided_step(fight: Encounter, rng: random.Random, coverage: Coverage, applied: set[str],
                 saves: Path, first: Sequence[Command] = (),
                 fresh: Collection[str] = frozenset()) -> str:
    """One guided step with the invariants; an action's first application is also saved and
    loaded back, which must give the same state. Returns the action applied."""
    missing = coverage.missing()
    wanted = missing | lead_ins(fight.state.system, missing)
    command = play_step(fight, rng, wanted, first, fresh, arrivals=True)
    check_invariants(fight.state)
    assert fight.log, "every command logs something"
    if command.action in missing:
        applied.add(command.action)
        path = saves / f"{command.action}.killbox"
        fight.save(path)
        loaded = Encounter.open(path).state
        assert loaded == fight.state and snapshot(loaded) == snapshot(fight.state), command
        # A FrozenMap equals the dict it copies: only the walk sees a loader's plain dict.
        check_invariants(loaded)
    return command.action


def guided_play(name: str, saves: Path) -> Coverage:
    """Coverage-guided random play: the seeds from the play encounter, then each action
    still missing from its legal set-up. Every game undoes to its snapshot before play.

    Each step tries first the actions no seed has applied, then those this seed has not
    (so that a seed also plays what leads to them: a grapple before breaking free)."""
    system = get_system(name)
    coverage = Coverage(frozenset(spec.key for spec in system.catalogue))
    for seed in SEEDS:
        fight = Encounter(play_encounter(small_encounter(name), seed), seed=seed)
        first = snapshot(fight.state)
        fight.apply(Command("start_combat"))
        rng = random.Random(seed)
        fresh = {*coverage.catalogue, "add_token"} - RELUCTANT
        for _ in range(STEPS):
            fresh.discard(_guided_step(fight, rng, coverage, coverage.from_play, saves,
                                       fresh=fresh))
        fight.undo_all()
        assert snapshot(fight.state) == first
    for spec in system.catalogue:
        if spec.key not in coverage.missing():
            continue  # a set-up played earlier got there on the way
        setup = legal_setup(name, spec.key)
        fight = Encounter(setup.state)
        first = snapshot(fight.state)
        rng = random.Random(setup.seed)
        _guided_step(fight, rng, coverage, coverage.from_setups, saves, (setup.command,))
        for _ in range(SETUP_STEPS):
            _guided_step(fight, rng, coverage, coverage.from_setups, saves)
        fight.undo_all()
        assert snapshot(fight.state) == first
    return coverage


@pytest.mark.parametrize("name", SYSTEMS)
def test_guided_play_keeps_invariants_undoes_and_applies_every_action(
    name: str, tmp_path: Path
) -> None:
    coverage = guided_play(name, tmp_path)
    assert coverage.missing() == set()
    missed = sorted(coverage.catalogue - coverage.from_play)
    assert not missed, f"{name}: random play across seeds {SEEDS} never applied {missed}"


@pytest.mark.parametrize("name", SYSTEMS)
def test_illegal_commands_are_refused_with_reasons(name: str) -> None:
    fight = Encounter(small_encounter(name), seed=9)
    with pytest.raises(IllegalCommand) as refused:
        fight.apply(Command("end_turn"))
    assert refused.value.reasons
    fight.apply(Command("start_combat"))
    assert not fight.preview(Command("start_combat")).legal


@pytest.mark.parametrize("name", SYSTEMS)
def test_save_and_load_mid_fight_give_the_same_state(name: str, tmp_path: Path) -> None:
    fight = Encounter(small_encounter(name), seed=21)
    fight.apply(Command("start_combat"))
    rng = random.Random(21)
    for _ in range(STEPS // 2):
        play_step(fight, rng)
    path = tmp_path / "mid.killbox"
    save_encounter(path, EncounterFile(fight.state))
    loaded = Encounter(load_encounter(path).state)
    assert loaded.state == fight.state and snapshot(loaded.state) == snapshot(fight.state)
    assert not list(mutable_parts(loaded.state))
    rng_a, rng_b = random.Random(5), random.Random(5)
    for _ in range(10):
        a = play_step(fight, rng_a)
        b = play_step(loaded, rng_b)
        assert a == b
    assert loaded.state == fight.state


@pytest.mark.parametrize("name", SYSTEMS)
def test_property_undo_and_round_trip_hold_for_any_seed(name: str) -> None:
    """Hypothesis picks the dice seed, the choice stream and where to cut for a save."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    from pydantic import TypeAdapter

    adapter = TypeAdapter(EncounterState)

    @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.integers(0, 2**31), st.integers(0, 2**31), st.integers(1, 25))
    def play(seed: int, choices: int, cut: int) -> None:
        fight = Encounter(small_encounter(name), seed=seed)
        first = snapshot(fight.state)
        fight.apply(Command("start_combat"))
        rng = random.Random(choices)
        for step in range(25):
            play_step(fight, rng)
            if step == cut:
                assert adapter.validate_json(adapter.dump_json(fight.state)) == fight.state
        fight.undo_all()
        assert snapshot(fight.state) == first

    play()


# --------------------------------------------------------------------------- immutability


def played(name: str, steps: int = STEPS, seed: int = 3) -> Encounter:
    fight = Encounter(small_encounter(name), seed=seed)
    fight.apply(Command("start_combat"))
    rng = random.Random(seed)
    for _ in range(steps):
        play_step(fight, rng)
    return fight


@pytest.mark.parametrize("name", SYSTEMS)
def test_every_part_of_a_played_state_refuses_to_change(name: str) -> None:
    from dataclasses import FrozenInstanceError, fields, is_dataclass

    from tests.engine.immutability import frozen_maps

    state = played(name).state
    assert not list(mutable_parts(state))
    maps = list(frozen_maps(state))
    assert len(maps) >= len(state.tokens) + 2 * len(state.combat.order) + 1
    for mapping in maps:
        with pytest.raises(TypeError):
            mapping["changed"] = 1  # type: ignore[index]
    parts: list[object] = [state, state.battlemap, state.combat, *state.tokens,
                           *state.combat.order, *state.combat.pending, *state.combat.log]
    for part in parts:
        assert is_dataclass(part)
        with pytest.raises(FrozenInstanceError):
            setattr(part, fields(part)[0].name, None)


def _in_place_set_data(state: EncounterState, token_id: str, **changes: object) -> EncounterState:
    """The old bug class: a helper that writes into the combatant it was given."""
    for key, value in changes.items():
        state.combat.combatant(token_id).data[key] = value  # type: ignore[index]
    return state


def _in_place_set_stat(state: EncounterState, token_id: str, **changes: object) -> EncounterState:
    for key, value in changes.items():
        state.token(token_id).stats[key] = value  # type: ignore[index]
    return state


def _in_place_with_stats(token: Token, **changes: object) -> Token:
    for key, value in changes.items():
        token.stats[key] = value  # type: ignore[index]
    return token


@pytest.mark.parametrize("name", SYSTEMS)
def test_a_helper_that_changes_the_state_in_place_now_fails_loudly(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the helpers that write a token's stats or a combatant's data swapped for versions
    that write in place (as the bug did), play raises at the first write instead of quietly
    rewriting the undo history; the states already on it keep their snapshots."""
    from engine.rules import common
    from engine.rules.spycraft import board

    monkeypatch.setattr(common, "set_data", _in_place_set_data)
    monkeypatch.setattr(common, "set_stat", _in_place_set_stat)
    monkeypatch.setattr(board, "set_data", _in_place_set_data)
    monkeypatch.setattr(board, "with_stats", _in_place_with_stats)
    fight = Encounter(small_encounter(name), seed=3)
    first = snapshot(fight.state)
    rng = random.Random(3)
    with pytest.raises(TypeError, match="does not support item assignment"):
        fight.apply(Command("start_combat"))
        for _ in range(STEPS):
            play_step(fight, rng)
    fight.undo_all()
    assert snapshot(fight.state) == first


# --------------------------------------------------------------------------- every action


@pytest.mark.parametrize("name", SYSTEMS)
def test_every_catalogue_entry_has_a_handler(name: str) -> None:
    system = get_system(name)
    for spec in system.catalogue:
        handler = system.handler(spec.key)  # type: ignore[attr-defined]
        assert handler.key == spec.key
        for part in ("check", "describe", "resolve"):
            assert callable(getattr(handler, part)), (spec.key, part)
