"""Issue 35, ``cribbage join``: a server that answers with deeply nested JSON gets one line, not a
traceback (items 21 and 31 live here)."""

from __future__ import annotations

import dataclasses
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from cribcore.actions import parse_action
from cribcore.netclient import NetError, SeatClient, Unreachable, parse_link, post_json

from .serving import live_server
from .terminal import run_cribbage

DEEP = b"[" * 200_000 + b"]" * 200_000


class _Nested(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(DEEP)))
        self.end_headers()
        self.wfile.write(DEEP)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def nested_server() -> Iterator[str]:
    """A server on loopback that answers every POST with JSON nested 200,000 deep."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Nested)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_join_against_a_server_answering_deeply_nested_json_is_one_line(nested_server: str) -> None:
    done = run_cribbage("join", f"{nested_server}/#join=ab.cd", "--name", "Bob")
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cribbage: error: "), done.stderr
    assert "did not answer as a cribbage server does" in lines[0]
    with pytest.raises(Unreachable):
        post_json(f"{nested_server}/api/join", {"invite": "ab.cd", "name": "Bob"})


def test_a_deeply_nested_message_on_the_connection_is_one_error() -> None:
    client = SeatClient(parse_link("http://127.0.0.1:9/#key=ab.cd"), "ab.cd")
    with pytest.raises(NetError, match="nested more than 32 levels deep"):
        client._read(DEEP)
    with pytest.raises(NetError, match="nested more than 32 levels deep"):
        client._read(b'{"type": "state", "view": ' + b"[" * 40 + b"]" * 40 + b"}")


# ----------------------------------------------------------------------------- item 31


def test_a_profile_name_from_a_server_is_never_read_as_a_file(tmp_path: Path) -> None:
    from cribcore.engine import Game

    evil = tmp_path / "evil.toml"
    evil.write_text('name = "evil"\nextends = "standard"\nplugins = ["lowball"]\n', encoding="utf-8")
    view = Game(seed=1).view(0)
    for name in (str(tmp_path / "evil"), "../" * 20 + str(tmp_path / "evil")[1:]):
        told = dataclasses.replace(view, profile=name, rulebook=None)  # type: ignore[arg-type]
        assert "lowball" not in told.rulebook.profile.plugins
    assert (
        dataclasses.replace(view, profile="lowball", rulebook=None).rulebook.profile.plugins[-1]  # type: ignore[arg-type]
        == "lowball"
    )


HOUSE = 'name = "house"\ndescription = "Lowball at home."\nextends = "lowball"\n'


@pytest.fixture(scope="module")
def house_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``cribbage serve`` offering a house-rule profile of its own."""
    where = tmp_path_factory.mktemp("house")
    (where / "house.toml").write_text(HOUSE, encoding="utf-8")
    with live_server(where / "rooms.sqlite3", "--profile", str(where / "house.toml")) as base:
        yield base


def test_the_hint_comes_from_the_server_in_the_terminals_language(house_server: str) -> None:
    from cribcore.i18n import set_language

    status, room = post_json(
        f"{house_server}/api/rooms",
        {"mode": "computer", "profile": "house", "names": ["Ann"], "level": "easy", "seed": 3},
    )
    assert status == 201, room
    client = SeatClient(parse_link(f"{house_server}/#key={room['keys'][0]['key']}"), room["keys"][0]["key"])
    state = client.connect()
    try:
        assert state.view.profile == "house"
        answer = client.hint()
        assert parse_action(answer.action) in state.view.legal_actions
        assert answer.reason
        set_language("es")
        try:
            spanish = client.hint()
        finally:
            set_language("en")
        assert spanish.action == answer.action and spanish.reason != answer.reason
    finally:
        client.close()


def test_cribbage_join_asks_the_server_for_its_hint() -> None:
    from cribcore.cli.join_table import NetTable
    from cribcore.netclient import HintAnswer

    class Asked:
        def hint(self) -> HintAnswer:
            return HintAnswer("play 7S", "the server's reason")

    table = NetTable.__new__(NetTable)
    table.client = Asked()  # type: ignore[assignment]
    given = table._server_hint(None)  # type: ignore[arg-type]
    assert (str(given.action), given.reason) == ("play 7S", "the server's reason")
