"""The benchmarks run as the README says: ``python tests/benchmarks/bench_*.py``.

Run that way, Python puts the script's own folder first on the import path, not the
repository root; a benchmark that imports ``tests.`` or ``engine`` before putting the root
on the path fails with ModuleNotFoundError (or silently times another checkout). Each
script is run here up to, but not including, its ``__main__`` block.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = sorted(Path(__file__).parent.glob("bench_*.py"))
ROOT = Path(__file__).resolve().parents[2]

_RUN_AS_SCRIPT = """
import runpy, sys
script = sys.argv[1]
sys.path[0] = __import__("os").path.dirname(script)  # as `python script.py` would
namespace = runpy.run_path(script, run_name="benchmark_import_check")
import engine
assert engine.__file__.startswith(sys.argv[2]), engine.__file__
"""


@pytest.mark.parametrize("script", BENCHMARKS, ids=lambda path: path.stem)
def test_benchmark_imports_as_a_script(script: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", _RUN_AS_SCRIPT, str(script), str(ROOT)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
