"""The terminal's one table driver (`cribcore.cli.table_driver`) over a scripted transport: the order in
which it calls the transport, and how a table ends (the end of the games, quitting, input ending,
Ctrl-C, a new game asked for). The real transports are played in the golden transcripts and the
terminal tests."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from cribcore.actions import Action, Pass
from cribcore.cli.prompt import NewGame, QuitGame
from cribcore.cli.render import Painter
from cribcore.cli.table_driver import TableDriver
from cribcore.cli.transport import Transport, Turn


class Scripted:
    """A transport whose `advance` takes its answers from ``steps`` (a turn, ``None`` for a game
    over, or an exception to raise) and which notes every call."""

    def __init__(self, steps: list[object], *, games: int = 1) -> None:
        self.steps = steps
        self.games = games
        self.calls: list[str] = []

    def begin(self) -> None:
        self.calls.append("begin")

    def advance(self) -> Turn | None:
        self.calls.append("advance")
        step = self.steps.pop(0)
        if isinstance(step, BaseException):
            raise step
        assert step is None or isinstance(step, Turn)
        return step

    def send(self, turn: Turn, action: Action) -> None:
        self.calls.append(f"send {turn.seat} {action}")

    def game_over(self) -> bool:
        self.calls.append("game over")
        self.games -= 1
        return self.games > 0

    def restart(self) -> None:
        self.calls.append("restart")

    def leave(self) -> None:
        self.calls.append("leave")

    def stop_line(self, reason: str) -> str:
        self.calls.append("stop line")
        return f"{reason}; stopped"

    def close(self) -> None:
        self.calls.append("close")


class Answering(TableDriver):
    """A driver whose person always passes (what is asked and how is `ask_turn`'s, tested with it)."""

    def ask(self, turn: Turn) -> Action:
        return Pass()


def turn(seat: int) -> Turn:
    return Turn(seat, None, None, None, lambda action: None, {}, "")  # type: ignore[arg-type]


def drive(transport: Transport) -> tuple[int, Console]:
    console = Console(file=io.StringIO(), width=100)
    return Answering(console, None, Painter.for_console(console), transport).run(), console


def test_turns_are_asked_and_sent_until_the_games_are_over() -> None:
    transport = Scripted([turn(0), turn(1), None, turn(0), None], games=2)
    status, _console = drive(transport)
    assert status == 0
    assert transport.calls == [
        "begin",
        "advance",
        "send 0 pass",
        "advance",
        "send 1 pass",
        "advance",
        "game over",
        "advance",
        "send 0 pass",
        "advance",
        "game over",
        "close",
    ]


def test_quitting_leaves_the_table_with_status_0_and_no_error(capsys: pytest.CaptureFixture[str]) -> None:
    transport = Scripted([turn(0), QuitGame("you quit")])
    assert drive(transport)[0] == 0
    assert transport.calls[-2:] == ["leave", "close"]
    assert capsys.readouterr().err == ""


def test_input_that_ends_is_one_error_line_and_status_1(capsys: pytest.CaptureFixture[str]) -> None:
    transport = Scripted([QuitGame("input ended", code=1)])
    assert drive(transport)[0] == 1
    assert transport.calls == ["begin", "advance", "leave", "stop line", "close"]
    assert capsys.readouterr().err.strip().endswith("input ended; stopped")


def test_ctrl_c_away_from_a_prompt_leaves_with_status_130() -> None:
    transport = Scripted([KeyboardInterrupt()])
    assert drive(transport)[0] == 130
    assert transport.calls == ["begin", "advance", "leave", "close"]


def test_a_new_game_asked_for_restarts_the_table() -> None:
    transport = Scripted([NewGame(), turn(0), None])
    assert drive(transport)[0] == 0
    assert transport.calls[:4] == ["begin", "advance", "restart", "advance"]


def test_what_the_driver_does_not_handle_still_closes_the_table() -> None:
    transport = Scripted([OSError("the connection went")])
    with pytest.raises(OSError):
        drive(transport)
    assert transport.calls[-1] == "close"


def test_ctrl_c_between_games_at_this_device_ends_the_command_not_a_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At the end of a game there is no game under way to leave: Ctrl-C there ends the command as it
    does outside a table (`cribcore.cli.main` says one line, status 130), with no "Game stopped"."""
    from cribcore.cli.session import Seating, Session
    from cribcore.engine import Game
    from cribcore.profiles import load_profile

    profile = load_profile("standard")
    seating = Seating(("computer", "computer"), ("Ann", "Bob"), profile)
    console = Console(file=io.StringIO(), width=100)
    session = Session(console, seating, reader=None)
    session.keep = False

    def interrupted(game: Game) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(session, "_game_over", interrupted)
    with pytest.raises(KeyboardInterrupt):
        session.run(Game(profile, seed=4, players=seating.names))
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Game over: " in out and "Game stopped" not in out
