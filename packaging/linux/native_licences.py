"""The copyright paragraphs of the bundle's native libraries that no wheel licence file covers:
Qt's libraries and plug-ins, the third-party code built into them, and ICU.

packaging/linux/native-components.toml says which library holds which components and where
each component's copyright and licence text are read from on the build machine: a Files
paragraph of an installed Debian package's machine-readable copyright file (with the licence
texts that file carries), a licence file, or /usr/share/common-licenses. One Files paragraph is
written for each set of libraries that hold the same components, its licence texts inline.
Nothing is made up: a component whose text no installed package carries is quoted from a notice
kept in the checkout (packaging/licences/) or says so (`missing`),
and a source that is not installed stops the build.

The same manifest lists the Windows and macOS bundles' libraries (`platform`); the release
workflow reads the Debian files from a copy made in a Debian 12 container (use_root).
"""

from __future__ import annotations

import fnmatch
import glob
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

MANIFEST = Path(__file__).with_name("native-components.toml")
CHECKOUT = MANIFEST.parents[2]  # a manifest `text` given relatively is in the checkout
PLATFORMS = ("linux", "windows", "macos")
# Where the files named below are read: / on the Debian build machine, or a copy of them.
ROOT = Path("/")
DOC = Path("/usr/share/doc")
COMMON = Path("/usr/share/common-licenses")
INSTALLED = "usr/lib/killbox/_internal"
# The first bytes of a library or extension module: ELF, PE ("MZ"), Mach-O (64- and 32-bit,
# and universal).
NATIVE_MAGIC = (b"\x7fELF", b"MZ", b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe", b"\xca\xfe\xba\xbe")


def use_root(root: Path) -> None:
    """Read /usr/share/doc and /usr/share/common-licenses under ROOT (the release workflow's
    copy of a Debian 12 machine's, for Windows and macOS)."""
    global ROOT
    ROOT = root


def on_disk(path: Path) -> Path:
    """Where an absolute path of the Debian machine is read."""
    return ROOT / path.relative_to("/")


# DEP-5 licence expressions: names joined by "and"/"or", a comma lowering the precedence.
OPERATOR = re.compile(r",?\s+(?:and|or)\s+")


@dataclass(frozen=True)
class Library:
    files: tuple[str, ...]
    components: tuple[str, ...] = ()
    paragraph: str = ""  # a paragraph copyright.py writes (a wheel, "Python", "Killbox")
    platform: str = "linux"

    def holds(self, path: str) -> bool:
        if self.platform == "linux":
            return any(fnmatch.fnmatchcase(path, pattern) for pattern in self.files)
        # Windows and macOS ignore case in names (VCRUNTIME140.dll beside vcruntime140_1.dll).
        return any(fnmatch.fnmatchcase(path.lower(), pattern.lower()) for pattern in self.files)


@dataclass
class Manifest:
    libraries: list[Library]
    components: dict[str, dict[str, object]] = field(default_factory=dict)

    def library_for(self, path: str) -> Library | None:
        """The entry naming PATH (relative to _internal/): the last one, as in DEP-5."""
        found = [library for library in self.libraries if library.holds(path)]
        return found[-1] if found else None


def load_manifest(path: Path = MANIFEST, platform: str = "linux") -> Manifest:
    """The libraries of one platform's bundle (an entry without `platform` is Linux's)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    every = [
        Library(
            tuple(entry["files"]),
            tuple(entry.get("components", ())),
            entry.get("paragraph", ""),
            entry.get("platform", "linux"),
        )
        for entry in data["library"]
    ]
    unknown = {c for lib in every for c in lib.components} - data["component"].keys()
    if unknown:
        raise SystemExit(f"{path.name}: libraries name unknown components {sorted(unknown)}")
    strange = {lib.platform for lib in every} - set(PLATFORMS)
    if strange:
        raise SystemExit(f"{path.name}: unknown platforms {sorted(strange)}")
    return Manifest([lib for lib in every if lib.platform == platform], data["component"])


def native_libraries(internal: Path) -> list[str]:
    """Every library, plug-in and extension module in a frozen folder (its _internal), by its
    path there; links are left out (the files they point at are listed)."""
    found = []
    for path in sorted(internal.rglob("*")):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as handle:
                if handle.read(4).startswith(NATIVE_MAGIC):
                    found.append(path.relative_to(internal).as_posix())
    return found


def unnamed_libraries(internal: Path, manifest: Manifest) -> list[str]:
    """The libraries of a frozen folder that no manifest entry names: their licences would be
    left out of the notices."""
    return [lib for lib in native_libraries(internal) if manifest.library_for(lib) is None]


def read_dep5(text: str) -> list[dict[str, str]]:
    """A machine-readable copyright file's paragraphs: field name -> value, continuation lines
    kept (with their leading space), so a License field is its name line then its text."""
    paragraphs = []
    for block in re.split(r"\n[ \t]*\n", text):
        fields: dict[str, str] = {}
        name = ""
        for line in block.splitlines():
            if line.startswith("#"):
                continue
            if line[:1] in (" ", "\t") and name:
                fields[name] += "\n" + line
            elif ":" in line:
                name, _, value = line.partition(":")
                fields[name] = value.strip()
        if fields:
            paragraphs.append(fields)
    return paragraphs


@dataclass(frozen=True)
class Licensed:
    """One component's statement: who holds the copyright, the licence expression, the texts."""

    name: str
    copyright: tuple[str, ...]
    licence: str
    texts: tuple[tuple[str, str], ...]  # (licence name, text) in the order named
    source: str


def licence_texts(paragraphs: list[dict[str, str]], field_value: str) -> list[tuple[str, str]]:
    """The texts of a License field: inline after its name line, or each name's stand-alone
    License paragraph (a "with ... exception" name is looked up whole first)."""
    expression, _, inline = field_value.partition("\n")
    if inline.strip():
        return [(expression, inline)]
    standalone = {
        p["License"].partition("\n")[0].strip(): p["License"].partition("\n")[2]
        for p in paragraphs
        if "Files" not in p and "License" in p
    }
    texts = []
    for name in OPERATOR.split(expression.strip()):
        name = name.strip()
        if name in standalone:
            texts.append((name, standalone[name]))
            continue
        base = name.split(" with ")[0].strip()
        if base not in standalone:
            raise SystemExit(f"no text for the licence {name!r} in the copyright file")
        texts.append((base, standalone[base]))
    return texts


def continuation(text: str) -> str:
    """A text as DEP-5 continuation lines: indented, a blank line as " ."""
    lines = (line.rstrip().expandtabs() for line in text.rstrip().splitlines())
    return "\n".join(" " + line if line.strip() else " ." for line in lines)


def installed_package(pattern: str) -> str:
    found = sorted(path.parent.name for path in on_disk(DOC).glob(f"{pattern}/copyright"))
    if not found:
        raise SystemExit(
            f"the Debian package {pattern!r} is not installed: its copyright file gives the "
            "licence texts of code the bundle carries (.ci/run installs it)"
        )
    return found[-1]


def from_debian(component: dict[str, object]) -> Licensed:
    package = installed_package(str(component["debian"]))
    paragraphs = read_dep5(on_disk(DOC / package / "copyright").read_text(encoding="utf-8"))
    wanted = str(component["files"])
    matching = [p for p in paragraphs if wanted in p.get("Files", "").split()]
    if not matching:
        raise SystemExit(f"{package}'s copyright file has no Files paragraph for {wanted!r}")
    paragraph = matching[0]
    holders = tuple(line.strip() for line in paragraph["Copyright"].splitlines() if line.strip())
    licence = paragraph["License"].partition("\n")[0].strip()
    texts = licence_texts(paragraphs, paragraph["License"])
    source = f"{DOC / package / 'copyright'} (Files: {wanted})"
    if "text" in component:
        (text_file,) = sorted(glob.glob(str(on_disk(Path(str(component["text"]))))))[-1:]
        body = continuation(Path(text_file).read_text(encoding="utf-8"))
        licence = str(component.get("licence", licence))
        texts = [(licence, body)]
        source += f"; the licence text from /{Path(text_file).relative_to(ROOT)}"
    return Licensed(str(component["name"]), holders, licence, tuple(texts), source)


def statement(component: dict[str, object]) -> Licensed:
    if "debian" in component:
        return from_debian(component)
    licence = str(component["licence"])
    holders = tuple(str(holder) for holder in component["copyright"])  # type: ignore[attr-defined]
    if "missing" in component:
        note = f" The text of {licence} is not included: {component['missing']}."
        return Licensed(str(component["name"]), holders, licence, ((licence, note),), "")
    if "text" in component:  # a licence file, quoted whole
        text_file = Path(str(component["text"]))
        in_checkout = not text_file.is_absolute()
        body = continuation(
            (CHECKOUT / text_file if in_checkout else on_disk(text_file)).read_text(
                encoding="utf-8"
            )
        )
        return Licensed(
            str(component["name"]),
            holders,
            licence,
            ((licence, body),),
            str(component.get("source", text_file)),
        )
    common = COMMON / str(component["common"])
    if not on_disk(common).is_file():
        raise SystemExit(f"{common} is missing (Debian's base-files provides it)")
    pointer = f" The full text of this licence is in {common}."
    return Licensed(str(component["name"]), holders, licence, ((licence, pointer),), str(common))


def joined(licences: list[str]) -> str:
    """Several components' expressions as one: each kept whole (a comma ends an "or")."""
    terms = [term for licence in licences for term in re.split(r",\s+and\s+", licence)]
    return ", and ".join(dict.fromkeys(terms))


def paragraph_for_libraries(files: list[str], parts: list[Licensed], installed: str) -> str:
    holders = list(dict.fromkeys(holder for part in parts for holder in part.copyright))
    sections = []
    seen: set[tuple[str, str]] = set()
    for part in parts:
        for name, text in part.texts:
            if (name, text) in seen:
                continue  # Qt's own licence, once
            seen.add((name, text))
            source = f" (from {part.source})" if part.source else ""
            sections.append(f" --- {part.name}: {name}{source} ---\n{text.rstrip()}")
    names = ", ".join(part.name for part in parts)
    lines = [
        "Files: " + " ".join(f"{installed}/{pattern}" for pattern in files),
        "Copyright: " + "\n ".join(holders),
        "License: " + joined([part.licence for part in parts]),
        "\n .\n".join(sections),
        f"Comment: Holds code of: {names}.",
    ]
    return "\n".join(lines)


def paragraphs(manifest: Manifest | None = None, installed: str = INSTALLED) -> list[str]:
    """One Files paragraph per set of libraries with the same components, in manifest order;
    INSTALLED is where the frozen folder's _internal is installed."""
    manifest = manifest or load_manifest()
    grouped: dict[tuple[str, ...], list[str]] = {}
    for library in manifest.libraries:
        if library.components:
            grouped.setdefault(library.components, []).extend(library.files)
    statements = {name: statement(manifest.components[name]) for key in grouped for name in key}
    return [
        paragraph_for_libraries(files, [statements[name] for name in key], installed)
        for key, files in grouped.items()
    ]
