"""Saving documents: the file system's refusals reach the GM in words, the old file intact."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

import engine.files.atomic as atomic_module
from desktop.documents import Document, DocumentError, load_document, save_document
from tests.desktop.sample import sample_state


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "fight.killbox"
    save_document(Document(sample_state()), path)
    return path


def test_a_read_only_file_is_refused_in_words(saved: Path) -> None:
    os.chmod(saved, 0o444)
    before = saved.read_bytes()
    with pytest.raises(DocumentError, match=r"read-only.*unchanged"):
        save_document(Document(sample_state()), saved)
    assert saved.read_bytes() == before


@pytest.mark.parametrize(
    ("number", "words"),
    [
        (errno.ENOSPC, "the disk is full"),
        (errno.EROFS, "read-only disk"),
        (errno.EACCES, "may not write there"),
    ],
)
def test_a_file_system_error_is_named_and_the_old_file_kept(
    saved: Path, monkeypatch: pytest.MonkeyPatch, number: int, words: str
) -> None:
    before = saved.read_bytes()

    def refuse(directory: Path) -> str:
        raise OSError(number, os.strerror(number), str(directory))

    monkeypatch.setattr(atomic_module, "_create_temporary", refuse)
    with pytest.raises(DocumentError) as raised:
        save_document(Document(sample_state()), saved)
    assert words in str(raised.value) and "unchanged" in str(raised.value)
    assert saved.read_bytes() == before
    assert load_document(saved).state == sample_state()


def test_the_window_shows_a_refused_save_to_the_gm(window, saved: Path) -> None:  # type: ignore[no-untyped-def]
    shown: list[tuple[str, str]] = []
    window.show_error = lambda title, text: shown.append((title, text))
    os.chmod(saved, 0o444)
    assert not window.save_to(saved)
    assert shown and shown[0][0] == "Could not save" and "read-only" in shown[0][1]
    assert window.controller.dirty or window.controller.path != saved
