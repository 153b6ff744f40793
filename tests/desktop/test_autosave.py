"""desktop.autosave across processes: two copies never share an autosave, and a kill -9 at
any moment of fast play restores every command shown, with the undo history."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from desktop.autosave import crashed_sessions
from engine.turns.session import Encounter
from tests.desktop.autosave_player import reference

ROOT = Path(__file__).resolve().parents[2]


def _player(folder: Path, ops: int, hold: bool = False) -> subprocess.Popen[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    command = [sys.executable, "-m", "tests.desktop.autosave_player", str(folder), str(ops)]
    return subprocess.Popen(
        [*command, *(["hold"] if hold else [])],
        cwd=ROOT, env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )


def _read_until(process: subprocess.Popen[str], word: str) -> list[str]:
    lines: list[str] = []
    assert process.stdout is not None
    while True:
        line = process.stdout.readline()
        assert line, f"the player ended early: {process.stderr.read() if process.stderr else ''}"
        lines.append(line.strip())
        if line.strip() == word:
            return lines


def _history(fight: Encounter) -> tuple[list[object], list[object]]:
    back = [fight.state]
    while fight.can_undo:
        back.append(fight.undo())
    forward = []
    while fight.can_redo:
        forward.append(fight.redo())
    return back, forward


def _crashed_state(folder: Path) -> Encounter:
    found = crashed_sessions(folder)
    assert len(found) == 1
    restored = found[0].restore()
    found[0].release()
    assert restored.encounter is not None, restored.problem
    return restored.encounter


def test_two_running_copies_never_share_or_touch_an_autosave(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    first = _player(folder, 6, hold=True)
    try:
        first_lines = _read_until(first, "ready")
        first_session = Path(first_lines[0].removeprefix("session "))
        before = {p.name: p.read_bytes() for p in first_session.iterdir() if p.is_file()}
        assert crashed_sessions(folder) == []  # a running copy is no crash
        second = _player(folder, 4)
        second_lines = _read_until(second, "done")
        second_session = Path(second_lines[0].removeprefix("session "))
        assert second_session != first_session
        after = {p.name: p.read_bytes() for p in first_session.iterdir() if p.is_file()}
        assert after == before  # the second copy wrote none of the first's files
        second.communicate("\n", timeout=60)
        assert second.returncode == 0 and not second_session.exists()
        assert first_session.exists()
    finally:
        first.kill()
        first.wait()
    restored = _crashed_state(folder)  # the first, killed, is offered back
    assert _history(restored) == _history(reference(1))


@pytest.mark.parametrize("trial", range(5))
def test_a_kill_at_any_moment_restores_every_command_shown_and_the_undo_history(
    tmp_path: Path, trial: int
) -> None:
    folder = tmp_path / "data"
    ops = 400
    player = _player(folder, ops)
    shown = 0
    rng = random.Random(trial)
    assert player.stdout is not None
    try:
        _read_until(player, "op 1")
        wait = rng.uniform(0.05, 1.5)
        deadline = time.monotonic() + wait
        for line in player.stdout:
            if line.startswith("op "):
                shown = int(line.split()[1])
            if time.monotonic() > deadline or line.strip() == "done":
                break
        os.kill(player.pid, signal.SIGKILL)
        player.wait()
        # Lines the player printed before the kill but this test had not read yet (a loaded
        # machine reads the pipe late) were shown all the same.
        for line in player.stdout:
            if line.startswith("op "):
                shown = int(line.split()[1])
    finally:
        player.kill()
        player.wait()
    restored = _crashed_state(folder)
    journaled = len((next(folder.glob("sessions/*/journal-*.jsonl"))).read_text().splitlines())
    assert shown <= journaled <= shown + 1  # every op shown, at most the one in flight more
    expected = reference(journaled)
    assert restored.state == expected.state
    assert _history(restored) == _history(expected)
