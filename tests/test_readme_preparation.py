"""The README's fight-preparation example runs as written (with a generated docks.png)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from tests.engine.files.test_grid_detection import lined

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_preparation_example_runs(tmp_path: Path) -> None:
    (script,) = re.findall(r"```py\n(.*?)```", README.read_text(), flags=re.S)
    lined(1000, 700, 64.0, 10.0, 20.0).save(tmp_path / "docks.png")
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        namespace: dict[str, object] = {}
        exec(compile(script, "README.md", "exec"), namespace)
    finally:
        os.chdir(here)
    fight = namespace["fight"]
    state = fight.state  # type: ignore[attr-defined]
    assert len(state.tokens) == 2 and state.tokens[1].name.endswith(" 2")
    assert state.battlemap.portals and state.battlemap.cover and state.battlemap.terrain
    assert namespace["rifle"].name == "Assault rifle"  # type: ignore[attr-defined]
    assert state.tokens[1].weapons == (namespace["rifle"],)
    assert state.tokens[1].stats["defense"] == 14
