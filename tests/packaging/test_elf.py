"""What the bundle's ELF files ask of the system they run on: glibc 2.35 at most (Ubuntu 22.04,
Mint 21, Pop!_OS 22.04), no system library of the build machine bundled, every library they
name either bundled or declared, no RUNPATH naming the build machine, and the same file list
whatever else the build machine has installed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.packaging.conftest import elf_deps

pytestmark = pytest.mark.packaging

GLIBC_FLOOR = (2, 35)  # Ubuntu 22.04 LTS
# Ubuntu 22.04's libstdc++6 is GCC 12's: symbol versions up to GLIBCXX_3.4.30 and CXXABI_1.3.13.
LIBSTDCXX_CEILING = {"GLIBCXX": (3, 4, 30), "CXXABI": (1, 3, 13)}
MANIFEST = REPO_ROOT / "tests" / "packaging" / "bundle-manifest.txt"


def test_glibc_floor_is_2_35(built: Path) -> None:
    offenders = {}
    newest = (2, 17)
    for path in elf_deps.elf_files(built / "killbox"):
        found = elf_deps.newest(elf_deps.symbol_versions(path), "GLIBC")
        if found is not None:
            newest = max(newest, elf_deps.version_key(found))
            if elf_deps.version_key(found) > GLIBC_FLOOR:
                offenders[str(path.relative_to(built))] = found
    print(f"newest GLIBC_ symbol version the bundle needs: {'.'.join(map(str, newest))}")
    assert offenders == {}


@pytest.mark.parametrize("prefix", sorted(LIBSTDCXX_CEILING))
def test_cxx_runtime_symbols_exist_on_ubuntu_22_04(built: Path, prefix: str) -> None:
    found = elf_deps.newest(elf_deps.bundle_versions(built / "killbox"), prefix)
    print(f"newest {prefix} version: {found}")
    assert found is None or elf_deps.version_key(found) <= LIBSTDCXX_CEILING[prefix]


def test_no_system_library_is_bundled(built: Path) -> None:
    """libstdc++, libgcc_s, expat and the rest come from the system (and its security updates)."""
    left_to_system = set(elf_deps.read_table())
    bundled = {path.name for path in (built / "killbox").rglob("*")}
    assert sorted(bundled & left_to_system) == []


def test_every_needed_library_is_bundled_or_declared(built: Path) -> None:
    missing = elf_deps.missing_libraries(built / "killbox")
    undeclared = {
        name: sorted(users)[:3]
        for name, users in missing.items()
        if name not in elf_deps.read_table()
    }
    assert undeclared == {}


def test_no_runpath_names_the_build_machine(built: Path) -> None:
    absolute = {
        str(path.relative_to(built)): entries
        for path in elf_deps.elf_files(built / "killbox")
        if (entries := [e for e in elf_deps.runpath(path) if not e.startswith("$ORIGIN")])
    }
    assert absolute == {}


def normalised(line: str) -> str:
    """A file list line without the versions and wheel hashes that change with each release of
    a dependency (numpy-2.4.6.dist-info, libgeos-d1e818bb.so.3.14.1)."""
    line = re.sub(r"-[0-9a-f]{8}(?=[.-])", "-HASH", line)
    return re.sub(r"\d+", "N", line)


def test_file_list_matches_the_manifest(built: Path) -> None:
    """The bundle holds what the wheels, Python and the checkout bring, nothing the build
    machine happens to have installed. After a deliberate change (a new dependency, a trim),
    refresh the manifest: python -c 'import tests.packaging.test_elf as t; t.write_manifest(DIST)'
    """
    made = sorted(
        {normalised(line) for line in (built / "bundle-files.txt").read_text().splitlines()}
    )
    expected = MANIFEST.read_text().splitlines()
    added = sorted(set(made) - set(expected))
    removed = sorted(set(expected) - set(made))
    assert (added, removed) == ([], [])


def write_manifest(dist: str) -> None:
    lines = (Path(dist) / "bundle-files.txt").read_text().splitlines()
    MANIFEST.write_text("\n".join(sorted({normalised(line) for line in lines})) + "\n")
