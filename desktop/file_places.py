"""Where the file dialogs open, and the name Save as proposes.

A dialog opened on "" starts in the folder Killbox was launched from (the install folder
from a desktop icon), so every Save as and Open began with a hunt for the GM's own folder.
They open beside the fight's own file, else beside the last fight opened, else in the
Documents folder; Save as proposes the fight's name as the file name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QStandardPaths


def start_folder(current: Path | None, recent: Sequence[str]) -> Path:
    """The folder of the fight's file, else of the newest recent file, else Documents."""
    candidates = [current.parent] if current is not None else []
    candidates += [Path(name).parent for name in recent[:1] if name]
    for folder in candidates:
        if folder.is_dir():
            return folder
    documents = QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.DocumentsLocation
    )
    return Path(documents) if documents and Path(documents).is_dir() else Path.home()


def suggested_file(folder: Path, name: str, suffix: str) -> Path:
    """``folder/<name><suffix>``, the name kept to characters every file system takes."""
    spaced = re.sub(r'[\\/:*?"<>|\x00-\x1f]+', " ", name)
    safe = re.sub(r"\s+", " ", spaced).strip(" .") or "encounter"
    return folder / f"{safe[:100]}{suffix}"
