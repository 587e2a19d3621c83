"""Which process holds a seat after losing its database connection, against a real PostgreSQL: two
`PostgresStore` objects are two server processes. A process that reconnects takes back only the seats
nobody else took meanwhile; a seat another process's live session holds now stays that process's and
counts as taken over here (so this process's connection for it is replaced)."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from starlette.testclient import TestClient

from cribcore.profiles import load_profile
from cribcore.server.app import create_app
from cribcore.server.rooms import Room, RoomError
from cribcore.server.store_pg import PostgresStore

from .pg import postgres_server, postgres_url
from .test_server import FAST, Clock

__all__ = ["postgres_server", "postgres_url"]


@pytest.fixture
def two(postgres_url: str) -> Iterator[tuple[PostgresStore, PostgresStore, str]]:
    """Two processes sharing the database, and a room's id in it."""
    a, b = PostgresStore(postgres_url), PostgresStore(postgres_url)
    try:
        room = Room.create(
            mode="same-device", profile=load_profile(), names=["Ann", "Bob"], level="easy", seed=3, now=1.0
        )[0]
        a.add(room)
        yield a, b, room.id
    finally:
        a.close()
        b.close()


def holder(url: str, room_id: str, seat: int) -> int | None:
    """The server process id of the database session the seat's presence row names."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT backend FROM presence WHERE room_id = %s AND seat = %s", (room_id, seat)
        ).fetchone()
    return int(row[0]) if row else None


def end_sessions(url: str, *pids: int) -> None:
    """End these database sessions and wait until they are gone, as a PostgreSQL restart ends all."""
    with psycopg.connect(url, autocommit=True) as conn:
        for pid in pids:
            conn.execute("SELECT pg_terminate_backend(%s, 60000)", (pid,))


def test_a_seat_taken_over_during_an_outage_is_not_taken_back(
    two: tuple[PostgresStore, PostgresStore, str], postgres_url: str
) -> None:
    a, b, room_id = two
    a.hold(room_id, 0)
    a.drop_connection()  # A is away from the database...
    b.hold(room_id, 0)  # ...while the seat is opened on B
    b_session = holder(postgres_url, room_id, 0)
    assert a.get(room_id, 2.0).connected == {0}  # A is back
    assert holder(postgres_url, room_id, 0) == b_session  # B's row left alone
    assert a.taken(room_id) == {0}  # A's connection for the seat was replaced
    b.get(room_id, 2.0)
    assert b.taken(room_id) == set()


def test_a_reconnected_process_takes_back_a_seat_whose_other_holder_is_gone(
    two: tuple[PostgresStore, PostgresStore, str], postgres_url: str
) -> None:
    a, b, room_id = two
    a.hold(room_id, 0)
    a.hold(room_id, 1)
    a_session = holder(postgres_url, room_id, 1)
    assert a_session is not None
    a.drop_connection()
    b.hold(room_id, 0)
    b_session = holder(postgres_url, room_id, 0)
    assert b_session is not None and b_session != a_session
    end_sessions(postgres_url, a_session, b_session)  # as a restart of PostgreSQL would
    a.drop_connection()  # as the listener does once the database is back
    b.drop_connection()
    assert a.get(room_id, 2.0).connected == {0, 1}
    assert a.taken(room_id) == set()  # every seat back: nobody alive held them
    a_now = holder(postgres_url, room_id, 0)
    assert a_now not in (None, a_session, b_session) and holder(postgres_url, room_id, 1) == a_now
    b.get(room_id, 2.0)  # B reconnects second: A's live session holds its seat now
    assert b.taken(room_id) == {0} and holder(postgres_url, room_id, 0) == a_now


def test_a_process_takes_back_a_seat_its_own_old_session_still_holds(
    two: tuple[PostgresStore, PostgresStore, str], postgres_url: str
) -> None:
    a, _, room_id = two
    a.hold(room_id, 0)
    old = a._conn  # the old session stays alive while A connects again (as it may for a moment)
    a._conn = None
    try:
        a.get(room_id, 2.0)
        assert a.taken(room_id) == set()
        assert holder(postgres_url, room_id, 0) != (old.info.backend_pid if old is not None else None)
    finally:
        if old is not None:
            old.close()


def test_the_first_read_after_the_database_ended_the_session_succeeds(
    two: tuple[PostgresStore, PostgresStore, str], postgres_url: str
) -> None:
    a, _, room_id = two
    a.hold(room_id, 0)
    session = holder(postgres_url, room_id, 0)
    assert session is not None
    end_sessions(postgres_url, session)  # before any listener has noticed
    assert a.get(room_id, 2.0).connected == {0}  # read again on a new connection
    assert a.taken(room_id) == set() and holder(postgres_url, room_id, 0) not in (None, session)
    room = a.get(room_id, 3.0)
    again = holder(postgres_url, room_id, 0)
    assert again is not None
    end_sessions(postgres_url, again)
    with pytest.raises(RoomError) as failed:  # a write is not tried again: it may have been applied
        a.save(room)
    assert failed.value.code == "reconnecting"
    assert a.get(room_id, 3.0).connected == {0}


def test_a_connection_whose_seat_was_opened_elsewhere_during_an_outage_is_replaced(postgres_url: str) -> None:
    with TestClient(create_app(postgres_url, clock=Clock(), limits=FAST)) as client:
        made = client.post("/api/rooms", json={"mode": "computer", "names": ["Ann"], "seed": 4}).json()
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "key": made["keys"][0]["key"]})
            assert ws.receive_json()["type"] == "state"
            with psycopg.connect(postgres_url, autocommit=True) as conn:
                others = conn.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
                ).fetchall()
            end_sessions(postgres_url, *(int(row[0]) for row in others))  # this process's, as a restart
            while ws.receive_json().get("code") != "reconnecting":
                pass
            elsewhere = PostgresStore(postgres_url)  # another process opens the seat meanwhile
            try:
                elsewhere.hold(made["room"], 0)
                message = ws.receive_json()  # once the database is back: replaced, not the seat's state
                assert (message["type"], message.get("code")) == ("error", "replaced")
                elsewhere.get(made["room"], 2.0)
                assert elsewhere.taken(made["room"]) == set()
            finally:
                elsewhere.close()
