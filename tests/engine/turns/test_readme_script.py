"""The README's scripting example runs, and the engine's docstring examples hold."""

import doctest
import runpy
from pathlib import Path

import pytest

import engine
import engine.dice
import engine.rules
import engine.rules.base
import engine.turns.session

SCRIPT = Path(__file__).with_name("readme_script.py")


def test_readme_script_plays_three_turns(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(SCRIPT), run_name="__main__")
    out = capsys.readouterr().out
    assert out.count(" may: ") == 3
    assert "[round 1]" in out


@pytest.mark.parametrize(
    "module", [engine, engine.dice, engine.rules, engine.rules.base, engine.turns.session]
)
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0
