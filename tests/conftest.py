"""Suite-wide set-up: Qt runs offscreen, so no display is ever needed; Hypothesis has no
per-example deadline (the normal run makes no timed assertions: on a shared, loaded machine
a slow example is not a failure)."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
settings.register_profile("killbox", deadline=None)
settings.load_profile("killbox")

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared"
