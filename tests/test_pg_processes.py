"""Several ``cribbage serve`` processes on one PostgreSQL (a real one: ``tests/pg.py``).

The seats of one room are connected to different processes: a whole friend game is played across two
processes and its record replays; two conflicting actions for one seat sent to two processes at once
are applied exactly once, every time; killing the process that holds a seat mid-hand loses nothing
(the seat reconnects to the other process and plays on); a restart of PostgreSQL is survived with the
seats told ``reconnecting``; opening a seat on one process replaces its connection on the other; and
nginx, with the configuration ``docs/deploy.md`` shows (``deploy/nginx.conf``), carries a friend game
over TLS to the end with its seats on the two processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import ssl
import subprocess
import tempfile
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import psycopg
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from cribcore.players.registry import make_player
from cribcore.profiles import load_profile
from cribcore.records import replay
from cribcore.server.messages import CLOSE_CODES
from cribcore.server.rooms import Room
from cribcore.server.store import RoomStore
from cribcore.server.wire import SeatLog
from cribcore.views import SeatView

from .pg import PostgresServer, postgres_server, postgres_url
from .serving import ServerProcess
from .terminal import run_cribbage

__all__ = ["postgres_server", "postgres_url"]

WAIT = 60.0
"""A generous bound for one message: reaching it is a failure, never a pace."""


def post(base: str, path: str, body: dict[str, Any], tls: ssl.SSLContext | None = None) -> dict[str, Any]:
    """POST ``body``; over ``tls``, as the board's page would (with its ``Origin``)."""
    headers = {"content-type": "application/json"}
    if tls is not None:
        headers["origin"] = base
    request = urllib.request.Request(base + path, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request, timeout=WAIT, context=tls) as response:
        return cast(dict[str, Any], json.loads(response.read()))


class Seat:
    """One seat's connection to one server process, keeping the seat's log."""

    def __init__(
        self, base: str, key: str, then: dict[str, Any] | None = None, tls: ssl.SSLContext | None = None
    ) -> None:
        self.key = key
        self.log = SeatLog()
        self.state: dict[str, Any] = {}
        self.errors: list[str] = []
        self.view: SeatView | None = None
        self.ws: ClientConnection = connect(
            "ws" + base.removeprefix("http") + "/ws",
            open_timeout=WAIT,
            ssl=tls,
            origin=cast(Origin, base) if tls is not None else None,  # a page's, over TLS
        ).__enter__()
        self.ws.send(json.dumps({"type": "hello", "key": key}))
        if then is not None:  # sent at once, before the hello is answered
            self.ws.send(json.dumps(then))
        self.receive()

    def receive(self) -> dict[str, Any]:
        try:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=WAIT))
        except TimeoutError:
            room = self.state.get("room", {})
            raise AssertionError(
                f"seat {room.get('you')}: nothing sent; last: phase {self.view and self.view.phase}, "
                f"waiting for {room.get('waiting_for')}, between {room.get('between_hands')}, "
                f"events {len(self.log.events)}, errors {self.errors}"
            ) from None
        if message["type"] == "state":
            if message["events_start"] == 0:
                self.log = SeatLog()
            self.view = self.log.accept(message)
            assert self.view is not None
            self.state = message
        elif message["type"] == "error":
            self.errors.append(message["code"])
        return message

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def close(self) -> None:
        self.ws.close()


def play(seat: Seat, until_events: int | None = None) -> None:
    """Play ``seat`` as the easy computer would on every state it is sent, until the game is over (or
    its log holds ``until_events`` events); what another seat does arrives as states."""
    player = make_player("easy", seed=seat.state["room"]["you"])
    acted_on: object = None
    while True:
        view = seat.view
        if view is None:
            seat.receive()
            continue
        if view.phase == "over" or (until_events is not None and len(seat.log.events) >= until_events):
            return
        room = seat.state["room"]
        between = room["between_hands"]
        now = (len(seat.log.events), json.dumps(between), view.phase)
        if now != acted_on and not room["waiting_for"]:
            if between is not None and room["you"] not in between["ready"]:
                seat.send(type="next")
                acted_on = now
            elif between is None and view.legal_actions:
                seat.send(type="action", action=str(player.choose(view)))
                acted_on = now
        if seat.receive()["type"] == "error":
            acted_on = None  # acted on a state already overtaken: decide again on the next one


def both(*targets: Any) -> None:
    """Run each ``(function, args...)`` on its own thread and wait for all (re-raising a failure)."""
    failures: list[BaseException] = []

    def run(target: Any, *args: Any) -> None:
        try:
            target(*args)
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=run, args=t) for t in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise AssertionError(" | ".join(map(str, failures)))


def answering(server: ServerProcess) -> None:
    """Wait for ``server`` to answer a request: it has started up (it says it serves before that)."""
    with urllib.request.urlopen(server.url + "/api/profiles", timeout=WAIT) as response:
        assert response.status == 200


def room_state(base: str, room_id: str, key: str) -> dict[str, Any]:
    request = urllib.request.Request(f"{base}/api/rooms/{room_id}/state", headers={"x-seat-key": key})
    with urllib.request.urlopen(request, timeout=WAIT) as response:
        return cast(dict[str, Any], json.loads(response.read()))


def stored(url: str, room_id: str) -> Room:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT data FROM rooms WHERE id = %s", (room_id,)).fetchone()
    assert row is not None
    return Room.from_json(row[0])


@pytest.fixture(scope="module")
def processes(postgres_server: PostgresServer) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two server processes on the session's database, shared by this module's tests (a test that
    kills one starts it again)."""
    # The test seats act on every state they are sent, faster than a person: no rate limit.
    first, second = (ServerProcess(postgres_server.url, "--unlimited") for _ in range(2))
    first.start()
    second.start()
    try:
        yield first, second
    finally:
        first.stop()
        second.stop()


def friend_room(base: str, joiner_base: str, seed: int) -> tuple[str, str, str]:
    room = post(base, "/api/rooms", {"mode": "friend", "names": ["Ann"], "seed": seed})
    bob = post(joiner_base, "/api/join", {"invite": room["invite"], "name": "Bob"})
    return room["room"], room["keys"][0]["key"], bob["key"]


def test_a_friend_game_across_two_processes_to_the_end(
    processes: tuple[ServerProcess, ServerProcess], postgres_url: str
) -> None:
    a, b = processes
    room_id, ann_key, bob_key = friend_room(a.url, b.url, seed=3)
    ann, bob = Seat(a.url, ann_key), Seat(b.url, bob_key)
    both((play, ann), (play, bob))
    room = stored(postgres_url, room_id)
    assert room.game.is_over
    record = room.to_json()["record"]
    replayed = replay(record)
    assert replayed.scores == room.game.scores and max(replayed.scores) >= 121
    assert "conflict" not in ann.errors + bob.errors
    ann.close()
    bob.close()


def open_and_discard(
    seats: dict[str, Seat], gate: threading.Barrier, base: str, key: str, cards: list[str]
) -> None:
    """Once ``gate`` opens, connect ``key``'s seat to ``base`` and discard ``cards`` at once."""
    gate.wait()
    seats[base] = Seat(base, key, then={"type": "action", "action": "discard " + " ".join(cards)})


def test_two_conflicting_actions_at_two_processes_are_applied_once(
    processes: tuple[ServerProcess, ServerProcess], postgres_url: str
) -> None:
    a, b = processes
    outcomes = set()
    for seed in range(8):  # bounded: each round is a fresh room
        room = post(a.url, "/api/rooms", {"mode": "computer", "names": ["Ann"], "seed": seed})
        key = room["keys"][0]["key"]
        hand = room_state(a.url, room["room"], key)["view"]["hand"]
        gate = threading.Barrier(2)
        seats: dict[str, Seat] = {}
        # One seat, opened on both processes at once, each connection discarding at once: the seat
        # is then held by one process (the other connection is replaced), but both discards race.
        both(
            (open_and_discard, seats, gate, a.url, key, hand[:2]),
            (open_and_discard, seats, gate, b.url, key, hand[2:4]),
        )
        for seat in seats.values():  # each is sent the discard that won, or replaced
            while (seat.view is None or not seat.view.discarded) and "replaced" not in seat.errors:
                seat.receive()
        after = stored(postgres_url, room["room"]).game.view(0)
        assert len(after.discarded) == 2 and len(after.hand) == 4  # exactly one discard applied
        outcomes.add(tuple(str(c) for c in after.discarded) == tuple(hand[:2]))
        for seat in seats.values():
            seat.close()
    assert outcomes  # (which one wins is the race's; that only one does is the point)


def test_opening_a_seat_on_another_process_replaces_its_older_connection(
    processes: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = processes
    room = post(a.url, "/api/rooms", {"mode": "computer", "names": ["Ann"], "seed": 2})
    key = room["keys"][0]["key"]
    older = Seat(a.url, key)
    newer = Seat(b.url, key)
    while "replaced" not in older.errors:
        older.receive()
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            older.receive()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_CODES["replaced"]
    play(newer)  # the newer connection plays on, to the end
    assert newer.view is not None and newer.view.phase == "over"
    newer.close()


def test_killing_the_process_that_holds_a_seat_loses_nothing(
    processes: tuple[ServerProcess, ServerProcess], postgres_url: str
) -> None:
    a, b = processes
    room_id, ann_key, bob_key = friend_room(a.url, b.url, seed=4)
    ann, bob = Seat(a.url, ann_key), Seat(b.url, bob_key)
    both((play, ann, 12), (play, bob, 12))  # into the first hand's play
    before = stored(postgres_url, room_id).game.view(1)
    b.stop(kill=True)
    bob = Seat(a.url, bob_key)  # its seat reconnects to the other process
    assert bob.view == before
    both((play, ann), (play, bob))
    assert stored(postgres_url, room_id).game.is_over
    ann.close()
    bob.close()
    b.start()
    answering(b)  # started up (its database read) before the next test may stop PostgreSQL


def test_a_restart_of_postgresql_is_survived(
    processes: tuple[ServerProcess, ServerProcess], postgres_server: PostgresServer, postgres_url: str
) -> None:
    a, _ = processes
    room = post(a.url, "/api/rooms", {"mode": "computer", "names": ["Ann"], "seed": 9})
    ann = Seat(a.url, room["keys"][0]["key"])
    postgres_server.stop()
    try:
        while "reconnecting" not in ann.errors:  # the waiting seat is told
            ann.receive()
    finally:
        postgres_server.start()
    while ann.receive()["type"] != "state":  # back: the seat's full state again
        pass
    play(ann)
    assert stored(postgres_url, room["room"]).game.is_over
    ann.close()


def test_migrate_moves_the_rooms_of_a_sqlite_file(tmp_path: Path, postgres_url: str) -> None:
    old = tmp_path / "rooms.sqlite3"
    store = RoomStore(old)
    room = Room.create(mode="computer", profile=load_profile(), names=["Ann"], level="easy", seed=3, now=1)[0]
    asyncio.run(store.add(room))
    store.close()
    command = ("serve", "--db", postgres_url, "--migrate-from", str(old))
    first, again = run_cribbage(*command), run_cribbage(*command)
    assert first.returncode == 0 and "Moved 1 rooms" in first.stdout, first.stderr
    assert again.returncode == 0 and "Moved 0 rooms" in again.stdout  # kept, never doubled
    assert stored(postgres_url, room.id).to_json() == room.to_json()


def test_several_workers_need_postgresql(tmp_path: Path) -> None:
    result = run_cribbage("serve", "--workers", "2", "--db", str(tmp_path / "r.sqlite3"))
    assert result.returncode == 2
    assert (
        result.stderr.strip()
        .splitlines()[0]
        .startswith("cribbage serve: error: --workers: several processes need a PostgreSQL --db")
    )


def test_workers_share_one_port(postgres_url: str) -> None:
    server = ServerProcess(postgres_url, "--workers", "2", "--unlimited")
    server.start()
    try:
        room = post(server.url, "/api/rooms", {"mode": "computer", "names": ["Ann"], "seed": 1})
        ann = Seat(server.url, room["keys"][0]["key"])
        play(ann)
        assert stored(postgres_url, room["room"]).game.is_over
        ann.close()
    finally:
        server.stop()


ROOT = Path(__file__).resolve().parents[1]
NGINX_CONF = ROOT / "deploy" / "nginx.conf"


def test_the_deployment_guide_shows_the_tested_nginx_configuration() -> None:
    guide = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    assert f"```nginx\n{NGINX_CONF.read_text(encoding='utf-8')}```" in guide


def nginx_binary() -> str:
    """The nginx binary; skipped in one line where there is none (failed when it is required)."""
    found = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )
    if found is None or shutil.which("openssl") is None:
        reason = (
            f"no {'nginx' if found is None else 'openssl'} on this machine (scripts/install-test-browser)"
        )
        if os.environ.get("CRIBCORE_REQUIRE_NGINX") == "1":
            pytest.fail(f"CRIBCORE_REQUIRE_NGINX=1 but {reason}")
        pytest.skip(reason)
    return found


def nginx_config(where: Path, port: int, backends: list[int]) -> Path:
    """deploy/nginx.conf with this test's backends, port and a throwaway certificate, inside a whole
    nginx configuration that keeps every file of nginx's in ``where``."""
    site = NGINX_CONF.read_text(encoding="utf-8")
    swaps = {
        "    server 10.0.0.11:8001;\n    server 10.0.0.12:8001;\n": "".join(
            f"    server 127.0.0.1:{backend};\n" for backend in backends
        ),
        "listen 443 ssl;": f"listen 127.0.0.1:{port} ssl;",
        "/etc/letsencrypt/live/cribbage.example/fullchain.pem": str(where / "cert.pem"),
        "/etc/letsencrypt/live/cribbage.example/privkey.pem": str(where / "key.pem"),
    }
    for old, new in swaps.items():
        assert old in site, f"deploy/nginx.conf no longer says {old!r}: render it anew here"
        site = site.replace(old, new)
    (where / "cribbage.conf").write_text(site, encoding="utf-8")
    main = where / "nginx.conf"
    main.write_text(
        f"""worker_processes 1;
pid {where}/nginx.pid;
error_log {where}/error.log;
events {{ worker_connections 64; }}
http {{
    access_log off;
    proxy_max_temp_file_size 0;
    client_body_temp_path {where}/body;
    proxy_temp_path {where}/proxy;
    fastcgi_temp_path {where}/fastcgi;
    uwsgi_temp_path {where}/uwsgi;
    scgi_temp_path {where}/scgi;
    include {where}/cribbage.conf;
}}
""",
        encoding="utf-8",
    )
    return main


@pytest.fixture
def proxy(processes: tuple[ServerProcess, ServerProcess]) -> Iterator[tuple[str, ssl.SSLContext]]:
    """nginx with deploy/nginx.conf in front of the two processes: its https base URL, and a TLS
    context trusting its certificate."""
    binary = nginx_binary()
    for process in processes:
        answering(process)
    where = Path(tempfile.mkdtemp(prefix="cribcore-nginx-"))
    command = "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2"
    subject = ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
    subprocess.run(
        [*command.split(), "-keyout", str(where / "key.pem"), "-out", str(where / "cert.pem"), *subject],
        check=True,
        capture_output=True,
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    main = nginx_config(where, port, [process.port for process in processes])
    nginx = subprocess.Popen(
        [binary, "-p", str(where), "-c", str(main), "-e", str(where / "error.log"), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        while True:  # until it listens (or has stopped: then its one line says why)
            if nginx.poll() is not None:
                raise AssertionError(f"nginx did not start: {nginx.stderr.read() if nginx.stderr else ''}")
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            with contextlib.suppress(subprocess.TimeoutExpired):
                nginx.wait(0.02)  # (a pause between looks, ended early should nginx stop)
        tls = ssl.create_default_context(cafile=str(where / "cert.pem"))
        yield f"https://127.0.0.1:{port}", tls
    finally:
        nginx.terminate()
        nginx.wait(WAIT)
        shutil.rmtree(where, ignore_errors=True)


def test_a_friend_game_through_nginx_with_its_seats_on_two_processes(
    proxy: tuple[str, ssl.SSLContext], postgres_url: str
) -> None:
    base, tls = proxy
    # One nginx worker takes the backends in turn: create, join, then each seat's WebSocket.
    room = post(base, "/api/rooms", {"mode": "friend", "names": ["Ann"], "seed": 5}, tls)
    assert room["link"].startswith(f"{base}/#join=")  # the scheme and Host the proxy was asked
    bob_key = post(base, "/api/join", {"invite": room["invite"], "name": "Bob"}, tls)["key"]
    ann, bob = Seat(base, room["keys"][0]["key"], tls=tls), Seat(base, bob_key, tls=tls)
    with psycopg.connect(postgres_url) as conn:
        backends = conn.execute(
            "SELECT COUNT(DISTINCT backend) FROM presence WHERE room_id = %s", (room["room"],)
        ).fetchone()
    assert backends == (2,)  # each seat held by another process
    both((play, ann), (play, bob))
    stored_room = stored(postgres_url, room["room"])
    assert stored_room.game.is_over
    assert replay(stored_room.to_json()["record"]).scores == stored_room.game.scores
    ann.close()
    bob.close()
