"""What the acting token may do to another token, or at a square, now: the entries of a
token's menu and of a square's.

One entry per catalogue action that takes a target, and per weapon for those that use one
("Standard Attack with the SMG"). The engine's preview of the command (actor, that target,
that weapon) says whether it is allowed and why not; an action that needs more picks than
the target (a path, squares, options) is offered when the engine lists it as legal for the
actor now, and its targeting mode previews the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

from desktop.controller import EncounterController
from desktop.tools.action_tool import MAP_NEEDS, ActionTool
from desktop.tools.base import ToolHost
from engine.grid import Square
from engine.rules.base import ActionSpec, Command, CommandError, Need, RuleSystem
from engine.tokens import are_opponents

#: Characters of a reason shown in the menu itself (the whole reason is the tooltip).
SHORT_REASON = 60


@dataclass(frozen=True)
class Offer:
    spec: ActionSpec
    weapon: str | None
    allowed: bool
    reason: str = ""

    @property
    def label(self) -> str:
        return f"{self.spec.name} with the {self.weapon}" if self.weapon else self.spec.name

    @property
    def short_reason(self) -> str:
        if len(self.reason) <= SHORT_REASON:
            return self.reason
        return self.reason[: SHORT_REASON - 1].rstrip() + "…"


def target_offers(controller: EncounterController, actor: str, target: str) -> list[Offer]:
    """Every targeted action of ``actor`` against ``target``, allowed ones first; among
    them, on an opponent the attacks come first, on anyone else the help (Treat Injury,
    Screen an Ally: the engine marks them) before the attacks, which a GM scanning an
    ally's menu rarely wants (they came first, in the catalogue's order)."""
    state = controller.state
    try:
        legal = {spec.key for spec in controller.session.legal_actions(actor)}
    except CommandError:
        legal = set()
    weapons = [w.name for w in state.token(actor).weapons]
    offers: list[Offer] = []
    for spec in controller.system.catalogue:
        if not ({Need.TARGET, Need.TARGETS} & set(spec.needs)):
            continue
        more = [n for n in spec.needs if n in MAP_NEEDS and n not in (Need.TARGET, Need.TARGETS)]
        choices: list[str | None] = list(weapons) if Need.WEAPON in spec.needs else [None]
        ruled = controller.system.rules_weapon(state, Command(spec.key, actor, (target,)))
        if ruled is not None and ruled not in weapons:
            choices.insert(0, None)  # the rules' own pick (Unarmed) is not a carried weapon
        for weapon in choices or [None]:
            command = Command(spec.key, actor, (target,), weapon=weapon)
            try:
                preview = controller.preview(command)
                reasons = preview.reasons
            except CommandError as error:
                reasons = (str(error),)
            if (more or _requires_options(controller.system, spec)) and spec.key in legal:
                allowed, reason = True, ""  # its targeting mode picks the rest
            else:
                allowed, reason = not reasons, "; ".join(reasons)
            offers.append(Offer(spec, weapon, allowed, reason))
    foe = are_opponents(state.token(actor).side, state.token(target).side)
    return sorted(offers, key=lambda o: (not o.allowed, o.spec.helps == foe))


def _requires_options(system: RuleSystem, spec: ActionSpec) -> bool:
    return any(o.required for o in system.options_of(spec.key))


def turn_offers(controller: EncounterController, token_id: str) -> list[ActionSpec]:
    """What the acting token may do now that aims at no other token (Total Defense, Go
    Prone, Reload, Run...): the right click on the token whose turn it is, as a VTT's token
    HUD; the engine's legal actions without a target, each allowed by the preview of its
    bare command, or, when it needs picks on the map, listed as legal."""
    return _bare_offers(controller, token_id, out_of_turn_only=False)


def turn_refusals(controller: EncounterController, token_id: str) -> list[Offer]:
    """What the acting token might do aiming at no one and picking nothing on the map, but
    the engine refuses now, each with its reasons (Aiming refused with two weapons drawn):
    the token's menu lists them greyed under "Not now…", so a GM who sees Overwatch want
    Aiming learns why Aiming is not offered instead of hunting for it."""
    try:
        legal = controller.session.legal_actions(token_id)
    except CommandError:
        return []
    refused = []
    for spec in legal:
        if any(n in MAP_NEEDS for n in spec.needs):
            continue  # its targeting mode previews each pick
        try:
            reasons = controller.preview(Command(spec.key, token_id)).reasons
        except CommandError as error:
            reasons = (str(error),)
        if reasons:
            refused.append(Offer(spec, None, False, "; ".join(reasons)))
    return refused


def own_offers(controller: EncounterController, token_id: str) -> list[ActionSpec]:
    """What ``token_id`` itself may do now though it is not its turn (Act from Hold, an
    out-of-turn dive for cover...): the engine's legal actions for it that its handler
    takes out of turn (a side-initiative teammate's whole list belongs to the palette),
    each allowed by the preview of its bare command, or, when it needs picks on the map,
    listed as legal."""
    return _bare_offers(controller, token_id, out_of_turn_only=True)


def _bare_offers(
    controller: EncounterController, token_id: str, *, out_of_turn_only: bool
) -> list[ActionSpec]:
    try:
        legal = controller.session.legal_actions(token_id)
    except CommandError:
        return []
    offers = []
    for spec in legal:
        if not out_of_turn_only and {Need.TARGET, Need.TARGETS} & set(spec.needs):
            continue  # aimed at another token: that token's right click offers it
        try:
            if out_of_turn_only and not controller.system.handler(spec.key).out_of_turn:
                continue
            allowed = controller.preview(Command(spec.key, token_id)).legal
        except CommandError:
            allowed = False
        if allowed or any(n in MAP_NEEDS for n in spec.needs):
            offers.append(spec)
    return offers


def aims_at_squares(spec: ActionSpec) -> bool:
    """Whether the map picks of ``spec`` are one square or one path, and nothing else: the
    actions a right click on a square may aim there (a path ends on it)."""
    picks = tuple(n for n in spec.needs if n in MAP_NEEDS)
    return picks in ((Need.SQUARE,), (Need.PATH,))


def square_offers(host: ToolHost, actor: str, square: Square) -> list[Offer]:
    """Every action of ``actor`` aimed at ``square`` (one square, or a path ending there),
    per weapon where it takes one, allowed ones first (the ordinary move first of them).
    The command is the one the targeting mode would build for a click on the square, and
    the engine's preview of it decides, as for a token's menu; one that needs options the
    form must give is offered when legal."""
    controller = host.controller
    try:
        legal = {spec.key for spec in controller.session.legal_actions(actor)}
    except CommandError:
        legal = set()
    weapons = [w.name for w in controller.state.token(actor).weapons]
    offers: list[Offer] = []
    for spec in controller.system.catalogue:
        if not aims_at_squares(spec):
            continue
        choices: list[str | None] = list(weapons) if Need.WEAPON in spec.needs else [None]
        for weapon in choices or [None]:
            preview = ActionTool(host, actor, spec, weapon=weapon).preview_at(square)
            if _requires_options(controller.system, spec) and spec.key in legal:
                allowed, reason = True, ""  # its targeting mode asks for the options
            else:
                allowed, reason = preview.legal, "; ".join(preview.reasons)
            offers.append(Offer(spec, weapon, allowed, reason))
    # The ordinary move first, as a GM scans for it (Suppressive Fire came first).
    move = controller.system.ordinary_move_key
    return sorted(offers, key=lambda o: (not o.allowed, o.spec.key != move))
