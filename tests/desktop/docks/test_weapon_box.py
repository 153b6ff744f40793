"""The action card shows a weapon box only where the engine asks for a weapon, names the
rules' own pick where the engine says they pick one, and a number option left to the
rules shows the rules' value."""

from __future__ import annotations

from dataclasses import replace

import pytest

from desktop.dialogs.start_combat import StartCombatDialog
from engine.rules import get_system
from engine.rules.d20_firearms.economy import DEFAULT_ACTIONS_PER_ROUND
from engine.tokens import Weapon
from tests.desktop.sample import sample_state
from tests.desktop.tools.conftest import TOOL_NOISE, make_window
from tests.engine.rules.legal_setups import legal_setup

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def test_treat_injury_shows_no_weapon_box(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """d20 Treat Injury takes no weapon: the card showed "Weapon —" for it."""
    setup = legal_setup("d20-firearms", "treat_injury")
    win = make_window(qtbot, tmp_path, setup.state)
    actor = str(setup.command.actor)
    assert win.controller.state.token(actor).weapons  # a box would have had entries
    win.start_action(actor, win.controller.system.action("treat_injury"), setup.command.targets)
    assert "weapon" not in win.action_palette.targeting.fields


@pytest.mark.parametrize(("system", "action"), [
    ("cities-without-number", "melee_attack"),
    ("cities-without-number", "charge"),
    ("d20-firearms", "charge"),
])
def test_a_gun_only_tokens_melee_starts_with_the_rules_pick(
    qtbot, tmp_path, system: str, action: str  # type: ignore[no-untyped-def]
) -> None:
    """The box names the rules' pick (Unarmed) and the action starts with it, allowed: it
    must not start with the token's only weapon, the gun, and be refused."""
    setup = legal_setup(system, action)
    actor = str(setup.command.actor)
    token = setup.state.token(actor)
    guns = tuple(w for w in token.weapons if not w.melee)
    state = setup.state.with_token(replace(token, weapons=guns))
    win = make_window(qtbot, tmp_path, state)
    tool = win.start_action(actor, win.controller.system.action(action), setup.command.targets)
    box = win.action_palette.targeting.fields["weapon"]
    assert box.currentText() == "Unarmed (the rules' pick)"
    assert box.currentData() is None and tool.weapon is None
    assert tool.ready, tool.preview.reasons if tool.preview else None


def test_actions_per_round_shows_the_rules_value(qtbot) -> None:  # type: ignore[no-untyped-def]
    """d20's start-combat "Actions per round" read "—"; it shows the rules' value and the
    command still leaves it to the rules until the GM changes it."""
    system = get_system("d20-firearms")
    state = replace(sample_state(), system=system.name, scale=system.scale)
    dialog = StartCombatDialog(None, system, state)
    qtbot.addWidget(dialog)
    field = dialog.option_fields["actions_per_round"]
    assert field.text() == str(DEFAULT_ACTIONS_PER_ROUND)  # type: ignore[attr-defined]
    assert "actions_per_round" not in dict(dialog.command().options)


def _greyed(box) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The weapon box's greyed entries, each with its tooltip."""
    model = box.model()
    return {box.itemData(row): model.item(row).toolTip() for row in range(box.count())
            if not model.item(row).isEnabled()}


@pytest.mark.parametrize(("system", "action"), [
    ("cities-without-number", "charge"), ("d20-firearms", "charge"),
])
def test_a_charge_greys_the_guns_with_the_engines_reason(
    qtbot, tmp_path, system: str, action: str  # type: ignore[no-untyped-def]
) -> None:
    """The box under the rules' pick (Unarmed) still offered the gun, which the engine
    refuses for a Charge: it is greyed, its tooltip the engine's reason."""
    setup = legal_setup(system, action)
    actor = str(setup.command.actor)
    win = make_window(qtbot, tmp_path, setup.state)
    win.start_action(actor, win.controller.system.action(action), setup.command.targets)
    box = win.action_palette.targeting.fields["weapon"]
    guns = [w.name for w in setup.state.token(actor).weapons if not w.melee]
    assert guns
    greyed = _greyed(box)
    for gun in guns:
        assert "melee" in greyed.get(gun, ""), (gun, greyed)
    assert None not in greyed  # the rules' own pick stays


def test_autofire_greys_the_knife_before_a_target_is_picked(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Spycraft's Autofire listed the combat knife beside the submachine gun: refused on
    each of the engine's own example picks, it is greyed before the GM picks a target."""
    setup = legal_setup("spycraft", "autofire")
    actor = str(setup.command.actor)
    token = setup.state.token(actor)
    knife = Weapon("Combat knife", "1d4", melee=True)
    state = setup.state.with_token(replace(token, weapons=(*token.weapons, knife)))
    win = make_window(qtbot, tmp_path, state)
    tool = win.start_action(actor, win.controller.system.action("autofire"))
    assert not tool.targets
    box = win.action_palette.targeting.fields["weapon"]
    greyed = _greyed(box)
    assert "Combat knife" in greyed and greyed["Combat knife"].startswith("Refused: ")
    assert str(setup.command.weapon) not in greyed
