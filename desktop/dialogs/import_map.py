"""Universal VTT import: the options dialog and a progress dialog fed by the importer.

File > Import asks for the options; dropping a file or ``killbox MAP.dd2vtt`` uses the
defaults. The rule system offered first, and the one a dropped map takes, is that of the
encounter open (a map names none). Either way the progress dialog shows the importer's
stages while it loads.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QProgressDialog,
    QVBoxLayout,
    QWidget,
)

from desktop.documents import Document, DocumentError, ImportOptions, load_document
from engine.rules import get_system, system_names

PORTAL_CHOICES = (
    ("window", "Windows (block movement, not sight)"),
    ("door", "Open doors"),
)


class ImportCancelled(Exception):
    """The GM pressed Cancel on the progress dialog."""


class ImportOptionsDialog(QDialog):
    """Objects block sight? Unclosed portals are windows or open doors? Which rule system?"""

    def __init__(self, parent: QWidget | None, path: Path, system: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Import {path.name}")
        defaults = ImportOptions(system)
        self.objects_block_sight = QCheckBox("Objects block sight")
        self.objects_block_sight.setChecked(defaults.objects_block_sight)
        self.objects_block_sight.setToolTip(
            "Object outlines (crates, pillars) become low cover that blocks sight, "
            "not a full wall. Untick to ignore them."
        )
        self.open_portals = QComboBox()
        for key, text in PORTAL_CHOICES:
            self.open_portals.addItem(text, key)
        self.open_portals.setCurrentIndex(self.open_portals.findData(defaults.open_portals_as))
        self.system = QComboBox()
        for name in system_names():
            self.system.addItem(get_system(name).title, name)
        self.system.setCurrentIndex(self.system.findData(defaults.system))
        form = QFormLayout()
        form.addRow(self.objects_block_sight)
        form.addRow("Portals exported as not closed are", self.open_portals)
        form.addRow("Rule system", self.system)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Universal VTT map (Dungeondraft, DungeonFog, Dungeon Alchemist…)"))
        layout.addLayout(form)
        layout.addWidget(buttons)

    def options(self) -> ImportOptions:
        return ImportOptions(
            objects_block_sight=self.objects_block_sight.isChecked(),
            open_portals_as=str(self.open_portals.currentData()),
            system=str(self.system.currentData()),
        )


class ImportProgress:
    """A QProgressDialog the importer's ``progress(fraction, stage)`` callback moves on."""

    def __init__(self, parent: QWidget | None, path: Path) -> None:
        self.dialog = QProgressDialog(f"Importing {path.name}…", "Cancel", 0, 100, parent)
        self.dialog.setWindowTitle("Importing a Universal VTT map")
        self.dialog.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog.setMinimumDuration(300)  # small maps load before it would flash up
        self.stages: list[tuple[int, str]] = []

    def __call__(self, fraction: float, stage: str) -> None:
        if self.dialog.wasCanceled():
            raise ImportCancelled(stage)
        value = round(100 * fraction)
        self.stages.append((value, stage))
        self.dialog.setLabelText(stage)
        self.dialog.setValue(value)
        QApplication.processEvents()  # paint the bar and notice Cancel

    def close(self) -> None:
        self.dialog.reset()
        self.dialog.close()


def import_with_progress(
    parent: QWidget | None, path: Path, options: ImportOptions
) -> tuple[Document, ImportProgress]:
    """Import ``path`` under a progress dialog; raises DocumentError or ImportCancelled."""
    progress = ImportProgress(parent, path)
    try:
        document = load_document(path, options, progress)
    except ValueError as error:  # an unknown system or portal choice from the importer
        raise DocumentError(f"{path}: {error}") from error
    finally:
        progress.close()
    return document, progress
