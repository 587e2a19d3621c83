"""Fuzzing the files cribcore reads: game records, saves and profiles, mutated, corrupted, nested deeply
and holding huge numbers. Whatever the file holds, the reading command (``cribbage replay``, ``saves
list``, ``resume``, ``profiles validate``) and the library functions under it either succeed or give
the documented one-line error: never a traceback, never a hang, and the file is left as it was.

The default suite runs a few examples of each; ``CRIBCORE_FUZZ=long`` runs the hypothesis profile
``long`` (see conftest.py) for a real campaign.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import tomli_w
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cribcore import Game, ProfileError, RecordError, game_record, load_profile, replay
from cribcore.cli.main import main
from cribcore.players import RandomPlayer
from cribcore.profiles import BUILTIN_DIRECTORY
from cribcore.records import read_record
from cribcore.saves import SaveError, SaveSlot, build_envelope, checksum, read_save, save_path

LONG = os.environ.get("CRIBCORE_FUZZ") == "long"
FUZZ = settings(
    max_examples=settings.get_profile("long").max_examples if LONG else 12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

SPLICE = "\x00splice\x00"
"""A value that the JSON text replaces with raw text no Python value dumps to (deep nesting, huge
numbers)."""


def _finished(profile: str, seed: int) -> Game:
    game = Game(load_profile(profile), seed=seed, players=["Ann", "Bob"])
    players = [RandomPlayer(seed), RandomPlayer(seed + 1)]
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
    return game


def _unfinished() -> Game:
    game = Game(seed=11, players=["Ann", "Computer"])
    while game.deal_number < 1 or game.phase.name != "PLAY":
        seat = game.to_act[0]
        game.apply(seat, game.legal_actions(seat)[0])
    return game


RECORDS = [game_record(_finished("standard", 5)), game_record(_finished("muggins", 8))]
SAVE = build_envelope(
    mode="computer",
    seats=[("human", "Ann"), ("computer", "Computer")],
    level="computer",
    profile="standard",
    game=_unfinished(),
)
PROFILES = [
    tomllib.loads(path.read_text(encoding="utf-8")) for path in sorted(BUILTIN_DIRECTORY.glob("*.toml"))
]

leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=2**250, max_value=2**300),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.sampled_from(
        [
            "5H",
            "TS",
            "10s",
            "standard",
            "five-card",
            "/dev/zero",
            "/dev/stdin",
            "../x.toml",
            "",
            "count 6",
            "pass",
        ]
    ),
    st.just(SPLICE),
)
values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)
splices = st.one_of(
    st.integers(30, 3000).map(lambda n: "[" * n + "]" * n),
    st.integers(30, 3000).map(lambda n: '{"a":' * n + "0" + "}" * n),
    st.integers(4000, 6000).map(lambda n: "7" * n),
)


@st.composite
def mutated(draw: st.DrawFn, base: Any) -> Any:
    """``base`` (JSON data) with one to three values replaced, removed or added, somewhere inside."""
    data = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        node = data
        while True:
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            inner = [key for key in keys if isinstance(node[key], dict | list) and node[key]]
            if not inner or draw(st.integers(0, 3)) == 0:
                break
            node = node[draw(st.sampled_from(inner))]
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        action = draw(st.sampled_from(["replace", "remove", "add"])) if keys else "add"
        if action == "add":
            if isinstance(node, dict):
                node[draw(st.text(max_size=8))] = draw(values)
            else:
                node.append(draw(values))
        elif action == "remove":
            del node[draw(st.sampled_from(keys))]
        else:
            node[draw(st.sampled_from(keys))] = draw(values)
    return data


@st.composite
def json_texts(draw: st.DrawFn, data: Any) -> str:
    """``data`` as JSON text, with any `SPLICE` replaced by raw text, and perhaps cut short."""
    text = json.dumps(data, ensure_ascii=False)
    while json.dumps(SPLICE) in text:
        text = text.replace(json.dumps(SPLICE), draw(splices), 1)
    if draw(st.integers(0, 9)) == 0:
        text = text[: draw(st.integers(0, len(text)))]
    return text


@contextlib.contextmanager
def command(data_dir: Path | None = None) -> Iterator[tuple[io.StringIO, io.StringIO]]:
    """Run `main` in this process with its output captured, no standard input, saves under
    ``data_dir``."""
    out, err = io.StringIO(), io.StringIO()
    old_env, old_stdin = os.environ.get("CRIBCORE_DATA_DIR"), sys.stdin
    if data_dir is not None:
        os.environ["CRIBCORE_DATA_DIR"] = str(data_dir)
    sys.stdin = io.StringIO("")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            yield out, err
    finally:
        sys.stdin = old_stdin
        if old_env is None:
            os.environ.pop("CRIBCORE_DATA_DIR", None)
        else:
            os.environ["CRIBCORE_DATA_DIR"] = old_env


def assert_one_line(status: int, err: str, *, allowed: tuple[int, ...] = (0, 1)) -> None:
    assert status in allowed, err
    assert "Traceback" not in err
    assert err.count("\n") <= 1 and (err == "" or err.startswith("cribbage: error: ")), err


@FUZZ
@given(st.data())
def test_replay_of_a_mutated_record_succeeds_or_says_why(data: st.DataObject) -> None:
    base = data.draw(st.sampled_from(RECORDS))
    text = data.draw(json_texts(data.draw(mutated(base))))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        path.write_text(text, encoding="utf-8")
        before = path.read_bytes()
        try:
            replay(read_record(path))
        except RecordError as exc:
            assert "\n" not in str(exc)
        with command() as (_, err):
            status = main(["replay", str(path)])
        assert_one_line(status, err.getvalue())
        assert path.read_bytes() == before


@FUZZ
@given(st.data())
def test_a_mutated_save_is_listed_resumed_or_refused(data: st.DataObject) -> None:
    changed = data.draw(mutated(SAVE))
    if data.draw(st.booleans()):
        changed["checksum"] = checksum(changed)  # so the fault is found by what it is
    text = data.draw(json_texts(changed))
    with tempfile.TemporaryDirectory() as folder:
        path = save_path("computer", Path(folder))
        path.parent.mkdir(parents=True)
        path.write_text(text, encoding="utf-8")
        before = path.read_bytes()
        try:
            read_save(path, "computer")
            readable = True
        except SaveError as exc:
            assert "\n" not in str(exc)
            readable = False
        with command(Path(folder)) as (_, err):
            status = main(["saves", "list"])
        assert_one_line(status, err.getvalue(), allowed=(0,))
        assert err.getvalue() == ""
        if not readable:
            # A readable save would be played on (and saved again): only a refused one must stay.
            with command(Path(folder)) as (_, err):
                status = main(["resume"])
            assert_one_line(status, err.getvalue(), allowed=(1,))
        assert path.read_bytes() == before or readable


@FUZZ
@given(st.data())
def test_a_mutated_profile_loads_or_says_why(data: st.DataObject) -> None:
    spec = data.draw(mutated(data.draw(st.sampled_from(PROFILES))))
    try:
        text = tomli_w.dumps(spec)
    except (TypeError, ValueError):
        text = ""
    assume(text)
    if SPLICE in text or data.draw(st.integers(0, 4)) == 0:
        deep = data.draw(st.integers(30, 1500))
        text = text.replace(tomli_w.dumps({"x": SPLICE})[4:-1], "0") + "\n[options.x]\ny = "
        text += "[" * deep + "]" * deep + "\n"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "house.toml"
        path.write_text(text, encoding="utf-8")
        before = path.read_bytes()
        try:
            load_profile(path)
        except ProfileError as exc:
            assert "\n" not in str(exc)
        with command() as (_, err):
            status = main(["profiles", "validate", str(path)])
        assert_one_line(status, err.getvalue(), allowed=(0, 1, 2))
        assert path.read_bytes() == before


def test_a_save_written_by_the_game_survives_the_fuzz_helpers() -> None:
    # The unmutated inputs are accepted: the properties above test the faults, not the helpers.
    with tempfile.TemporaryDirectory() as folder:
        path = save_path("computer", Path(folder))
        SaveSlot(path).write(SAVE)
        assert read_save(path, "computer").game.deal_number == 1
        for record in RECORDS:
            assert replay(copy.deepcopy(record)).is_over
