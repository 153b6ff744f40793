"""Minimal roots of the distributions the .deb and the tarball promise to run on, made by
`debootstrap --variant=minbase` and cached between runs as tars in ~/.cache/killbox-root
(KILLBOX_ROOT_CACHE), with the packages apt downloads into each (one folder per release).

Debian 12 and 13 come from the Debian archive this machine's apt uses. Ubuntu 22.04 (glibc
2.35, the bundle's floor) and 24.04 come from debootstrap's own default Ubuntu mirror, checked
against the Ubuntu archive's 2018 signing key kept beside this file
(ubuntu-archive-2018.gpg, fingerprint F6EC B376 2474 EDA9 D21B 7022 8719 20D1 991B C93C; Debian
ships no Ubuntu keyring), with universe enabled as on a desktop install. A release whose
archive cannot be reached is skipped with debootstrap's own message.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("KILLBOX_ROOT_CACHE", Path.home() / ".cache" / "killbox-root"))
APT_ENV = {
    "DEBIAN_FRONTEND": "noninteractive",
    "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
    "LANG": "C.UTF-8",
    "HOME": "/root",
}
# What debootstrap says when the archive is out of reach (no network, DNS, a proxy refusing).
UNREACHABLE = re.compile(
    r"Failed getting release file|Couldn't download|Temporary failure resolving|"
    r"Could not resolve|Connection (?:refused|timed out)|Network is unreachable"
)


@dataclasses.dataclass(frozen=True)
class Release:
    name: str  # how the tests name it: debian-12, ubuntu-22.04
    suite: str
    glibc: str  # the C library it ships, for the report
    ubuntu: bool = False

    def debootstrap(self, target: Path) -> list[str]:
        command = ["debootstrap", "--variant=minbase"]
        if not self.ubuntu:
            return [*command, self.suite, str(target), debian_mirror()]
        # No mirror: the script's default (the Ubuntu archive). gutsy is debootstrap's script
        # for every Ubuntu release; Debian 12's debootstrap predates noble's own link to it.
        keyring = f"--keyring={HERE / 'ubuntu-archive-2018.gpg'}"
        return [
            *command,
            "--components=main,universe",
            keyring,
            self.suite,
            str(target),
            "",
            "gutsy",
        ]


RELEASES = [
    Release("debian-12", "bookworm", "2.36"),
    Release("debian-13", "trixie", "2.41"),
    Release("ubuntu-22.04", "jammy", "2.35", ubuntu=True),
    Release("ubuntu-24.04", "noble", "2.39", ubuntu=True),
]


def debian_mirror() -> str:
    """The Debian archive this machine's apt installs from."""
    sources = [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]
    for source in sources:
        text = source.read_text() if source.is_file() else ""
        found = re.search(r"^URIs:\s*(\S+/debian)\s*$", text, re.M) or re.search(
            r"^deb\s+(?:\[[^]]*\]\s+)?(\S+/debian)\s", text, re.M
        )
        if found:
            return found[1]
    pytest.skip("this machine's apt does not use a Debian archive")


def chroot(root: Path, *command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        ["chroot", str(root), *command],
        env=APT_ENV,
        capture_output=True,
        text=True,
        check=False,
        timeout=1200,
    )
    if check:
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result


def minbase_tar(release: Release) -> Path:
    """The cached tar of the release's minbase root, made on first use."""
    if os.geteuid() != 0 or shutil.which("debootstrap") is None:
        pytest.skip("needs root and debootstrap (apt-get install debootstrap)")
    cached = CACHE / f"{release.suite}-minbase.tar"
    if cached.exists():
        return cached
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as scratch:
        root = Path(scratch) / "root"
        made = subprocess.run(
            release.debootstrap(root), capture_output=True, text=True, timeout=1800, check=False
        )
        if made.returncode != 0:
            log = root / "debootstrap" / "debootstrap.log"
            said = made.stdout + made.stderr + (log.read_text() if log.is_file() else "")
            for line in said.splitlines():
                if UNREACHABLE.search(line):
                    pytest.skip(f"{release.name}: its archive is out of reach: {line.strip()}")
            raise AssertionError(said[-4000:])
        # debootstrap leaves its packages in apt's cache; each root mounts its own cache instead.
        for package in (root / "var/cache/apt/archives").glob("*.deb"):
            package.unlink()
        partial = cached.with_suffix(".partial")
        subprocess.run(["tar", "-C", str(root), "-cf", str(partial), "."], check=True)
        partial.rename(cached)
    return cached


def unpack(release: Release, where: Path) -> Path:
    """The release's cached minbase root unpacked into WHERE, to stack fresh roots on."""
    tar = minbase_tar(release)
    subprocess.run(["tar", "-C", str(where), "-xpf", str(tar)], check=True)
    shutil.copy("/etc/resolv.conf", where / "etc" / "resolv.conf")
    # A throwaway root: dpkg need not sync every file it unpacks (most of a test's time).
    (where / "etc/dpkg/dpkg.cfg.d/unsafe-io").write_text("force-unsafe-io\n")
    return where


@contextmanager
def fresh_root(release: Release, base: Path, where: Path) -> Iterator[Path]:
    """A fresh root: an overlay on the unpacked BASE (which stays untouched, so each test
    starts from the bare release at no cost of copying it), with /proc, /dev and the
    release's apt download cache mounted. apt reads the package lists debootstrap left (an
    Ubuntu release pocket never changes); a Debian point release may drop a version, so a
    failed fetch updates them."""
    root, upper, work = where / release.name, where / "upper", where / "work"
    for folder in (root, upper, work):
        folder.mkdir()
    archives = CACHE / f"archives-{release.suite}"
    (archives / "partial").mkdir(parents=True, exist_ok=True)
    layers = f"lowerdir={base},upperdir={upper},workdir={work}"
    mounts = [
        (["-t", "overlay", "overlay", "-o", layers], root),
        (["-t", "proc", "proc"], root / "proc"),
        (["--bind", "/dev"], root / "dev"),
        (["--bind", str(archives)], root / "var/cache/apt/archives"),
    ]
    mounted = []
    try:
        for how, point in mounts:
            subprocess.run(["mount", *how, str(point)], check=True)
            mounted.append(point)
        yield root
    finally:
        for point in reversed(mounted):
            subprocess.run(["umount", "-l", str(point)], check=False)
        shutil.rmtree(upper, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


def apt_install(root: Path, *arguments: str) -> str:
    """`apt-get install -y ARGUMENTS` in the root; the last line apt printed (how many it
    installed)."""
    command = ["apt-get", "install", "-y", "-q", *arguments]
    result = chroot(root, *command, check=False)
    if result.returncode != 0 and re.search(r"Failed to fetch|Unable to fetch", result.stderr):
        chroot(root, "apt-get", "update", "-q")
        result = chroot(root, *command, check=False)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    summary = [line for line in result.stdout.splitlines() if "newly installed" in line]
    return summary[0] if summary else ""
