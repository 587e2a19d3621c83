"""Golden transcripts: a small fixed set of games played through the real terminal paths, whose
records and terminal transcripts must stay byte for byte what the reference code produced (the files
under ``tests/data/golden/``).

The games: one against the computer (a pseudo-terminal), one with answers from a pipe that ends
mid-game and is resumed (``cribbage resume``), one for two on the same device, a demo of the computer
against itself (output piped), one under muggins, one in Spanish, and one at a live server's table
(``cribbage join``, against a bot on another connection). The stored files were written by the code
before the terminal's two tables became one driver (commit e0a87cf). Every game is short (a target of 31)
and seeded, and every human answer is the same simple one (the first cards, Enter, no), so what is
played depends only on the code.

What is not the code's: the temporary folder, the server's port, the seat keys and invitation codes
(random), and at a server's table the "Waiting for …" lines, said only when a wait lasts longer than a
poll. Those are replaced by placeholders (or the lines left out) before comparing.

To write the golden files again from the code (only from a reference tree, on purpose):
``CRIBCORE_GOLDEN_UPDATE=1 pytest -n 0 tests/test_golden_transcripts.py``.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from cribcore.netclient import State, post_json

from .serving import live_server
from .terminal import cribbage_pty, run_cribbage
from .test_join import Bot, Served

GOLDEN = Path(__file__).parent / "data" / "golden"
UPDATE = os.environ.get("CRIBCORE_GOLDEN_UPDATE") == "1"

SHORT = 'name = "short"\ndescription = "To 31."\nextends = "{base}"\n\n[rules]\ntarget = 31\n'

PROMPTS: list[tuple[str, str]] = [
    # (pattern, answer); the answer "DISCARD" lays away the first cards the prompt asks for.
    (r"Choose (\d) cards? for [^:\n]+: ", "DISCARD"),
    (r"Elige (\d) cartas? para [^:\n]+: ", "DISCARD"),
    (r"Play a card \(count \d+\): ", "1"),
    (r"Juega una carta \(cuenta \d+\): ", "1"),
    (r"Your count for [^:\n]+ \(0 if nothing\): ", "0"),
    (r"\. Muggins\? points missed, or Enter to let it stand: ", ""),
    (r"press Enter when you have the device \(q to quit\) ", ""),
    (r"Press Enter for the next (deal|hand)[^\n]*\) ", ""),
    (r"Pulsa Enter para la mano siguiente[^\n]*\) ", ""),
    (r"\? \[[ys]/N\] ", ""),
]


def short_profile(folder: Path, base: str = "standard") -> Path:
    path = folder / f"short-{base}.toml"
    path.write_text(SHORT.format(base=base), encoding="utf-8")
    return path


def drive(child: pexpect.spawn, *, until: str | None = None) -> None:
    """Answer every prompt (see `PROMPTS`) until the program ends, or until ``until`` is printed."""
    patterns: list[object] = [pattern for pattern, _answer in PROMPTS]
    patterns.append(pexpect.EOF)
    if until is not None:
        patterns.append(until)
    while True:
        which = child.expect(patterns)
        if which >= len(PROMPTS):
            return
        answer = PROMPTS[which][1]
        if answer == "DISCARD":
            answer = " ".join(str(n) for n in range(1, int(child.match.group(1)) + 1))
        child.sendline(answer)


def normalized(text: str, folder: Path) -> str:
    text = text.replace("\r\n", "\n").replace(str(folder), "<TMP>")
    text = re.sub(r"http://127\.0\.0\.1:\d+", "<SERVER>", text)
    text = re.sub(r"#(join|key)=[A-Za-z0-9_.~-]+", r"#\1=<SECRET>", text)
    return text


def check(name: str, text: str) -> None:
    """Compare ``text`` with the golden file ``name`` (or write it, when updating)."""
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="")
        return
    assert path.exists(), f"no golden file {path}: write it from the reference code"
    with path.open(encoding="utf-8", newline="") as stored:
        want = stored.read()
    if text != want:
        got = path.with_suffix(f".got{path.suffix}")
        got.write_text(text, encoding="utf-8")
        raise AssertionError(f"{name} differs from its golden file: what was played is in {got}")


def check_record(name: str, record: Path) -> None:
    check(name, record.read_text(encoding="utf-8"))


def play_at_terminal(tmp_path: Path, name: str, *argv: str, env: dict[str, str | None] | None = None) -> None:
    record = tmp_path / "game.json"
    with cribbage_pty(tmp_path / "data", *argv, "--record", str(record), env_changes=env) as (child, log):
        drive(child)
        child.close()
    assert child.exitstatus == 0, log.getvalue()[-2000:]
    check(f"{name}.txt", normalized(log.getvalue(), tmp_path))
    check_record(f"{name}.record.json", record)


def test_a_game_against_the_computer(tmp_path: Path) -> None:
    profile = short_profile(tmp_path)
    play_at_terminal(tmp_path, "computer", "play", "--seed", "3", "--profile", str(profile))


def test_a_game_on_the_same_device(tmp_path: Path) -> None:
    profile = short_profile(tmp_path)
    argv = ("play", "--players", "human,human", "--name", "Ann", "--name", "Bob", "--seed", "8")
    play_at_terminal(tmp_path, "same-device", *argv, "--profile", str(profile))


def test_a_muggins_game(tmp_path: Path) -> None:
    profile = short_profile(tmp_path, "muggins")
    play_at_terminal(tmp_path, "muggins", "play", "--seed", "11", "--profile", str(profile), "--no-save")


def test_a_game_in_spanish(tmp_path: Path) -> None:
    profile = short_profile(tmp_path)
    locale: dict[str, str | None] = {"LANG": "es_ES.UTF-8", "LC_ALL": None, "LC_MESSAGES": None}
    locale["CRIBCORE_LANG"] = None
    play_at_terminal(tmp_path, "spanish", "play", "--seed", "5", "--profile", str(profile), env=locale)


def test_a_demo_of_the_computer_against_itself(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    argv = ("play", "--players", "computer,computer", "--seed", "4", "--record", str(record))
    result = run_cribbage(*argv, data=tmp_path / "data")
    assert result.returncode == 0, result.stderr
    check("demo.txt", normalized(result.stdout + "--- stderr ---\n" + result.stderr, tmp_path))
    check_record("demo.record.json", record)


class PoliteBot(Bot):
    """A `Bot` that lays away only after the other seats have: in the discard all seats may act at
    once, and whether the terminal told the bot's discard before or after its own prompt would be a
    matter of timing."""

    def _act(self, state: State) -> None:
        view = state.view
        others = any(seat != view.seat for seat in view.to_act)
        if state.between_hands is None and view.phase == "discard" and others:
            return
        super()._act(state)


def test_a_game_with_piped_input_stopped_and_resumed(tmp_path: Path) -> None:
    """Answers from a pipe: the input ends mid-game (the game is saved and its unfinished record
    written), and ``resume`` takes it up from the deal under way and plays it to its end."""
    profile = short_profile(tmp_path)
    record, data = tmp_path / "game.json", tmp_path / "data"
    answers = "1 2\n1\n1\n\n"
    argv = ("play", "--seed", "3", "--profile", str(profile), "--record", str(record))
    stopped = run_cribbage(*argv, stdin=answers * 3, data=data)
    check_record("piped-stopped.record.json", record)
    resumed = run_cribbage("resume", stdin=answers * 30, data=data)
    check_record("piped.record.json", record)
    said = [
        f"--- {run.args[1]}: {run.returncode} ---\n{run.stdout}--- stderr ---\n{run.stderr}"
        for run in (stopped, resumed)
    ]
    check("piped.txt", normalized("".join(said), tmp_path))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with live_server(tmp_path_factory.mktemp("golden-server") / "rooms.sqlite3") as base:
        yield Served(base)


def test_a_game_joined_at_a_server(server: Served, tmp_path: Path) -> None:
    status, data = post_json(
        f"{server.base}/api/rooms",
        {"mode": "friend", "profile": "five-card", "names": ["Ann"], "seed": 5},
    )
    assert status == 201, data
    status_key, link = data["keys"][0]["key"], data["link"]
    bot = PoliteBot(link, status_key)
    bot.start()
    bot.wait_for(lambda state: True)  # Ann is at the table before Bob sits down
    log = io.StringIO()
    try:
        with cribbage_pty(tmp_path / "data", "join", link, "--ascii", "--name", "Bob") as (child, log):
            drive(child, until=r"Press Enter for a new game \(q to quit\) ")
            child.sendline("q")
            child.expect(pexpect.EOF)
            child.close()
        assert child.exitstatus == 0, log.getvalue()[-2000:]
    finally:
        bot.finish()
    text = normalized(log.getvalue(), tmp_path)
    # Said only when a wait outlasts a poll of the connection: timing, not the code.
    text = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("Waiting for "))
    check("join.txt", text)
