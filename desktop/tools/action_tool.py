"""One targeting mode for any action: collect what it needs, preview every hover, confirm.

The action's ``needs`` (engine.rules.base.Need) say what the map collects, in their order:
target tokens (click one; Ctrl+click adds more where the action takes several; each is
marked as targeted), one square, a path (click where it ends: the engine's cheapest route;
Shift+click adds squares one at a time), an area (click or drag squares in and out). The
weapon and the action's declared options come from the targeting panel's form. Every hover
builds the Command and asks the engine's preview; what the map draws is that preview.
Enter (or the panel's Confirm) applies it through "roll or type the dice"; Escape cancels;
Backspace drops the last pick (a right click opens the token's menu as ever).

The tool decides no rule: it never filters targets or squares itself, the preview does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QWheelEvent

from desktop.fight import act
from desktop.scene.labels import ScreenTag, place_beside, wrap_lines
from desktop.scene.preview_overlay import DrawnPreview, draw_preview, scene_rect_of
from desktop.scene.rule_overlays import AREA_BAD, TokenRingItem
from desktop.scene.style import SQUARE
from desktop.tools.base import Tool, ToolHost, square_at
from engine.grid import Square
from engine.rules.base import (
    ActionSpec,
    Command,
    CommandError,
    Need,
    OptionSpec,
    OptionValue,
    Preview,
)

if TYPE_CHECKING:
    from desktop.controller import EncounterController

#: How many of the engine's example picks an action's weapons are tried on.
FITTING_PICKS = 4
#: Needs the map collects (the rest come from the form).
MAP_NEEDS = (Need.TARGET, Need.TARGETS, Need.SQUARE, Need.PATH, Need.AREA)
TARGETED = QColor(255, 200, 40)  # the targeted-token marker, as Foundry's crosshair
PROMPTS = {
    Need.TARGET: "click the target",
    Need.TARGETS: "click a target (Ctrl+click adds more)",
    Need.SQUARE: "click a square",
    Need.PATH: "click where the path ends (Shift+click: square by square)",
    Need.AREA: "click or drag the squares (click again to take one out)",
}
NO_MODIFIER = Qt.KeyboardModifier.NoModifier
#: Degrees a wheel notch turns a template option (Shift: finer).
WHEEL_STEP, WHEEL_FINE = 15, 5
#: Option names that hold a direction in degrees (turned with the wheel).
DIRECTION_OPTIONS = ("direction", "angle", "facing", "heading")


def option_specs(
    controller: EncounterController, actor: str, spec: ActionSpec
) -> tuple[OptionSpec, ...]:
    """The options a form offers for ``actor``'s ``spec`` now: the engine's ``options_for``,
    which leaves out those that cannot bear on it here (a leave to act that only a token
    that surrendered needs sat on every form)."""
    return controller.system.options_for(controller.state, actor, spec.key)


def example_picks(
    controller: EncounterController, actor_id: str, spec: ActionSpec
) -> list[Command]:
    """Up to FITTING_PICKS of the engine's own example commands for the action, each with
    other targets or squares: where to try a weapon before the GM has picked."""
    picks: list[Command] = []
    for example in controller.session.example_commands(actor_id):
        if example.action == spec.key and all(
            (example.targets, example.squares) != (p.targets, p.squares) for p in picks
        ):
            picks.append(example)
            if len(picks) == FITTING_PICKS:
                break
    return picks


def fittest_weapon(
    controller: EncounterController, actor_id: str, spec: ActionSpec
) -> str | None:
    """The weapon an action starts with: of the token's weapons, the first that the engine
    refuses on the fewest of its own example picks for the action (before anything is
    picked the engine only asks for the pick), then the one refused for the fewest reasons
    every pick shares (what the weapon itself lacks, not where the picks are), then for the
    fewest reasons in all. It started with the first weapon carried: Suppressive Fire with
    a pump shotgun, refused, though the rifle beside it could. Counting every reason alone
    then took a knife for Strafe ("needs full auto", once a pick) over the submachine gun
    whose example squares were each out of sight. The GM can still choose another."""
    names = [w.name for w in controller.state.token(actor_id).weapons]
    if len(names) < 2:
        return names[0] if names else None
    picks = example_picks(controller, actor_id, spec)

    def refusals(name: str) -> tuple[int, int, int, int]:
        unreadable, refused = 0, list[frozenset[str]]()
        for pick in picks or [Command(spec.key, actor_id)]:
            try:
                reasons = controller.preview(replace(pick, weapon=name)).reasons
            except CommandError:  # a command the engine cannot even read: last choice
                unreadable += 1
                continue
            if reasons:
                refused.append(frozenset(reasons))
        shared = frozenset.intersection(*refused) if refused else frozenset()
        return unreadable, len(refused), len(shared), sum(len(r) for r in refused)

    return min(names, key=refusals)  # the first among equals


class ActionTool(Tool):
    """Targeting mode for one action of one acting token."""

    def __init__(
        self,
        host: ToolHost,
        actor_id: str,
        spec: ActionSpec,
        *,
        targets: tuple[str, ...] = (),
        weapon: str | None = None,
        options: dict[str, OptionValue] | None = None,
    ) -> None:
        super().__init__(host)
        self.name = spec.name
        self.actor_id = actor_id
        self.spec = spec
        self.targets: list[str] = list(targets)
        self.squares: list[Square] = []
        #: Whether the action takes a weapon (the form shows a weapon box only then).
        self.takes_weapon = Need.WEAPON in spec.needs
        #: The weapon the engine says its rules use when the command names none (None: it
        #: names none); the weapon box's unset entry shows it.
        self.rules_weapon = (
            host.controller.system.rules_weapon(host.controller.state, Command(spec.key, actor_id))
            if self.takes_weapon
            else None
        )
        # Where the rules pick, start with their pick: a gun-only token's melee attack
        # started with the gun and was refused.
        self.weapon: str | None = (
            weapon
            if weapon is not None or self.rules_weapon is not None or not self.takes_weapon
            else fittest_weapon(host.controller, actor_id, spec)
        )
        self.options: dict[str, OptionValue] = dict(options or {})
        self.hover: Square | None = None
        self.command: Command | None = None
        self.preview: Preview | None = None
        self.drawn = DrawnPreview()
        self.tag = ScreenTag(size=13)
        self.lines: list[str] = []
        #: Called after every redraw (the targeting panel follows), and when the tool ends.
        self.listeners: list[Callable[[ActionTool], None]] = []
        self.finished: Callable[[], None] = lambda: None
        self._dragging = False
        self._previews: dict[Command, Preview] = {}
        self._examples: list[Command] | None = None

    # ---- what is still needed

    @property
    def map_needs(self) -> tuple[Need, ...]:
        return tuple(n for n in self.spec.needs if n in MAP_NEEDS)

    def has(self, need: Need) -> bool:
        if need is Need.TARGET:
            return len(self.targets) == 1
        if need is Need.TARGETS:
            return bool(self.targets)
        if need is Need.SQUARE:
            return len(self.squares) == 1
        return bool(self.squares)

    def current_need(self) -> Need | None:
        """The first need not met yet; when all are, the last one (a click re-picks it)."""
        needs = self.map_needs
        for need in needs:
            if not self.has(need):
                return need
        return needs[-1] if needs else None

    @property
    def complete(self) -> bool:
        """Every declared pick made (the engine may accept less: its preview decides)."""
        return all(self.has(n) for n in self.map_needs)

    @property
    def ready(self) -> bool:
        """The picks so far make a command the engine allows (Enter would apply it)."""
        return self.ask(self.build()).legal

    def prompt(self) -> str:
        need = self.current_need()
        if need is None or self.complete:
            if self.ready:
                return "Enter or Confirm applies it; Escape cancels"
            # It said "Enter applies it" above the red reasons while Enter did nothing.
            return "not allowed as it is: pick again or change an option; Escape cancels"
        if self.ready:
            return f"Enter applies it as it is, or {PROMPTS[need]}"
        return PROMPTS[need]

    # ---- the command

    def build(self, hover: Square | None = None) -> Command:
        """The command of the picks so far, with the hovered square or token tried in."""
        targets, squares = list(self.targets), list(self.squares)
        need = self.current_need()
        if hover is not None and need is not None:
            if need in (Need.TARGET, Need.TARGETS):
                token = self.host.controller.state.token_at(hover)
                if token is not None and token.id not in targets:
                    targets = [token.id] if need is Need.TARGET else [*targets, token.id]
            elif need is Need.SQUARE:
                squares = [hover]
            elif need is Need.PATH:
                squares = self._path_to(hover)
            elif need is Need.AREA and hover not in squares:
                squares = [*squares, hover]
        return Command(
            self.spec.key,
            self.actor_id,
            tuple(targets),
            tuple(squares),
            self.weapon,
            tuple(self.options.items()),
        )

    def weapon_refusals(self) -> dict[str, str]:
        """The token's weapons the engine refuses for this action, each with its reason,
        where another weapon (or the rules' own pick) is accepted: the weapon is the
        trouble, not the picks. Tried on the picks once they are complete, before that on
        the engine's own example picks for the action (refused on every one of them). The
        box listed a knife for Autofire and a rifle for a Charge as if either would do."""
        controller = self.host.controller
        names = [w.name for w in controller.state.token(self.actor_id).weapons]
        if self.complete:
            picks = [self.build(None)]
        else:
            if self._examples is None:
                self._examples = example_picks(controller, self.actor_id, self.spec)
            picks = self._examples
        if not picks:
            return {}
        verdicts = {
            name: [self.ask(replace(pick, weapon=name)) for pick in picks]
            for name in [None, *names]
        }
        if not any(p.legal for found in verdicts.values() for p in found):
            return {}  # nothing goes: the picks are the trouble, not the weapon
        refused: dict[str, str] = {}
        for name in names:
            found = verdicts[name]
            if any(p.legal for p in found):
                continue
            shared = set(found[0].reasons).intersection(*(p.reasons for p in found[1:]))
            reasons = [r for r in found[0].reasons if r in shared] or list(found[0].reasons)
            refused[name] = "; ".join(reasons) or "not allowed"
        return refused

    def _path_to(self, end: Square) -> list[Square]:
        """The engine's cheapest route from the actor to ``end`` (start excluded)."""
        from engine.routes import RouteError, cheapest_route, graph_for

        state = self.host.controller.state
        cost = self.host.controller.system.difficult_terrain_cost
        try:
            route = cheapest_route(graph_for(state, difficult_cost=cost), self.actor_id, end)
        except (RouteError, KeyError):
            route = None
        return list(route.squares[1:]) if route is not None else [end]

    def preview_at(self, square: Square) -> Preview:
        """The engine's preview of the picks so far with a click on ``square`` tried in."""
        return self.ask(self.build(square))

    def ask(self, command: Command) -> Preview:
        """The engine's preview (cached: hovering passes the same squares again)."""
        preview = self._previews.get(command)
        if preview is None:
            try:
                preview = self.host.controller.preview(command)
            except CommandError as error:
                preview = Preview(command, False, reasons=(str(error),))
            self._previews[command] = preview
        return preview

    # ---- life cycle

    def activate(self) -> None:
        super().activate()
        self.host.show_status(f"{self.spec.name}: {self.prompt()}")
        self.refresh()

    def deactivate(self) -> None:
        super().deactivate()
        self._remove_tag()

    def state_changed(self) -> None:
        self._previews.clear()
        self._examples = None
        if all(t.id != self.actor_id for t in self.host.controller.state.tokens):
            self.finished()
            return
        self.refresh()

    def cancel(self) -> bool:
        self.finished()
        return True

    # ---- gestures

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        at = square_at(scene_pos)
        # Past the map's edge counts as off the view: "off the map" is no news to the GM.
        square = at if self.host.controller.state.battlemap.in_bounds(at) else None
        dragging_area = self._dragging and self.current_need() is Need.AREA
        if dragging_area and square is not None and square not in self.squares:
            self.squares.append(square)
        if square != self.hover:
            self.hover = square
            self.refresh()
        return False

    def mouse_left(self) -> None:
        """The hovered square is tried in no more: the preview is the picks alone."""
        if self.hover is not None and not self._dragging:
            self.hover = None
            self.refresh()

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self.pick(square_at(scene_pos), event.modifiers())
        self._dragging = self.current_need() is Need.AREA
        return True

    def mouse_release(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        self._dragging = False
        return event.button() == Qt.MouseButton.LeftButton

    def wheel(self, event: QWheelEvent, scene_pos: QPointF) -> bool:
        """The wheel turns a template the action points (an option holding a direction)."""
        name = next((n for n in DIRECTION_OPTIONS if self._declares(n)), None)
        if name is None:
            return False
        step = WHEEL_FINE if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else WHEEL_STEP
        notches = event.angleDelta().y() / 120
        held = self.options.get(name, 0)
        current = float(held) if isinstance(held, int | float) else 0.0
        self.set_option(name, round(current + notches * step) % 360)
        return True

    def key_press(self, event: QKeyEvent) -> bool:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.confirm()
            return True
        if key == Qt.Key.Key_Backspace:
            self.drop_last()
            return True
        if key == Qt.Key.Key_Escape:
            return self.cancel()
        return False

    # ---- picking

    def pick(self, square: Square, modifiers: Qt.KeyboardModifier = NO_MODIFIER) -> None:
        """A click on ``square``: it becomes (or joins) what the current need collects."""
        need = self.current_need()
        token = self.host.controller.state.token_at(square)
        adding = bool(modifiers & Qt.KeyboardModifier.ControlModifier)
        if (
            token is not None
            and token.id != self.actor_id
            and (need in (Need.TARGET, Need.TARGETS) or (adding and Need.TARGETS in self.map_needs))
        ):
            if token.id in self.targets:
                self.targets.remove(token.id)
            elif need is Need.TARGET:
                self.targets = [token.id]
            else:
                self.targets.append(token.id)
        elif need is Need.SQUARE:
            self.squares = [square]
        elif need is Need.PATH:
            if modifiers & Qt.KeyboardModifier.ShiftModifier:
                self.squares.append(square)
            else:
                self.squares = self._path_to(square)
        elif need is Need.AREA:
            if square in self.squares:
                self.squares.remove(square)
            else:
                self.squares.append(square)
        self.refresh()

    def drop_last(self) -> None:
        if self.squares:
            self.squares.pop()
        elif self.targets:
            self.targets.pop()
        self.refresh()

    def set_weapon(self, weapon: str | None) -> None:
        self.weapon = weapon
        self.refresh()

    def set_option(self, name: str, value: OptionValue | None) -> None:
        if value is None or value == "":
            self.options.pop(name, None)
        else:
            self.options[name] = value
        self.refresh()

    def _declares(self, name: str) -> bool:
        return any(
            o.name == name for o in option_specs(self.host.controller, self.actor_id, self.spec)
        )

    # ---- drawing what the engine says

    def refresh(self) -> None:
        self.clear_overlay()
        hover = None if self.complete and self.current_need() is not Need.AREA else self.hover
        command = self.build(hover)
        preview = self.ask(command)
        self.command, self.preview = command, preview
        state = self.host.controller.state
        self.drawn = draw_preview(preview, state)
        for item in self.drawn.items:
            self.add_overlay(item)
        for target in command.targets:
            token = state.token(target)
            # Over a token the preview rings, the pick marker stays silent, so hovering shows
            # the preview ring's tooltip (the modifiers against it) rather than "targeted".
            tip = "" if target in self.drawn.tokens else "targeted"
            self.add_overlay(TokenRingItem(token.square, token.size, TARGETED, tip, True))
        self._show_tag(preview, command)
        for listener in list(self.listeners):
            listener(self)

    def _show_tag(self, preview: Preview, command: Command) -> None:
        lines = [f"{self.spec.name}: {self.prompt()}"]
        if preview.legal:
            lines += [preview.summary] if preview.summary else []
            lines += [str(m) for m in preview.modifiers]
            lines += [f"rolls {r}" for r in preview.rolls]
        else:
            lines += [f"✗ {reason}" for reason in preview.reasons] or ["not allowed"]
        self.lines = lines
        scene = self.host.scene
        if self.tag.scene() is None:
            scene.addItem(self.tag)
        colour = QColor("#ffffff") if preview.legal else AREA_BAD
        self.tag.set_text(wrap_lines(lines), colour)
        anchor = self._anchor(command)
        avoid = [
            item.sceneBoundingRect()
            for item in scene.token_items.values()
            if not item.sceneBoundingRect().intersects(anchor)
        ]
        place_beside(self.tag, anchor, self.host.view, avoid)

    def _anchor(self, command: Command) -> QRectF:
        """What the label talks about: the drawn area, else the picks, else the hover."""
        state = self.host.controller.state
        rect = scene_rect_of(command.squares)
        for target in command.targets:
            token = state.token(target)
            rect = (
                rect.united(scene_rect_of(token.squares))
                if not rect.isNull()
                else (scene_rect_of(token.squares))
            )
        if not self.drawn.bounds.isNull():
            rect = self.drawn.bounds if rect.isNull() else rect.united(self.drawn.bounds)
        if rect.isNull() and self.hover is not None:
            rect = scene_rect_of([self.hover])
        if rect.isNull():
            actor = state.token(self.actor_id)
            rect = QRectF(actor.square.x * SQUARE, actor.square.y * SQUARE, SQUARE, SQUARE)
        return rect

    def _remove_tag(self) -> None:
        if self.tag.scene() is not None:
            self.tag.scene().removeItem(self.tag)

    # ---- confirming

    def confirm(self) -> bool:
        """Apply the picked command if the engine allows it (one undo step)."""
        command = self.build(None)
        preview = self.ask(command)
        if not preview.legal:
            reasons = "; ".join(preview.reasons) or self.prompt()
            self.host.show_status(f"{self.spec.name} not allowed yet: {reasons}")
            return False
        try:
            events = act(self.host.view, self.host.controller, command)
        except CommandError as error:
            self.host.show_status(f"Not allowed: {error}")
            return False
        if events is None:
            # Escape in the dice dialog leaves the action too: it stayed aimed, its card
            # still said "Escape cancels", and a second Escape was needed to leave it.
            self.host.show_status(f"{self.spec.name} cancelled: no dice rolled")
            self.finished()
            return False
        self.host.show_status(" ".join(e.text for e in events) or preview.summary)
        self.applied = (command, preview)
        self.finished()
        return True

    applied: tuple[Command, Preview] | None = None
