"""The bundle built once per session by packaging/build.sh, shared by the packaging tests.

Set KILLBOX_DIST to a folder build.sh already filled to test that build instead of making
another (PyInstaller is minutes of CPU on a shared machine).
"""

from __future__ import annotations

import fnmatch
import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import REPO_ROOT

PACKAGING = REPO_ROOT / "packaging"


def load_packaging_module(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


elf_deps = load_packaging_module("elf_deps", PACKAGING / "elf_deps.py")


def project_version() -> str:
    with (REPO_ROOT / "pyproject.toml").open("rb") as handle:
        return str(tomllib.load(handle)["project"]["version"])


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    given = os.environ.get("KILLBOX_DIST")
    if given:
        yield Path(given)
        return
    if shutil.which("dpkg-deb") is None:
        pytest.skip("dpkg-deb is not installed; the .deb cannot be built here")
    out = tmp_path_factory.mktemp("dist")
    env = dict(os.environ, PYTHON=sys.executable)
    result = subprocess.run(
        ["nice", "-n", "10", "bash", str(PACKAGING / "build.sh"), str(out)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=3000,
    )
    print(result.stdout[-3000:])
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-5000:]
    yield out


@pytest.fixture(scope="session")
def deb(built: Path) -> Path:
    (found,) = built.glob("killbox_*.deb")
    return found


@pytest.fixture(scope="session")
def tarball(built: Path) -> Path:
    (found,) = built.glob("killbox-*.tar.gz")
    return found


@pytest.fixture(scope="session")
def deb_root(deb: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The .deb's files unpacked into a scratch root (dpkg-deb -x)."""
    root = tmp_path_factory.mktemp("deb-root")
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    return root


def headless_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DISPLAY", "WAYLAND_DISPLAY"}}
    env.pop("QT_QPA_PLATFORM", None)  # the app must choose offscreen for --export-png itself
    return env


def dep5_paragraphs(text: str) -> list[dict[str, str]]:
    """A machine-readable copyright file's paragraphs: field -> value, continuation lines kept."""
    paragraphs = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        name = ""
        for line in block.splitlines():
            if line.startswith(" ") and name:
                fields[name] += "\n" + line
            else:
                name, _, value = line.partition(":")
                fields[name] = value.strip()
        paragraphs.append(fields)
    return paragraphs


def paragraph_applying(
    paragraphs: list[dict[str, str]], path: str, ignore_case: bool = False
) -> dict[str, str] | None:
    """The paragraph that applies to PATH: in DEP-5 the last whose Files patterns match it
    (* matches /). Windows and macOS names are compared ignoring case."""
    fold = str.lower if ignore_case else str
    found = None
    for paragraph in paragraphs:
        patterns = paragraph.get("Files", "").split()
        if any(fnmatch.fnmatchcase(fold(path), fold(pattern)) for pattern in patterns):
            found = paragraph
    return found
