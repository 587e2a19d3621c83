"""Issue 35, "the table and its words": what a Spanish-speaking newcomer stumbled on at the terminal,
each with the literal example from the issue (the browser's half is in test_browser.py)."""

from __future__ import annotations

import json
from pathlib import Path

from cribcore.records import replay
from cribcore.saves import read_save, save_path

from .terminal import run_in_process

FINISH = "1 2\n1\n" * 600
"""Answers that take a game at the terminal to its end: two positions for a discard (one card is
refused at a discard), one for a play (two are refused), any answer between deals."""


# ------------------------------------------------------------------ 1, 2: a save keeps its language and its record


def test_resume_speaks_the_language_the_game_was_played_in(tmp_path: Path) -> None:
    started = run_in_process("play", "--lang", "es", "--seed", "3", stdin="q\n", data=tmp_path)
    assert "cribbage resume computer" in started.stdout
    resumed = run_in_process("resume", stdin="1 2\nq\n", data=tmp_path)
    assert "Ordenador plays" not in resumed.stdout and "Ordenador juega" in resumed.stdout
    assert "Partida detenida" in resumed.stdout
    overridden = run_in_process("resume", "--lang", "en", stdin="q\n", data=tmp_path)
    assert "Game stopped" in overridden.stdout


def test_record_survives_a_save_and_a_resume(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    run_in_process("play", "--seed", "3", "--record", str(record), stdin="1 2\nq\n", data=tmp_path)
    assert read_save(save_path("computer", tmp_path)).envelope.record == str(record)
    finished = run_in_process("resume", stdin=FINISH, data=tmp_path)
    assert finished.returncode == 0, finished.stderr
    assert f"Record written to {record}" in finished.stdout
    game = replay(json.loads(record.read_text(encoding="utf-8")))
    assert game.is_over


def test_resume_record_writes_where_it_is_told(tmp_path: Path) -> None:
    run_in_process("play", "--seed", "3", stdin="q\n", data=tmp_path)
    record = tmp_path / "later.json"
    stopped = run_in_process("resume", "--record", str(record), stdin="1 2\nq\n", data=tmp_path)
    assert f"Unfinished record written to {record}" in stopped.stdout
    assert read_save(save_path("computer", tmp_path)).envelope.record == str(record)
    refused = run_in_process("resume", "--record", str(tmp_path / "no" / "x.json"), data=tmp_path)
    assert refused.returncode == 2 and "does not exist" in refused.stderr
