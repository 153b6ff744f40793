"""Save then load of .killbox files, with a state that uses every part of the model."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from engine.battlemap import Background, BattleMap
from engine.encounter import EncounterState
from engine.files import EncounterFile, load_encounter, save_encounter
from engine.grid import FIVE_FOOT, Square
from engine.tokens import Side, Token


def small_png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 6), "olive").save(buffer, "PNG")
    return buffer.getvalue()


def test_save_then_load_gives_the_same_state_and_image_bytes(tmp_path: Path) -> None:
    state = EncounterState(
        "Warehouse", "spycraft", FIVE_FOOT,
        BattleMap(5, 5, background=Background("images/bg.png")),
        (Token("a", "Agent", Side.PARTY, Square(1, 2), stats={"defense": 14}),),
    )
    original = EncounterFile(state, {"images/bg.png": small_png()})
    path = tmp_path / "warehouse.killbox"
    save_encounter(path, original)
    loaded = load_encounter(path)
    assert loaded.state == state
    assert dict(loaded.images) == dict(original.images)
