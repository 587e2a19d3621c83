"""Which process holds a seat after losing its database connection, against a real PostgreSQL: two
`PostgresStore` objects are two server processes. A process that reconnects takes back only the seats
nobody else took meanwhile; a seat another process's live session holds now stays that process's and
counts as taken over here (so this process's connection for it is replaced)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import psycopg
import pytest
from anyio.from_thread import start_blocking_portal
from starlette.testclient import TestClient

from cribcore.server.app import create_app
from cribcore.server.rooms import RoomError
from cribcore.server.store_pg import PostgresStore

from .pg import ann_and_bob, postgres_server, postgres_url
from .test_server import FAST, Clock

__all__ = ["postgres_server", "postgres_url"]


Two = Callable[[PostgresStore, PostgresStore, str], Awaitable[None]]


def with_two(url: str, body: Two) -> None:
    """Run ``body`` with two processes sharing the database, and a room's id in it."""

    async def scenario() -> None:
        a, b = PostgresStore(url), PostgresStore(url)
        try:
            room = ann_and_bob(3)
            await a.add(room)
            await body(a, b, room.id)
        finally:
            await a.aclose()
            await b.aclose()

    asyncio.run(scenario())


def holder(url: str, room_id: str, seat: int) -> int | None:
    """The server process id of the database session the seat's presence row names."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT backend FROM presence WHERE room_id = %s AND seat = %s", (room_id, seat)
        ).fetchone()
    return int(row[0]) if row else None


def client_sessions(url: str) -> list[int]:
    """The server process ids of every other client session of the database (the stores')."""
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
        ).fetchall()
    return [int(row[0]) for row in rows]


def end_sessions(url: str, *pids: int) -> None:
    """End these database sessions and wait until they are gone, as a PostgreSQL restart ends all."""
    with psycopg.connect(url, autocommit=True) as conn:
        for pid in pids:
            conn.execute("SELECT pg_terminate_backend(%s, 60000)", (pid,))


def test_a_seat_taken_over_during_an_outage_is_not_taken_back(postgres_url: str) -> None:
    async def body(a: PostgresStore, b: PostgresStore, room_id: str) -> None:
        await a.hold(room_id, 0)
        await a.drop_connection()  # A is away from the database...
        await b.hold(room_id, 0)  # ...while the seat is opened on B
        b_session = holder(postgres_url, room_id, 0)
        assert (await a.get(room_id, 2.0)).connected == {0}  # A is back
        assert holder(postgres_url, room_id, 0) == b_session  # B's row left alone
        assert a.taken(room_id) == {0}  # A's connection for the seat was replaced
        await b.get(room_id, 2.0)
        assert b.taken(room_id) == set()

    with_two(postgres_url, body)


def test_a_reconnected_process_takes_back_a_seat_whose_other_holder_is_gone(postgres_url: str) -> None:
    async def body(a: PostgresStore, b: PostgresStore, room_id: str) -> None:
        await a.hold(room_id, 0)
        await a.hold(room_id, 1)
        a_session = holder(postgres_url, room_id, 1)
        assert a_session is not None
        await a.drop_connection()
        await b.hold(room_id, 0)
        b_session = holder(postgres_url, room_id, 0)
        assert b_session is not None and b_session != a_session
        end_sessions(postgres_url, a_session, b_session)  # as a restart of PostgreSQL would
        await a.drop_connection()  # as the listener does once the database is back
        await b.drop_connection()
        assert (await a.get(room_id, 2.0)).connected == {0, 1}
        assert a.taken(room_id) == set()  # every seat back: nobody alive held them
        a_now = holder(postgres_url, room_id, 0)
        assert a_now not in (None, a_session, b_session) and holder(postgres_url, room_id, 1) == a_now
        await b.get(room_id, 2.0)  # B reconnects second: A's live session holds its seat now
        assert b.taken(room_id) == {0} and holder(postgres_url, room_id, 0) == a_now

    with_two(postgres_url, body)


def test_a_process_takes_back_a_seat_its_own_old_session_still_holds(postgres_url: str) -> None:
    async def body(a: PostgresStore, b: PostgresStore, room_id: str) -> None:
        await a.hold(room_id, 0)
        old = a._presence  # the old session stays alive while A connects again (as it may for a moment)
        a._presence = None
        try:
            await a.get(room_id, 2.0)
            assert a.taken(room_id) == set()
            assert holder(postgres_url, room_id, 0) != (old.info.backend_pid if old is not None else None)
        finally:
            if old is not None:
                await old.close()

    with_two(postgres_url, body)


def test_the_first_read_after_the_database_ended_the_session_succeeds(postgres_url: str) -> None:
    async def body(a: PostgresStore, b: PostgresStore, room_id: str) -> None:
        await a.hold(room_id, 0)
        session = holder(postgres_url, room_id, 0)
        assert session is not None
        end_sessions(postgres_url, session)  # before any listener has noticed
        assert (await a.get(room_id, 2.0)).connected == {0}  # read again on a new connection
        assert a.taken(room_id) == set() and holder(postgres_url, room_id, 0) not in (None, session)
        room = await a.get(room_id, 3.0)
        again = holder(postgres_url, room_id, 0)
        assert again is not None
        # Every session of A's ends (the presence one and its pool's), as a restart would.
        end_sessions(postgres_url, *client_sessions(postgres_url))
        with pytest.raises(RoomError) as failed:  # a write is not tried again: it may have been applied
            await a.save(room)
        assert failed.value.code == "reconnecting"
        assert (await a.get(room_id, 3.0)).connected == {0}

    with_two(postgres_url, body)


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
            # Another process (its own event loop) opens the seat meanwhile.
            with start_blocking_portal() as portal:
                elsewhere = PostgresStore(postgres_url)
                try:
                    portal.call(elsewhere.hold, made["room"], 0)
                    message = ws.receive_json()  # once the database is back: replaced, not the state
                    assert (message["type"], message.get("code")) == ("error", "replaced")
                    portal.call(elsewhere.get, made["room"], 2.0)
                    assert elsewhere.taken(made["room"]) == set()
                finally:
                    portal.call(elsewhere.aclose)
