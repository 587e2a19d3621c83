"""Issue 35, the server: reviews answered again from those worked out, within their own limit and one
at a time while other tables are answered (item 22); per-address limits counted once in the room
database, whichever process is asked (item 23)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import cribcore.review
from cribcore.profiles import resolved_profile
from cribcore.server.app import Limits, create_app

from .pg import postgres_server, postgres_url
from .server_client import SeatClient, connect
from .test_server import play_out

__all__ = ["postgres_server", "postgres_url"]

SHORT = resolved_profile({"name": "short", "rules": {"target": 15}}, "test")
"""Games over in a deal or two."""


def fast(**limits: Any) -> Limits:
    return Limits(messages_per_second=1e6, burst=10**6, rooms_per_minute=10**6, friend_seeds=True, **limits)


def finished_room(client: TestClient, seed: int) -> tuple[str, str]:
    """A room against the computer whose game is over; its id and the human's seat key."""
    answer = client.post(
        "/api/rooms",
        json={"mode": "computer", "profile": "short", "names": ["Ann"], "level": "easy", "seed": seed},
    ).json()
    key = answer["keys"][0]["key"]
    with connect(client, key) as ann:
        play_out(client, answer["room"], [ann])
    return answer["room"], key


class Reviews:
    """`cribcore.review.review_game` counted, and held until `go` while ``hold`` is set."""

    def __init__(self) -> None:
        self.real = cribcore.review.review_game
        self.started: list[int] = []
        self.finished: list[int] = []
        self.hold = False
        self.go = threading.Event()
        self.began = threading.Event()

    def __call__(self, record: Any, seat: int, **kwargs: Any) -> Any:
        self.started.append(seat)
        self.began.set()
        if self.hold:
            assert self.go.wait(30)
        result = self.real(record, seat, **kwargs)
        self.finished.append(seat)
        return result


@pytest.fixture
def reviews(monkeypatch: pytest.MonkeyPatch) -> Iterator[Reviews]:
    counted = Reviews()
    monkeypatch.setattr(cribcore.review, "review_game", counted)
    yield counted
    counted.go.set()


def review(seat: SeatClient) -> dict[str, Any]:
    seat.send(type="review")
    return seat.receive()


def test_a_review_asked_for_again_is_not_worked_out_again(tmp_path: Path, reviews: Reviews) -> None:
    app = create_app(tmp_path / "rooms.sqlite3", limits=fast(reviews_per_minute=2), profiles={"short": SHORT})
    with TestClient(app) as client:
        first, key = finished_room(client, seed=3)
        second, other_key = finished_room(client, seed=4)
        with connect(client, key) as ann:
            answers = [review(ann) for _ in range(3)]
            assert answers[0]["type"] == "review" and answers[1:] == answers[:2][:1] * 2
            assert reviews.started == [0]
            ann.send(type="lang", lang="es")
            assert ann.receive()["type"] == "state"
            spanish = review(ann)  # the reasons in another language: worked out again
            assert spanish["type"] == "review" and len(reviews.started) == 2
        with connect(client, other_key) as bob:
            refused = review(bob)  # a third one worked out in a minute from this address
        assert refused == {
            "type": "error",
            "code": "rate",
            "message": "too many reviews asked for from this address: wait a minute",
        }
        assert len(reviews.started) == 2
        del first, second


def test_other_tables_are_answered_while_reviews_are_worked_out_one_at_a_time(
    tmp_path: Path, reviews: Reviews
) -> None:
    app = create_app(tmp_path / "rooms.sqlite3", limits=fast(), profiles={"short": SHORT})
    with TestClient(app) as client:
        rooms = [finished_room(client, seed) for seed in (3, 4)]
        playing = client.post(
            "/api/rooms", json={"mode": "computer", "profile": "short", "names": ["Cy"], "seed": 5}
        ).json()
        reviews.hold = True
        with (
            connect(client, rooms[0][1]) as ann,
            connect(client, rooms[1][1]) as bob,
            connect(client, playing["keys"][0]["key"]) as cy,
        ):
            ann.send(type="review")
            assert reviews.began.wait(30)
            bob.send(type="review")  # waits for Ann's: one review at a time
            for _ in range(5):  # another table, answered while both reviews are pending
                cy.send(type="ping")
                assert cy.receive() == {"type": "pong"}
                cy.send(type="sync")
                assert cy.receive()["type"] == "state"
            assert reviews.started == [0] and reviews.finished == []
            reviews.go.set()
            assert ann.receive()["type"] == "review"
            assert bob.receive()["type"] == "review"
            assert reviews.started == [0, 0] and reviews.finished == [0, 0]


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "rooms.sqlite3")
    url: str = request.getfixturevalue("postgres_url")
    return url


def test_per_address_limits_are_counted_once_across_server_processes(shared_db: str) -> None:
    # Two servers' applications on one database, as two processes behind one address would be.
    limits = Limits(rooms_per_minute=3, state_reads_per_minute=4, friend_seeds=True)
    with (
        TestClient(create_app(shared_db, limits=limits)) as one,
        TestClient(create_app(shared_db, limits=limits)) as two,
    ):
        made = [
            client.post("/api/rooms", json={"mode": "friend", "names": ["A"], "seed": 1})
            for client in (one, two, one, two)
        ]
        assert [r.status_code for r in made] == [201, 201, 201, 429]
        # Each reads a room it made (two SQLite stores on one file would not share a room's writes).
        own = {
            id(client): (f"/api/rooms/{r.json()['room']}/state", r.json()["keys"][0]["key"])
            for client, r in ((one, made[0]), (two, made[1]))
        }
        reads = []
        for client in (one, two) * 3:
            url, key = own[id(client)]
            reads.append(client.get(url, headers={"x-seat-key": key}).status_code)
        assert reads == [200, 200, 200, 200, 429, 429]


# ----------------------------------------------------------------------------- item 25


@pytest.mark.parametrize("name", ["Seat 2", "seat 3", "SEAT  4", "Puesto 2"])
def test_a_name_that_looks_like_an_empty_seat_is_refused(tmp_path: Path, name: str) -> None:
    with TestClient(create_app(tmp_path / "rooms.sqlite3", limits=fast())) as client:
        made = client.post("/api/rooms", json={"mode": "friend", "names": ["Ann"]}).json()
        joined = client.post("/api/join", json={"invite": made["invite"], "name": name})
        created = client.post("/api/rooms", json={"mode": "friend", "names": [name]})
    for refused in (joined, created):
        assert refused.status_code == 400
        assert refused.json()["error"].endswith("a name must not look like an empty seat's")


def test_invitation_links_never_take_a_host_a_client_chose(tmp_path: Path) -> None:
    body = {"mode": "friend", "names": ["Ann"]}
    evil = {"host": "evil.example:8000"}
    with TestClient(create_app(tmp_path / "a.sqlite3", limits=fast())) as client:
        link = client.post("/api/rooms", json=body, headers=evil).json()["link"]
    assert "evil.example" not in link and link.startswith("http://testserver/#join=")
    # From a trusted proxy (here, on the same host) its Host is the address players asked for.
    app = create_app(tmp_path / "b.sqlite3", limits=fast())
    with TestClient(app, client=("127.0.0.1", 40000)) as proxied:
        answer = proxied.post(
            "/api/rooms", json=body, headers={"host": "cribbage.example.org", "x-forwarded-proto": "https"}
        ).json()
    assert answer["link"] == f"https://cribbage.example.org/#join={answer['invite']}"
    # A configured public address is used whatever the request says.
    app = create_app(tmp_path / "c.sqlite3", limits=fast(), public_url="https://play.example.org/crib")
    with TestClient(app, client=("127.0.0.1", 40000)) as configured:
        answer = configured.post("/api/rooms", json=body, headers=evil).json()
    assert answer["link"] == f"https://play.example.org/crib/#join={answer['invite']}"


def test_a_silent_connection_is_closed(tmp_path: Path) -> None:
    from starlette.websockets import WebSocketDisconnect

    app = create_app(tmp_path / "rooms.sqlite3", limits=fast(idle_seconds=0.3))
    with TestClient(app) as client:
        made = client.post("/api/rooms", json={"mode": "computer", "names": ["Ann"]}).json()
        with connect(client, made["keys"][0]["key"]) as ann:
            ann.send(type="ping")
            assert ann.receive() == {"type": "pong"}
            # Then nothing is sent: the server says why and closes (1001, going away).
            assert ann.receive()["code"] == "idle"
            with pytest.raises(WebSocketDisconnect) as closed:
                ann.receive()
            assert closed.value.code == 1001


def test_cribbage_join_pings_while_it_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    import cribcore.netclient as netclient

    class Quiet:
        def __init__(self) -> None:
            self.sent: list[str] = []

        def send(self, text: str) -> None:
            self.sent.append(text)

        def recv(self, timeout: float | None = None) -> str:
            raise TimeoutError

    monkeypatch.setattr(netclient, "KEEPALIVE", 0.0)
    client = netclient.SeatClient(netclient.parse_link("http://127.0.0.1:9/#key=ab.cd"), "ab.cd")
    quiet = Quiet()
    client._ws = quiet  # type: ignore[assignment]
    assert client.receive(timeout=0.01) is None
    assert quiet.sent == ['{"type": "ping"}']


# ----------------------------------------------------------------------------- item 24


def _row(db: Path) -> dict[str, Any]:
    import sqlite3

    with sqlite3.connect(db) as conn:
        data: dict[str, Any] = json.loads(conn.execute("SELECT data FROM rooms").fetchone()[0])
    return data


def test_invitations_are_stored_hashed_and_shown_again_after_a_restart(tmp_path: Path) -> None:
    import hashlib

    db = tmp_path / "rooms.sqlite3"
    with TestClient(create_app(db, limits=fast())) as client:
        made = client.post("/api/rooms", json={"mode": "friend", "names": ["Ann"]}).json()
    invite, key = made["invite"], made["keys"][0]["key"]
    row = _row(db)
    text = json.dumps(row)
    assert invite not in text and invite.partition(".")[2] not in text
    assert row["invite_hash"] == hashlib.sha256(invite.encode()).hexdigest() and "invite" not in row
    assert row["seats"][0]["sealed_invite"] and row["seats"][1]["sealed_invite"] is None
    # A new process knows no invitation: the creator's key opens it again for the board to show.
    with TestClient(create_app(db, limits=fast())) as client:
        with connect(client, key) as ann:
            assert ann.room["invite"] == invite
        joined = client.post("/api/join", json={"invite": invite, "name": "Bob"})
        assert joined.status_code == 200
        # (Another last character: an invitation may end in "A" itself.)
        other = "Q" if invite.endswith("A") else "A"
        wrong = client.post("/api/join", json={"invite": invite[:-1] + other, "name": "Cy"})
        assert wrong.status_code == 404


def test_a_room_stored_with_its_invitation_in_clear_keeps_working_and_is_stored_hashed(
    tmp_path: Path,
) -> None:
    import sqlite3

    db = tmp_path / "rooms.sqlite3"
    with TestClient(create_app(db, limits=fast())) as client:
        made = client.post(
            "/api/rooms", json={"mode": "friend", "profile": "four-players", "names": ["Ann"]}
        ).json()
    invite, key = made["invite"], made["keys"][0]["key"]
    row = _row(db)
    # As a room was stored before: the invitation in clear, no hash, no sealed copies.
    old = {k: v for k, v in row.items() if k != "invite_hash"} | {"invite": invite}
    old["seats"] = [{k: v for k, v in seat.items() if k != "sealed_invite"} for seat in row["seats"]]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE rooms SET data = ?", (json.dumps(old),))
    with TestClient(create_app(db, limits=fast())) as client:
        assert client.post("/api/join", json={"invite": invite, "name": "Bob"}).status_code == 200
        with connect(client, key) as ann:
            assert ann.room["invite"] == invite  # two seats are still free
    row = _row(db)
    assert invite not in json.dumps(row) and "invite" not in row
    assert row["seats"][0]["sealed_invite"] and row["seats"][1]["sealed_invite"]
    with TestClient(create_app(db, limits=fast())) as client:
        with connect(client, key) as ann:
            assert ann.room["invite"] == invite
        assert client.post("/api/join", json={"invite": invite, "name": "Cy"}).status_code == 200


def test_a_reopened_seat_gets_a_new_invitation_sealed_for_whoever_reopened_it(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite3"
    with TestClient(create_app(db, limits=fast())) as client:
        made = client.post("/api/rooms", json={"mode": "friend", "names": ["Ann"]}).json()
        invite, key = made["invite"], made["keys"][0]["key"]
        assert client.post("/api/join", json={"invite": invite, "name": "Bob"}).status_code == 200
        with connect(client, key) as ann:
            ann.send(type="reopen", seat=1)
            fresh = ann.receive()["room"]["invite"]
        assert fresh and fresh != invite
    with TestClient(create_app(db, limits=fast())) as client:
        with connect(client, key) as ann:
            assert ann.room["invite"] == fresh
        assert client.post("/api/join", json={"invite": invite, "name": "Cy"}).status_code == 404
        assert client.post("/api/join", json={"invite": fresh, "name": "Cy"}).status_code == 200
