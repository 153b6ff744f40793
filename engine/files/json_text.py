"""Parsing untrusted JSON text: bounded numbers, no duplicate keys, a bounded number of nodes.

``json.loads`` alone accepts a 5,000-digit number (then fails deep inside Python's integer
limit), ``1e999`` as infinity and two values for one key (the last silently wins).
``parse_json`` refuses all of them while parsing, and counts the arrays and objects in the
text before parsing at all, so a file of a million tiny points is refused before a million
Python objects exist.
"""

from __future__ import annotations

import gc
import json
import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engine.limits import MAX_MAGNITUDE, MAX_NUMBER_CHARS


class JsonProblem(ValueError):
    """Why a JSON text is refused; ``place`` is a line and column when known."""

    def __init__(self, problem: str, place: str = "") -> None:
        self.problem = problem
        self.place = place
        super().__init__(f"{place}: {problem}" if place else problem)


def parse_json(text: str, max_containers: int, *, magnitudes: bool = True) -> Any:
    """The value in ``text``; JsonProblem for any syntax error or any limit passed.

    ``max_containers`` bounds the arrays and objects together, counted (with any brace or
    bracket inside a string, which only makes the count safer) before parsing. With
    ``magnitudes`` off, NaN, infinities and numbers beyond MAX_MAGNITUDE are read as floats
    for the caller to refuse at their place (the Universal VTT reader names the JSON path).
    """
    containers = text.count("{") + text.count("[")
    if containers > max_containers:
        raise JsonProblem(
            f"holds {containers:,} arrays and objects, more than the limit of "
            f"{max_containers:,}: the file is far larger than any map needs"
        )
    with without_cycle_collection():
        try:
            return json.loads(
                text,
                object_pairs_hook=_object,
                parse_int=_integer,
                parse_float=_float if magnitudes else _any_float,
                parse_constant=_constant if magnitudes else float,
            )
        except json.JSONDecodeError as exc:
            raise JsonProblem(
                f"not valid JSON: {exc.msg}", f"line {exc.lineno} column {exc.colno}"
            ) from None
        except RecursionError:
            raise JsonProblem("nested too deeply") from None


@contextmanager
def without_cycle_collection() -> Iterator[None]:
    """Build many objects without Python's cycle collector running over them.

    Parsed JSON and the model built from it hold no reference cycles (reference counting
    frees them), yet the collector walks every new container again and again while they
    are made: half the time of loading a file at every limit (3.4 s of 1.7 s). It runs as
    before afterwards; left as it was when someone else had turned it off.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise JsonProblem(f"the key {_short(key)} appears twice in one object")
            seen.add(key)
    return result


def _integer(text: str) -> int:
    _check_length(text)
    return int(text)


def _float(text: str) -> float:
    _check_length(text)
    value = float(text)
    if not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
        raise JsonProblem(f"the number {text} is larger than the limit of {MAX_MAGNITUDE:g}")
    return value


def _any_float(text: str) -> float:
    _check_length(text)
    return float(text)


def _constant(name: str) -> Any:
    raise JsonProblem(f"not valid JSON: {name} is not a JSON number")


def _check_length(text: str) -> None:
    if len(text) > MAX_NUMBER_CHARS:
        raise JsonProblem(
            f"a number of {len(text):,} characters ({text[:12]}...), longer than the limit "
            f"of {MAX_NUMBER_CHARS}"
        )


def _short(key: str) -> str:
    text = repr(key)
    return text if len(text) <= 60 else text[:57] + "..."
