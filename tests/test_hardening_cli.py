"""Regression tests for the command line and engine hardening (issue 13): each test names what it keeps
fixed. Properties found by fuzzing live in test_fuzz_cli.py."""

from __future__ import annotations

import errno
import importlib.abc
import importlib.metadata
import json
import os
import stat
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from _pytest.capture import CaptureFixture

from cribcore import Game, Profile, load_profile, parse_card, parse_cards
from cribcore.actions import (
    Count,
    Discard,
    IllegalAction,
    MalformedAction,
    Muggins,
    NotYourTurn,
    Play,
    PluginAction,
)
from cribcore.cli import entry
from cribcore.cli.board import MAX_ROWS, Pegs, board_lines
from cribcore.cli.errors import shorten, visible
from cribcore.cli.main import main
from cribcore.files import atomic_write_text
from cribcore.pluginmanager import plugin_manager
from cribcore.profiles import resolved_profile
from cribcore.records import game_record
from cribcore.scoring import FLUSH, score_show, show_total
from cribcore.simulate import Matchup, simulate
from cribcore.version import VERSION

# ------------------------------------------------------------------ flushes need three or more cards


@pytest.mark.parametrize(
    ("hand", "starter"), [("5H", "5S"), ("5H", "9H"), ("5H 6H", "KH"), ("5H 6H", "KS"), ("2C 9C", "JC")]
)
@pytest.mark.parametrize("crib", [False, True])
def test_one_or_two_cards_are_no_flush(hand: str, starter: str, crib: bool) -> None:
    cards, cut = parse_cards(hand), parse_card(starter)
    score = score_show(cards, cut, crib=crib)
    assert all(item.kind != FLUSH for item in score.items)
    assert show_total(cards, cut, crib=crib) == score.total


def test_three_hand_cards_of_a_suit_still_flush() -> None:
    # Five-card cribbage's hand of three: 3, or 4 with the starter.
    assert show_total(parse_cards("2H 6H TH"), parse_card("KS")) == 3
    assert show_total(parse_cards("2H 6H TH"), parse_card("KH")) == 4


def test_score_command_counts_no_flush_of_one(capsys: CaptureFixture[str]) -> None:
    assert main(["score", "5H", "--starter", "5S"]) == 0
    out = capsys.readouterr().out
    assert "flush" not in out and "total" in out


def test_stats_of_one_card_hands_have_no_flush(capsys: CaptureFixture[str]) -> None:
    assert main(["stats", "--hand-size", "1", "--json"]) == 0
    # The best one-card hand is a jack of the starter's suit making fifteen: 2 + nobs 1.
    assert json.loads(capsys.readouterr().out)["hand"]["max"] == 3


def test_a_profile_with_hands_of_one_scores_no_flush() -> None:
    profile = load_profile("standard")
    hook = plugin_manager(profile.plugins, profile.options).hook
    results = hook.cribcore_show_items(
        rules=profile.rules, cards=parse_cards("9D"), starter=parse_card("2D"), crib=False, seat=0, dealer=1
    )
    assert not [item for result in results for item in result or () if item.kind == FLUSH]


# ------------------------------------------------------------------ skunk lines follow the target


def _with_skunk(name: str, **options: int) -> Profile:
    data = load_profile(name).model_dump(mode="json")
    data["plugins"] = [*data["plugins"], "skunk"]
    data["options"]["skunk"] = options
    data["name"] = f"{name}-skunk"
    return resolved_profile(data, f"{name} with skunk (test)")


def _game_points(profile: Profile, scores: tuple[int, int]) -> int:
    hook = plugin_manager(profile.plugins, profile.options).hook
    points = hook.cribcore_game_points(rules=profile.rules, scores=scores, winner=0)
    return int(points) if points is not None else 1


@pytest.mark.parametrize(
    ("scores", "points"), [((61, 40), 1), ((61, 31), 1), ((61, 30), 2), ((61, 1), 2), ((61, 0), 2)]
)
def test_five_card_skunk_lines_follow_the_target(scores: tuple[int, int], points: int) -> None:
    # At 61: skunk below 31, no double skunk (not every win a double skunk).
    assert _game_points(_with_skunk("five-card"), scores) == points


@pytest.mark.parametrize(
    ("scores", "points"), [((126, 91), 1), ((121, 90), 2), ((121, 61), 2), ((121, 60), 3), ((125, 0), 3)]
)
def test_skunk_lines_at_121_are_91_and_61(scores: tuple[int, int], points: int) -> None:
    # Lines are measured from the target, not from the winner's score: 126-91 is 30 short, no skunk.
    assert _game_points(_with_skunk("standard"), scores) == points


def test_skunk_lines_at_151() -> None:
    profile = _with_skunk("seven-card")
    assert [_game_points(profile, (151, loser)) for loser in (121, 120, 91, 90)] == [1, 2, 2, 3]


def test_explicit_skunk_lines_are_kept() -> None:
    profile = _with_skunk("five-card", skunk_line=41, double_skunk_line=11)
    assert [_game_points(profile, (61, loser)) for loser in (41, 40, 11, 10)] == [1, 2, 2, 3]


def test_simulate_reports_the_lines_the_plugin_awards() -> None:
    assert Matchup(_with_skunk("five-card"), ("random", "random"), 0).skunk_lines() == (31, 0)
    assert Matchup(load_profile("seven-card"), ("random", "random"), 0).skunk_lines() == (121, 91)
    assert Matchup(load_profile("skunk-match"), ("random", "random"), 0).skunk_lines() == (91, 61)


def test_profiles_show_a_skunk_profile_that_follows_the_target(
    tmp_path: Path, capsys: CaptureFixture[str]
) -> None:
    path = tmp_path / "fc.toml"
    path.write_text('name = "fc"\nextends = "five-card"\nplugins = ["skunk"]\n', encoding="utf-8")
    assert main(["profiles", "show", str(path)]) == 0
    captured = capsys.readouterr()
    assert "[options.skunk]" in captured.out and not captured.err


# ------------------------------------------------------------------ output files: only ordinary files


def _one_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def test_record_to_a_fifo_is_refused_before_the_game(fifo: Path, capsys: CaptureFixture[str]) -> None:
    assert main(["play", "--players", "computer,computer", "--seed", "1", "--record", str(fifo)]) == 2
    captured = capsys.readouterr()
    assert str(fifo) in _one_line(captured.err) and "Cut for deal" not in captured.out
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_profiles_new_force_over_a_fifo_is_refused(fifo: Path, capsys: CaptureFixture[str]) -> None:
    assert main(["profiles", "new", "mine", "--output", str(fifo), "--force"]) == 2
    assert str(fifo) in _one_line(capsys.readouterr().err)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_atomic_write_refuses_a_device_or_fifo(fifo: Path) -> None:
    with pytest.raises(OSError, match="not an ordinary file"):
        atomic_write_text(fifo, "text")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert [p.name for p in fifo.parent.iterdir()] == [fifo.name]


def _no_new_files(folder: str | None = None, *args: Any, **kwargs: Any) -> tuple[int, str]:
    raise PermissionError(errno.EACCES, "Permission denied", f"{kwargs.get('dir')}/.x.json.abc.tmp")


def test_an_unwritable_record_folder_fails_before_any_card(
    tmp_path: Path, capsys: CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "mkstemp", _no_new_files)
    record = tmp_path / "game.json"
    assert main(["play", "--players", "computer,computer", "--seed", "1", "--record", str(record)]) == 2
    captured = capsys.readouterr()
    line = _one_line(captured.err)
    assert str(record) in line and ".tmp" not in line
    assert "Cut for deal" not in captured.out
    assert not record.exists()


def test_a_failed_write_names_the_file_not_the_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.json"
    target.write_text("old", encoding="utf-8")

    def replace(src: str, dst: object) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link", src, str(dst))

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OSError) as caught:
        atomic_write_text(target, "new")
    assert caught.value.filename == str(target)
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


# ------------------------------------------------------------------ Game.apply refuses ill-typed input


def _snapshot(game: Game) -> tuple[object, ...]:
    seats = range(game.rules.seats)
    return (
        json.dumps(game_record(game), sort_keys=True),
        game.to_act,
        game.scores,
        len(game.events),
        tuple(game.view(seat) for seat in seats),
    )


def _muggins_game_at_a_count() -> Game:
    """A muggins game waiting for the first count to be declared."""
    game = Game(load_profile("muggins"), seed=3)
    while game.claim_stage is None:
        seat = game.to_act[0]
        game.apply(seat, game.legal_actions(seat)[0])
    return game


def _bare(cls: type, **fields: object) -> object:
    """An action whose fields were set without its constructor (as a careless deserializer might)."""
    action: object = object.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(action, name, value)
    return action


@pytest.mark.parametrize("seat", [1.0, 0.0, None, "0", "1", True, False, -1, 2, 10**30, [0]])
def test_a_seat_must_be_a_whole_number_in_range(seat: object) -> None:
    game = Game(seed=1)
    before = _snapshot(game)
    action = game.legal_actions(0)[0]
    with pytest.raises(NotYourTurn):
        game.apply(seat, action)  # type: ignore[arg-type]
    assert _snapshot(game) == before
    game.apply(0, action)  # the game still goes on
    assert game.legal_actions(1.0) == ()  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", [float, bool, str])
def test_a_seat_equal_to_the_seat_to_play_but_not_an_int_is_refused_in_the_play(kind: type) -> None:
    game = Game(seed=1)
    for seat in (0, 1):
        game.apply(seat, game.legal_actions(seat)[0])
    turn = game.to_act[0]
    seat = kind(turn)  # 1.0 == 1 and True == 1, yet neither is a seat
    action = game.legal_actions(turn)[0]
    before = _snapshot(game)
    assert game.legal_actions(seat) == ()
    with pytest.raises(NotYourTurn):
        game.apply(seat, action)
    with pytest.raises(NotYourTurn):
        game.check(seat, action)
    assert _snapshot(game) == before
    game.apply(turn, action)  # the game still goes on


@pytest.mark.parametrize(
    "action",
    [
        Count(0.5),  # type: ignore[arg-type]
        Count(True),
        Count(None),  # type: ignore[arg-type]
        Muggins(0.5),  # type: ignore[arg-type]
        Muggins("2"),  # type: ignore[arg-type]
        "count 2",
        None,
        3,
        Play("5H"),  # type: ignore[arg-type]
        _bare(Discard, cards=["5H", "6H"]),
        _bare(Discard, cards=None),
        PluginAction("auction", 3),  # type: ignore[arg-type]
    ],
)
def test_ill_typed_actions_are_refused_and_change_nothing(action: object) -> None:
    game = _muggins_game_at_a_count()
    before = _snapshot(game)
    seat = game.to_act[0]
    with pytest.raises(IllegalAction):
        game.check(seat, action)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction):
        game.apply(seat, action)  # type: ignore[arg-type]
    assert _snapshot(game) == before


def test_a_fractional_count_is_refused_as_malformed() -> None:
    game = _muggins_game_at_a_count()
    with pytest.raises(MalformedAction):
        game.apply(game.to_act[0], Count(0.5))  # type: ignore[arg-type]
    assert game.scores == (0, 0)


# ------------------------------------------------------------------ Ctrl-C while the command loads


class _InterruptOn(importlib.abc.MetaPathFinder):
    """Raises KeyboardInterrupt when ``name`` is imported, as Ctrl-C during that import would."""

    def __init__(self, name: str) -> None:
        self.name = name

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> None:
        if fullname == self.name:
            raise KeyboardInterrupt
        return None


def test_ctrl_c_while_the_commands_load_is_one_line_and_130(
    capsys: CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in [m for m in sys.modules if m == "cribcore.cli.main" or m.startswith("cribcore.cli.main.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [_InterruptOn("cribcore.cli.main"), *sys.meta_path])
    assert entry.main(["score", "5H", "--starter", "5S"]) == 130
    captured = capsys.readouterr()
    assert _one_line(captured.err) == "cribbage: error: interrupted" and not captured.out


_SIGINT_DURING = """
import os, signal, sys
class Finder:
    def find_spec(self, fullname, path=None, target=None):
        if fullname == MODULE:
            os.kill(os.getpid(), signal.SIGINT)  # a real Ctrl-C, delivered during the import
        return None
sys.meta_path.insert(0, Finder())
sys.argv = ARGV
from cribcore.cli.entry import main
sys.exit(main())
"""


def _sigint_script(module: str, *argv: str) -> str:
    """A program that runs ``cribbage ARGV`` and gets a real Ctrl-C while ``module`` is imported."""
    return _SIGINT_DURING.replace("MODULE", repr(module)).replace("ARGV", repr(["cribbage", *argv]))


# The engine is imported by the commands that play (``score`` of the standard rules never loads it).
_SIGINT_DURING_IMPORT = _sigint_script(
    "cribcore.engine", "play", "--players", "computer,computer", "--no-save"
)


def test_a_real_sigint_during_the_imports_is_handled() -> None:
    result = subprocess.run(
        [sys.executable, "-c", _SIGINT_DURING_IMPORT], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 130, result.stderr
    assert _one_line(result.stderr) == "cribbage: error: interrupted"


def test_the_entry_point_loads_no_engine_and_version_needs_none() -> None:
    code = (
        "import sys; from cribcore.cli.entry import main; assert main(['--version']) == 0; "
        "print(sorted(m for m in sys.modules if m.startswith('cribcore')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    first, loaded = result.stdout.splitlines()
    assert first == f"cribbage {VERSION}"
    assert "cribcore.engine" not in loaded and "cribcore.cli.main" not in loaded


def test_the_version_constant_is_the_package_version() -> None:
    assert importlib.metadata.version("cribcore") == VERSION


def test_the_console_script_is_the_tiny_entry_point() -> None:
    (script,) = importlib.metadata.entry_points(group="console_scripts", name="cribbage")
    assert script.value == "cribcore.cli.entry:main"


# ------------------------------------------------ nothing untrusted reaches the terminal raw


def test_escape_sequences_in_an_echoed_argument_are_shown_escaped(capsys: CaptureFixture[str]) -> None:
    assert main(["score", "\x1b[31mX\u202e", "--starter", "5S"]) == 1
    line = _one_line(capsys.readouterr().err)
    assert "\x1b" not in line and "\u202e" not in line
    assert "\\x1b[31mX\\u202e" in line


def test_a_long_echoed_argument_is_shortened(capsys: CaptureFixture[str]) -> None:
    assert main(["score", "Q" * 10_000, "--starter", "5S"]) == 1
    line = _one_line(capsys.readouterr().err)
    assert len(line) < 400 and "…" in line and "not a card" in line


def test_a_long_argument_with_spaces_is_shortened_too(capsys: CaptureFixture[str]) -> None:
    assert main(["play", "--players", "x " * 5_000]) == 2
    line = _one_line(capsys.readouterr().err)
    assert len(line) < 700 and line.endswith("(see 'cribbage play --help')")


def test_names_in_a_record_reach_the_terminal_escaped(tmp_path: Path, capsys: CaptureFixture[str]) -> None:
    game = Game(seed=1, players=["Ann\x1b]0;owned\x07\x1b[2J", "Bob\u202e"])
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, game.legal_actions(seat)[0])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_record(game)), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out
    assert "Ann\\x1b]0;owned" in out and "Bob\\u202e" in out


def test_a_bad_profile_name_is_one_plain_line(tmp_path: Path, capsys: CaptureFixture[str]) -> None:
    assert main(["profiles", "new", "bad name!", "--output", str(tmp_path / "p.toml")]) == 2
    line = _one_line(capsys.readouterr().err)
    assert "profile name" in line and "pydantic" not in line and "validation error" not in line
    assert not list(tmp_path.iterdir())


def test_visible_escapes_controls_and_keeps_text() -> None:
    assert visible("5♥ Zoë\u200dx") == "5♥ Zoë\u200dx"
    assert visible("a\x1b[2Jb\x9b\u2028\ud800") == "a\\x1b[2Jb\\x9b\\u2028\\ud800"
    assert visible("one\ntwo\t", keep="\n\t") == "one\ntwo\t"
    assert shorten("x" * 10, 10) == "x" * 10 and len(shorten("x" * 1000, 10)) == 10


# ------------------------------------------------------------------ a high target costs linear time


@pytest.mark.parametrize("ascii_only", [False, True])
def test_the_board_of_a_long_track_draws_a_bounded_window(ascii_only: bool) -> None:
    front, back = "@" if ascii_only else "●", "o" if ascii_only else "○"
    sizes = []
    for target in (1_000, 10_000):
        where = [Pegs(front=target // 2 + 7, back=target // 3), Pegs(front=3, back=0)]
        lines = [line.plain for line in board_lines(["A", "B"], where, target, ascii_only=ascii_only)]
        sizes.append(len(lines))
        text = "\n".join(line for line in lines if line.startswith(" ") and "holes" not in line)
        assert text.count(front) == 2 and text.count(back) == 1  # every peg is on the board
        assert f"{target}" in lines[-1]  # the game hole's row is always drawn
    assert sizes[0] == sizes[1] <= 2 * (1 + 2 * MAX_ROWS)


def test_a_board_of_a_standard_game_is_drawn_whole() -> None:
    lines = [line.plain for line in board_lines(["A", "B"], [Pegs(90, 80), Pegs(3, 0)], 121)]
    assert not any("holes" in line for line in lines)


# ------------------------------------------------------------------ simulate: any N, bounded --jobs


class _Enough(Exception):
    """Stops a run after its first chunk."""


def _stop_after_first(done: int) -> None:
    raise _Enough(done)


@pytest.mark.parametrize(("games", "jobs"), [(10**8, 1), (10**7, 2)])
def test_a_huge_simulation_holds_a_few_chunks_not_all(games: int, jobs: int) -> None:
    data = load_profile("standard").model_dump(mode="json")
    data["name"], data["rules"]["target"] = "first-point", 1  # games of a few cards: cheap chunks
    quick = resolved_profile(data, "first-point (test)")
    tracemalloc.start()
    try:
        with pytest.raises(_Enough):
            simulate(games, ["random"] * 2, profile=quick, seed=1, jobs=jobs, progress=_stop_after_first)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000


def test_simulate_jobs_has_an_upper_bound(capsys: CaptureFixture[str]) -> None:
    assert main(["simulate", "3", "--jobs", "100000"]) == 2
    assert "at most" in _one_line(capsys.readouterr().err)
    with pytest.raises(ValueError, match="--jobs"):
        simulate(1, ["random", "random"], jobs=100_000)


def test_score_of_the_standard_profile_loads_no_engine_plugins_or_pydantic() -> None:
    code = (
        "import sys; from cribcore.cli.entry import main; "
        "assert main(['score', '5H', '5D', '5C', 'JS', '--starter', '5S']) == 0; "
        "print(sorted(m for m in sys.modules if m.startswith(('cribcore', 'pydantic', 'pluggy', 'babel'))))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    loaded = result.stdout.splitlines()[-1]
    assert "total                 29" in result.stdout
    for heavy in (
        "cribcore.engine",
        "cribcore.rulebook",
        "cribcore.profiles",
        "'pydantic",
        "'pluggy",
        "babel",
    ):
        assert heavy not in loaded, heavy


_SIGINT_DURING_SCORING_IMPORT = _sigint_script("cribcore.scoring", "score", "5H", "--starter", "5S")


def test_a_real_sigint_while_score_loads_its_scorer_is_handled() -> None:
    result = subprocess.run(
        [sys.executable, "-c", _SIGINT_DURING_SCORING_IMPORT], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 130, result.stderr
    assert _one_line(result.stderr) == "cribbage: error: interrupted"


def test_the_profile_option_names_the_standard_profile_as_the_profiles_do() -> None:
    from cribcore.cli import profile_arg
    from cribcore.profiles import STANDARD

    assert profile_arg.STANDARD == STANDARD
