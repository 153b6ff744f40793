"""The compiled route search (``engine/routes/_astar.c``), when it was built.

``pip install`` compiles it where a C compiler and the Python headers are present; without
it the searches in ``engine.routes.search`` run in Python (and SciPy), with the same costs.
"""

from __future__ import annotations

import os
from typing import Any

_astar: Any
try:
    from engine.routes import _astar  # type: ignore[attr-defined, no-redef]
except ImportError:  # not compiled here: the Python searches do the work
    _astar = None
if os.environ.get("KILLBOX_NO_KERNEL"):  # to test the Python path where the module is built
    _astar = None
#: The build this code speaks to (``INTERFACE`` in _astar.c). A module built from older
#: source (a checkout updated without reinstalling) would read the difficult bytes as
#: flags and cost every difficult step double, or lack ``reach``: it is left unused until
#: rebuilt; one older than 4 would draw routes that stray from the straight line.
INTERFACE = 4
if _astar is not None and getattr(_astar, "INTERFACE", None) != INTERFACE:
    _astar = None

#: Whether the compiled route search is in use.
ASTAR_BUILT = _astar is not None

#: The compiled module (None when not built).
astar: Any = _astar
