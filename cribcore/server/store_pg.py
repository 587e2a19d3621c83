"""Rooms kept in PostgreSQL, shared by any number of server processes on any number of hosts.

The rows are `store.Store`'s: every write is a compare-and-swap on the row's version in one transaction,
so of two processes changing one room from one version exactly one succeeds. Every write also sends
``NOTIFY cribcore_rooms`` (delivered when its transaction commits) with the writer's id, the room, its
new version and (when it fits) its row, so every other process sends the change to the seats connected
to it (`listen`) without reading the row back. Which seats are connected anywhere is in the
``presence`` table, each row naming the database session of the process that holds the seat: a row
whose session is gone (its process died, or PostgreSQL restarted) counts for nothing, so a killed
process never leaves a seat looking connected; a row another process's session took over means that
process's connection replaced this one's (`Store.taken`). After losing its connection a process takes
its seats back only where nobody else took them meanwhile: a seat whose row names a live session of
another process stays that process's, and counts as taken over here.

psycopg 3 is an optional dependency (``pip install 'cribcore[postgres]'``). When the database cannot be
reached, an operation raises `RoomError` with the code ``reconnecting`` and the next one connects again.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, LiteralString

from .rooms import Room, RoomError
from .store import TOMBSTONE_SECONDS, Row, Store

try:
    import psycopg
except ImportError:  # pragma: no cover - depends on the installation
    psycopg = None  # type: ignore[assignment]

__all__ = ["CHANNEL", "PostgresStore", "listen", "parse_news"]

CHANNEL = "cribcore_rooms"
"""The NOTIFY channel every change of a room is announced on. The payload is the writer's id, a space
and the room's id; a written room adds a space, its new version, and (when it fits the payload's limit)
a space and the row's data, so that the other processes need not read it back."""

_ANNOUNCED_BYTES = 7900
"""The most data a NOTIFY payload carries (PostgreSQL's limit is 8000 bytes with the rest)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    last_active DOUBLE PRECISION NOT NULL,
    data TEXT NOT NULL,
    version BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS rooms_last_active ON rooms (last_active);
CREATE TABLE IF NOT EXISTS expired (
    id TEXT PRIMARY KEY,
    expired_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS uses (
    kind TEXT NOT NULL,
    address TEXT NOT NULL,
    minute BIGINT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (kind, address, minute)
);
CREATE TABLE IF NOT EXISTS presence (
    room_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    backend INTEGER NOT NULL,
    started TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (room_id, seat)
);
"""

# The seats of a room held by a live database session (a dead process's rows do not count).
_HELD = (
    "ARRAY(SELECT p.seat FROM presence p JOIN pg_stat_activity a "
    "ON a.pid = p.backend AND a.backend_start = p.started WHERE p.room_id = rooms.id)"
)

# The seats of a room held by this very session.
_MINE = "ARRAY(SELECT p.seat FROM presence p WHERE p.room_id = rooms.id AND p.backend = pg_backend_pid())"

_SCHEMA_LOCK = 0x63726962  # one process creates the tables while another waits


def _reconnecting(exc: BaseException) -> RoomError:
    del exc
    return RoomError("reconnecting", "the room database cannot be reached: reconnecting, try again shortly")


class PostgresStore(Store):
    """The rooms of one PostgreSQL database (``url``: ``postgresql://USER@HOST/DB``)."""

    shared = True

    def __init__(self, url: str, cached: int = 2000) -> None:
        super().__init__(cached)
        if psycopg is None:
            raise OSError("a PostgreSQL --db needs psycopg: pip install 'cribcore[postgres]'")
        self.url = url
        self.id = uuid.uuid4().hex
        self._conn: psycopg.Connection[Any] | None = None
        self._held: dict[str, set[int]] = {}
        """The seats of each room this process's connections hold."""
        self._taken: dict[str, set[int]] = {}
        self._sessions: list[tuple[int, datetime]] = []
        """This process's database sessions whose presence rows may still name its seats: the current
        one, and the earlier ones until a reconnection has held every seat again."""
        # One connection, one transaction at a time (a test client runs the app on several threads).
        self._lock = threading.RLock()
        try:
            self._db()
        except RoomError:
            raise OSError(f"{_shown(url)}: cannot reach the room database") from None

    def _db(self) -> psycopg.Connection[Any]:
        """The connection, made again when it was lost (then this process's seats are held again
        where no other process took them meanwhile; those it did are `taken`)."""
        if self._conn is not None and not self._conn.closed:
            return self._conn
        try:
            conn = psycopg.connect(self.url, autocommit=True, connect_timeout=5)
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                conn.execute(_SCHEMA)
                session = conn.execute(
                    "SELECT pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()"
                ).fetchone()
        except psycopg.Error as exc:
            raise _reconnecting(exc) from None
        self._conn = conn
        if session is not None:
            self._sessions.append((int(session[0]), session[1]))
        # Held seats named an old session: name this one where that is still ours to do (and tell the
        # other processes); a seat another process took meanwhile is its connection's now.
        for room_id, seats in sorted(self._held.items()):
            for seat in sorted(seats):
                if not self._hold_again(room_id, seat):
                    self._taken.setdefault(room_id, set()).add(seat)
        self._sessions = self._sessions[-1:]  # every row of an older session is this one's or not ours
        return conn

    @contextmanager
    def _tx(self) -> Iterator[psycopg.Connection[Any]]:
        with self._lock:
            conn = self._db()
            try:
                with conn.transaction():
                    yield conn
            except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
                conn.close()
                raise _reconnecting(exc) from None

    def _run(
        self, sql: LiteralString, params: tuple[Any, ...], *, read: bool = False
    ) -> list[tuple[Any, ...]]:
        """One statement, its own transaction, in one round trip to the database; its rows. (A move
        costs one of these to read its room and one to write it: ``BEGIN`` and ``COMMIT`` would
        triple the waits, with the event loop held.) A ``read`` that fails on a connection already
        open is tried once more on a new one: after PostgreSQL restarts, the first request finds its
        connection dead before the listener has noticed (a write is not repeated: it may have been
        applied)."""
        with self._lock:
            for again in (read, False):
                conn = self._db()
                try:
                    cursor = conn.execute(sql, params)
                    return cursor.fetchall() if cursor.description is not None else []
                except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
                    conn.close()
                    if not again:
                        raise _reconnecting(exc) from None
        raise AssertionError("unreachable")

    def _notify(self, conn: psycopg.Connection[Any], room_id: str) -> None:
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{self.id} {room_id}"))

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()

    def drop_connection(self) -> None:
        """Close the connection (after the database was away): the next operation connects again."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _insert(self, room: Room, text: str) -> None:
        self._run(
            "INSERT INTO rooms (id, last_active, data, version) VALUES (%s, %s, %s, 1)",
            (room.id, room.last_active, text),
        )

    def _update(self, room: Room, text: str, version: int) -> bool:
        # The change and its announcement in one statement (so one transaction): announced only if
        # written, and delivered when it commits, in the order of the commits.
        news = f"{self.id} {room.id} {version + 1}"
        if len(text) <= _ANNOUNCED_BYTES // 4 or len(text.encode()) <= _ANNOUNCED_BYTES:
            news = f"{news} {text}"
        written = self._run(
            "WITH written AS (UPDATE rooms SET last_active = %s, data = %s, version = version + 1 "
            "WHERE id = %s AND version = %s RETURNING id) SELECT pg_notify(%s, %s) FROM written",
            (room.last_active, text, room.id, version, CHANNEL, news),
        )
        return len(written) == 1

    def _load(self, room_id: str, known: int | None) -> tuple[str | None, int, set[int]] | None:
        with self._lock:
            rows = self._run(
                f"SELECT CASE WHEN version = %s THEN NULL ELSE data END, version, {_HELD}, {_MINE} "
                "FROM rooms WHERE id = %s",
                (known if known is not None else -1, room_id),
                read=True,
            )
            row = rows[0] if rows else None
            # Held by this process but no longer by its session: another process's hold took it.
            taken = self._held.get(room_id, set()) - set(row[3]) if row is not None else set()
            if taken:
                self._taken[room_id] = taken
            else:
                self._taken.pop(room_id, None)
            if row is None:
                return None
        return row[0], int(row[1]), set(row[2])

    def taken(self, room_id: str) -> set[int]:
        return set(self._taken.get(room_id, ()))

    def _tombstoned(self, room_id: str) -> bool:
        return bool(self._run("SELECT 1 FROM expired WHERE id = %s", (room_id,), read=True))

    def _remove(self, room_id: str, version: int | None, expired_at: float | None) -> None:
        with self._tx() as conn:
            if version is None:
                cursor = conn.execute("DELETE FROM rooms WHERE id = %s", (room_id,))
            else:  # only the room that was read expired: another process may have touched it since
                cursor = conn.execute("DELETE FROM rooms WHERE id = %s AND version = %s", (room_id, version))
            if expired_at is not None and cursor.rowcount == 1:
                conn.execute(
                    "INSERT INTO expired (id, expired_at) VALUES (%s, %s) "
                    "ON CONFLICT (id) DO UPDATE SET expired_at = excluded.expired_at",
                    (room_id, expired_at),
                )
            conn.execute("DELETE FROM presence WHERE room_id = %s", (room_id,))
            self._notify(conn, room_id)

    def _sweep(self, now: float, cutoff: float) -> list[str]:
        with self._tx() as conn:
            gone = conn.execute(
                "WITH gone AS (DELETE FROM rooms WHERE last_active <= %s RETURNING id) "
                "INSERT INTO expired (id, expired_at) SELECT id, %s FROM gone "
                "ON CONFLICT (id) DO UPDATE SET expired_at = excluded.expired_at RETURNING id",
                (cutoff, now),
            ).fetchall()
            conn.execute("DELETE FROM expired WHERE expired_at <= %s", (now - TOMBSTONE_SECONDS,))
            conn.execute("DELETE FROM uses WHERE minute < %s", (int(now // 60) - 1,))
        return [str(r[0]) for r in gone]

    def _count_use(self, kind: str, address: str, minute: int, limit: int) -> bool:
        if limit < 1:
            return False
        # One statement: of the processes counting at once, the row's lock lets each see the others'.
        return bool(
            self._run(
                "INSERT INTO uses (kind, address, minute, count) VALUES (%s, %s, %s, 1) "
                "ON CONFLICT (kind, address, minute) DO UPDATE SET count = uses.count + 1 "
                "WHERE uses.count < %s RETURNING count",
                (kind, address, minute, limit),
            )
        )

    def count(self) -> int:
        with self._tx() as conn:
            row = conn.execute("SELECT COUNT(*) FROM rooms").fetchone()
        return int(row[0]) if row else 0

    def rows(self) -> Iterator[Row]:
        with self._tx() as conn:
            found = conn.execute("SELECT id, last_active, data, version FROM rooms ORDER BY id").fetchall()
        for room_id, last_active, data, version in found:
            yield str(room_id), float(last_active), str(data), int(version)

    def tombstones(self) -> Iterator[tuple[str, float]]:
        with self._tx() as conn:
            found = conn.execute("SELECT id, expired_at FROM expired ORDER BY id").fetchall()
        for room_id, expired_at in found:
            yield str(room_id), float(expired_at)

    def put_rows(self, rows: list[Row], tombstones: list[tuple[str, float]]) -> int:
        with self._tx() as conn, conn.cursor() as cursor:
            before = conn.execute("SELECT COUNT(*) FROM rooms").fetchone()
            cursor.executemany(
                "INSERT INTO rooms (id, last_active, data, version) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (id) DO NOTHING",
                rows,
            )
            cursor.executemany(
                "INSERT INTO expired (id, expired_at) VALUES (%s, %s) ON CONFLICT (id) DO NOTHING",
                tombstones,
            )
            after = conn.execute("SELECT COUNT(*) FROM rooms").fetchone()
        return int(after[0] if after else 0) - int(before[0] if before else 0)

    # ------------------------------------------------------------- connections

    def _hold(self, room_id: str, seat: int) -> None:
        self._run(
            "WITH held AS (INSERT INTO presence (room_id, seat, backend, started) "
            "SELECT %s, %s, pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid() "
            "ON CONFLICT (room_id, seat) DO UPDATE SET backend = excluded.backend, "
            "started = excluded.started) SELECT pg_notify(%s, %s)",
            (room_id, seat, CHANNEL, f"{self.id} {room_id}"),
        )

    def _hold_again(self, room_id: str, seat: int) -> bool:
        """Hold ``seat`` again after reconnecting, unless a live session of another process holds it
        now; whether this session holds it. One statement, so of two processes reconnecting at once
        only one can take a seat (the other then finds the winner's session alive). A row naming one
        of this process's own sessions is taken back even if that session has not ended yet (a
        dropped connection's server process can outlive it by a moment)."""
        pids, starts = [p for p, _ in self._sessions], [s for _, s in self._sessions]
        return bool(
            self._run(
                "WITH held AS (INSERT INTO presence (room_id, seat, backend, started) "
                "SELECT %s, %s, pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid() "
                "ON CONFLICT (room_id, seat) DO UPDATE SET backend = excluded.backend, "
                "started = excluded.started "
                "WHERE (presence.backend, presence.started) IN "
                "(SELECT * FROM unnest(%s::integer[], %s::timestamptz[])) "
                "OR NOT EXISTS (SELECT 1 FROM pg_stat_activity a "
                "WHERE a.pid = presence.backend AND a.backend_start = presence.started) "
                "RETURNING seat) SELECT pg_notify(%s, %s) FROM held",
                (room_id, seat, pids, starts, CHANNEL, f"{self.id} {room_id}"),
            )
        )

    def hold(self, room_id: str, seat: int) -> None:
        # Counted as held here only once its row names this session (else a read on another thread
        # in between would find it taken); when the database is away, the reconnection holds it.
        try:
            self._hold(room_id, seat)
        finally:
            with self._lock:
                self._held.setdefault(room_id, set()).add(seat)
                self._taken.get(room_id, set()).discard(seat)
                if not self._taken.get(room_id, True):
                    del self._taken[room_id]

    def release(self, room_id: str, seat: int) -> None:
        with self._lock:
            for seats in (self._held, self._taken):
                seats.get(room_id, set()).discard(seat)
                if not seats.get(room_id, True):
                    del seats[room_id]
        self._run(
            "WITH gone AS (DELETE FROM presence WHERE room_id = %s AND seat = %s "
            "AND backend = pg_backend_pid()) SELECT pg_notify(%s, %s)",
            (room_id, seat, CHANNEL, f"{self.id} {room_id}"),
        )


def _shown(url: str) -> str:
    """``url`` without its password (for messages)."""
    head, at, tail = url.rpartition("@")
    if not at:
        return url
    scheme, _, credentials = head.partition("://")
    user = credentials.partition(":")[0]
    return f"{scheme}://{user}@{tail}"


def parse_news(payload: str) -> tuple[str, str, int | None, str | None]:
    """A `CHANNEL` payload: the writer's id, the room's id, and the version and data when given."""
    writer, _, rest = payload.partition(" ")
    room_id, _, rest = rest.partition(" ")
    version, _, data = rest.partition(" ")
    return writer, room_id, int(version) if version.isdigit() else None, data or None


async def listen(
    store: PostgresStore,
    changed: Callable[[str], Awaitable[None]],
    lost: Callable[[], Awaitable[None]],
    back: Callable[[], Awaitable[None]],
    retry_seconds: float = 0.5,
) -> None:
    """Until cancelled: ``changed(room_id)`` for every change another process makes; ``lost()`` once
    when the database goes away, then ``back()`` once it can be reached again (changes meanwhile were
    not announced: ``back`` must refresh every room this process serves)."""
    down = False
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(
                store.url, autocommit=True, connect_timeout=5
            ) as conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                if down:
                    down = False
                    store.drop_connection()  # it was lost too: connect afresh rather than fail once
                    await back()
                async for note in conn.notifies():
                    writer, room_id, version, data = parse_news(note.payload)
                    if writer == store.id:
                        continue
                    if version is not None:
                        store.announced(room_id, version, data)
                    await changed(room_id)
        except (psycopg.OperationalError, psycopg.InterfaceError):
            if not down:
                down = True
                await lost()
            await asyncio.sleep(retry_seconds)
