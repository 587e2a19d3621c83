"""The win-chance graph of a review (`cribcore.winchart`): in ``review --json`` a series of points, each
with its deal, decision and chance; in the terminal a chart that fits 80 columns (also in ASCII and in
a pseudo-terminal); by points, in one line, where no win table is at hand."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pexpect
import pytest

from cribcore import Discard, load_profile, parse_cards
from cribcore.cli.winchart import chart_lines
from cribcore.players import wintable
from cribcore.records import game_record, read_record
from cribcore.review import review_game
from cribcore.testing import stacked_game
from cribcore.winchart import DealStart, build_series

from .terminal import cribbage_pty, run_in_process

DATA = Path(__file__).parent / "data"
GAME = DATA / "game-easy-medium-seed3.json"
"""A finished game of easy (seat 0, "You") against medium, seed 3."""


@pytest.fixture(scope="module")
def review_json() -> dict[str, Any]:
    done = run_in_process("review", str(GAME), "--json")
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def test_review_json_gives_the_series_with_deal_decision_and_chance(review_json: dict[str, Any]) -> None:
    chances = review_json["chances"]
    assert chances["measure"] == "win" and chances["note"] is None
    points = chances["points"]
    decisions = review_json["decisions"]
    # A point at each deal's start, one after every decision, and one at the end.
    starts = [p for p in points if p["kind"] == "start"]
    after = [p for p in points if p["kind"] in ("discard", "play")]
    assert [p["decision"] for p in after] == list(range(len(decisions)))
    assert [p["deal"] for p in after] == [d["deal"] for d in decisions]
    assert [p["deal"] for p in starts] == list(range(1, len(starts) + 1))
    assert points[0]["kind"] == "start" and points[0]["scores"] == [0, 0]
    assert points[-1]["kind"] == "end"
    assert all(0.0 <= p["chance"] <= 1.0 and p["value"] == p["chance"] for p in points)
    record = read_record(GAME)
    won = record["result"]["winner"] == 0
    assert points[-1]["chance"] == (1.0 if won else 0.0)
    # The biggest swings: the points that moved most from the one before.
    moves = [abs(points[i]["value"] - points[i - 1]["value"]) for i in range(1, len(points))]
    assert len(chances["swings"]) == 3
    assert moves[chances["swings"][0] - 1] == pytest.approx(max(moves), abs=1e-3)


def test_a_decision_point_is_the_chance_of_the_choice_made() -> None:
    # Laying two fives into the opponent's crib: the chance after it is below the start's.
    game = stacked_game((("5H 5D AC 3S 9D KC", "2C 4D 7S 8H JC QD"), "6S"), dealer=1)
    game.apply(0, Discard(parse_cards("5H 5D")))
    game.apply(1, Discard(parse_cards("JC QD")))
    review = review_game(game_record(game), 0)
    assert review.chances is not None
    start, after = review.chances.points
    [decision] = review.decisions
    assert (start.kind, after.kind, after.decision) == ("start", "discard", 0)
    assert after.chance == decision.win
    assert start.chance is not None and after.chance is not None and after.chance < start.chance
    assert review.chances.swings == (1,)


def test_the_terminal_chart_fits_80_columns_in_unicode_and_ascii() -> None:
    review = review_game(read_record(GAME), 0)
    assert review.chances is not None
    for unicode in (True, False):
        lines = chart_lines(review.chances, width=80, unicode=unicode)
        assert all(line.cell_len <= 80 for line in lines)
        text = "\n".join(line.plain for line in lines)
        assert "100%" in text and "50%" in text and "0%" in text
        assert re.search(r"deal 1 +2 +3", text)
        if not unicode:
            assert text.isascii() and "*" in text and "#" in text


def test_review_prints_the_chart_in_a_pseudo_terminal_of_80_columns(tmp_path: Path) -> None:
    with cribbage_pty(tmp_path, "review", str(GAME), columns=80) as (child, log):
        child.expect("The biggest swings:")
        child.expect(pexpect.EOF)
    text = log.getvalue()
    assert "You: the chance to win after each decision and at each deal's start" in text
    chart = text[text.index("the chance to win after") :].splitlines()
    assert all(len(line.rstrip("\r")) <= 80 for line in chart)
    assert "●" in text and "◆" in text


def test_ascii_review_draws_the_chart_in_ascii() -> None:
    done = run_in_process("review", str(GAME), "--ascii")
    assert done.returncode == 0, done.stderr
    assert done.stdout.isascii()
    assert "the chance to win after each decision" in done.stdout and "# deal" in done.stdout


def test_spanish_chart_words() -> None:
    done = run_in_process("--lang", "es", "review", str(GAME))
    assert done.returncode == 0, done.stderr
    assert "la probabilidad de ganar tras cada decisión" in done.stdout
    assert "Las mayores oscilaciones:" in done.stdout


def test_without_a_table_one_line_says_so_and_the_lead_is_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CRIBCORE_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(wintable, "_BY_FINGERPRINT", {})
    game = stacked_game(
        (("5H 5D AC 3S 9D KC", "2C 4D 7S 8H JC QD"), "6S"), dealer=1, profile=load_profile("muggins")
    )
    game.apply(0, Discard(parse_cards("5H 5D")))
    game.apply(1, Discard(parse_cards("JC QD")))
    review = review_game(game_record(game), 0)
    assert review.chances is not None
    assert review.chances.measure == "lead"
    assert review.chances.note == (
        "No win table for the profile muggins: the graph shows your lead in points."
    )
    assert [p.chance for p in review.chances.points] == [None, None]
    assert [p.value for p in review.chances.points] == [0.0, 0.0]


class _Table:
    """A stand-in win table: the dealer's side's value is 0.6 everywhere; a win is worth 1 or 2."""

    game_points = (2, 1)

    def start(self, dealer: int, pone: int) -> float:
        return 0.6

    def won(self, loser: int) -> float:
        return 1.0


def test_expected_game_points_where_a_game_can_give_more_than_one() -> None:
    series = build_series(
        table=_Table(),
        side=0,
        side_of=lambda seat: seat,
        starts=[DealStart(0, 1, (0, 0))],
        decisions=[(0, "discard", (0, 0), 0.25)],
        end=(0, (121, 80)),
        profile="skunk-match",
    )
    assert series.measure == "game_points" and (series.low, series.high) == (-2.0, 2.0)
    start, after, end = series.points
    assert start.chance == pytest.approx(0.4) and start.value == pytest.approx(-0.4)  # the pone's side
    assert after.value == pytest.approx(-1.0) and end.value == pytest.approx(2.0)
    assert series.swings[0] == 2
    lines = chart_lines(series, width=80, unicode=False)
    assert lines[0].plain.split()[0] == "+2.0" and lines[-2].plain.split()[0] == "-2.0"


def test_the_lead_is_drawn_even_about_zero() -> None:
    series = build_series(
        table=None,
        side=1,
        side_of=lambda seat: seat % 3,
        starts=[DealStart(0, 0, (0, 0, 0)), DealStart(1, 1, (3, 9, 5))],
        decisions=[(0, "play", (2, 0, 0), None)],
        end=None,
        profile="three-players",
    )
    assert series.measure == "lead" and series.note is not None
    assert [p.value for p in series.points] == [0.0, -2.0, 4.0]
    assert (series.low, series.high) == (-4.0, 4.0)
