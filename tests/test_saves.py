"""Saved games: where they live, that they resume the very same game, that they are written atomically
and never overwritten when changed underneath, and that every kind of bad save file is refused with
its own message and left exactly as it was, by the library and by the commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cribcore import Game
from cribcore.players import make_player
from cribcore.saves import (
    GameResult,
    MatchState,
    NoSave,
    SaveConflict,
    SaveError,
    SaveSlot,
    build_envelope,
    checksum,
    data_dir,
    mode_for,
    read_save,
    save_path,
)

from .terminal import run_cribbage, run_in_process

SEATS = [("human", "Ann"), ("computer", "Computer")]


def advance(game: Game, actions: int) -> Game:
    """Apply ``actions`` first-legal actions (a deterministic way to move a game along)."""
    for _ in range(actions):
        seat = game.to_act[0]
        game.apply(seat, game.legal_actions(seat)[0])
    return game


def write_save(directory: Path, game: Game, match: MatchState | None = None) -> Path:
    path = save_path("computer", directory)
    data = build_envelope(
        mode="computer", seats=SEATS, level="computer", profile="standard", game=game, match=match
    )
    SaveSlot(path).write(data)
    return path


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    """A save of a game in its second deal, in the middle of the play."""
    game = Game(seed=11, players=("Ann", "Computer"))
    while game.deal_number < 1:
        advance(game, 1)
    advance(game, 4)
    return write_save(tmp_path, game)


def cribbage(data: Path, *argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return run_cribbage(*argv, stdin=stdin, data=data)


# --------------------------------------------------------------------------- where saves live


class TestDataDir:
    @pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the XDG rules apply on Linux")
    def test_xdg(self, tmp_path: Path) -> None:
        home = Path.home()
        assert data_dir({}) == home / ".local" / "share" / "cribcore"
        assert data_dir({"XDG_DATA_HOME": str(tmp_path)}) == tmp_path / "cribcore"
        # The XDG specification says a relative path is to be ignored.
        assert data_dir({"XDG_DATA_HOME": "relative/dir"}) == home / ".local" / "share" / "cribcore"

    def test_override(self, tmp_path: Path) -> None:
        env = {"CRIBCORE_DATA_DIR": str(tmp_path / "x"), "XDG_DATA_HOME": "/elsewhere"}
        assert data_dir(env) == tmp_path / "x"

    def test_slots(self, tmp_path: Path) -> None:
        assert save_path("computer", tmp_path) == tmp_path / "saves" / "computer.json"
        assert save_path("same-device", tmp_path) == tmp_path / "saves" / "same-device.json"
        with pytest.raises(ValueError, match="unknown save mode"):
            save_path("online", tmp_path)
        assert mode_for(("human", "computer")) == "computer"
        assert mode_for(("human", "human", "computer")) == "same-device"
        assert mode_for(("computer", "random")) is None


# --------------------------------------------------------------------------- a save is the game


class TestRoundTrip:
    def test_resumes_the_same_game_with_the_same_cards_to_come(self, tmp_path: Path) -> None:
        seed = 17
        players = [make_player("computer", seed + seat) for seat in range(2)]

        def finish(game: Game) -> Game:
            while game.to_act:
                seat = game.to_act[0]
                game.apply(seat, players[seat].choose(game.view(seat)))
            return game

        straight = finish(Game(seed=seed, players=("Ann", "Computer")))
        stopped = Game(seed=seed, players=("Ann", "Computer"))
        while stopped.deal_number < 2:
            seat = stopped.to_act[0]
            stopped.apply(seat, players[seat].choose(stopped.view(seat)))
        path = write_save(tmp_path, stopped)
        resumed = finish(read_save(path).game)
        assert resumed.scores == straight.scores and resumed.winner == straight.winner
        assert resumed.deal_logs() == straight.deal_logs()

    def test_envelope(self, saved: Path) -> None:
        save = read_save(saved)
        assert save.envelope.mode == "computer"
        assert save.kinds == ("human", "computer") and save.names == ("Ann", "Computer")
        assert save.raw == saved.read_bytes()
        assert save.envelope.saved_at.endswith("Z")

    def test_match_state(self, tmp_path: Path) -> None:
        result = GameResult(seed=40, scores=[121, 80], winner=0, game_points=2)
        match = MatchState(games=3, seed=40, results=[result])
        path = write_save(tmp_path, advance(Game(seed=41, players=("Ann", "Computer")), 3), match)
        assert read_save(path).envelope.match == match


class TestSlot:
    def test_write_is_atomic_and_leaves_no_temporary_file(self, saved: Path) -> None:
        assert sorted(p.name for p in saved.parent.iterdir()) == ["computer.json"]

    def test_a_failed_write_leaves_the_old_save_whole(
        self, saved: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        before = saved.read_bytes()
        slot = SaveSlot(saved, current=before)
        game = advance(read_save(saved).game, 1)
        data = build_envelope(mode="computer", seats=SEATS, level="computer", profile="standard", game=game)

        def crash(*args: object) -> None:
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(os, "replace", crash)
        with pytest.raises(OSError):
            slot.write(data)
        monkeypatch.undo()
        assert saved.read_bytes() == before
        assert sorted(p.name for p in saved.parent.iterdir()) == ["computer.json"]
        slot.write(data)  # the slot still knows the file as its own
        assert read_save(saved).game.events == game.events

    def test_a_changed_file_is_never_overwritten(self, saved: Path) -> None:
        save = read_save(saved)
        slot = SaveSlot(saved, current=save.raw)
        data = json.loads(save.raw)
        slot.write(data)  # its own file: fine
        saved.write_text("edited by hand", encoding="utf-8")
        with pytest.raises(SaveConflict):
            slot.write(data)
        slot.clear()
        assert saved.read_text(encoding="utf-8") == "edited by hand"

    def test_a_new_game_does_not_take_a_slot_that_filled_meanwhile(self, tmp_path: Path) -> None:
        path = save_path("computer", tmp_path)
        slot = SaveSlot(path)  # empty when the game began
        path.parent.mkdir(parents=True)
        path.write_text("another window's save", encoding="utf-8")
        with pytest.raises(SaveConflict):
            slot.write({"format": "cribbage-save"})
        assert path.read_text(encoding="utf-8") == "another window's save"

    def test_clear(self, saved: Path) -> None:
        slot = SaveSlot(saved, current=saved.read_bytes())
        slot.clear()
        assert not saved.exists()

    def test_no_save(self, tmp_path: Path) -> None:
        with pytest.raises(NoSave):
            read_save(save_path("computer", tmp_path))


# --------------------------------------------------------------------------- faults

Edit = Callable[[Path], object]


def _edit_json(change: Callable[[dict[str, Any]], None], *, keep_checksum: bool = True) -> Edit:
    """Change the save's data; with ``keep_checksum`` the checksum is made right again, so that the
    fault must be found by what it is, not by the checksum."""

    def edit(path: Path) -> None:
        data = json.loads(path.read_text(encoding="utf-8"))
        change(data)
        if keep_checksum:
            data["checksum"] = checksum(data)
        path.write_text(json.dumps(data), encoding="utf-8")

    return edit


def _truncate(path: Path) -> None:
    raw = path.read_bytes()
    path.write_bytes(raw[: len(raw) // 2])


def _bad_json(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(",", ";", 3), encoding="utf-8")


def _duplicate_card(data: dict[str, Any]) -> None:
    hands = data["game"]["deals"][0]["hands"]
    hands[1][0] = hands[0][0]


def _score_above_target(data: dict[str, Any]) -> None:
    data["scores"] = [130, data["scores"][1]]


def _result_above_target(data: dict[str, Any]) -> None:
    data["game"]["result"] = {"scores": [130, 20], "winner": 0}


def _newer(data: dict[str, Any]) -> None:
    data["version"] = 2


def _edited(data: dict[str, Any]) -> None:
    data["saved_at"] = "2000-01-01T00:00:00Z"


def _played_twice(data: dict[str, Any]) -> None:
    plays = data["game"]["deals"][-1]["plays"]
    plays.append(plays[0])


FAULTS: list[tuple[str, Edit, str]] = [
    ("truncated", _truncate, "the file ends too soon (truncated)"),
    ("empty", lambda path: path.write_bytes(b""), "the file is empty (truncated)"),
    ("bad JSON", _bad_json, "not valid JSON"),
    ("not text", lambda path: path.write_bytes(b"\xff\xfe\x00"), "not UTF-8 text"),
    ("not an object", lambda path: path.write_text("[1, 2]", encoding="utf-8"), "a save is a JSON object"),
    ("another format", _edit_json(lambda d: d.update(format="x")), "not a cribcore save"),
    ("a duplicated card", _edit_json(_duplicate_card), "is dealt twice"),
    ("a card played twice", _edit_json(_played_twice), "cannot be replayed: deal 2, card"),
    (
        "a score above the target",
        _edit_json(_score_above_target),
        "130 for side 0 is at or above the target 121",
    ),
    ("a result above the target", _edit_json(_result_above_target), "the record says scores [130, 20]"),
    ("scores the cards do not give", _edit_json(lambda d: d.update(scores=[1, 2])), "its cards give"),
    ("a newer version", _edit_json(_newer), "saved by a newer cribcore (save format version 2"),
    ("a missing key", _edit_json(lambda d: d.pop("seats")), "seats: Field required"),
    ("an unknown computer", _edit_json(lambda d: d["seats"][1].update(kind="oracle")), "'oracle'"),
    ("seats that do not fit the mode", _edit_json(lambda d: d.update(mode="same-device")), "mode:"),
    ("edited", _edit_json(_edited, keep_checksum=False), "changed after cribcore wrote it"),
]


# Through the commands too: the faults the issue names, and a hand edit.
COMMAND_FAULTS = [
    fault
    for fault in FAULTS
    if fault[0]
    in ("truncated", "bad JSON", "a duplicated card", "a score above the target", "a newer version", "edited")
]


class TestFaults:
    @pytest.mark.parametrize(("name", "edit", "message"), FAULTS, ids=[name for name, _, _ in FAULTS])
    def test_refused_and_left_in_place(self, saved: Path, name: str, edit: Edit, message: str) -> None:
        edit(saved)
        before = saved.read_bytes()
        with pytest.raises(SaveError) as info:
            read_save(saved)
        assert message in str(info.value)
        assert str(saved) in str(info.value)
        assert saved.read_bytes() == before

    @pytest.mark.parametrize(
        ("name", "edit", "message"), COMMAND_FAULTS, ids=[name for name, _, _ in COMMAND_FAULTS]
    )
    def test_resume_refuses_with_one_line(self, saved: Path, name: str, edit: Edit, message: str) -> None:
        edit(saved)
        before = saved.read_bytes()
        data = saved.parent.parent
        result = cribbage(data, "resume")
        assert result.returncode == 1, (result.stdout, result.stderr)
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
        assert result.stderr.startswith("cribbage: error: ") and message in result.stderr
        # A new game will not take its place either; the file is left for the player to deal with.
        result = cribbage(data, "play", "--seed", "3", stdin="1 2\n")
        assert result.returncode == 1 and message in result.stderr
        assert "cribbage saves delete computer" in result.stderr
        listing = cribbage(data, "saves", "list")
        assert listing.returncode == 0 and "cannot be resumed" in listing.stdout
        assert saved.read_bytes() == before


class TestCommands:
    def test_play_without_a_terminal_does_not_replace_a_save(self, saved: Path) -> None:
        before = saved.read_bytes()
        result = cribbage(saved.parent.parent, "play", stdin="1 2\n")
        assert result.returncode == 1
        assert "a game against the computer is saved" in result.stderr
        assert "cribbage resume computer" in result.stderr
        assert saved.read_bytes() == before

    def test_no_save_leaves_the_slot_alone(self, saved: Path) -> None:
        _truncate(saved)
        before = saved.read_bytes()
        result = cribbage(saved.parent.parent, "play", "--seed", "3", "--no-save", stdin="1 2\n")
        assert "input ended" in result.stderr  # the game ran, until its input ended
        assert saved.read_bytes() == before

    def test_list_and_delete(self, saved: Path) -> None:
        data = saved.parent.parent
        listing = cribbage(data, "saves", "list")
        assert listing.returncode == 0
        assert "Ann vs Computer, deal 2" in listing.stdout and "same-device   none" in listing.stdout
        assert cribbage(data, "saves").stdout == listing.stdout
        deleted = cribbage(data, "saves", "delete", "computer")
        assert deleted.returncode == 0 and "Deleted the saved game against the computer" in deleted.stdout
        assert not saved.exists()
        again = cribbage(data, "saves", "delete", "computer")
        assert again.returncode == 1 and "there is no saved game against the computer" in again.stderr

    def test_resume_with_nothing_saved(self, tmp_path: Path) -> None:
        result = cribbage(tmp_path, "resume")
        assert result.returncode == 1 and "there is no saved game to resume" in result.stderr

    def test_resume_with_two_saves_asks_which(self, saved: Path) -> None:
        other = save_path("same-device", saved.parent.parent)
        other.write_bytes(saved.read_bytes())
        result = cribbage(saved.parent.parent, "resume")
        assert result.returncode == 1 and "cribbage resume same-device" in result.stderr

    def test_unattended_games_are_not_saved(self, tmp_path: Path) -> None:
        result = cribbage(tmp_path, "play", "--players", "computer,computer", "--seed", "4")
        assert result.returncode == 0
        assert not (tmp_path / "saves").exists()

    def test_a_finished_game_leaves_no_save(self, tmp_path: Path) -> None:
        # Piped answers for a whole game are not known in advance; a game saved as finished is
        # what a crash right at the end would leave: resuming it tells the result and clears it.
        game = Game(seed=6, players=("Ann", "Computer"))
        while not game.is_over:
            advance(game, 1)
        path = write_save(tmp_path, game)
        result = cribbage(tmp_path, "resume", stdin="")
        assert result.returncode == 0, result.stderr
        assert "Game over" in result.stdout
        assert not path.exists()


# --------------------------------------------------------------------------- hardening (issue 13)


def _rewrite(path: Path, change: Callable[[dict[str, Any]], None], *, keep_checksum: bool = True) -> bytes:
    _edit_json(change, keep_checksum=keep_checksum)(path)
    return path.read_bytes()


def _one_line(result: subprocess.CompletedProcess[str], message: str) -> None:
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("cribbage: error: ")
    assert message in result.stderr, result.stderr


def quick(data: Path, *argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return run_in_process(*argv, stdin=stdin, data=data)


class TestHardening:
    def test_a_save_naming_a_profile_path_is_refused_by_every_command(self, saved: Path) -> None:
        local = saved.parent / "house.toml"
        local.write_text('name = "house"\nextends = "standard"\n', encoding="utf-8")
        before = _rewrite(saved, lambda d: d["game"].update(version=1, profile=str(local)))
        data = saved.parent.parent
        _one_line(cribbage(data, "resume"), "unknown built-in profile")
        _one_line(quick(data, "play", "--seed", "3", stdin="1 2\n"), "unknown built-in profile")
        listing = quick(data, "saves", "list")
        assert (
            listing.returncode == 0
            and "cannot be resumed: the saved game cannot be replayed: profile:" in (listing.stdout)
        )
        assert saved.read_bytes() == before

    def test_the_checksum_is_checked_before_anything_is_replayed(
        self, saved: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        _rewrite(saved, lambda d: d["game"].update(profile="/dev/stdin"), keep_checksum=False)
        replayed: list[object] = []
        monkeypatch.setattr("cribcore.saves.replay", lambda *args, **kwargs: replayed.append(args))
        with pytest.raises(SaveError, match="its checksum does not match"):
            read_save(saved)
        assert replayed == []

    def test_a_save_nested_a_thousand_deep_leaves_every_command_working(self, saved: Path) -> None:
        text = saved.read_text(encoding="utf-8").rstrip()
        saved.write_text(text[:-1] + ', "x": ' + "[" * 1000 + "]" * 1000 + "}\n", encoding="utf-8")
        before = saved.read_bytes()
        data = saved.parent.parent
        message = "not a cribcore save (nested more than 32 levels deep)"
        _one_line(cribbage(data, "resume"), message)
        _one_line(quick(data, "play", "--seed", "3", stdin="1 2\n"), "cribbage saves delete computer")
        listing = quick(data, "saves", "list")
        assert listing.returncode == 0 and f"cannot be resumed: {message}" in listing.stdout
        assert listing.stderr == ""
        # A game on this device can still start: the other slot is not in the way.
        other = quick(data, "play", "--players", "human,human", "--no-save", stdin="")
        assert "Traceback" not in other.stderr
        assert saved.read_bytes() == before

    def test_a_save_with_an_integer_of_thousands_of_digits(self, saved: Path) -> None:
        text = saved.read_text(encoding="utf-8")
        saved.write_text(text.replace('"scores": [', '"scores": [' + "9" * 5000 + ", ", 1), encoding="utf-8")
        listing = quick(saved.parent.parent, "saves", "list")
        assert listing.returncode == 0 and listing.stderr == ""
        assert "cannot be resumed: not a cribcore save (a number has too many digits)" in listing.stdout

    @pytest.mark.parametrize(
        ("change", "message"),
        [
            (
                lambda d: d.update(scores=[float(s) for s in d["scores"]]),
                "scores.0: Input should be a valid integer",
            ),
            (lambda d: d["game"].update(seed=-11), "seed: Input should be greater than or equal to 0"),
            (lambda d: d["game"].update(seed=11.0), "seed: Input should be a valid integer"),
            (
                lambda d: d.update(match={"games": 3.0, "seed": 11}),
                "match.games: Input should be a valid integer",
            ),
            (lambda d: d.update(match={"games": 3, "seed": -1}), "match.seed: Input should be greater than"),
        ],
    )
    def test_saves_are_checked_strictly(self, saved: Path, change: Any, message: str) -> None:
        _rewrite(saved, change)
        with pytest.raises(SaveError, match=message):
            read_save(saved)

    def test_a_save_in_the_other_slot_is_refused_and_not_saved_over(self, tmp_path: Path) -> None:
        game = Game(seed=4, players=("Ann", "Bob"))
        data = build_envelope(
            mode="same-device",
            seats=[("human", "Ann"), ("human", "Bob")],
            level="computer",
            profile="standard",
            game=game,
        )
        path = save_path("computer", tmp_path)
        SaveSlot(path).write(data)
        before = path.read_bytes()
        with pytest.raises(SaveError, match="a save of a game on this device, in the slot for games against"):
            read_save(path, "computer")
        _one_line(quick(tmp_path, "resume", "computer"), "in the slot for games against the computer")
        _one_line(quick(tmp_path, "resume"), "in the slot for games against the computer")
        _one_line(quick(tmp_path, "play", "--seed", "3", stdin="1 2\n"), "cribbage saves delete computer")
        assert path.read_bytes() == before
        assert not save_path("same-device", tmp_path).exists()

    def test_a_data_directory_that_is_a_file_gets_advice_that_works(self, tmp_path: Path) -> None:
        blocker = tmp_path / "data"
        blocker.write_text("not a folder\n", encoding="utf-8")
        message = f"{blocker} is a file, not a folder (move it away, or set CRIBCORE_DATA_DIR to a folder)"
        for argv in (
            ("saves", "list"),
            ("resume",),
            ("saves", "delete", "computer"),
            ("play", "--seed", "3"),
        ):
            result = quick(blocker, *argv, stdin="1 2\n")
            _one_line(result, message)
            assert "saves delete" not in result.stderr, argv
        played = quick(blocker, "play", "--seed", "3", "--no-save", stdin="1 2\n")
        assert "input ended" in played.stderr
        assert blocker.read_text(encoding="utf-8") == "not a folder\n"

    def test_temporary_files_left_by_a_killed_save_are_removed(self, saved: Path) -> None:
        folder = saved.parent
        old, young = folder / ".computer.json.k1ll3d_9.tmp", folder / ".computer.json.wr1t1ng_.tmp"
        others = [
            folder / ".computer.json.not-ours.tmp",
            folder / "notes.txt",
            folder / ".x.json.abcdefgh.tmp",
        ]
        for path in (old, young, *others):
            path.write_text("{", encoding="utf-8")
        hour_ago = saved.stat().st_mtime - 3600
        for path in (old, *others):
            os.utime(path, (hour_ago, hour_ago))
        listing = quick(folder.parent, "saves", "list")
        assert listing.returncode == 0
        assert not old.exists()
        # One being written right now by another window is left alone, as is anything not of ours.
        assert young.exists() and all(path.exists() for path in others)
        os.utime(young, (hour_ago, hour_ago))
        slot = SaveSlot.claim(saved)
        slot.write(json.loads(saved.read_text(encoding="utf-8")))
        assert not young.exists() and all(path.exists() for path in others)

    def test_a_key_with_a_line_break_is_named_on_one_line(self, saved: Path) -> None:
        # Found by tests/test_fuzz_files.py: pydantic names the key as written.
        _rewrite(saved, lambda d: d.update({"a\nb\x1b[2J": 1}))
        with pytest.raises(SaveError) as info:
            read_save(saved)
        assert str(info.value) == f"{saved}: a\\nb\\x1b[2J: Extra inputs are not permitted"
        listing = quick(saved.parent.parent, "saves", "list")
        assert (
            "computer      cannot be resumed: a\\nb\\x1b[2J: Extra inputs are not permitted" in listing.stdout
        )
