"""Build the bundled encounters: ``python maps/build_maps.py [NAME ...]``.

Each encounter's rules data comes from its module in ``maps/encounters``; its background
picture is painted from that same data (``maps/painting.py``), so walls, doors and cover
always sit where the picture shows them. The output is deterministic: running the script
again writes byte-identical ``.killbox`` files.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.files import EncounterFile, save_encounter
from maps.encounters import compound, night_street, office_floor, warehouse
from maps.painting import Scene, encode_png, paint

#: Where the bundled ``.killbox`` files live.
MAPS_DIR = Path(__file__).resolve().parent
#: The encounter the app opens on first start.
DEFAULT_ENCOUNTER = "warehouse"

SCENES: dict[str, Callable[[], Scene]] = {
    "warehouse": warehouse.build,
    "night_street": night_street.build,
    "office_floor": office_floor.build,
    "compound": compound.build,
}


def encounter_file(scene: Scene) -> EncounterFile:
    """The scene's state with its freshly painted background."""
    return EncounterFile(scene.state, {scene.image_name: encode_png(paint(scene))})


def output_path(name: str, folder: Path = MAPS_DIR) -> Path:
    return folder / f"{name}.killbox"


def build(names: Sequence[str], folder: Path = MAPS_DIR) -> list[Path]:
    written = []
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        scene = SCENES[name]()
        path = output_path(name, folder)
        save_encounter(path, encounter_file(scene))
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help=f"encounters to build (default: all of {', '.join(SCENES)})")
    parser.add_argument("--out", type=Path, default=MAPS_DIR, help="folder to write into")
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in SCENES]
    if unknown:
        parser.error(f"no bundled encounter called {', '.join(unknown)}; "
                     f"choose from {', '.join(SCENES)}")
    for path in build(args.names or list(SCENES), args.out):
        print(f"wrote {path} ({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
