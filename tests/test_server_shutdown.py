"""The server's shutdown ends every task it started before its store closes (issue 33).

A seat whose connection ends is let go of in a task of its own (its handler may be cancelled while the
store is still being told). Before, nothing waited for that task: a shutdown right after a client left
closed the store under it, and over PostgreSQL the late `release` opened a new connection pool, whose
worker tasks then outlived the event loop's shutdown; psycopg_pool's worker takes a cancellation in the
middle of its work for its own and goes on waiting for the next, so the loop's last step (cancel every
task, wait for each) waited for ever. Now the application's shutdown lets each seat being let go of
finish, cancels and awaits every other task the server started, and only then closes the store, which
is never opened again.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cribcore.server import app as app_module
from cribcore.server.app import create_app
from cribcore.server.rooms import RoomError
from cribcore.server.store import RoomStore
from cribcore.server.store_pg import PostgresStore

from .pg import postgres_server, postgres_url
from .server_client import connect
from .test_server import FAST, Clock, friend_room

__all__ = ["postgres_server", "postgres_url"]


class _SlowRelease(RoomStore):
    """A SQLite store whose `release` takes a few round trips of the event loop, as a database's
    would, and which notes what the server still had running when it was closed."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.released: list[tuple[str, int]] = []
        self.at_close: tuple[list[tuple[str, int]], int] | None = None
        self.server: app_module._Server | None = None

    async def release(self, room_id: str, seat: int) -> None:
        for _ in range(50):
            await asyncio.sleep(0)
        await asyncio.sleep(0.05)
        self.released.append((room_id, seat))

    async def aclose(self) -> None:
        self.at_close = (list(self.released), len(getattr(self.server, "tasks", ())))
        await super().aclose()


def test_shutdown_lets_the_last_seat_go_and_ends_every_task_before_the_store_closes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _SlowRelease(tmp_path / "rooms.sqlite3")
    monkeypatch.setattr(app_module, "open_store", lambda db: store)
    app = create_app(tmp_path / "rooms.sqlite3", clock=Clock(), limits=FAST)
    store.server = app.state.server
    with TestClient(app) as client:
        room, keys = friend_room(client)
        with connect(client, keys[0]):
            pass
        # The test client cancels the connection's handler as it closes it: the seat is being let go
        # of while the application shuts down.
    assert store.at_close == ([(room["room"], 0)], 0)


def test_a_closed_postgres_store_is_not_opened_again(postgres_url: str) -> None:
    async def scenario() -> None:
        store = PostgresStore(postgres_url)
        await store.open()
        await store.aclose()
        for late in (store.release("r", 0), store.get("r", 0.0), store.count_use("room", "a", 0.0, 5)):
            with pytest.raises(RoomError) as refused:
                await late
            assert refused.value.code == "reconnecting"
        assert store._pool is None and store._presence is None

    asyncio.run(scenario())
