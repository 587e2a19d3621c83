"""A process sharing PostgreSQL answers a room from memory while no change of it has been announced
(`Store.listening`, `Store.stale`): one write per move instead of a read and a write. What another
process changed without the announcement having arrived yet is caught by the write's
compare-and-swap, or (a move the remembered room refuses) by trying the move once more afresh."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import psycopg
from starlette.testclient import TestClient

from cribcore.players.registry import make_player
from cribcore.server.app import create_app
from cribcore.server.rooms import Room, RoomError
from cribcore.server.store_pg import PostgresStore

from .pg import ann_and_bob, postgres_server, postgres_url
from .server_client import connect
from .test_server import FAST, create, join

__all__ = ["postgres_server", "postgres_url"]


def move(room: Room, now: float = 2.0) -> None:
    """The next thing done in the same-device room: a seat's move (or both seats' next hand)."""
    room.connected = {0, 1}
    if room.between_hands is not None:
        room.next_hand(0, now)
        room.next_hand(1, now)
    seat = room.game.to_act[0]
    room.act(seat, str(make_player("easy", seed=seat).choose(room.game.view(seat))), now)


def test_a_room_nothing_was_announced_of_is_answered_from_memory(postgres_url: str) -> None:
    async def scenario() -> None:
        here, there = PostgresStore(postgres_url), PostgresStore(postgres_url)
        try:
            room = ann_and_bob(11)
            await here.add(room)
            await here.get(room.id, 2.0)  # not listening: read every time
            assert here.reads == 1 and not here.fresh(room.id)
            here.listening(True)
            await there.hold(room.id, 1)  # Bob's seat, connected to the other process
            for _ in range(4):
                at = await here.get(room.id, 2.0)
                assert at.connected == {1}
                move(at)
                await here.save(at)
            assert here.reads == 2  # read once, when it began to listen
            here.stale(room.id)  # the other process let Bob go: announced
            await there.release(room.id, 1)
            assert (await here.get(room.id, 2.0)).connected == set() and here.reads == 3
            assert (await here.get(room.id, 2.0)).connected == set() and here.reads == 3
            here.stale(room.id, seats=False)  # a written row announced: the seats are as they were
            await here.get(room.id, 2.0)
            assert here.reads == 4 and here.fresh(room.id)
            here.listening(False)  # the announcements were lost: read again, every time
            await here.get(room.id, 2.0)
            await here.get(room.id, 2.0)
            assert here.reads == 6 and not here.fresh(room.id)
        finally:
            await here.aclose()
            await there.aclose()

    asyncio.run(scenario())


def test_seats_taken_elsewhere_are_read_not_told(postgres_url: str) -> None:
    """An announcement of the seats another process holds is answered by reading them, even when an
    announced row is still waiting to be told (it came while no seat of the room was connected here,
    so nothing took it): telling that row would have kept the seats as they were, and a seat would
    wait for one connected elsewhere, for good."""

    async def scenario() -> None:
        here, there = PostgresStore(postgres_url), PostgresStore(postgres_url)
        try:
            room = ann_and_bob(13)
            await here.add(room)
            here.listening(True)
            at = await here.get(room.id, 2.0)
            assert at.connected == set()
            here.stale(room.id, seats=False)  # a row announced, at a version it already has
            here.announced(room.id, 1, None)
            await there.hold(room.id, 1)
            here.stale(room.id)  # ... then Bob's seat held by the other process
            assert here.told(room.id) is None  # so it is read
            assert (await here.get(room.id, 2.0)).connected == {1}
        finally:
            await here.aclose()
            await there.aclose()

    asyncio.run(scenario())


def test_a_write_over_a_change_not_yet_announced_is_refused_and_the_room_read_again(
    postgres_url: str,
) -> None:
    async def scenario() -> None:
        here, there = PostgresStore(postgres_url), PostgresStore(postgres_url)
        try:
            room = ann_and_bob(12)
            await here.add(room)
            here.listening(True)
            await here.get(room.id, 2.0)
            elsewhere = await there.get(room.id, 2.0)
            move(elsewhere)
            await there.save(elsewhere)  # its announcement has not reached `here`
            remembered = await here.get(room.id, 2.0)
            assert remembered.to_text() != elsewhere.to_text()  # answered from memory, as designed
            move(remembered)
            try:
                await here.save(remembered)
            except RoomError as exc:
                assert exc.code == "conflict"
            else:
                raise AssertionError("a write over an older version was taken")
            again = await here.get(room.id, 2.0)  # forgotten by the refusal: read afresh
            assert again.to_text() == elsewhere.to_text()
            move(again)
            await here.save(again)
        finally:
            await here.aclose()
            await there.aclose()

    asyncio.run(scenario())


def test_a_move_the_remembered_room_refuses_is_tried_on_the_room_read_afresh(
    postgres_url: str, tmp_path: Path
) -> None:
    """Bob's discard reaches the database from elsewhere with no announcement (written straight into
    the row, as if by another process whose announcement is still on its way); Ann then leads, which
    only the room as stored allows."""
    with TestClient(create_app(postgres_url, limits=FAST)) as client:
        server = client.app.state.server  # type: ignore[attr-defined]
        made = create(client, names=["Ann"], seed=3)
        bob = join(client, made["invite"], "Bob")
        room_id = made["room"]
        with connect(client, made["keys"][0]["key"]) as ann, connect(client, bob["key"]):
            for _ in range(50):  # until the listener has begun (the store then remembers rooms)
                ann.send(type="sync")
                ann.receive()
                if server.store.fresh(room_id):
                    break
            assert server.store.fresh(room_id), "the room was never answered from memory"
            ann_discard = make_player("easy", seed=0).choose(ann.view)
            ann.act(str(ann_discard))

            async def bob_discards_elsewhere() -> None:
                there = PostgresStore(postgres_url)
                try:
                    now = time.time()  # the server's clock: the room stays active
                    at = await there.get(room_id, now)
                    at.connected = {0, 1}
                    view = at.game.view(1)
                    at.act(1, str(make_player("easy", seed=1).choose(view)), now)
                    with psycopg.connect(postgres_url, autocommit=True) as conn:
                        conn.execute(
                            "UPDATE rooms SET data = %s, version = version + 1 WHERE id = %s",
                            (at.to_text(), room_id),
                        )
                finally:
                    await there.aclose()

            asyncio.run(bob_discards_elsewhere())
            assert server.store.fresh(room_id)  # nothing announced: Bob has not discarded, here
            with psycopg.connect(postgres_url, autocommit=True) as conn:
                row = conn.execute("SELECT data FROM rooms WHERE id = %s", (room_id,)).fetchone()
            assert row is not None
            stored = Room.from_json(row[0])
            seat = stored.game.to_act[0]
            assert seat == 0, "Ann leads in this seed"
            lead = stored.game.legal_actions(0)[0]
            ann.send(type="action", action=str(lead))
            for _ in range(10):  # (states sent before, for Bob's arrival say, come first)
                if ann.receive()["type"] == "error" or any(e.kind == "play" for e in ann.log):
                    break
            assert not ann.errors, ann.errors
            assert [(e.kind, e.seat) for e in ann.log if e.kind == "play"] == [("play", 0)]
