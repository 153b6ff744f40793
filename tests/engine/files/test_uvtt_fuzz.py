"""Hypothesis mutates a valid Universal VTT document: the importer raises only the file error."""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.files.encounter_file import EncounterFile
from engine.files.errors import EncounterFileError
from tests.engine.files.uvtt_builders import document, import_map

Path_ = tuple[str | int, ...]

BASE = document(size=(6, 5), ppg=4)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12)
    | st.sampled_from(["0.3", "", "ffffffff", "data:", "iVBORw0KGgo="]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["x", "y", "bounds", "position", "closed", "map_size", "format"]),
        inner, max_size=4,
    ),
    max_leaves=12,
)


def _paths(value: Any, prefix: Path_ = ()) -> list[Path_]:
    found: list[Path_] = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            if key != "image":  # the picture is mutated on its own below
                found.extend(_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(_paths(item, (*prefix, index)))
    return found


def _parent(doc: Any, path: Path_) -> tuple[Any, str | int]:
    node = doc
    for key in path[:-1]:
        node = node[key]
    return node, path[-1]


@st.composite
def mutated_documents(draw: st.DrawFn) -> dict[str, Any] | list[Any] | Any:
    doc: Any = json.loads(json.dumps(BASE))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["replace", "delete", "duplicate", "nudge", "image"]))
        if action == "image" and isinstance(doc, dict) and isinstance(doc.get("image"), str):
            text: str = doc["image"]
            cut = draw(st.integers(0, len(text)))
            doc["image"] = text[:cut] + draw(st.sampled_from(["", "=", "A", "!", "===="]))
        elif not path:
            doc = draw(json_values)
        elif action == "replace":
            parent, key = _parent(doc, path)
            parent[key] = draw(json_values)
        elif action == "delete":
            parent, key = _parent(doc, path)
            del parent[key]
        elif action == "duplicate":
            parent, key = _parent(doc, path)
            if isinstance(parent, list):
                parent.append(parent[key])  # type: ignore[index]
        else:
            parent, key = _parent(doc, path)
            if isinstance(parent[key], int | float) and not isinstance(parent[key], bool):
                parent[key] = draw(st.sampled_from(
                    [math.nan, math.inf, -math.inf, 0, -1, 1e300, parent[key] * 1000.5, 0.1]
                ))
    return doc


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=mutated_documents())
def test_a_mutated_document_imports_or_raises_the_file_error(doc: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.dd2vtt"
        path.write_text(json.dumps(doc), encoding="utf-8")
        try:
            result = import_map(path)
        except EncounterFileError as error:
            assert error.path == str(path) and error.problem
        else:
            assert isinstance(result, EncounterFile)


@settings(max_examples=40, deadline=None)
@given(data=st.binary(max_size=64) | st.text(max_size=64).map(str.encode))
def test_arbitrary_bytes_only_raise_the_file_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "junk.uvtt"
        path.write_bytes(data)
        try:
            result = import_map(path)
        except EncounterFileError as error:
            assert error.path == str(path)
        else:
            assert isinstance(result, EncounterFile)
