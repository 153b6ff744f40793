"""Desktop test fixtures: a sample encounter, and a check that a picture is not blank."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QImage

from engine.encounter import EncounterState
from tests.desktop.sample import sample_state


@pytest.fixture
def state() -> EncounterState:
    return sample_state()


def distinct_colours(image: QImage, step: int = 7) -> int:
    """How many different colours a sparse sample of the picture holds (1 means blank)."""
    seen: set[int] = set()
    for y in range(0, image.height(), step):
        for x in range(0, image.width(), step):
            seen.add(image.pixel(x, y))
    return len(seen)
