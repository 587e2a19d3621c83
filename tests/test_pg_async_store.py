"""The PostgreSQL store makes no synchronous database call on the event loop (issue 33): the interface
the server awaits is coroutines over psycopg's asynchronous pool, its synchronous part (moving rooms
between databases) refuses to run on a loop, and a whole game served over it, with the per-address
counts and a seat that leaves and comes back, makes no call of psycopg's synchronous connections on
the loop."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from psycopg_pool import AsyncConnectionPool
from starlette.testclient import TestClient

from cribcore.server.app import create_app
from cribcore.server.store import RoomStore, Store
from cribcore.server.store_pg import PostgresStore
from cribcore.server.stores import open_store

from .pg import postgres_server, postgres_url
from .server_client import connect
from .test_server import FAST, Clock, friend_room, play_out

__all__ = ["postgres_server", "postgres_url"]

SERVED = ("open", "aclose", "add", "get", "save", "delete", "sweep", "count_use", "hold", "release")
"""The store's methods the server calls."""


@pytest.mark.parametrize("kind", [Store, RoomStore, PostgresStore])
def test_every_method_the_server_calls_is_a_coroutine(kind: type[Store]) -> None:
    for name in SERVED:
        assert inspect.iscoroutinefunction(getattr(kind, name)), name


def test_the_factory_picks_the_backend_by_the_url(postgres_url: str) -> None:
    store = open_store(postgres_url)
    assert isinstance(store, PostgresStore)
    store.close()
    assert isinstance(open_store(":memory:"), RoomStore)


def test_the_synchronous_moving_of_rooms_refuses_to_run_on_an_event_loop(postgres_url: str) -> None:
    store = PostgresStore(postgres_url)
    assert store.count() == 0  # off the loop: fine

    async def on_the_loop() -> None:
        calls: list[Callable[[], object]] = [
            store.count,
            lambda: list(store.rows()),
            lambda: list(store.tombstones()),
            lambda: store.put_rows([], []),
        ]
        for call in calls:
            with pytest.raises(RuntimeError, match="never call it on the event loop"):
                call()

    asyncio.run(on_the_loop())
    store.close()


def test_a_game_served_over_postgres_makes_no_synchronous_call_on_the_loop(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    on_the_loop: list[str] = []

    def watched(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                pass
            else:
                on_the_loop.append(name)
            return original(*args, **kwargs)

        return call

    monkeypatch.setattr(psycopg, "connect", watched("connect", psycopg.connect))
    for name in ("execute", "executemany", "fetchone", "fetchall"):
        monkeypatch.setattr(psycopg.Cursor, name, watched(name, getattr(psycopg.Cursor, name)))
    monkeypatch.setattr(psycopg.Connection, "execute", watched("execute", psycopg.Connection.execute))

    with TestClient(create_app(postgres_url, clock=Clock(), limits=FAST)) as client:
        store = client.app.state.server.store  # type: ignore[attr-defined]
        assert isinstance(store, PostgresStore) and isinstance(store._pool, AsyncConnectionPool)
        room, keys = friend_room(client)
        with connect(client, keys[0]) as ann:
            with connect(client, keys[1]) as bob:
                ann.receive()  # Bob's arrival
                play_out(client, room["room"], [ann, bob])
            ann.receive()  # Bob has gone
            with connect(client, keys[1]):
                ann.receive()
        assert client.get(f"/api/rooms/{room['room']}/state", headers={"x-seat-key": keys[0]}).is_success
    assert on_the_loop == []
