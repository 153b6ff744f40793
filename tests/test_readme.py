"""The README tells the truth: its script runs, and CI runs its test command exactly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")


def fenced_blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.DOTALL)


def test_readme_gives_exactly_two_setup_commands() -> None:
    setup = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
    assert len(re.findall(r"```sh\n", setup)) == 2


def test_ci_runs_the_readme_test_command_exactly() -> None:
    test_command = fenced_blocks("sh")[1].strip()
    ci_script = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test_command in ci_script.splitlines()


def test_readme_script_plays_a_bundled_encounter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (script,) = fenced_blocks("python")
    monkeypatch.chdir(tmp_path)
    exec(compile(script, "README.md", "exec"), {"__name__": "__readme__"})
    printed = capsys.readouterr().out
    assert "may:" in printed
    assert (tmp_path / "after-one-step.killbox").is_file()
