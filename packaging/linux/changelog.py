"""Print the package's changelog (Debian changelog format) for VERSION, signed by MAINTAINER.

Usage: python packaging/linux/changelog.py VERSION "Name <email>"
The entries are the release notes in packaging/linux/release-notes.txt ("VERSION DATE" lines,
each followed by "- note" lines, newest first).
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

NOTES = Path(__file__).with_name("release-notes.txt")


def releases(text: str) -> list[tuple[str, str, list[str]]]:
    found: list[tuple[str, str, list[str]]] = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("- "):
            found[-1][2].append(line[2:].strip())
        else:
            version, date = line.split()
            found.append((version, date, []))
    return found


def changelog(version: str, maintainer: str, text: str) -> str:
    entries = releases(text)
    if not entries or entries[0][0] != version:
        raise SystemExit(f"{NOTES}: the newest release is not {version}; add its notes first")
    blocks = []
    for number, date, notes in entries:
        when = datetime.strptime(date, "%Y-%m-%d").replace(hour=12, tzinfo=UTC)
        lines = "\n".join(f"  * {note}" for note in notes)
        stamp = when.strftime("%a, %d %b %Y %H:%M:%S +0000")
        blocks.append(
            f"killbox ({number}) unstable; urgency=medium\n\n{lines}\n\n -- {maintainer}  {stamp}\n"
        )
    return "\n".join(blocks)


if __name__ == "__main__":
    print(changelog(sys.argv[1], sys.argv[2], NOTES.read_text(encoding="utf-8")), end="")
