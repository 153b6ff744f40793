"""Print the .deb's /usr/share/doc/killbox/copyright (machine-readable, DEP-5 format).

Usage: python packaging/linux/copyright.py ROOT SOURCES
ROOT is the checkout; SOURCES is the spec's bundled-sources.txt (bundle name, source path).
One Files paragraph for Killbox (MIT, the checkout's LICENSE), one for the Python runtime
(with the software it incorporates, as Debian's libpython3.X-minimal records it), one for
PyInstaller's bootloader, and one for every installed distribution that any bundled file comes
from, with the licence texts its wheel carries (the dist-info licence files). A distribution
whose wheel carries none (PySide6, shiboken6: LGPL-3 or GPL) points at Debian's
/usr/share/common-licenses; that is named, never silently skipped. Then, overriding the PySide6
paragraph for them (in DEP-5 the last matching paragraph applies), Qt's libraries and plug-ins
with the third-party code built into them and ICU (native_licences.py).
"""

from __future__ import annotations

import json
import re
import sys
import sysconfig
import textwrap
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path, PurePosixPath

import native_licences

INSTALLED = "usr/lib/killbox"
LICENCE_FILE = re.compile(r"(licen[cs]e|copying|notice|copyright)", re.IGNORECASE)
COPYRIGHT_PREFIX = re.compile(r"^(copyright\s*)?(\(c\)|©)?\s*", re.IGNORECASE)
# Trove classifier and free-text licence names -> DEP-5 short names.
CLASSIFIER_NAMES = {
    "MIT License": "MIT",
    "BSD License": "BSD",
    "Python Software Foundation License": "PSF-2.0",
    "Apache Software License": "Apache-2.0",
}
COMMON_LICENSES = {
    "LGPL-3.0-only": "/usr/share/common-licenses/LGPL-3",
    "GPL-2.0-only": "/usr/share/common-licenses/GPL-2",
    "GPL-3.0-only": "/usr/share/common-licenses/GPL-3",
}


def owners() -> dict[str, metadata.Distribution]:
    """Resolved file path -> the installed distribution that put it there."""
    found = {}
    for dist in metadata.distributions():
        for file in dist.files or []:
            found[str(Path(str(dist.locate_file(file))).resolve())] = dist
    return found


def bundled_distributions(sources: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """Distribution name -> the top-level bundle folders (or modules) its files went to."""
    by_path = owners()
    tops: dict[str, set[str]] = {}
    for name, source in sources:
        dist = by_path.get(str(Path(source).resolve()))
        if dist is None or dist.metadata["Name"].lower() in {"killbox", "pyinstaller"}:
            continue  # Killbox and PyInstaller have paragraphs of their own
        name = name.replace("\\", "/")
        top = name.split("/")[0] if "/" in name else name.split(".")[0]
        tops.setdefault(dist.metadata["Name"], set()).add(top)
    return {
        name: sorted(folders) for name, folders in sorted(tops.items(), key=lambda i: i[0].lower())
    }


def licence_name(dist: metadata.Distribution) -> str:
    meta = dist.metadata
    expression = meta.get("License-Expression") or ""
    if not expression:
        short = meta.get("License") or ""
        usable = short and short != "UNKNOWN" and "\n" not in short and len(short) < 60
        expression = short if usable else ""
    if not expression:
        classifiers = [c for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
        expression = classifiers[0].split("::")[-1].strip() if classifiers else "unknown"
    expression = CLASSIFIER_NAMES.get(expression, expression).replace("(", "").replace(")", "")
    terms = re.split(r"\s+(?:OR|AND|WITH|or|and|with)\s+", expression)
    operators = re.findall(r"\s+(OR|AND|WITH|or|and|with)\s+", expression)
    # A DEP-5 licence name has no spaces: "MIT License" -> "MIT-License".
    names = [re.sub(r"\s+", "-", CLASSIFIER_NAMES.get(term, term)) for term in terms]
    out = names[0]
    for operator, name in zip(operators, names[1:], strict=True):
        out += f" {operator.lower()} {name}"
    return out


def licence_texts(dist: metadata.Distribution) -> list[tuple[str, str]]:
    texts = []
    for file in dist.files or []:
        path = PurePosixPath(str(file))
        if ".dist-info" in path.parts[0] and LICENCE_FILE.search(path.name):
            located = Path(str(dist.locate_file(file)))
            if located.is_file():
                text = with_common_licences(located.read_text(errors="replace"))
                texts.append((str(PurePosixPath(*path.parts[1:])), text))
    return texts


# A full GPL or Apache-2.0 text inside a wheel's licence file (PyInstaller's COPYING.txt has
# both) becomes a pointer to Debian's copy, as Debian's policy asks: from the licence's title
# line to its "END OF TERMS AND CONDITIONS".
FULL_TEXTS = [
    (
        re.compile(
            r"^[ \t]*GNU (LESSER |LIBRARY )?GENERAL PUBLIC LICENSE[ \t]*\n"
            r"[ \t]*Version (\d(?:\.\d)?)\b.*?END OF TERMS AND CONDITIONS[ \t]*$",
            re.MULTILINE | re.DOTALL,
        ),
        lambda found: ("LGPL-" if found[1] else "GPL-") + found[2].removesuffix(".0"),
    ),
    (
        re.compile(
            r"^[ \t]*Apache License[ \t]*\n[ \t]*Version 2\.0, January 2004.*?"
            r"END OF TERMS AND CONDITIONS[ \t]*$",
            re.MULTILINE | re.DOTALL,
        ),
        lambda found: "Apache-2.0",
    ),
]


def with_common_licences(text: str) -> str:
    for pattern, name in FULL_TEXTS:
        text = pattern.sub(
            lambda found, name=name: (
                f"[The full text of this licence is in /usr/share/common-licenses/{name(found)}.]"
            ),
            text,
        )
    return text


def copyright_lines(texts: Iterable[str], fallback: str) -> list[str]:
    lines = []
    for text in texts:
        for line in text.splitlines():
            stripped = line.strip()
            if re.match(r"(copyright|\(c\)|©)\s", stripped, re.IGNORECASE):
                holder = COPYRIGHT_PREFIX.sub("", stripped)
                if holder and holder not in lines:
                    lines.append(holder)
    return lines[:12] or [fallback]


def field_text(text: str) -> str:
    """A licence text as a DEP-5 continuation: each line indented, blank lines as " .\""""
    out = []
    for line in text.rstrip().splitlines():
        line = line.rstrip().expandtabs()
        out.append(" ." if not line.strip() else " " + line)
    return "\n".join(out)


def paragraph(
    files: list[str], holders: list[str], licence: str, body: str, comment: str = ""
) -> str:
    lines = [f"Files: {' '.join(files)}", "Copyright: " + "\n ".join(holders)]
    lines.append(f"License: {licence}\n{body}" if body else f"License: {licence}")
    if comment:
        lines.append(
            "Comment: "
            + "\n ".join(textwrap.wrap(comment, 94, break_on_hyphens=False, break_long_words=False))
        )
    return "\n".join(lines)


# A wheel that vendors libraries (numpy's OpenBLAS and GCC runtime, Shapely's GEOS) names each
# in its licence files with a "License:" line; Pillow heads each library's text with its name.
VENDORED_LICENCE = re.compile(r"^License:[ \t]*(\S.*?)[ \t]*$", re.MULTILINE)
VENDORED_NAME = re.compile(r"^-{4,}\n+([A-Z][A-Z0-9_]+)\n", re.MULTILINE)


def dep5_name(spdx: str) -> str:
    """An SPDX or free-text licence name as a DEP-5 short name (no spaces; 'with' for WITH)."""
    spdx = re.sub(r"^(L?GPL)v(\d)", r"\1-\2", spdx.strip())
    return " with ".join(re.sub(r"\s+", "-", part) for part in re.split(r"\s+WITH\s+", spdx))


def with_vendored_licences(licence: str, texts: Iterable[str]) -> str:
    """The wheel's own licence and, joined by 'and', those of the libraries it vendors."""
    names = [licence]
    known = {term.lower() for term in re.split(r" (?:and|or) ", licence)}
    for text in texts:
        for found in VENDORED_LICENCE.findall(text):
            name = dep5_name(found)
            if name.lower() not in known:
                known.add(name.lower())
                names.append(name)
    return " and ".join(names)


def sbom_components(dist: metadata.Distribution) -> list[str]:
    """What a wheel's CycloneDX SBOMs (dist-info/sboms, PEP 770) say it holds: "name version
    (licence)" each. pydantic-core's lists the Rust crates compiled into its extension, whose
    licence texts the wheel does not carry."""
    found: list[str] = []
    for file in dist.files or []:
        path = PurePosixPath(str(file))
        if not (".dist-info" in path.parts[0] and "sboms" in path.parts and path.suffix == ".json"):
            continue
        data = json.loads(Path(str(dist.locate_file(file))).read_text())
        for component in data.get("components", []):
            licences = [
                entry.get("expression")
                or entry.get("license", {}).get("id")
                or entry.get("license", {}).get("name")
                for entry in component.get("licenses", [])
            ]
            stated = " and ".join(str(name) for name in licences if name) or "licence not stated"
            entry = f"{component['name']} {component.get('version', '')}".strip()
            if f"{entry} (" not in " ".join(found):
                found.append(f"{entry} ({stated})")
    return found


def authors(dist: metadata.Distribution) -> str:
    """Who the wheel's metadata says wrote it, for a wheel whose licence files name no one
    (PySide6: "Qt for Python Team")."""
    meta = dist.metadata
    named = meta.get("Author") or (meta.get("Author-email") or "").split("<")[0]
    named = named.strip().strip('"')
    return named if named and named != "UNKNOWN" else f"the {meta['Name']} authors"


def distribution_paragraph(name: str, tops: list[str]) -> str:
    dist = metadata.distribution(name)
    texts = licence_texts(dist)
    licence = with_vendored_licences(licence_name(dist), (t for _, t in texts))
    files = [f"{INSTALLED}/_internal/{top}/*" for top in tops]
    holders = copyright_lines((t for _, t in texts), authors(dist))
    comment = (
        f"{name} {dist.version}; pure-Python modules sit in the archive inside {INSTALLED}/killbox."
    )
    vendored = sorted({found for _, text in texts for found in VENDORED_NAME.findall(text)})
    if vendored:
        comment += " The licence file also holds the texts of what the wheel bundles: "
        comment += ", ".join(vendored) + "."
    listed = sbom_components(dist)
    if listed:
        comment += " The wheel's software bill of materials (dist-info/sboms) lists, with their "
        comment += "licences (the bundle may leave some out): " + "; ".join(listed) + "."
    if texts:
        body = "\n .\n".join(field_text(f"--- {file} ---\n{text}") for file, text in texts)
        return paragraph(files, holders, licence, body, comment)
    references = [path for spdx, path in COMMON_LICENSES.items() if spdx in licence]
    if not references:
        raise SystemExit(
            f"{name} {dist.version} carries no licence text and is not {licence!r}-known"
        )
    body = field_text(
        f"The {name} wheel carries no licence file. The full texts of its licences are in "
        + ", ".join(references)
        + "."
    )
    return paragraph(files, holders, licence, body, comment)


# Debian's copyright file for its own build of the same Python release series lists the
# licences of the code Python incorporates (expat in pyexpat, libmpdec in _decimal, the
# Mersenne Twister, dtoa, ...): the section from this heading on.
INCORPORATED = "Licenses and Acknowledgements for Incorporated Software"


def incorporated_software() -> tuple[Path, str]:
    debian = Path(f"/usr/share/doc/libpython{sys.version_info[0]}.{sys.version_info[1]}-minimal")
    text = (debian / "copyright").read_text() if (debian / "copyright").is_file() else ""
    if INCORPORATED not in text:
        raise SystemExit(
            f"{debian}/copyright (Debian's {debian.name}) is missing or has no "
            f"{INCORPORATED!r}: it gives the licences of the code the interpreter incorporates"
        )
    return debian / "copyright", text[text.index(INCORPORATED) :]


def python_paragraph() -> str:
    text = (Path(sysconfig.get_path("stdlib")) / "LICENSE.txt").read_text()
    source, incorporated = incorporated_software()
    # Python 3.11's _sha3 and _blake2 hold the Keccak Code Package and BLAKE2's reference
    # code, both dedicated to the public domain under CC0 1.0; Debian's list does not name them.
    hashes = (
        "The _sha3 and _blake2 modules hold the Keccak Code Package and the BLAKE2 reference "
        "implementation, both under CC0-1.0; its full text is in "
        "/usr/share/common-licenses/CC0-1.0."
    )
    files = [
        f"{INSTALLED}/_internal/libpython3*",
        f"{INSTALLED}/_internal/python3*/*",
        f"{INSTALLED}/_internal/base_library.zip",
    ]
    body = "\n .\n".join(
        [field_text(text), field_text(f"--- From {source} ---\n{incorporated}"), field_text(hashes)]
    )
    return paragraph(
        files,
        ["2001-2024 Python Software Foundation"],
        "PSF-2.0 and Python-incorporated",
        body,
        f"The Python {sys.version.split()[0]} interpreter and standard library, with the "
        "software it incorporates (the licences after the PSF's).",
    )


def pyinstaller_paragraph() -> str:
    dist = metadata.distribution("pyinstaller")
    texts = licence_texts(dist)
    body = "\n .\n".join(field_text(text) for _, text in texts)
    return paragraph(
        [f"{INSTALLED}/killbox"],
        ["2005-2024 PyInstaller Development Team"],
        "GPL-2.0-or-later with bootloader exception",
        body,
        f"The program {INSTALLED}/killbox is PyInstaller {dist.version}'s bootloader.",
    )


def main(root: Path, sources_file: Path) -> None:
    sources = [
        tuple(line.split("\t", 1)) for line in sources_file.read_text().splitlines() if "\t" in line
    ]
    header = (
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
        "Upstream-Name: Killbox\n"
        "Comment: Killbox is MIT-licensed. The bundle carries the Python runtime, PyInstaller's\n"
        " bootloader, the Python packages below and Qt with the third-party code built into it,\n"
        " each under its own licence."
    )
    killbox = paragraph(
        ["*"], ["Killbox developers"], "MIT", field_text((root / "LICENSE").read_text())
    )
    blocks = [header, killbox, python_paragraph(), pyinstaller_paragraph()]
    blocks += [
        distribution_paragraph(name, tops) for name, tops in bundled_distributions(sources).items()
    ]  # type: ignore[arg-type]
    blocks += native_licences.paragraphs()
    print("\n\n".join(blocks))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
