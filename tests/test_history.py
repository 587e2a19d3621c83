"""Your games (`cribcore.history`, ``cribbage history``): a finished game with a human seat is kept when
it ends (and not with ``--no-keep``), without a review at the table; after three finished games the
history counts them with their levels and the points lost per deal that ``review`` gives for each;
the reviews show progress and are cached; the page is self-contained; ``--clear`` removes them."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from cribcore import Game
from cribcore.cli.render import make_console
from cribcore.cli.session import Seating, Session
from cribcore.history import keep_game, kept_games
from cribcore.players import make_player
from cribcore.records import read_record

from .terminal import run_in_process

DATA = Path(__file__).parent / "data"
GAMES = [
    (DATA / "game-easy-medium-seed3.json", "medium"),
    (DATA / "game-easy-medium-seed4.json", "medium"),
    (DATA / "game-easy-medium-seed5.json", "hard"),
]
"""Three finished games, seat 0 ("You") human; the level each is kept as."""


def _keep_three(data: Path) -> list[Path]:
    start = datetime(2026, 12, 1, tzinfo=UTC)
    kept = []
    for i, (path, level) in enumerate(GAMES):
        where = keep_game(
            read_record(path),
            ("human", "computer"),
            level,
            now=start + timedelta(hours=i),
            folder=data / "games",
        )
        assert where is not None
        kept.append(where)
    return kept


def _history(data: Path, *argv: str) -> Any:
    done = run_in_process("history", "--json", *argv, data=data)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


def test_three_finished_games_are_counted_with_their_levels_and_the_reviews_numbers(tmp_path: Path) -> None:
    kept = _keep_three(tmp_path)
    history, progress = _history(tmp_path)
    assert history["games"] == 3
    assert {(g["level"], g["profile"], g["games"]) for g in history["by_level"]} == {
        ("hard", "standard", 1),
        ("medium", "standard", 2),
    }
    wins = 0
    deals = discard = play = 0.0
    for path, game in zip(kept, history["per_game"], strict=True):
        assert game["file"] == str(path)
        review = run_in_process("review", str(path), "--json", "--seat", "1")
        summary = json.loads(review.stdout)["summary"]
        assert game["deals"] == summary["deals"]
        assert game["discard_lost_per_deal"] == summary["discard_lost_per_deal"]
        assert game["play_lost_per_deal"] == summary["play_lost_per_deal"]
        record = read_record(path)
        assert game["won"] == (record["result"]["winner"] == 0)
        wins += game["won"]
        deals += summary["deals"]
        discard += summary["discard_lost_per_deal"] * summary["deals"]
        play += summary["play_lost_per_deal"] * summary["deals"]
    assert history["wins"] == wins and history["deals"] == deals
    assert history["discard_lost_per_deal"] == pytest.approx(discard / deals, abs=1e-3)
    assert history["play_lost_per_deal"] == pytest.approx(play / deals, abs=1e-3)
    assert len(history["trend"]) == 3
    # The costliest decisions of all, each with the command that shows it again.
    costliest = history["costliest"]
    assert costliest and all(c["replay"] == f"cribbage review {c['file']} --seat 1" for c in costliest)
    losses = [(c["win_lost"], c["points_lost"]) for c in costliest]
    assert losses == sorted(losses, reverse=True)
    # The reviews were computed with progress, then cached: the second time none is computed.
    assert progress.splitlines() == [f"Reviewing your games: {n} of 3" for n in (1, 2, 3)]
    again, progress = _history(tmp_path)
    assert again == history and progress == ""


def test_a_finished_game_at_the_terminal_is_kept_without_a_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CRIBCORE_DATA_DIR", str(tmp_path))
    game = Game(seed=3, players=("You", "Computer"))
    players = [make_player("easy", 1), make_player("easy", 2)]
    while game.to_act:
        seat = game.to_act[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
    seating = Seating(("human", "computer"), ("You", "Computer"), game.profile, level="easy")
    console = make_console(open(tmp_path / "out.txt", "w"))  # noqa: SIM115 - the console keeps it
    Session(console, seating, reader=None)._game_over(game)
    [kept] = kept_games()
    assert kept.level == "easy" and kept.seat == 0 and kept.profile == "standard"
    assert not (tmp_path / "reviews").exists()  # the table never waits for the coach
    # Not kept with --no-keep, nor a game with no human seat.
    quiet = Session(console, seating, reader=None)
    quiet.keep = False
    quiet._game_over(game)
    computers = Seating(("computer", "computer"), ("A", "B"), game.profile, level="easy")
    Session(console, computers, reader=None)._game_over(game)
    assert len(kept_games()) == 1


def test_play_no_keep_is_an_option() -> None:
    done = run_in_process("play", "--help")
    assert "--no-keep" in done.stdout


def test_the_page_is_self_contained_and_clear_removes_the_games(tmp_path: Path) -> None:
    _keep_three(tmp_path)
    page = tmp_path / "history.html"
    done = run_in_process("--lang", "es", "history", "--html", str(page), data=tmp_path)
    assert done.returncode == 0, done.stderr
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!doctype html>") and '<html lang="es">' in text
    assert "<svg" in text and "Las decisiones más caras de todas" in text
    for outside in ("http:", "https:", "//", "<script", "<link", "src=", "@import"):
        assert outside not in text, outside
    # Terminal words in Spanish, with the trend chart.
    done = run_in_process("--lang", "es", "history", data=tmp_path)
    assert "3 partidas" in done.stdout and "Puntos perdidos por mano en tus últimas 3 partidas" in done.stdout
    done = run_in_process("history", "--clear", data=tmp_path)
    assert done.stdout.strip() == "Removed 3 kept games."
    assert kept_games(tmp_path / "games") == []
    assert not list((tmp_path / "reviews").iterdir())
    done = run_in_process("history", data=tmp_path)
    assert "No finished games kept yet" in done.stdout


def test_a_file_that_is_not_a_kept_game_is_skipped_and_left(tmp_path: Path) -> None:
    kept = _keep_three(tmp_path)
    stray = tmp_path / "games" / "stray.json"
    stray.write_text("{not json")
    shutil.copy(GAMES[0][0], tmp_path / "games" / "plain-record.json")  # a record without 'kept'
    assert [g.path for g in kept_games(tmp_path / "games")] == kept
    assert stray.read_text() == "{not json"
