"""The portable .tar.gz: a versioned folder with a README (what to install, how to run, how to
uninstall) and the licences."""

from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path

import pytest

from tests.packaging.conftest import project_version

pytestmark = pytest.mark.packaging


def readme(tarball: Path) -> str:
    with tarfile.open(tarball) as archive:
        member = archive.extractfile(f"killbox-{project_version()}/README.txt")
        assert member is not None
        return member.read().decode()


def apt_line_packages(text: str) -> list[str]:
    (line,) = [line for line in text.splitlines() if line.strip().startswith("sudo apt install ")]
    return line.split("install", 1)[1].split()


def test_everything_sits_in_a_versioned_folder(tarball: Path) -> None:
    folder = f"killbox-{project_version()}"
    assert tarball.name.startswith(folder + "-linux-")
    with tarfile.open(tarball) as archive:
        names = archive.getnames()
    assert {name.split("/")[0] for name in names} == {folder}
    assert {f"{folder}/killbox", f"{folder}/README.txt", f"{folder}/COPYRIGHT.txt"} <= set(names)


@pytest.mark.parametrize("section", ["Install first", "Run", "Uninstall"])
def test_readme_has_section(tarball: Path, section: str) -> None:
    assert f"\n{section}\n---" in readme(tarball)


def test_readme_lists_every_package_the_deb_depends_on_and_a_font(tarball: Path, deb: Path) -> None:
    depends = subprocess.run(
        ["dpkg-deb", "-f", str(deb), "Depends"], capture_output=True, text=True, check=True
    ).stdout
    declared = [item.split()[0] for item in depends.strip().split(", ")]
    listed = apt_line_packages(readme(tarball))
    assert set(declared) <= set(listed)
    assert "fonts-dejavu-core" in listed
