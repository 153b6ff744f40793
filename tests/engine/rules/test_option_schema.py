"""Every catalogue action of every system declares the options its handler reads, and the
one legality check refuses any other option, or a value of the wrong type, naming it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from engine.rules import get_system, system_names
from engine.rules.base import BadOptions, Command, OptionSpec, OptionValue
from engine.turns.session import Encounter
from tests.engine.rules.legal_setups import close_quarters, every_action, legal_setup

CASES = every_action()

#: Options a system's shared helpers look at on every command, though only the actions
#: that declare them can carry them: Spycraft's Standard Attack helpers look for a
#: ``trick`` (which the system itself adds when a trick rides on the attack) and its
#: weapon check for ``mode`` (Draw/Holster's pick_up). A command naming either for any
#: other action is refused by the option check before any helper runs.
READ_BY_SHARED_HELPERS = {"spycraft": {"trick", "mode"}}


@contextmanager
def options_read(command: Command) -> Iterator[set[str]]:
    """The option names read from ``command`` (an equal command) while the block runs."""
    read: set[str] = set()
    original = Command.value_of

    def spy(self: Command, name: str, default: OptionValue | None = None) -> OptionValue | None:
        if self == command:
            read.add(name)
        return original(self, name, default)

    Command.value_of = spy  # type: ignore[method-assign]
    try:
        yield read
    finally:
        Command.value_of = original  # type: ignore[method-assign]


@pytest.mark.parametrize(("system", "action"), CASES, ids=[f"{s}-{a}" for s, a in CASES])
def test_every_option_the_action_reads_is_declared(system: str, action: str) -> None:
    setup = legal_setup(system, action)
    rules = get_system(system)
    declared = {option.name for option in rules.options_of(action)}
    rules.check_options(setup.command)  # the set-up's own options are declared ones
    fight = Encounter(setup.state)
    with options_read(setup.command) as read:
        assert fight.preview(setup.command).legal
        fight.apply(setup.command)
    undeclared = read - declared - READ_BY_SHARED_HELPERS.get(system, set())
    assert not undeclared, f"{action} reads undeclared options {sorted(undeclared)}"


@pytest.mark.parametrize(("system", "action"), CASES, ids=[f"{s}-{a}" for s, a in CASES])
def test_a_misspelt_option_is_refused_by_name(system: str, action: str) -> None:
    setup = legal_setup(system, action)
    fight = Encounter(setup.state)
    wrong = setup.command.with_options(incidentall=True)
    with pytest.raises(BadOptions, match=r"unknown option 'incidentall'"):
        fight.preview(wrong)
    with pytest.raises(BadOptions, match=r"unknown option 'incidentall'"):
        fight.apply(wrong)
    assert fight.state == setup.state


def _wrong_value(option: OptionSpec) -> OptionValue:
    """A value of another type than the option's."""
    return "yes" if option.kind in (bool, int, float) else 3


DECLARED = [
    (name, key, option.name)
    for name in system_names()
    for key in (*(spec.key for spec in get_system(name).catalogue), "start_combat")
    for option in get_system(name).options_of(key)
]


@pytest.mark.parametrize(("system", "action", "option"), DECLARED,
                         ids=[f"{s}-{a}-{o}" for s, a, o in DECLARED])
def test_a_wrong_typed_option_is_refused_by_name(system: str, action: str, option: str) -> None:
    rules = get_system(system)
    spec = next(o for o in rules.options_of(action) if o.name == option)
    command = Command.build(action, "a1", **{option: _wrong_value(spec)})
    with pytest.raises(BadOptions, match=rf"option '{option}' must be"):
        rules.check_options(command)


@pytest.mark.parametrize(("system", "action", "option"), DECLARED,
                         ids=[f"{s}-{a}-{o}" for s, a, o in DECLARED])
def test_each_declared_option_has_a_label_and_a_fitting_default(
    system: str, action: str, option: str
) -> None:
    spec = next(o for o in get_system(system).options_of(action) if o.name == option)
    assert spec.label, f"{action}: option {option} has no label for the form"
    if spec.default is not None:
        assert spec.problem(spec.default) is None, (spec, spec.problem(spec.default))


def test_a_required_option_left_out_is_a_reason_naming_it() -> None:
    setup = legal_setup("spycraft", "fluid_event")
    fight = Encounter(setup.state)
    bare = Command("fluid_event", setup.command.actor)
    preview = fight.preview(bare)
    assert not preview.legal
    assert preview.reasons == ("option event= is required (Event)",)


@pytest.mark.parametrize("name", system_names())
def test_every_system_refuses_a_misspelt_option_of_an_engine_action(name: str) -> None:
    fight = Encounter(close_quarters(name))
    with pytest.raises(BadOptions, match="unknown option 'sead'"):
        fight.preview(Command.build("start_combat", sead=3))
    with pytest.raises(BadOptions, match="unknown option 'colur'"):
        fight.preview(Command.build("add_light", at=(1, 1), colur="#ff0000"))
