"""Several ``cribbage serve`` processes on one PostgreSQL (a real one: ``tests/pg.py``).

The seats of one room are connected to different processes: a whole friend game is played across two
processes and its record replays; two conflicting actions for one seat sent to two processes at once
are applied exactly once, every time; killing the process that holds a seat mid-hand loses nothing
(the seat reconnects to the other process and plays on); a restart of PostgreSQL is survived with the
seats told ``reconnecting``.
"""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import psycopg
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

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


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=WAIT) as response:
        return cast(dict[str, Any], json.loads(response.read()))


class Seat:
    """One seat's connection to one server process, keeping the seat's log."""

    def __init__(self, base: str, key: str, then: dict[str, Any] | None = None) -> None:
        self.key = key
        self.log = SeatLog()
        self.state: dict[str, Any] = {}
        self.errors: list[str] = []
        self.view: SeatView | None = None
        self.ws: ClientConnection = connect(
            base.replace("http://", "ws://") + "/ws", open_timeout=WAIT
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
    store.add(room)
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
