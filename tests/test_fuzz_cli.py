"""Fuzzing the command line and the engine's actions (hypothesis).

The promise checked: a command line, however wrong, ends with exit status 0, 1 or 2, at most one line
on standard error, no traceback, no raw escape sequence on the terminal, and the files it was given
unchanged when it fails; an action, however ill-typed, is applied or refused with an `IllegalAction`
that changes nothing. A few examples run in the default suite; ``CRIBCORE_FUZZ=long`` runs many.
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cribcore import FULL_DECK, Game, load_profile
from cribcore.actions import Count, Discard, IllegalAction, Muggins, Pass, Play
from cribcore.cli.main import main
from cribcore.records import game_record

from .conftest import fuzz_settings

# ------------------------------------------------------------------ command lines

QUICK_PROFILE = 'name = "quick"\nextends = "standard"\n\n[rules]\ntarget = 7\n'
"""A profile whose games end within a deal: play and simulate stay cheap under the fuzzer."""

GIVEN = ("record.json", "bad.json", "quick.toml", "broken.toml")
"""Files handed to commands; a command that fails must leave them as they were."""

COMMANDS: dict[str, tuple[str, ...]] = {
    "score": ("score",),
    "peg": ("peg",),
    "analyze": ("analyze",),
    "replay": ("replay",),
    "stats": ("stats", "--hand-size", "1"),
    "profiles": ("profiles",),
    "plugins": ("plugins",),
    "saves": ("saves",),
    "simulate": ("simulate", "2", "--jobs", "1", "--profile", "quick.toml", "--players", "random"),
    "play": ("play", "--profile", "quick.toml", "--players", "computer,computer"),
    "resume": ("resume",),
    "practice": ("practice",),
}
"""Each command with a start that keeps it cheap (no server, no network, no long run); the fuzzer
adds arbitrary words after it."""

WORDS = (
    # cards and card-like text
    "5H",
    "5S",
    "JC",
    "TD",
    "10s",
    "j♣",
    "AH",
    "KH",
    "QS",
    "4C",
    "6D",
    "5h",
    "ZZ",
    "5X",
    "11H",
    "♠",
    # numbers, good and bad
    "-1",
    "0",
    "1",
    "2",
    "3",
    "6",
    "99999999999999999999999",
    "1.5",
    "nan",
    "0x10",
    "",
    # options of the commands
    "--json",
    "--crib",
    "--last",
    "--pone",
    "--starter",
    "--profile",
    "--hand-size",
    "--players",
    "--seed",
    "--name",
    "--record",
    "--output",
    "--force",
    "--set",
    "--from",
    "--plugin",
    "--description",
    "--match",
    "--level",
    "--ascii",
    "--no-save",
    "-h",
    "--",
    "-",
    "--nope",
    # values
    "five-card",
    "standard",
    "seven-card",
    "muggins",
    "skunk",
    "nope",
    "computer,computer",
    "random,random",
    "human",
    "hard",
    "easy",
    "list",
    "show",
    "validate",
    "new",
    "schema",
    "delete",
    "examples",
    "pegging",
    "computer",
    "same-device",
    "five-card.target=31",
    "rules.target=0",
    "rules.seats=9",
    "skunk.skunk_line=-3",
    "mine",
    "bad name!",
    # files: given ones, new ones, folders, missing ones
    *GIVEN,
    "out.toml",
    "rec.json",
    ".",
    "/",
    "missing.json",
    "/dev/null",
    "sub/x.json",
    # hostile text
    "\x1b[2J\x1b]0;owned\x07",
    "\u202eevil",
    "A" * 5000,
    "word " * 500,
    "\x00",
    "\udcff",
)


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    start = draw(st.sampled_from(sorted(COMMANDS)))
    words = st.one_of(
        st.sampled_from(WORDS), st.text(max_size=12), st.text(alphabet="5HSCDJQKAT0123456789-", max_size=4)
    )
    return [*COMMANDS[start], *draw(st.lists(words, max_size=7))]


@functools.cache
def _record_text() -> str:
    game = Game(seed=5)
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, game.legal_actions(seat)[0])
    return json.dumps(game_record(game))


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes() for name in GIVEN}


@contextlib.contextmanager
def _workspace(folder: Path) -> Iterator[None]:
    """Fresh given files in ``folder`` (and nothing else), as the current folder."""
    for child in folder.iterdir():
        if child.is_file():
            child.unlink()
    (folder / "sub").mkdir(exist_ok=True)
    (folder / "record.json").write_text(_record_text(), encoding="utf-8")
    (folder / "bad.json").write_bytes(b'{"version": 1, "deals": [\xff\x1b')
    (folder / "quick.toml").write_text(QUICK_PROFILE, encoding="utf-8")
    (folder / "broken.toml").write_text('name = "x"\n[rules\n', encoding="utf-8")
    yield


def run_main(argv: list[str]) -> tuple[int, str, str]:
    """``main(argv)`` in this process with its own standard streams (empty input)."""
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
    finally:
        sys.stdin = stdin
    return status, out.getvalue(), err.getvalue()


def check_promise(argv: list[str], status: int, out: str, err: str) -> None:
    assert status in (0, 1, 2), (argv, status, err)
    assert len(err.splitlines()) <= 1, (argv, err)
    assert "Traceback" not in err, (argv, err)
    for stream in (out, err):
        assert "\x1b" not in stream and "\u202e" not in stream, (argv, stream[:300])


def _outputs(argv: list[str]) -> set[str]:
    """The files ``argv`` names as outputs: after ``--record`` or ``--output``, and ``profiles new``'s
    NAME.toml."""
    named = {value for option, value in itertools.pairwise(argv) if option in ("--record", "--output")}
    if argv[:2] == ["profiles", "new"]:
        named |= {f"{word}.toml" for word in argv[2:]}
    return named


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CRIBCORE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "80")
    return tmp_path


@fuzz_settings(15)
@given(argv=command_lines())
def test_any_command_line_keeps_the_promise(workspace: Path, argv: list[str]) -> None:
    with _workspace(workspace):
        before = _snapshot(workspace)
        status, out, err = run_main(argv)
        check_promise(argv, status, out, err)
        after = _snapshot(workspace)
        if status == 0:  # a command that succeeds may write the files it was told to write
            for name in _outputs(argv):
                after.pop(name, None)
                before.pop(name, None)
        assert after == before, argv


def test_the_command_in_its_own_process_keeps_the_promise(workspace: Path) -> None:
    argv = ["score", "\x1b[2J5H", "A" * 10_000, "--starter", "5S"]
    result = subprocess.run(
        [sys.executable, "-m", "cribcore.cli", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    check_promise(argv, result.returncode, result.stdout, result.stderr)


# ------------------------------------------------------------------ the engine's actions

CARDS = st.sampled_from(FULL_DECK)
JUNK: st.SearchStrategy[Any] = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=True), st.text(max_size=3), st.integers(-5, 200)
)
SEATS: st.SearchStrategy[Any] = st.one_of(st.integers(-2, 5), JUNK, st.just(1.0), st.just([0]))


def _bare(cls: type, **fields: Any) -> Any:
    action: Any = object.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(action, name, value)
    return action


ACTIONS: st.SearchStrategy[Any] = st.one_of(
    st.builds(Play, CARDS),
    st.builds(lambda cards: Discard(tuple(cards)), st.lists(CARDS, max_size=4)),
    st.builds(Count, st.one_of(st.integers(-3, 120), JUNK)),
    st.builds(Muggins, st.one_of(st.integers(-3, 120), JUNK)),
    st.just(Pass()),
    st.builds(lambda value: _bare(Play, card=value), JUNK),
    st.builds(lambda value: _bare(Discard, cards=value), st.one_of(JUNK, st.lists(JUNK, max_size=3))),
    JUNK,
)


def _state(game: Game) -> tuple[object, ...]:
    return (
        json.dumps(game_record(game), sort_keys=True),
        game.to_act,
        game.scores,
        len(game.events),
        tuple(game.view(seat) for seat in range(game.rules.seats)),
    )


@fuzz_settings(30)
@given(
    profile=st.sampled_from(["standard", "muggins", "five-card", "three-players"]),
    seed=st.integers(0, 2**32),
    moves=st.lists(st.tuples(st.booleans(), st.integers(0, 10**6), SEATS, ACTIONS), max_size=40),
)
def test_any_action_is_applied_or_refused_without_a_trace(
    profile: str, seed: int, moves: list[tuple[bool, int, Any, Any]]
) -> None:
    game = Game(load_profile(profile), seed=seed)
    for legal, pick, seat, action in moves:
        if game.is_over:
            break
        if legal:  # move the game on, so that garbage meets every phase
            actor = game.to_act[0]
            choices = game.legal_actions(actor)
            game.apply(actor, choices[pick % len(choices)])
            continue
        before = _state(game)
        try:
            game.check(seat, action)
        except IllegalAction as refusal:
            with pytest.raises(type(refusal)):
                game.apply(seat, action)
            assert _state(game) == before
        else:
            game.apply(seat, action)
