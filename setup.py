"""Builds the compiled parts of Killbox: the optional sight kernel and route search.

Everything else is declared in pyproject.toml. Both are ``optional``: where no C
compiler is at hand the build goes on without them, and engine/geometry falls back to its
NumPy code and engine/routes to its Python and SciPy searches, which give the same answers
more slowly.
"""

import sys

from setuptools import Extension, setup

# Floating-point contraction (fused multiply-add) off, so that the kernel's arithmetic
# matches NumPy's term for term; MSVC does not contract unless asked to.
FLAGS = [] if sys.platform == "win32" else ["-O2", "-ffp-contract=off", "-fno-fast-math"]

setup(
    ext_modules=[
        Extension(
            "engine.geometry._kernel",
            ["engine/geometry/_kernel.c"],
            extra_compile_args=FLAGS,
            optional=True,
        ),
        Extension(
            "engine.routes._astar",
            ["engine/routes/_astar.c"],
            extra_compile_args=FLAGS,
            optional=True,
        ),
    ]
)
