"""The `cribbage` command line: every worked example of docs/rules.md through ``score``/``peg --json``,
exit statuses and one-line errors, unattended games, records and replays, and the pieces the
interactive game is built from (words, card picking, the prompt loop)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from cribcore import (
    Discard,
    Game,
    Play,
    RuleSet,
    __version__,
    load_profile,
    parse_card,
    parse_cards,
    score_show,
)
from cribcore.cli.describe import Voice, number_words, reasons, spoken_play, spoken_show
from cribcore.cli.main import main
from cribcore.cli.match import match_result, skunk_words, standing
from cribcore.cli.narrate import Narrator
from cribcore.cli.play import default_kinds, levels, seat_kinds, seat_names
from cribcore.cli.prompt import ASKERS, QuitGame, Reader, ask_action, parse_picks
from cribcore.cli.render import Painter, make_console
from cribcore.events import Event
from cribcore.players import make_player
from cribcore.records import game_record, read_record, replay
from cribcore.saves import GameResult, MatchState
from cribcore.scoring import peg_sequence, play_items

from .terminal import run_cribbage

CaptureFixture = pytest.CaptureFixture[str]


@pytest.fixture(autouse=True)
def _private_saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games played here save under a temporary folder, never in the real home."""
    monkeypatch.setenv("CRIBCORE_DATA_DIR", str(tmp_path / "data"))


def run_json(capsys: CaptureFixture, *argv: str) -> Any:
    assert main(list(argv)) == 0
    out = capsys.readouterr().out
    return json.loads(out)


def cribbage(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The installed console script, as a user runs it (output piped, so not a terminal)."""
    return run_cribbage(*argv, stdin=stdin)


def assert_one_line_error(result: subprocess.CompletedProcess[str], code: int, *needles: str) -> str:
    assert result.returncode == code, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in lines[0]
    return lines[0]


# ------------------------------------------------------------------------- docs/rules.md, the show

SHOW_EXAMPLES = [
    ("4C 5D 6H KC", "5S", False, 16),
    ("5H 5D 5S JC", "5C", False, 29),
    ("4H 6H 8H TH", "KH", False, 5),
    ("4H 6H 8H TH", "KS", False, 4),
    ("4H 6H 8H TH", "KS", True, 0),
    ("3C 4D 5H 5S", "6C", False, 14),
    ("AC 2C 3C 4C", "5C", False, 12),
    ("JH 2C 3D 4S", "7H", False, 6),
    ("7C 8D 8H 9S", "9C", False, 20),
]


class TestScoreCommand:
    @pytest.mark.parametrize(("hand", "starter", "crib", "total"), SHOW_EXAMPLES)
    def test_worked_examples_json(
        self, capsys: CaptureFixture, hand: str, starter: str, crib: bool, total: int
    ) -> None:
        argv = ["score", *hand.split(), "--starter", starter, "--json", *(["--crib"] if crib else [])]
        data = run_json(capsys, *argv)
        assert data["total"] == total
        assert sum(item["points"] for item in data["items"]) == total
        assert set(data) == {"total", "items"}
        for item in data["items"]:
            assert set(item) == {"kind", "cards", "points"}

    def test_json_is_the_scorers_json(self, capsys: CaptureFixture) -> None:
        data = run_json(capsys, "score", "4c", "5♦", "6H", "kc", "--starter", "5s", "--json")
        expected = score_show(parse_cards("4C 5D 6H KC"), parse_card("5S")).to_json()
        assert data == expected

    def test_worked_example_items(self, capsys: CaptureFixture) -> None:
        data = run_json(capsys, "score", "3C", "4D", "5H", "5S", "--starter", "6C", "--json")
        points: dict[str, int] = {}
        for item in data["items"]:
            points[item["kind"]] = points.get(item["kind"], 0) + item["points"]
        assert points == {"fifteen": 4, "pair": 2, "run": 8}

    @pytest.mark.parametrize(("hand", "starter", "crib", "total"), SHOW_EXAMPLES)
    def test_text_lists_items_total_and_speaks_the_total(
        self, capsys: CaptureFixture, hand: str, starter: str, crib: bool, total: int
    ) -> None:
        argv = ["score", *hand.split(), "--starter", starter, *(["--crib"] if crib else [])]
        assert main(argv) == 0
        lines = capsys.readouterr().out.splitlines()
        score = score_show(parse_cards(hand), parse_card(starter), crib=crib)
        item_lines = [line for line in lines if line.startswith("  ") and "total" not in line]
        assert len(item_lines) == len(score.items)
        assert [int(line.split()[-1]) for line in item_lines] == [i.points for i in score.items]
        total_line = next(line for line in lines if line.split()[0] == "total")
        assert total_line.split()[-1] == str(total)
        spoken = lines[-1]
        if total:
            assert spoken.endswith(number_words(total))
        else:
            assert "nothing" in spoken

    def test_text_example_from_the_seed(self, capsys: CaptureFixture) -> None:
        assert main(["score", "4C", "5D", "6H", "KC", "--starter", "5S"]) == 0
        lines = capsys.readouterr().out.splitlines()
        # Issue 17: the cards are drawn as the game draws them on this console (symbols).
        assert ["fifteen", "4♣", "5♦", "6♥", "2"] in [line.split() for line in lines]
        assert lines[-1] == (
            "fifteen two, fifteen four, fifteen six, fifteen eight, a pair is ten, "
            "and a double run of three is sixteen"
        )

    @pytest.mark.parametrize("hand", ["AS 2S 3S", "AS 2S 3S 4S 5S", "KD", "AS 2S 3S 4S 5S 6S"])
    def test_variant_hand_sizes(self, capsys: CaptureFixture, hand: str) -> None:
        data = run_json(capsys, "score", *hand.split(), "--starter", "9S", "--json")
        assert data["total"] == score_show(parse_cards(hand), parse_card("9S")).total

    def test_seven_cards_is_an_error(self, capsys: CaptureFixture) -> None:
        assert main(["score", *["AS", "2S", "3S", "4S", "5S", "6S", "7S"], "--starter", "9S"]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "not 7" in err

    def test_duplicate_card_names_it(self, capsys: CaptureFixture) -> None:
        assert main(["score", "4C", "5D", "4c", "KC", "--starter", "5S"]) == 1
        assert capsys.readouterr().err == "cribbage: error: 4C is named twice: a pack has one of each card\n"

    def test_starter_in_the_hand(self, capsys: CaptureFixture) -> None:
        assert main(["score", "4C", "5D", "6H", "KC", "--starter", "5d"]) == 1
        assert "5D is named twice" in capsys.readouterr().err

    def test_missing_starter_is_one_usage_line(self) -> None:
        result = cribbage("score", "4C", "5D", "6H", "KC")
        assert_one_line_error(result, 2, "--starter")

    def test_bad_card_names_the_token(self) -> None:
        result = cribbage("score", "4C", "5X", "6H", "KC", "--starter", "5S")
        line = assert_one_line_error(result, 1, "5X")
        assert line.startswith("cribbage: error: not a card: 5X")
        assert result.stdout == ""


# ------------------------------------------------------------------------- docs/rules.md, the play

PLAY_EXAMPLES = [
    ("7S 8D 8H", True, [0, 2, 3]),
    ("4C 6D 5H", True, [0, 0, 6]),
    ("4C 6D 5H", False, [0, 0, 5]),
    ("KC 9D TH 2S", True, [0, 0, 0, 2]),
    ("KC 9D TH 2S", False, [0, 0, 0, 2]),
    ("6D 5S 6C 5C", False, [0, 0, 0, 0]),
    ("7C 9D 6H 8S", False, [0, 0, 0, 4]),
    ("6C 7D 8H 6S", False, [0, 0, 3, 3]),
    ("7C 6D 8H 6S", False, [0, 0, 3, 0]),
]


class TestPegCommand:
    @pytest.mark.parametrize(("cards", "last", "points"), PLAY_EXAMPLES)
    def test_worked_examples_json(
        self, capsys: CaptureFixture, cards: str, last: bool, points: list[int]
    ) -> None:
        data = run_json(capsys, "peg", *cards.split(), "--json", *(["--last"] if last else []))
        assert [entry["points"] for entry in data] == points
        assert [entry["card"] for entry in data] == cards.split()
        for entry in data:
            assert set(entry) == {"card", "count", "points", "items"}
            assert sum(item["points"] for item in entry["items"]) == entry["points"]

    def test_counts_and_items(self, capsys: CaptureFixture) -> None:
        data = run_json(capsys, "peg", "4C", "6D", "5H", "--last", "--json")
        assert [entry["count"] for entry in data] == [4, 10, 15]
        assert [item["kind"] for item in data[-1]["items"]] == ["fifteen", "run", "go"]
        expected = peg_sequence(parse_cards("4C 6D 5H"), last=True)[-1].to_json()["items"]
        assert data[-1]["items"] == expected

    def test_thirty_one_has_no_go_point(self, capsys: CaptureFixture) -> None:
        data = run_json(capsys, "peg", "KC", "9D", "TH", "2S", "--last", "--json")
        assert data[-1]["count"] == 31
        assert [item["kind"] for item in data[-1]["items"]] == ["thirty-one"]

    def test_no_pairs_across_other_cards(self, capsys: CaptureFixture) -> None:
        data = run_json(capsys, "peg", "6D", "5S", "6C", "5C", "--json")
        assert data[-1]["count"] == 22
        assert all(item["kind"] != "pair" for entry in data for item in entry["items"])

    def test_text(self, capsys: CaptureFixture) -> None:
        assert main(["peg", "4C", "6D", "5H", "--last"]) == 0
        lines = capsys.readouterr().out.splitlines()
        # Issue 17: cards drawn as the game draws them, and the last card called so, as in the game.
        assert lines[-1].split()[:4] == ["5♥", "count", "15", "6"]
        assert lines[-1].endswith("fifteen 2, run of three 3, last card 1")

    def test_past_thirty_one(self, capsys: CaptureFixture) -> None:
        assert main(["peg", "KC", "9D", "TH", "7S"]) == 1
        captured = capsys.readouterr()
        assert captured.err == "cribbage: error: 7S would take the count to 36, past 31\n"

    def test_duplicate(self) -> None:
        assert_one_line_error(cribbage("peg", "4C", "4C"), 1, "4C")


# --------------------------------------------------------------------------- the program as a whole


class TestProgram:
    def test_version(self, capsys: CaptureFixture) -> None:
        assert main(["--version"]) == 0
        assert capsys.readouterr().out.strip() == f"cribbage {__version__}"

    def test_version_installed_script(self) -> None:
        result = cribbage("--version")
        assert result.returncode == 0 and result.stdout.strip() == f"cribbage {__version__}"
        module = subprocess.run(
            [sys.executable, "-m", "cribcore.cli", "--version"], capture_output=True, text=True, check=False
        )
        assert module.returncode == 0 and module.stdout == result.stdout

    @pytest.mark.parametrize("argv", [[], ["--help"], ["score", "--help"], ["play", "--help"]])
    def test_help_and_no_command(self, capsys: CaptureFixture, argv: list[str]) -> None:
        code = main(argv)
        captured = capsys.readouterr()
        if argv:
            assert code == 0 and "usage:" in captured.out
        else:
            assert code == 2 and captured.err.count("\n") == 1

    @pytest.mark.parametrize(
        "argv",
        [
            ["frobnicate"],
            ["score"],
            ["peg"],
            ["replay"],
            ["play", "--seed", "x"],
            ["play", "--seed", "-3"],
            ["play", "--players", "human,alien"],
            ["play", "--players", "computer"],
            ["play", "--players", "computer,computer,computer"],
            ["play", "--players", "computer,computer", "--name", "Ann"],
            ["play", "--name", "Computer"],
            ["play", "--record", "/no/such/folder/game.json"],
            ["play", "--level", "superhuman"],
            ["play", "--profile", "no-such-profile"],
            ["play", "--profile", "three-players", "--players", "human,computer"],
            ["play", "--match", "0"],
            ["play", "--match", "x"],
            ["resume", "elsewhere"],
            ["saves", "delete", "elsewhere"],
            ["practice"],
            ["practice", "pegging", "--seed", "-1"],
            ["score", "4C", "--starter", "5S", "--bogus"],
        ],
    )
    def test_usage_errors_exit_2_with_one_line(self, argv: list[str]) -> None:
        assert_one_line_error(cribbage(*argv), 2, "error:")

    def test_piped_output_has_no_escapes(self) -> None:
        result = cribbage("play", "--players", "computer,computer", "--seed", "3")
        assert result.returncode == 0
        assert "\x1b" not in result.stdout
        result = cribbage("score", "4H", "5D", "6H", "JH", "--starter", "5H")
        assert "\x1b" not in result.stdout and "his nobs" in result.stdout

    def test_ascii_is_plain(self) -> None:
        result = cribbage("play", "--players", "computer,computer", "--seed", "3", "--ascii")
        assert result.returncode == 0, result.stderr
        assert result.stdout.isascii()
        assert "Game over" in result.stdout and "@" in result.stdout  # the board's front pegs
        assert not any(symbol in result.stdout for symbol in "♣♦♥♠─·●○")

    def test_narrow_terminal(self) -> None:
        env = {"COLUMNS": "40"}
        result = subprocess.run(
            ["cribbage", "play", "--players", "computer,computer", "--seed", "3"],
            capture_output=True,
            text=True,
            encoding="utf-8",
            env={**os.environ, **env},
            timeout=120,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        board = [line for line in result.stdout.splitlines() if line.startswith(" ···")]
        assert board and all(len(line) <= 40 for line in board)


# --------------------------------------------------------------------------- play, unattended


class TestUnattendedPlay:
    def test_computer_game_runs_to_the_end(self, capsys: CaptureFixture) -> None:
        assert main(["play", "--players", "computer,computer", "--seed", "7"]) == 0
        out = capsys.readouterr().out
        lines = out.splitlines()
        assert lines[1] == "Game seed 7 — replay it with --seed 7"
        game = self._same_game(7)
        assert game.winner is not None
        winner = game.players[game.winner]
        # Issue 17: the winner pegs out at the game hole; the points counted past it are stated.
        shown = "121" if max(game.scores) == 121 else f"121 ({max(game.scores)} counted)"
        assert f"Game over: {winner} wins, {shown} to {min(game.scores)}." in out
        assert "Press Enter" not in out
        # Every card laid is announced, and every hand and crib is shown.
        plays = sum(1 for e in game.events if e.kind == "play")
        assert out.count(" plays ") == plays
        shows = sum(1 for e in game.events if e.kind in ("hand", "crib"))
        assert out.count("'s hand  ") + out.count("'s crib  ") == shows
        assert out.count(" says go.") == sum(1 for e in game.events if e.kind == "says-go")

    @staticmethod
    def _same_game(seed: int) -> Game:
        game = Game(seed=seed, players=("Computer 1", "Computer 2"))
        # The program seats each computer as `make_player("computer", seed + seat)`.
        players = [make_player("computer", seed + seat) for seat in range(2)]
        while game.to_act:
            seat = game.to_act[0]
            game.apply(seat, players[seat].choose(game.view(seat)))
        return game

    def test_random_seats(self, capsys: CaptureFixture) -> None:
        assert main(["play", "--players", "random,computer", "--seed", "11"]) == 0
        assert "Game over" in capsys.readouterr().out

    def test_stdin_closed(self) -> None:
        result = subprocess.run(
            ["cribbage", "play", "--players", "computer,computer", "--seed", "7"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
            check=False,
        )
        assert result.returncode == 0 and result.stderr == ""
        assert "Game over" in result.stdout

    def test_human_with_input_ending(self, tmp_path: Path) -> None:
        record = tmp_path / "game.json"
        result = cribbage("play", "--seed", "5", "--record", str(record), stdin="xx\n1 2\n")
        line = assert_one_line_error(result, 1, "input ended")
        assert "seed 5" in line
        assert "Game seed 5 — replay it with --seed 5" in result.stdout
        assert "Traceback" not in result.stdout
        data = read_record(record)
        assert "result" not in data
        game = replay(data)
        assert not game.is_over and len(game.deal_logs()) == 1


# --------------------------------------------------------------------------- records and replay


class TestRecordAndReplay:
    def test_record_replays_to_the_same_result(self, capsys: CaptureFixture, tmp_path: Path) -> None:
        record = tmp_path / "game.json"
        argv = ["play", "--players", "computer,computer", "--seed", "7", "--record", str(record)]
        assert main(argv) == 0
        capsys.readouterr()
        data = json.loads(record.read_text(encoding="utf-8"))
        assert data["seed"] == 7 and data["players"] == ["Computer 1", "Computer 2"]
        replayed = run_json(capsys, "replay", str(record), "--json")
        assert replayed["scores"] == data["result"]["scores"]
        assert replayed["winner"] == data["result"]["winner"]
        assert max(replayed["scores"]) >= 121
        game = replay(data)
        scoring = [e.to_json() for e in game.events if e.scored]
        assert replayed["events"] == scoring
        for event in replayed["events"]:
            assert {"deal", "kind", "player", "points", "scores"} <= set(event)

    def test_replay_text(self, capsys: CaptureFixture, tmp_path: Path) -> None:
        record = tmp_path / "game.json"
        assert main(["play", "--players", "computer,computer", "--seed", "7", "--record", str(record)]) == 0
        capsys.readouterr()
        assert main(["replay", str(record)]) == 0
        lines = capsys.readouterr().out.splitlines()
        game = replay(read_record(record))
        scoring = [e for e in game.events if e.scored]
        assert len(lines) == len(scoring) + 2
        assert lines[1].startswith("deal  1  ")
        assert lines[-1].startswith(f"Result: {game.players[game.winner or 0]} wins")
        last = scoring[-1]
        # Issue 17: a colon tells a name ending in a digit from its score.
        assert lines[-2].endswith(f"(Computer 1: {last.scores[0]} · Computer 2: {last.scores[1]})")

    def test_replay_from_stdin(self, tmp_path: Path) -> None:
        record = tmp_path / "game.json"
        assert (
            cribbage(
                "play", "--players", "computer,computer", "--seed", "2", "--record", str(record)
            ).returncode
            == 0
        )
        result = cribbage("replay", "-", "--json", stdin=record.read_text(encoding="utf-8"))
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["scores"] == read_record(record)["result"]["scores"]

    def test_corrupted_record_names_deal_and_card(self, tmp_path: Path) -> None:
        record = tmp_path / "game.json"
        assert (
            cribbage(
                "play", "--players", "computer,computer", "--seed", "7", "--record", str(record)
            ).returncode
            == 0
        )
        data = read_record(record)
        plays = data["deals"][1]["plays"]
        plays[0], plays[1] = plays[1], plays[0]  # the second card is laid by the wrong seat
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(data), encoding="utf-8")
        line = assert_one_line_error(cribbage("replay", str(bad)), 1, "deal 2", "card 1", plays[0])
        assert line.startswith("cribbage: error: ")

    def test_result_that_does_not_match(self, capsys: CaptureFixture, tmp_path: Path) -> None:
        record = tmp_path / "game.json"
        assert main(["play", "--players", "computer,computer", "--seed", "4", "--record", str(record)]) == 0
        data = read_record(record)
        data["result"]["scores"][0] += 1
        record.write_text(json.dumps(data), encoding="utf-8")
        capsys.readouterr()
        assert main(["replay", str(record)]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "result" in err

    @pytest.mark.parametrize(
        ("content", "needle"),
        [("{not json", "not valid JSON"), ("[1, 2]", "JSON object"), ('{"format": "x"}', "format")],
    )
    def test_unreadable_records(self, tmp_path: Path, content: str, needle: str) -> None:
        path = tmp_path / "r.json"
        path.write_text(content, encoding="utf-8")
        assert_one_line_error(cribbage("replay", str(path)), 1, needle)
        assert_one_line_error(cribbage("replay", "-", stdin=content), 1, needle)

    def test_missing_file(self, tmp_path: Path) -> None:
        assert_one_line_error(cribbage("replay", str(tmp_path / "none.json")), 1, "no such file")

    def test_unfinished_record_text(self) -> None:
        game = Game(seed=9, players=("Ann", "Bob"))
        while game.deal_number < 2:
            seat = game.to_act[0]
            game.apply(seat, game.legal_actions(seat)[0])
        result = cribbage("replay", "-", stdin=json.dumps(game_record(game)))
        assert result.returncode == 0, result.stderr
        assert result.stdout.splitlines()[-1].startswith("Unfinished: the record stops in deal 3")


# --------------------------------------------------------------------------- words


class TestWords:
    def test_number_words(self) -> None:
        assert [number_words(n) for n in (0, 15, 20, 29, 31, 121)] == [
            "zero",
            "fifteen",
            "twenty",
            "twenty-nine",
            "thirty-one",
            "121",
        ]

    @pytest.mark.parametrize(
        ("hand", "starter", "crib", "spoken"),
        [
            (
                "5H 5D 5S JC",
                "5C",
                False,
                "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
                "fifteen fourteen, fifteen sixteen, four of a kind is twenty-eight, "
                "and one for his nobs is twenty-nine",
            ),
            (
                "AC 2C 3C 4C",
                "5C",
                False,
                "fifteen two, a run of five is seven, and a flush of five is twelve",
            ),
            (
                "7C 8D 8H 9S",
                "9C",
                False,
                "fifteen two, fifteen four, two pairs is eight, and a double-double run of three is twenty",
            ),
            (
                "3C 4D 5H 5S",
                "6C",
                False,
                "fifteen two, fifteen four, a pair is six, and a double run of four is fourteen",
            ),
            ("4H 6H 8H TH", "KS", True, 'nothing to count (a "nineteen")'),
            ("JH 2C 3D 4S", "7H", False, "fifteen two, a run of three is five, and one for his nobs is six"),
            (
                "3C 3D 3H 4S",
                "5D",
                False,
                "fifteen two, fifteen four, fifteen six, three of a kind is twelve, "
                "and a triple run of three is twenty-one",
            ),
        ],
    )
    def test_spoken_show(self, hand: str, starter: str, crib: bool, spoken: str) -> None:
        score = score_show(parse_cards(hand), parse_card(starter), crib=crib)
        assert spoken_show(score.items) == spoken

    @pytest.mark.parametrize(
        ("cards", "spoken"),
        [
            ("7S", "seven"),
            ("7S 8D", "fifteen two"),
            ("7S 8D 8H", "twenty-three and a pair is two"),
            ("4C 6D 5H", "fifteen two and a run of three is five"),
            ("KC 9D TH 2S", "thirty-one for two"),
            ("8C 8D 8H", "twenty-four and three of a kind is six"),
            ("TC 7C 7D 7H", "thirty-one for two and three of a kind is eight"),
            ("AC AD AH AS", "four and four of a kind is twelve"),
        ],
    )
    def test_spoken_play(self, cards: str, spoken: str) -> None:
        pile = parse_cards(cards)
        assert spoken_play(sum(c.value for c in pile), play_items(pile)) == spoken

    def test_fifteens_alone_take_no_and(self) -> None:
        score = score_show(parse_cards("AS 4S QH KD"), parse_card("9C"))
        assert spoken_show(score.items) == "fifteen two, fifteen four"

    def test_reasons(self) -> None:
        score = score_show(parse_cards("7C 8D 8H 9S"), parse_card("9C"))
        assert reasons(score.items) == "two fifteens 4, two pairs 4, four runs of three 12"
        pile = peg_sequence(parse_cards("5C 5D 5H"))[-1]
        assert reasons(pile.items) == "fifteen 2, three of a kind 6"

    def test_voice(self) -> None:
        game = Game(seed=1, players=("Ann", "Computer"))
        voice = Voice.for_game(game.players, game.rules, you=0)
        assert voice.does(0, "play") == "You play"
        assert voice.does(1, "play") == "Computer plays"
        assert voice.owner(0) == "your" and voice.owner(1) == "Computer's"
        assert voice.scores((3, 5)) == "Ann 3 · Computer 5"
        assert voice.side_does(1, "win") == "Computer wins"

    def test_painter(self) -> None:
        card = parse_card("TH")
        assert Painter(symbols=True).plain(card) == "10♥"
        assert Painter(symbols=False).plain(card) == "TH"
        assert Painter(symbols=True).card(card).style == "bold red"


# --------------------------------------------------------------------------- seats


class TestSeats:
    def test_kinds(self) -> None:
        assert seat_kinds("Human, computer") == ("human", "computer")
        with pytest.raises(ValueError, match="alien"):
            seat_kinds("human,alien")

    def test_kinds_come_from_the_computer_players(self) -> None:
        for kind in ("computer", "random", *levels()):
            assert seat_kinds(f"human,{kind}") == ("human", kind)
        assert default_kinds(2) == ("human", "computer")
        assert default_kinds(4) == ("human", "computer", "computer", "computer")

    def test_names(self) -> None:
        assert seat_names(("human", "computer")) == ("You", "Computer")
        assert seat_names(("computer", "human"), ("Ann",)) == ("Computer", "Ann")
        assert seat_names(("computer", "computer")) == ("Computer 1", "Computer 2")
        assert seat_names(("human", "human")) == ("Player 1", "Player 2")
        assert seat_names(("human", "random")) == ("You", "Computer")
        with pytest.raises(ValueError, match="both"):
            seat_names(("human", "computer"), ("Computer",))
        with pytest.raises(ValueError, match="empty"):
            seat_names(("human", "computer"), (" ",))


# --------------------------------------------------------------------------- picking cards, prompting


HAND = parse_cards("2D 3D 7C 8H 9S KD")


class TestParsePicks:
    @pytest.mark.parametrize(
        ("text", "wanted", "expected"),
        [
            ("1 4", 2, "2D 8H"),
            ("14", 2, "2D 8H"),
            ("5h jc", 2, "5H JC"),
            ("10s, k♦", 2, "TS KD"),
            ("6", 1, "KD"),
            ("7c", 1, "7C"),
            ("2 kd", 2, "3D KD"),
        ],
    )
    def test_picks(self, text: str, wanted: int, expected: str) -> None:
        assert parse_picks(text, HAND, wanted) == parse_cards(expected)

    @pytest.mark.parametrize(("text", "needle"), [("9", "no card 9"), ("0", "no card 0"), ("xyz", "'xyz'")])
    def test_bad(self, text: str, needle: str) -> None:
        with pytest.raises(ValueError, match=needle):
            parse_picks(text, HAND, 2)


class ScriptedReader(Reader):
    """Answers prompts from a list and keeps the problems it was shown."""

    def __init__(self, answers: Sequence[str]) -> None:
        super().__init__(make_console(), interactive=False)
        self.answers = list(answers)
        self.prompts: list[str] = []
        self.problems: list[str] = []

    def line(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.answers:
            raise QuitGame("input ended", code=1)
        return self.answers.pop(0).strip()

    def problem(self, message: str) -> None:
        self.problems.append(message)


def _ask(game: Game, seat: int, answers: Sequence[str]) -> tuple[Any, ScriptedReader]:
    reader = ScriptedReader(answers)
    voice = Voice.for_game(game.players, game.rules, you=seat)
    view = game.view(seat)

    def check(action: Any) -> None:
        game.check(seat, action)

    return ask_action(reader, view, voice, Painter(), check), reader


class TestPromptLoop:
    def test_bad_discards_never_change_the_game(self, capsys: CaptureFixture) -> None:
        game = Game(seed=3, players=("You", "Computer"))
        before = game.events
        hand = game.view(0).hand
        outsider = next(c for c in parse_cards("AS 2S 3S 4S 5S 6S 7S") if c not in hand)
        answers = ["", "garbage", "1", "1 2 3", f"1 {outsider}", "1 1", "9 1", "help", "hint", "go", "1 2"]
        action, reader = _ask(game, 0, answers)
        assert action == Discard((hand[0], hand[1]))
        assert game.events == before
        assert len(reader.problems) == 8  # every answer but help, hint and the good one
        assert any("not 1" in p for p in reader.problems)
        # Issue 17: the card is named as the screen draws cards (4♠ on a symbol terminal), not 4S.
        assert any(f"do not hold {Painter().plain(outsider)}" in p for p in reader.problems)
        assert all(p == reader.prompts[0] for p in reader.prompts)
        assert reader.prompts[0] == "Choose 2 cards for your crib: "
        assert "Discard:" in capsys.readouterr().out

    def test_past_thirty_one_is_explained(self) -> None:
        # Find a prompt where the seat to play holds a card that would pass 31.
        for seed in range(200):
            game = Game(seed=seed)
            while game.to_act:
                seat = game.to_act[0]
                view = game.view(seat)
                if view.phase == "play":
                    too_big = [c for c in view.hand if view.count + c.value > 31]
                    if too_big and view.legal_actions:
                        before = game.events
                        legal = view.legal_actions[0]
                        assert isinstance(legal, Play)
                        action, reader = _ask(game, seat, [str(too_big[0]), str(legal.card)])
                        assert action == legal
                        expected = f"would take the count to {view.count + too_big[0].value}, past 31"
                        assert expected in reader.problems[0]
                        assert reader.prompts == [f"Play a card (count {view.count}): "] * 2
                        assert game.events == before
                        return
                game.apply(seat, game.legal_actions(seat)[0])
        pytest.fail("no seed reaches a card past 31")

    def test_quit_word(self) -> None:
        game = Game(seed=3)
        with pytest.raises(QuitGame) as info:
            _ask(game, 0, ["q"])
        assert info.value.code == 0

    def test_play_two_cards(self) -> None:
        game = Game(seed=3)
        while game.phase != "play" or game.to_act[0] != 0:
            seat = game.to_act[0]
            game.apply(seat, game.legal_actions(seat)[0])
        view = game.view(0)
        legal = view.legal_actions[0]
        assert isinstance(legal, Play)
        action, reader = _ask(game, 0, ["1 2", "1"])
        assert action == Play(view.hand[0]) == legal
        assert "one card at a time" in reader.problems[0]


# --------------------------------------------------------------------------- matches


class TestMatch:
    def test_a_match_with_skunks_counts_game_points(self, capsys: CaptureFixture) -> None:
        base, games = 2, 2
        argv = ["play", "--players", "random,computer", "--seed", str(base), "--match", str(games)]
        assert main([*argv, "--profile", "skunk-match"]) == 0
        out = capsys.readouterr().out
        profile = load_profile("skunk-match")
        points = [0, 0]
        for number in range(games):
            seed = base + number
            game = Game(profile, seed=seed, players=("Computer 1", "Computer 2"))
            players = [make_player("random", seed), make_player("computer", seed + 1)]
            while game.to_act:
                seat = game.to_act[0]
                game.apply(seat, players[seat].choose(game.view(seat)))
            assert game.winner is not None
            points[game.winner] += game.game_points
            assert f"Game {number + 1} of {games}" in out
            if game.game_points == 2:
                assert f"A skunk: {game.players[game.winner]} earns 2 game points" in out
        assert f"{points[1]} game point" in out.splitlines()[-2].partition("Computer 2: ")[2]
        assert out.splitlines()[-1].startswith("Match over: ")

    @pytest.mark.parametrize(
        ("points", "words"), [(1, None), (2, "a skunk"), (3, "a double skunk"), (4, "worth four games")]
    )
    def test_skunk_words(self, points: int, words: str | None) -> None:
        assert skunk_words(points) == words

    def test_match_result(self) -> None:
        voice = Voice.for_game(("Ann", "Bob"), RuleSet())
        won = GameResult(seed=1, scores=[121, 50], winner=0, game_points=3)
        lost = GameResult(seed=2, scores=[100, 121], winner=1, game_points=1)
        match = MatchState(games=3, seed=1, results=[won, lost])
        assert standing(match, voice) == "Ann: 1 game won, 3 game points · Bob: 1 game won, 1 game point"
        assert match_result(match, voice) == "Ann wins the match, 3 game points to 1"
        even = MatchState(
            games=2, seed=1, results=[lost, GameResult(scores=[121, 9], winner=0, game_points=1)]
        )
        assert match_result(even, voice) == "The match is drawn, one game point each"


# --------------------------------------------------------------------------- kinds the terminal does not know


class TestUnknownKinds:
    def test_an_unknown_event_gets_a_plain_line(self) -> None:
        out = io.StringIO()
        console = Console(file=out, width=100)
        game = Game(seed=1, players=("Ann", "Bob"))
        narrator = Narrator(
            console, Painter(), Voice.for_game(game.players, game.rules, you=0), rules=game.rules
        )
        card = parse_card("5H")
        narrator.tell(
            [
                Event("declare-count", 0, seat=1, note="says 6"),
                Event("bonus", 0, seat=0, points=2, scored=True, scores=(2, 0)),
                Event("peek", 0, seat=1, cards=(card,), private_to=1),
                Event("peek", 0, seat=0, cards=(card,), private_to=0),
            ]
        )
        lines = out.getvalue().splitlines()
        assert lines[0] == "Bob: declare count — says 6."
        assert lines[1].startswith("You score 2 for bonus.")
        assert lines[2] == "Bob: peek."  # another seat's private cards are never shown
        assert lines[3] == "You: peek 5♥."

    def test_an_unknown_action_is_asked_for_by_its_text(self, monkeypatch: pytest.MonkeyPatch) -> None:
        game = Game(seed=3)
        view = game.view(0)
        legal = view.legal_actions[0]
        # A view whose actions are of a kind the terminal has no prompt for.
        monkeypatch.delitem(ASKERS, Discard)
        checked: list[Any] = []
        reader = ScriptedReader(["bogus", str(legal)])
        voice = Voice.for_game(game.players, game.rules, you=0)
        action = ask_action(reader, view, voice, Painter(), checked.append)
        assert action == legal and checked == [legal]
        assert reader.prompts[0].startswith("Your move (discard ")
        assert "Unknown action" in reader.problems[0]
