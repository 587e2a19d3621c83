"""``cribbage serve`` as a user starts it: it listens, serves the board and the API, and refuses what
it cannot do in one line."""

from __future__ import annotations

import json
import socket
import urllib.request
from pathlib import Path

import pytest

from .serving import ServerProcess, live_server
from .terminal import run_cribbage


def get(url: str) -> tuple[int, str, str]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.headers.get("content-type", ""), response.read().decode()


def test_serves_the_board_and_the_api(tmp_path: Path) -> None:
    with live_server(tmp_path / "rooms.sqlite3") as base:
        status, kind, page = get(base + "/")
        assert status == 200 and kind.startswith("text/html") and "<html" in page.lower()
        status, _, body = get(base + "/api/profiles")
        assert json.loads(body)["profiles"][0]["name"] == "standard"
    assert (tmp_path / "rooms.sqlite3").exists()


def test_offers_a_house_rule_profile_file(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('name = "house"\nextends = "standard"\n\n[rules]\ntarget = 61\n')
    with live_server(tmp_path / "rooms.sqlite3", "--profile", str(house)) as base:
        names = [p["name"] for p in json.loads(get(base + "/api/profiles")[2])["profiles"]]
    assert names[-1] == "house"


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_cribbage("serve", "--port", str(port), "--db", str(tmp_path / "r.sqlite3"))
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"cribbage: error: cannot listen on 127.0.0.1:{port}: Address already in use"
    ]


def test_a_bad_profile_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\n[rules]\ntarget = "lots"\n')
    result = run_cribbage("serve", "--profile", str(bad), "--db", str(tmp_path / "r.sqlite3"))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "--profile" in result.stderr and "target" in result.stderr


def test_a_second_server_on_the_same_database_refuses_to_start(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite3"
    first, second = ServerProcess(db), ServerProcess(db)
    first.start()
    try:
        assert first.process is not None
        line = f"cribbage: error: {db}: another cribbage server is using this room database"
        with pytest.raises(AssertionError, match="the server did not start") as refused:
            second.start()
        # One line on standard error, naming the process that holds the database.
        assert repr(f"{line} (process {first.process.pid})\n") in str(refused.value)
        first.stop(kill=True)  # a crash leaves no stale lock behind
        first.start()
    finally:
        first.stop()
        second.stop()
