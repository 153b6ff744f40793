"""Every option every system declares can be entered from the desktop's forms: each
catalogue action's (own and shared) in the targeting panel, and start_combat's in the
start-combat dialog. The forms are built from the schema, so this holds for any system."""

from __future__ import annotations

from dataclasses import replace

import pytest

from desktop.dialogs.start_combat import StartCombatDialog
from desktop.docks.option_fields import set_field_value
from desktop.tools.action_tool import ActionTool
from engine.grid import Square
from engine.rules import get_system, system_names
from engine.rules.base import ListOf, MapOf, OptionSpec, OptionValue
from engine.rules.option_values import Ref
from tests.desktop.sample import sample_state
from tests.desktop.tools.conftest import TOOL_NOISE, make_window

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def a_value(option: OptionSpec) -> OptionValue:
    """A value the GM might enter that is not the default (the form must carry it)."""
    kind = option.kind
    if isinstance(kind, MapOf):
        word = str(option.choices[0]) if option.choices else "AS"
        return (("kara", Square(1, 1) if kind.value is Square else word),)
    if isinstance(kind, ListOf):
        if kind.item is Ref.SIDE:
            return ("party",)
        return (str(option.choices[0]),) if kind.item is Ref.TEXT else ("kara",)
    if option.choices:
        return next((c for c in reversed(option.choices) if c != option.default),
                    option.choices[-1])
    if option.kind is bool:
        return option.default is not True
    if option.kind is int:
        return 3 if option.default != 3 else 2
    if option.kind is float:
        return 2.5
    return "kara"


@pytest.mark.parametrize("name", system_names())
def test_every_option_of_every_action_has_a_field_that_carries_it(qtbot, tmp_path, name):  # type: ignore[no-untyped-def]
    system = get_system(name)
    state = replace(sample_state(), system=name, scale=system.scale)
    win = make_window(qtbot, tmp_path, state)
    panel = win.action_palette.targeting
    entered = 0
    for spec in system.catalogue:
        tool = ActionTool(win.host, "kara", spec)
        panel.follow(tool)
        offered = system.options_for(win.controller.state, "kara", spec.key)
        assert set(panel.fields) - {"weapon"} == {o.name for o in offered}, spec.key
        for option in offered:
            value = a_value(option)
            panel.set_field(option.name, value)
            assert tool.options.get(option.name) == value, (spec.key, option.name)
            entered += 1
        panel.follow(None)
    assert entered, f"{name} declares no option at all"


@pytest.mark.parametrize("name", system_names())
def test_every_start_combat_option_can_be_entered(qtbot, name):  # type: ignore[no-untyped-def]
    system = get_system(name)
    state = replace(sample_state(), system=name, scale=system.scale)
    dialog = StartCombatDialog(None, system, state)
    qtbot.addWidget(dialog)
    own = dialog.own_options()
    for option in system.options_of("start_combat"):
        if option.name in own:
            continue  # the dialog's own widgets (surprise round, dealt cards) fill it in
        value = a_value(option)
        set_field_value(dialog.option_fields[option.name], option.name, value)
        assert dict(dialog.command().options)[option.name] == value, option.name


def test_a_true_by_default_option_can_be_set_to_false(qtbot) -> None:  # type: ignore[no-untyped-def]
    from desktop.docks.option_fields import option_field

    seen: list[OptionValue | None] = []
    field = option_field(OptionSpec("loud", bool, default=True), None, seen.append, sample_state())
    qtbot.addWidget(field)
    set_field_value(field, "loud", False)
    assert seen == [False]


def test_the_cards_a_gm_may_type_are_the_systems(qtbot, monkeypatch):  # type: ignore[no-untyped-def]
    """A system that deals cards declares them as its cards option's choices; the dialog
    offers those, so a system with another deck needs no desktop edit."""
    from types import MappingProxyType

    dealer = next(get_system(n) for n in system_names()
                  if get_system(n).initiative_scheme.kind == "cards")
    short_deck = OptionSpec("cards", MapOf(str), ("X1", "X2"), label="Cards")
    monkeypatch.setattr(type(dealer), "engine_options",
                        MappingProxyType({"start_combat": (short_deck,)}))
    state = replace(sample_state(), system=dealer.name, scale=dealer.scale)
    dialog = StartCombatDialog(None, dealer, state)
    qtbot.addWidget(dialog)
    box = dialog.card_boxes["kara"]
    assert [box.itemData(i) for i in range(1, box.count())] == ["X1", "X2"]


def test_a_number_box_reaches_the_options_own_bounds(qtbot) -> None:  # type: ignore[no-untyped-def]
    from desktop.docks.option_fields import option_field

    seen: list[OptionValue | None] = []
    far = option_field(OptionSpec("sight_cap", float, minimum=0), None, seen.append,
                       sample_state())
    qtbot.addWidget(far)
    set_field_value(far, "sight_cap", 2500.0)  # a long street, beyond a 1,000 box
    set_field_value(far, "sight_cap", 0.0)  # its lowest value is a value, not "unset"
    few = option_field(OptionSpec("times", int, minimum=1, maximum=12), None, seen.append,
                       sample_state())
    qtbot.addWidget(few)
    set_field_value(few, "times", 12)
    set_field_value(few, "times", 40)  # beyond the option's maximum: the box stops there
    set_field_value(few, "times", None)  # back to the rules' default
    assert seen == [2500.0, 0.0, 12, None]


def test_a_choice_shows_the_systems_words_for_it(qtbot) -> None:  # type: ignore[no-untyped-def]
    """The surprise-round list and any option list show what the system says each choice
    means; the desktop holds no wording of a rule."""
    from desktop.docks.option_fields import option_field

    for name in system_names():
        system = get_system(name)
        if not system.surprise_round:
            continue
        state = replace(sample_state(), system=name, scale=system.scale)
        dialog = StartCombatDialog(None, system, state)
        qtbot.addWidget(dialog)
        spec = next(o for o in system.options_of("start_combat") if o.name == "awareness")
        shown = [dialog.awareness.itemText(i) for i in range(dialog.awareness.count())]
        assert shown == [spec.words_for(choice) for choice in spec.choices]
    spec = OptionSpec("pace", str, ("slow", "fast"), choice_words=("Crawl along", "Sprint"))
    field = option_field(spec, None, lambda _value: None, sample_state())
    qtbot.addWidget(field)
    assert [field.itemText(i) for i in range(field.count())][1:] == ["Crawl along", "Sprint"]


def test_a_choice_without_words_reads_as_words_not_as_a_key(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Spycraft's trick list showed 'called_shot' and 'cheap_shot', as the files spell
    them; a number stays a number."""
    from desktop.docks.option_fields import option_field

    spec = next(o for o in get_system("spycraft").options_of("standard_attack")
                if o.name == "trick")
    field = option_field(spec, None, lambda _value: None, sample_state())
    qtbot.addWidget(field)
    shown = [field.itemText(i) for i in range(field.count())][1:]
    assert "Called shot" in shown and "Cheap shot" in shown
    assert all("_" not in text for text in shown)
    assert field.itemData(shown.index("Called shot") + 1) == "called_shot"  # the value kept
    scale = OptionSpec("scale", int, (-2, 0, 2))
    assert [scale.words_for(c) for c in scale.choices] == ["-2", "0", "2"]


def test_choice_words_need_one_word_per_choice() -> None:
    with pytest.raises(ValueError, match="one word per choice"):
        OptionSpec("pace", str, ("slow", "fast"), choice_words=("Crawl along",))
