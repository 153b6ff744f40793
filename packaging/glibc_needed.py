"""Print the newest glibc symbol version any ELF file in a folder needs (for the .deb Depends)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

GLIBC_VERSION = re.compile(rb"GLIBC_(\d+)\.(\d+)(?:\.(\d+))?")


def is_elf(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(4) == b"\x7fELF"


def needed_versions(path: Path) -> set[tuple[int, ...]]:
    # objdump -T lists the dynamic symbols with the version each one binds to.
    dump = subprocess.run(["objdump", "-T", str(path)], capture_output=True, check=False).stdout
    return {
        tuple(int(p) for p in m.groups() if p is not None) for m in GLIBC_VERSION.finditer(dump)
    }


def main(folder: str) -> None:
    versions: set[tuple[int, ...]] = {(2, 17)}
    for path in Path(folder).rglob("*"):
        if path.is_file() and not path.is_symlink() and is_elf(path):
            versions |= needed_versions(path)
    print(".".join(str(p) for p in max(versions)))


if __name__ == "__main__":
    main(sys.argv[1])
