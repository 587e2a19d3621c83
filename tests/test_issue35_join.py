"""Issue 35, ``cribbage join``: a server that answers with deeply nested JSON gets one line, not a
traceback (items 21 and 31 live here)."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator

import pytest

from cribcore.netclient import NetError, SeatClient, Unreachable, parse_link, post_json

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
