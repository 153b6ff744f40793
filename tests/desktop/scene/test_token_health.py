"""Health on the token: every system's gauges drawn on the map, in the tooltip, hidden for
enemies on the players' screen; PNGs of each system's tokens after a hit."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from desktop.scene.map_scene import MapScene
from desktop.scene.style import SQUARE
from engine.files import load_encounter
from engine.rules.base import Command
from engine.tokens import Side
from engine.turns.session import Encounter
from tests.desktop.tools.conftest import PICTURES

ROOT = Path(__file__).resolve().parents[3]
MAPS = {
    "spycraft": "warehouse",
    "savage-worlds": "night_street",
    "cities-without-number": "office_floor",
    "d20-firearms": "compound",
}
#: Damage per system that leaves a mark on a party token (Savage Worlds: Toughness + 4).
HURT = {"spycraft": 30, "savage-worlds": 12, "cities-without-number": 6, "d20-firearms": 9}


def hurt_fight(system: str) -> Encounter:
    loaded = load_encounter(ROOT / "maps" / f"{MAPS[system]}.killbox")
    fight = Encounter(loaded.state)
    party = [t for t in fight.state.tokens if t.side is Side.PARTY][:2]
    for token in party:
        fight.apply(Command.build("gm_damage", targets=[token.id], amount=HURT[system]))
    return fight


def render_tokens(scene: MapScene, token_ids: list[str], zoom: float = 1.0) -> QImage:
    """The squares around the given tokens at ``zoom`` (1.0: 64 px a square, table zoom)."""
    rect = QRectF()
    for token_id in token_ids:
        rect = rect.united(scene.token_items[token_id].sceneBoundingRect())
    rect = rect.adjusted(-SQUARE / 2, -SQUARE / 2, SQUARE / 2, SQUARE)
    image = QImage(int(rect.width() * zoom), int(rect.height() * zoom), QImage.Format.Format_ARGB32)
    image.fill(QColor("#16181c"))
    painter = QPainter(image)
    scene.render(painter, QRectF(image.rect()), rect)
    painter.end()
    return image


def health_pixels(image: QImage) -> int:
    """Pixels in the gauges' green, amber or red (the fill colours of health_colour)."""
    targets = [QColor("#2ecc71"), QColor("#f0a020"), QColor("#e03131")]
    count = 0
    for y in range(image.height()):
        for x in range(image.width()):
            pixel = image.pixelColor(x, y)
            if any(
                abs(pixel.red() - c.red()) + abs(pixel.green() - c.green())
                + abs(pixel.blue() - c.blue()) < 30
                for c in targets
            ):
                count += 1
    return count


def changed_pixels(a: QImage, b: QImage) -> int:
    return sum(
        1 for y in range(a.height()) for x in range(a.width()) if a.pixel(x, y) != b.pixel(x, y)
    )


@pytest.mark.parametrize("system", list(MAPS))
def test_each_system_draws_its_gauges_on_hurt_tokens(qtbot, system: str) -> None:
    fight = hurt_fight(system)
    party = [t.id for t in fight.state.tokens if t.side is Side.PARTY][:2]
    scene = MapScene(fight.state)
    shown = render_tokens(scene, party)
    PICTURES.mkdir(exist_ok=True)
    shown.save(str(PICTURES / f"token-health-{system}.png"))
    hidden_items = [scene.token_items[i] for i in party]
    for token_id in party:
        item = scene.token_items[token_id]
        assert item.gauges, f"{system}: no gauges on {token_id}"
        for gauge in item.gauges:
            assert gauge.text in item.toolTip()
    for item in hidden_items:
        item.show_gauges = False
    bare = render_tokens(scene, party)
    assert health_pixels(shown) > health_pixels(bare) + 100
    assert changed_pixels(shown, bare) > 400  # two tokens' bars or pips, about 14 x 40 px each


def test_gauges_follow_undo(qtbot) -> None:
    fight = hurt_fight("cities-without-number")
    party = next(t for t in fight.state.tokens if t.side is Side.PARTY)
    scene = MapScene(fight.state)
    hurt = scene.token_items[party.id].gauges[0]
    fight.undo()
    fight.undo()  # both party tokens' hits
    scene.set_state(fight.state)
    healed = scene.token_items[party.id].gauges[0]
    assert healed.value == hurt.value + HURT["cities-without-number"]


def test_players_see_enemy_health_only_when_the_gm_shows_it(qtbot) -> None:
    fight = hurt_fight("d20-firearms")
    scene = MapScene(fight.state, player=True)
    enemy = next(t for t in fight.state.tokens if t.side is Side.ENEMY)
    friend = next(t for t in fight.state.tokens if t.side is Side.PARTY)
    assert scene.token_items[friend.id].show_gauges
    assert not scene.token_items[enemy.id].show_gauges
    scene.set_show_enemy_health(True)
    assert scene.token_items[enemy.id].show_gauges
    assert MapScene(fight.state).token_items[enemy.id].show_gauges  # the GM always sees


def test_gauges_read_at_table_zoom(qtbot) -> None:
    """At 64 px a square a bar is at least 40 px long and 6 px high."""
    fight = hurt_fight("spycraft")
    scene = MapScene(fight.state)
    token = next(t for t in fight.state.tokens if t.side is Side.PARTY)
    image = render_tokens(scene, [token.id])
    rows = {}
    for y in range(image.height()):
        run = sum(
            1 for x in range(image.width())
            if image.pixelColor(x, y).green() > 180 and image.pixelColor(x, y).red() < 80
        )
        if run:
            rows[y] = run
    assert max(rows.values(), default=0) >= 20  # the green part of the vitality bar
    assert len(rows) >= 5


def cross_pixels(image: QImage) -> int:
    """Pixels in the red of the cross over a token out of the fight."""
    mark = QColor("#e5484d")
    return sum(
        1
        for y in range(image.height())
        for x in range(image.width())
        if abs(image.pixelColor(x, y).red() - mark.red())
        + abs(image.pixelColor(x, y).green() - mark.green())
        + abs(image.pixelColor(x, y).blue() - mark.blue()) < 30
    )


@pytest.mark.parametrize("system", list(MAPS))
def test_a_token_out_of_the_fight_is_crossed_out_on_the_map(qtbot, system: str) -> None:
    """Knocked out, a token showed only one more small condition badge among the others:
    nothing at a glance said it was out of the fight."""
    loaded = load_encounter(ROOT / "maps" / f"{MAPS[system]}.killbox")
    fight = Encounter(loaded.state)
    party = next(t.id for t in fight.state.tokens if t.side is Side.PARTY)
    up = MapScene(fight.state)
    fight.apply(Command.build("gm_knock_out", targets=[party]))
    down = MapScene(fight.state)
    assert down.token_items[party].is_down and not up.token_items[party].is_down
    assert cross_pixels(render_tokens(down, [party])) > cross_pixels(
        render_tokens(up, [party])
    ) + 150
    fight.undo()
    up.set_state(fight.state)
    assert not up.token_items[party].is_down


@pytest.mark.parametrize(("left", "mark"), [(-3, "Dying"), (-10, "Dead")])
def test_a_d20_soldier_dying_or_dead_is_crossed_out_too(qtbot, left: int, mark: str) -> None:
    """d20's marks below 0 hit points (Dying, Stable, Dead) stand in for Disabled: each is
    out of the fight, and the map crosses the token out as it did at 0."""
    loaded = load_encounter(ROOT / "maps" / "compound.killbox")
    fight = Encounter(loaded.state)
    party = next(t for t in fight.state.tokens if t.side is Side.PARTY)
    hp = int(party.stats.get("hp", 10))
    fight.apply(Command.build("gm_damage", targets=[party.id], amount=hp - left))
    assert [c.name for c in fight.state.token(party.id).conditions] == [mark]
    assert MapScene(fight.state).token_items[party.id].is_down
