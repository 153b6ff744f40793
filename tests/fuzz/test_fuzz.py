"""The fuzz run (issue 20, must-have 7): a time-boxed Hypothesis run over both file loaders
(``.killbox`` and Universal VTT) and the command API of every bundled system.

Deselected in the normal run; ``.ci/run`` runs ``pytest -m fuzz``. Each target draws fresh
examples in batches until its time is spent (``KILLBOX_FUZZ_SECONDS`` each, 12 by default,
so the eight targets take about a minute and a half on two workers), and holds each example
to the 5 s / 1 GB bound. A failing example is shrunk and reported by Hypothesis; once fixed
it is kept as a regression test beside the property it broke (an ``@example`` or a plain
test), never only here.
"""

from __future__ import annotations

import copy
import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.files import EncounterFileError, load_encounter, save_encounter
from engine.files.encounter_file import EncounterFile
from engine.files.uvtt import import_uvtt
from engine.rules import get_system
from tests.engine.files.builders import rich_entries, rich_file, write_archive
from tests.engine.files.test_bad_files import good_document
from tests.engine.files.test_bad_files import mutated_documents as mutated_encounters
from tests.engine.files.test_uvtt_fuzz import json_values
from tests.engine.files.test_uvtt_fuzz import mutated_documents as mutated_uvtt
from tests.engine.rules.command_strategies import SYSTEMS, check_command, commands_from, setup_for
from tests.engine.rules.editing_strategies import editing_keys, editing_setup
from tests.resource_bounds import within_bounds

pytestmark = pytest.mark.fuzz

SECONDS = float(os.environ.get("KILLBOX_FUZZ_SECONDS", "12"))
BATCH = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))


def for_a_while(batch: Callable[[], None]) -> int:
    """Run the Hypothesis test ``batch`` again and again (fresh examples each time) until
    SECONDS have passed; the number of batches run."""
    start, runs = time.monotonic(), 0
    while time.monotonic() - start < SECONDS:
        batch()
        runs += 1
    print(f"{runs * BATCH.max_examples} examples in {time.monotonic() - start:.1f} s")
    return runs


def load_or_file_error(path: Path) -> EncounterFile | None:
    """Load within the bound; only the file error (naming the file) may escape."""
    try:
        with within_bounds():
            return load_encounter(path)
    except EncounterFileError as error:
        assert error.path == str(path) and error.place and error.problem
        return None


def saves_and_loads_again(loaded: EncounterFile, folder: Path) -> None:
    again = folder / "again.killbox"
    save_encounter(again, loaded)
    assert load_encounter(again).state == loaded.state


# -- the .killbox loader ------------------------------------------------------------------

@st.composite
def harsh_encounters(draw: st.DrawFn) -> Any:
    """encounter.json with numbers pushed to extremes and values swapped for junk (infinite,
    not-a-number, 30-digit, nested), beside mutated_encounters' structural edits."""
    document = copy.deepcopy(good_document())
    for _ in range(draw(st.integers(1, 4))):
        node, key = document, None
        path = []
        while isinstance(node, dict | list) and node and draw(st.integers(0, 4)):
            key = draw(st.sampled_from(sorted(node) if isinstance(node, dict)
                                       else list(range(len(node)))))
            path.append(node)
            node = node[key]
        if key is None:
            continue
        parent = path[-1]
        if isinstance(node, int | float) and not isinstance(node, bool) and draw(st.booleans()):
            parent[key] = draw(st.sampled_from(
                [float("nan"), float("inf"), -1, 0, 10**30, -(10**9), 1e-308, node * 1000.5]))
        elif isinstance(parent, list) and draw(st.booleans()):
            parent.append(copy.deepcopy(parent[key]))  # a duplicate: two tokens, two weapons
        else:
            parent[key] = draw(json_values)
    return document


@BATCH
@given(document=mutated_encounters() | harsh_encounters())
def _killbox_documents(document: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = write_archive(Path(folder) / "fuzz.killbox", rich_entries(document))
        loaded = load_or_file_error(path)
        if loaded is not None:
            saves_and_loads_again(loaded, Path(folder))


GOOD_ARCHIVE: list[bytes] = []


@BATCH
@given(flips=st.lists(st.tuples(st.integers(min_value=0), st.integers(1, 255)),
                      min_size=1, max_size=6),
       cut=st.none() | st.integers(min_value=0))
def _killbox_bytes(flips: list[tuple[int, int]], cut: int | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        if not GOOD_ARCHIVE:
            good = Path(folder) / "good.killbox"
            save_encounter(good, rich_file())
            GOOD_ARCHIVE.append(good.read_bytes())
        data = bytearray(GOOD_ARCHIVE[0])
        for position, mask in flips:
            data[position % len(data)] ^= mask
        if cut is not None:
            data = data[: cut % (len(data) + 1)]
        path = Path(folder) / "flipped.killbox"
        path.write_bytes(bytes(data))
        load_or_file_error(path)


def test_fuzz_the_killbox_loader_with_mutated_documents() -> None:
    assert for_a_while(_killbox_documents)


def test_fuzz_the_killbox_loader_with_damaged_bytes() -> None:
    assert for_a_while(_killbox_bytes)


# -- the Universal VTT loader -------------------------------------------------------------

def import_or_file_error(path: Path) -> None:
    try:
        with within_bounds():
            result = import_uvtt(path, system="spycraft")
    except EncounterFileError as error:
        assert error.path == str(path) and error.problem
    else:
        assert isinstance(result, EncounterFile)


@BATCH
@given(document=mutated_uvtt())
def _uvtt_documents(document: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.dd2vtt"
        path.write_text(json.dumps(document), encoding="utf-8")
        import_or_file_error(path)


@BATCH
@given(data=st.binary(max_size=256) | st.text(max_size=256).map(str.encode))
def _uvtt_bytes(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "junk.uvtt"
        path.write_bytes(data)
        import_or_file_error(path)


def test_fuzz_the_uvtt_loader_with_mutated_documents() -> None:
    assert for_a_while(_uvtt_documents)


def test_fuzz_the_uvtt_loader_with_junk() -> None:
    assert for_a_while(_uvtt_bytes)


# -- the command API ----------------------------------------------------------------------

@pytest.mark.parametrize("system", SYSTEMS)
def test_fuzz_the_command_api(system: str) -> None:
    keys = [spec.key for spec in get_system(system).catalogue]

    @BATCH
    @given(data=st.data())
    def commands(data: st.DataObject) -> None:
        setup = setup_for(system, data.draw(st.sampled_from(keys)))
        fields = data.draw(commands_from(setup))
        with within_bounds():
            check_command(setup, fields)

    assert for_a_while(commands)


@pytest.mark.parametrize("system", SYSTEMS)
def test_fuzz_the_editing_commands(system: str) -> None:
    """The GM's editing commands and add_token, their points, stat blocks and records."""
    @BATCH
    @given(data=st.data())
    def commands(data: st.DataObject) -> None:
        setup = editing_setup(system, data.draw(st.sampled_from(editing_keys())))
        fields = data.draw(commands_from(setup))
        with within_bounds():
            check_command(setup, fields)

    assert for_a_while(commands)
