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


def test_engine_and_desktop_pass_mypy_strict() -> None:
    # The configuration (strict, engine/ and desktop/) lives in pyproject.toml. The cache is
    # the checkout's own (.mypy_cache, as a plain `mypy` there uses): mypy checks again what
    # changed and what depends on it, so a warm run takes seconds where a fresh one takes
    # most of a minute; a new mypy version starts it afresh.
    result = run(str(BIN / "mypy"))
    assert result.returncode == 0, result.stdout + result.stderr
