"""Print the .deb's /usr/share/doc/killbox/copyright (machine-readable, DEP-5 format), or the
Windows and macOS bundles' THIRD-PARTY-LICENSES.txt in the same format.

Usage: python packaging/linux/copyright.py CHECKOUT SOURCES [--platform windows|macos]
           [--root DIR] [--bundle INTERNAL] [--output FILE]
CHECKOUT is the checkout; SOURCES is the spec's bundled-sources.txt (bundle name, source path).
--bundle names the frozen folder's _internal: the build stops when a library there is named by
no entry of native-components.toml for the platform. --root is where the Debian files the texts
come from are read (the release workflow's copy of a Debian 12 machine's). On Windows and macOS
the licences Debian keeps in /usr/share/common-licenses are quoted whole, once each, at the end.
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

import argparse
import json
import re
import sys
import sysconfig
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path, PurePosixPath

import native_licences
import rust_crates


@dataclass(frozen=True)
class Layout:
    """Where the frozen folder's parts are installed, as the notices' Files patterns name them."""

    internal: str  # the folder PyInstaller calls _internal
    bootloader: str  # the program itself (PyInstaller's bootloader)


LAYOUTS = {
    "linux": Layout("usr/lib/killbox/_internal", "usr/lib/killbox/killbox"),
    # Relative to the installation folder (Program Files\Killbox) and to Killbox.app.
    "windows": Layout("_internal", "killbox.exe"),
    "macos": Layout("Contents/Frameworks", "Contents/MacOS/killbox"),
}
LAYOUT = LAYOUTS["linux"]
COMMON_NAMED = re.compile(r"/usr/share/common-licenses/([A-Za-z0-9.+-]+[A-Za-z0-9])")
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
                text = with_common_licences(located.read_text(encoding="utf-8", errors="replace"))
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


def sbom_documents(dist: metadata.Distribution) -> list[dict[str, object]]:
    """A wheel's CycloneDX SBOMs (dist-info/sboms, PEP 770), parsed."""
    found = []
    for file in dist.files or []:
        path = PurePosixPath(str(file))
        if ".dist-info" in path.parts[0] and "sboms" in path.parts and path.suffix == ".json":
            found.append(json.loads(Path(str(dist.locate_file(file))).read_text(encoding="utf-8")))
    return found


def sbom_components(dist: metadata.Distribution) -> list[str]:
    """What a wheel's SBOMs say it holds besides Rust crates (those are quoted with their texts,
    rust_crates.py): "name version (licence)" each."""
    found: list[str] = []
    for data in sbom_documents(dist):
        for component in data.get("components", []):  # type: ignore[attr-defined]
            if str(component.get("purl", "")).startswith("pkg:cargo/"):
                continue
            licences = rust_crates.component_licences(component)
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
    files = [f"{LAYOUT.internal}/{top}/*" for top in tops]
    holders = copyright_lines((t for _, t in texts), authors(dist))
    comment = (
        f"{name} {dist.version}; pure-Python modules sit in the archive inside {LAYOUT.bootloader}."
    )
    vendored = sorted({found for _, text in texts for found in VENDORED_NAME.findall(text)})
    if vendored:
        comment += " The licence file also holds the texts of what the wheel bundles: "
        comment += ", ".join(vendored) + "."
    listed = sbom_components(dist)
    if listed:
        comment += " The wheel's software bill of materials (dist-info/sboms) lists, with their "
        comment += "licences (the bundle may leave some out): " + "; ".join(listed) + "."
    crates = [crate for data in sbom_documents(dist) for crate in rust_crates.sbom_crates(data)]
    if crates:
        # The wheel carries no text of the crates compiled into it: quoted from the checkout.
        rust = rust_crates.section(crates, with_common_licences)
        texts.append(("the Rust crates compiled into the extension module", rust.text))
        holders += [holder for holder in rust.holders if holder not in holders]
        licence = rust_crates.licence(crates, first=licence)
        comment += (
            " The Rust crates compiled into its extension module, as its software bill of "
            "materials names them, are listed and their licence files quoted after its own."
        )
    references = [path for spdx, path in COMMON_LICENSES.items() if spdx in licence]
    if texts:
        body = "\n .\n".join(field_text(f"--- {file} ---\n{text}") for file, text in texts)
        if references:  # the Windows and macOS PySide6 wheels carry only the commercial licence
            body += "\n .\n" + field_text(
                "The full texts of its other licences are in " + ", ".join(references) + "."
            )
        return paragraph(files, holders, licence, body, comment)
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
    debian = native_licences.DOC / f"libpython{sys.version_info[0]}.{sys.version_info[1]}-minimal"
    found = native_licences.on_disk(debian / "copyright")
    text = found.read_text(encoding="utf-8") if found.is_file() else ""
    if INCORPORATED not in text:
        raise SystemExit(
            f"{debian}/copyright (Debian's {debian.name}) is missing or has no "
            f"{INCORPORATED!r}: it gives the licences of the code the interpreter incorporates"
        )
    return debian / "copyright", text[text.index(INCORPORATED) :]


def python_licence() -> str:
    """The interpreter's LICENSE.txt: beside the standard library (Linux, macOS) or in the
    installation folder (Windows)."""
    for folder in (Path(sysconfig.get_path("stdlib")), Path(sys.base_prefix)):
        if (folder / "LICENSE.txt").is_file():
            return (folder / "LICENSE.txt").read_text(encoding="utf-8", errors="replace")
    raise SystemExit(f"no LICENSE.txt in {sysconfig.get_path('stdlib')} or {sys.base_prefix}")


# The interpreter's own files in the frozen folder, by platform (extension modules of the
# standard library: lib-dynload on Linux and macOS, .pyd files at the top on Windows).
PYTHON_FILES = {
    "linux": ["libpython3*", "python3*/*", "base_library.zip"],
    "windows": [
        "python3*.dll",
        "_*.pyd",
        "pyexpat.pyd",
        "select.pyd",
        "unicodedata.pyd",
        "winsound.pyd",
        "base_library.zip",
    ],
    "macos": ["Python", "libpython3*", "python3*/*", "lib-dynload/*", "base_library.zip"],
}


def python_paragraph(platform: str = "linux") -> str:
    text = python_licence()
    source, incorporated = incorporated_software()
    # Python 3.11's _sha3 and _blake2 hold the Keccak Code Package and BLAKE2's reference
    # code, both dedicated to the public domain under CC0 1.0; Debian's list does not name them.
    hashes = (
        "The _sha3 and _blake2 modules hold the Keccak Code Package and the BLAKE2 reference "
        "implementation, both under CC0-1.0; its full text is in "
        "/usr/share/common-licenses/CC0-1.0."
    )
    files = [f"{LAYOUT.internal}/{pattern}" for pattern in PYTHON_FILES[platform]]
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
        [LAYOUT.bootloader],
        ["2005-2024 PyInstaller Development Team"],
        "GPL-2.0-or-later with bootloader exception",
        body,
        f"The program {LAYOUT.bootloader} is PyInstaller {dist.version}'s bootloader.",
    )


def with_common_licences_quoted(text: str) -> str:
    """For Windows and macOS, which have no /usr/share/common-licenses: each licence pointed at
    there becomes a stand-alone License paragraph at the end, its text read from Debian's copy."""
    names = sorted(set(COMMON_NAMED.findall(text)))
    text = COMMON_NAMED.sub(lambda found: f"the License paragraph {found[1]} at the end", text)
    for name in names:
        common = native_licences.on_disk(native_licences.COMMON / name)
        if not common.is_file():
            raise SystemExit(f"{common} is missing: the notices quote it")
        text += f"\n\nLicense: {name}\n{field_text(common.read_text(encoding='utf-8'))}"
    return text


def notices(checkout: Path, sources_file: Path, platform: str = "linux") -> str:
    """The whole copyright file (Linux) or THIRD-PARTY-LICENSES.txt (Windows, macOS)."""
    global LAYOUT
    LAYOUT = LAYOUTS[platform]
    sources = [
        tuple(line.split("\t", 1))
        for line in sources_file.read_text(encoding="utf-8").splitlines()
        if "\t" in line
    ]
    where = (
        ""
        if platform == "linux"
        else (
            "\n .\n Paths are relative to the folder Killbox is installed in"
            + (" (Killbox.app)." if platform == "macos" else ".")
        )
    )
    header = (
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
        "Upstream-Name: Killbox\n"
        "Comment: Killbox is MIT-licensed. The bundle carries the Python runtime, PyInstaller's\n"
        " bootloader, the Python packages below and Qt with the third-party code built into it,\n"
        " each under its own licence." + where
    )
    killbox = paragraph(
        ["*"],
        ["Killbox developers"],
        "MIT",
        field_text((checkout / "LICENSE").read_text(encoding="utf-8")),
    )
    blocks = [header, killbox, python_paragraph(platform), pyinstaller_paragraph()]
    blocks += [
        distribution_paragraph(name, tops) for name, tops in bundled_distributions(sources).items()
    ]  # type: ignore[arg-type]
    manifest = native_licences.load_manifest(platform=platform)
    blocks += native_licences.paragraphs(manifest, LAYOUT.internal)
    text = "\n\n".join(blocks)
    return text if platform == "linux" else with_common_licences_quoted(text)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("sources", type=Path, help="the spec's bundled-sources.txt")
    parser.add_argument("--platform", choices=sorted(LAYOUTS), default="linux")
    parser.add_argument("--root", type=Path, default=Path("/"), help="the Debian files' root")
    parser.add_argument("--bundle", type=Path, help="the frozen folder's _internal, checked")
    parser.add_argument("--output", type=Path, help="write here (UTF-8) instead of stdout")
    args = parser.parse_args(argv)
    native_licences.use_root(args.root)
    if args.bundle:
        manifest = native_licences.load_manifest(platform=args.platform)
        unnamed = native_licences.unnamed_libraries(args.bundle, manifest)
        if unnamed:
            raise SystemExit(
                f"no entry of native-components.toml for {args.platform} names these bundled "
                "libraries, so their licences would be left out: " + ", ".join(unnamed)
            )
    text = notices(args.checkout, args.sources, args.platform)
    if args.output:
        args.output.write_text(text + "\n", encoding="utf-8")
    else:
        print(text)


if __name__ == "__main__":
    main(sys.argv[1:])
