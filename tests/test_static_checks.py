"""The project's own checks run with the suite: ruff over the tree, mypy --strict over engine/
and desktop/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT

BIN = Path(sys.executable).parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=REPO_ROOT, capture_output=True, text=True, check=False, timeout=600
    )


def test_ruff_finds_nothing() -> None:
    result = run(str(BIN / "ruff"), "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_engine_and_desktop_pass_mypy_strict(tmp_path: Path) -> None:
    # The configuration (strict, engine/ and desktop/) lives in pyproject.toml.
    result = run(str(BIN / "mypy"), "--cache-dir", str(tmp_path / "mypy-cache"))
    assert result.returncode == 0, result.stdout + result.stderr
