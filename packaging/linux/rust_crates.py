"""The licence texts of the Rust crates compiled into a wheel's extension module (pydantic-core):
the wheel's CycloneDX SBOM names each crate, its version and licence, but the wheel carries no
text of theirs. packaging/licences/rust/crates.toml says, for each crate the SBOM names, where
its licence files were read and who holds its copyright; the files are verbatim copies beside it.

copyright.py puts the section this module writes into the wheel's paragraph. A crate of the SBOM
with no entry for any version of it, or a file that is gone, stops the build with their names,
so an upgrade of pydantic-core cannot silently drop a crate's notice; a crate whose entry is for
another version is quoted from it, and the notice says so (tests/packaging/test_rust_crates.py
fails until the entries match the SBOM again).
"""

from __future__ import annotations

import re
import textwrap
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).resolve().parents[1] / "licences" / "rust"
MANIFEST = FOLDER / "crates.toml"
COMMON = Path("/usr/share/common-licenses")


@dataclass(frozen=True)
class Crate:
    """One component of a CycloneDX SBOM."""

    name: str
    version: str
    licence: str  # the SPDX expression, as the SBOM gives it
    scope: str  # "required", or "excluded" for what only runs at build time

    @property
    def key(self) -> str:
        return f"{self.name}@{self.version}"


def component_licences(component: dict[str, Any]) -> list[str | None]:
    """The licences a CycloneDX component states: an expression, an SPDX id or a name each."""
    return [
        entry.get("expression")
        or entry.get("license", {}).get("id")
        or entry.get("license", {}).get("name")
        for entry in component.get("licenses", [])
    ]


def sbom_crates(data: dict[str, object]) -> list[Crate]:
    """The Rust crates (package URL pkg:cargo/...) among a parsed CycloneDX document's
    components."""
    crates = []
    for component in data.get("components", []):  # type: ignore[attr-defined]
        if not str(component.get("purl", "")).startswith("pkg:cargo/"):
            continue
        licences = component_licences(component)
        crates.append(
            Crate(
                component["name"],
                str(component.get("version", "")),
                " AND ".join(str(name) for name in licences if name) or "licence not stated",
                component.get("scope", "required"),
            )
        )
    return crates


def load(path: Path = MANIFEST) -> dict[str, dict[str, object]]:
    return dict(tomllib.loads(path.read_text(encoding="utf-8"))["crate"])


def entry_for(
    crate: Crate, manifest: dict[str, dict[str, object]]
) -> tuple[str, dict[str, object]] | None:
    """The crate's entry: for its version, or else the last one for another version of it (a
    pydantic-core upgrade that only moves versions keeps the files read for the old ones, and
    the notice says so)."""
    if crate.key in manifest:
        return crate.key, manifest[crate.key]
    same = [key for key in manifest if key.rpartition("@")[0] == crate.name]
    return (same[-1], manifest[same[-1]]) if same else None


def problems(
    crates: Iterable[Crate], manifest: dict[str, dict[str, object]], exact: bool = True
) -> list[str]:
    """What keeps the crates' notices from being complete, each named; empty when none. EXACT:
    every entry is for a version the SBOM names and the other way round (the test's check);
    otherwise only a crate with no entry for any version of it, or a file gone, counts (the
    build's)."""
    compiled = [crate for crate in crates if crate.scope != "excluded"]
    found = []
    used: dict[str, dict[str, object]] = {}
    for crate in compiled:
        entry = manifest.get(crate.key) if exact else (entry_for(crate, manifest) or (0, None))[1]
        if entry is None:
            found.append(f"{crate.key}: no entry in {MANIFEST.name}")
        else:
            used[crate.key] = entry
    if exact:
        needed = {crate.key for crate in compiled}
        found += [
            f"{key}: the SBOM names no such crate" for key in sorted(manifest.keys() - needed)
        ]
    for key, entry in used.items():
        texts = entry.get("texts", [])
        if not texts and not ("missing" in entry and "common" in entry):
            found.append(f"{key}: neither texts nor missing and common")
        for text in texts:  # type: ignore[attr-defined]
            if not (FOLDER / text["file"]).is_file():
                found.append(f"{key}: {FOLDER / text['file']} is gone")
    return found


def dep5_expression(spdx: str) -> str:
    """An SPDX expression in DEP-5's words: lower-case operators, a comma before a lower
    precedence "and" instead of parentheses."""
    spdx = re.sub(r"\((.*?)\)\s+AND\s+", r"\1, and ", spdx).replace("(", "").replace(")", "")
    return spdx.replace(" OR ", " or ").replace(" AND ", " and ").replace(" WITH ", " with ")


def licence(crates: Iterable[Crate], first: str = "") -> str:
    """FIRST (the wheel's own licence) and the distinct licence expressions of the crates
    compiled in, joined as DEP-5 does (a comma before an "and" that joins expressions)."""
    expressions = [first] if first else []
    expressions += [dep5_expression(c.licence) for c in crates if c.scope != "excluded"]
    terms = [term for expression in expressions for term in expression.split(", and ")]
    return ", and ".join(dict.fromkeys(terms))


@dataclass(frozen=True)
class Section:
    holders: list[str]
    text: str


def section(
    crates: list[Crate],
    quoted: Callable[[str], str] = lambda text: text,
    manifest: dict[str, dict[str, object]] | None = None,
) -> Section:
    """The crates' holders and the text that lists each crate and quotes its licence files,
    a file shared by several crates once. QUOTED turns a stored text into what is printed
    (copyright.py points a full Apache-2.0 text at Debian's common copy)."""
    manifest = load() if manifest is None else manifest
    wrong = problems(crates, manifest, exact=False)
    if wrong:
        raise SystemExit(
            "the Rust crates' licence texts (packaging/licences/rust/crates.toml) do not match "
            "pydantic-core's SBOM: " + "; ".join(wrong)
        )
    numbers: dict[str, int] = {}
    holders: list[str] = []
    lines = textwrap.wrap(
        "Its software bill of materials names these crates, with their licences. For each, its "
        "copyright holders and its own licence files, numbered and quoted below (a file several "
        "crates share, once). The files were read from the crate version named, where Debian "
        "packages another release than the one compiled in.",
        94,
    )
    for crate in crates:
        if crate.scope == "excluded":
            continue
        key, entry = entry_for(crate, manifest)  # type: ignore[misc]
        copyright = [str(holder) for holder in entry.get("copyright", [])]  # type: ignore[attr-defined]
        holders += [holder for holder in copyright if holder not in holders]
        lines += ["", f"{crate.name} {crate.version} ({crate.licence})"]
        lines.append("  Copyright: " + ("; ".join(copyright) or "no holder found"))
        if key != crate.key:
            lines.append(f"  Entry for {key}: none for this version yet")
        read = str(entry.get("read", ""))
        if read and read != f"{crate.name} {crate.version}":
            lines.append(f"  Files read from: {read}")
        if "package" in entry:
            lines.append(f"  From: {entry['package']}")
        for text in entry.get("texts", []):  # type: ignore[attr-defined]
            number = numbers.setdefault(str(text["file"]), len(numbers) + 1)
            lines.append(f"  [{number}] {text['source']}")
        if "missing" in entry:
            lines.append(f"  No licence file of its own here: {entry['missing']}.")
            lines.append(
                f"  The text of {entry['common']}, one licence it may be used under, is in "
                f"{COMMON / str(entry['common'])}."
            )
    for file, number in numbers.items():
        lines += [
            "",
            f"--- [{number}] ---",
            quoted((FOLDER / file).read_text(encoding="utf-8")).rstrip(),
        ]
    return Section(holders, "\n".join(lines))
