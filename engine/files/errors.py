"""The one error a bad encounter file raises, and how pydantic's error locations read as paths."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any


class EncounterFileError(ValueError):
    """A file that cannot be loaded (or a state that cannot be saved), said in plain words.

    ``path`` is the file, ``place`` where in it (a JSON path such as
    ``encounter.tokens[3].square`` or a zip entry such as ``images/bg.png``) and
    ``problem`` what is wrong there.
    """

    def __init__(self, path: str | os.PathLike[str], place: str, problem: str) -> None:
        self.path = os.fspath(path)
        self.place = place
        self.problem = problem
        super().__init__(f"{self.path}: {place}: {problem}")

    def __reduce__(self) -> tuple[Any, ...]:
        # Keeps the three attributes when the error crosses a process boundary.
        return (type(self), (self.path, self.place, self.problem))


def json_path(root: str, keys: Sequence[str | int]) -> str:
    """``json_path("encounter", ["tokens", 3, "square"])`` -> ``encounter.tokens[3].square``."""
    text = root
    for key in keys:
        if isinstance(key, int):
            text += f"[{key}]"
        elif key.isidentifier():
            text += f".{key}" if text else key
        else:
            text += f"[{key!r}]"
    return text
