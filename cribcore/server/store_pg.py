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

Every database call the server makes is awaited on psycopg's asynchronous connections (a pool for the
rooms, one connection for the presence rows, one listening), so none holds the event loop. psycopg 3 and
psycopg-pool are an optional dependency (``pip install 'cribcore[postgres]'``). When the database cannot
be reached, an operation raises `RoomError` with the code ``reconnecting`` and the next one connects
again.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, LiteralString

from .rooms import Room, RoomError
from .store import TOMBSTONE_SECONDS, Row, Store

try:
    import psycopg
    from psycopg_pool import AsyncConnectionPool, PoolTimeout
except ImportError:  # pragma: no cover - depends on the installation
    psycopg = None  # type: ignore[assignment]
    AsyncConnectionPool = None  # type: ignore[assignment,misc]
    PoolTimeout = OSError  # type: ignore[assignment,misc]

__all__ = ["CHANNEL", "POOL_SIZE", "PostgresStore", "listen", "parse_news"]

POOL_SIZE = 8
"""The most connections one process's pool opens: that many rooms' reads and writes in flight at once
(a room's own are one at a time: the server holds its lock)."""

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

# The seats of a room held by this process's current presence session (its pid and start, given).
_MINE = (
    "ARRAY(SELECT p.seat FROM presence p WHERE p.room_id = rooms.id AND p.backend = %s AND p.started = %s)"
)

# Whether this process's presence session (its pid and start, given) is still alive.
_ALIVE = "EXISTS(SELECT 1 FROM pg_stat_activity a WHERE a.pid = %s AND a.backend_start = %s)"

_SCHEMA_LOCK = 0x63726962  # one process creates the tables while another waits

_LOST = (psycopg.OperationalError, psycopg.InterfaceError, PoolTimeout) if psycopg is not None else ()
"""What a lost or unreachable database raises."""

_NO_SESSION = (-1, datetime.fromtimestamp(0).astimezone())


def _reconnecting(exc: BaseException) -> RoomError:
    del exc
    return RoomError("reconnecting", "the room database cannot be reached: reconnecting, try again shortly")


def _off_the_loop(what: str) -> None:
    """Refuse a synchronous database call on a running event loop (it would hold every request)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return
    raise RuntimeError(f"PostgresStore.{what} is synchronous: never call it on the event loop")


class PostgresStore(Store):
    """The rooms of one PostgreSQL database (``url``: ``postgresql://USER@HOST/DB``).

    Every call the server makes is a coroutine over psycopg's asynchronous connections: the rooms'
    reads and writes take a connection of a pool (`POOL_SIZE`), so no request waits for another's
    round trip; the seats held by this process's connections are rows naming one more connection of
    its own, the presence session (`hold`, `release`), which lives as long as the process is
    connected. The pool is opened on the event loop that serves (`open`, called by the application's
    start-up, or by the first call). Only the moving of rooms between databases (`rows`,
    `put_rows`, ...) is synchronous, on a connection of its own, and refuses to run on an event loop.
    """

    shared = True

    def __init__(self, url: str, cached: int = 2000, pool_size: int = POOL_SIZE) -> None:
        super().__init__(cached)
        if psycopg is None or AsyncConnectionPool is None:
            raise OSError(
                "a PostgreSQL --db needs psycopg and psycopg-pool: pip install 'cribcore[postgres]'"
            )
        self.url = url
        self.id = uuid.uuid4().hex
        self._pool_size = pool_size
        self._pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] | None = None
        self._presence: psycopg.AsyncConnection[Any] | None = None
        self._admin: psycopg.Connection[Any] | None = None
        self._held: dict[str, set[int]] = {}
        """The seats of each room this process's connections hold."""
        self._taken: dict[str, set[int]] = {}
        self._sessions: list[tuple[int, datetime]] = []
        """This process's presence sessions whose rows may still name its seats: the current one
        (last), and the earlier ones until a reconnection has held every seat again."""
        self._opening = asyncio.Lock()
        self._presence_lock = asyncio.Lock()
        self._schema_ready = False
        self._closed = False
        """Closed by `aclose`: it is not opened again."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            # Started outside an event loop (`cribbage serve`): an unreachable database is said at
            # once, in one line, and the tables are made before anything is served.
            try:
                with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
                    self._make_tables(conn)
                self._schema_ready = True
            except psycopg.Error:
                raise OSError(f"{_shown(url)}: cannot reach the room database") from None

    @staticmethod
    def _make_tables(conn: psycopg.Connection[Any]) -> None:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            conn.execute(_SCHEMA)

    # ------------------------------------------------------------- connections to the database

    def _opened(self) -> bool:
        return self._pool is not None

    async def open(self) -> None:
        if self._pool is not None:
            return
        async with self._opening:
            if self._opened():  # by another call while this one waited
                return
            if self._closed:
                # A call that outlived the server's shutdown (`aclose`) connects nothing again: a
                # pool opened then would outlive the event loop's last tasks.
                raise RoomError("reconnecting", "the server is shutting down: try again shortly")
            try:
                if not self._schema_ready:
                    async with (
                        await psycopg.AsyncConnection.connect(
                            self.url, autocommit=True, connect_timeout=5
                        ) as conn,
                        conn.transaction(),
                    ):
                        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                        await conn.execute(_SCHEMA)
                    self._schema_ready = True
                pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] = AsyncConnectionPool(
                    self.url,
                    min_size=1,
                    max_size=self._pool_size,
                    kwargs={"autocommit": True, "connect_timeout": 5},
                    timeout=5,
                    open=False,
                )
                await pool.open(wait=True, timeout=5)
            except (psycopg.Error, PoolTimeout) as exc:
                raise _reconnecting(exc) from None
            self._pool = pool

    async def _session(self) -> tuple[int, datetime]:
        """This process's presence session (pid and start), connecting it again when it was lost."""
        conn = self._presence
        if conn is not None and not conn.closed and self._sessions:
            return self._sessions[-1]
        async with self._presence_lock:
            await self._presence_conn()
        return self._sessions[-1] if self._sessions else _NO_SESSION

    async def _presence_conn(self) -> psycopg.AsyncConnection[Any]:
        """The presence connection (the caller holds ``_presence_lock``), made again when it was lost:
        then this process's seats are held again where no other process took them meanwhile (those
        it did are `taken`)."""
        if self._presence is not None and not self._presence.closed:
            return self._presence
        await self.open()
        try:
            conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True, connect_timeout=5)
            cursor = await conn.execute(
                "SELECT pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()"
            )
            session = await cursor.fetchone()
        except psycopg.Error as exc:
            raise _reconnecting(exc) from None
        self._presence = conn
        if session is not None:
            self._sessions.append((int(session[0]), session[1]))
        # Held seats named an old session: name this one where that is still ours to do (and tell the
        # other processes); a seat another process took meanwhile is its connection's now.
        for room_id, seats in sorted(self._held.items()):
            for seat in sorted(seats):
                if not await self._hold_again(conn, room_id, seat):
                    self._taken.setdefault(room_id, set()).add(seat)
        self._sessions = self._sessions[-1:]  # every row of an older session is this one's or not ours
        return conn

    async def _on_presence(self, sql: LiteralString, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """One statement on the presence connection; its rows."""
        async with self._presence_lock:
            conn = await self._presence_conn()
            try:
                cursor = await conn.execute(sql, params)
                return await cursor.fetchall() if cursor.description is not None else []
            except _LOST as exc:
                await conn.close()
                raise _reconnecting(exc) from None

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        await self.open()
        assert self._pool is not None
        try:
            async with self._pool.connection() as conn, conn.transaction():
                yield conn
        except _LOST as exc:
            raise _reconnecting(exc) from None

    async def _run(
        self, sql: LiteralString, params: tuple[Any, ...], *, read: bool = False
    ) -> list[tuple[Any, ...]]:
        """One statement, its own transaction, in one round trip on a connection of the pool; its
        rows. (A move costs one of these to write its room, and one to read it first unless the room
        in memory is known current: `Store.get`.) A ``read`` that fails
        is tried once more on another connection: after PostgreSQL restarts, the pool's connections
        are found dead one by one (a write is not repeated: it may have been applied)."""
        if self._pool is None:
            await self.open()
        assert self._pool is not None
        for again in (read, False):
            try:
                async with self._pool.connection() as conn:
                    cursor = await conn.execute(sql, params)
                    return await cursor.fetchall() if cursor.description is not None else []
            except _LOST as exc:
                if not again:
                    raise _reconnecting(exc) from None
                await self._pool.check()  # the pool's other connections may be as dead as this one
        raise AssertionError("unreachable")

    async def drop_connection(self) -> None:
        """After the database was away: close the presence connection (the next operation connects
        it again and holds this process's seats again) and drop the pool's dead connections."""
        async with self._presence_lock:
            if self._presence is not None:
                await self._presence.close()
                self._presence = None
        if self._pool is not None:
            await self._pool.check()

    async def aclose(self) -> None:
        self._closed = True
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
        if self._presence is not None:
            await self._presence.close()
            self._presence = None
        self.close()

    # ------------------------------------------------------------- the rows

    async def _insert(self, room: Room, text: str) -> None:
        await self._run(
            "INSERT INTO rooms (id, last_active, data, version) VALUES (%s, %s, %s, 1)",
            (room.id, room.last_active, text),
        )

    async def _update(self, room: Room, text: str, version: int) -> bool:
        # The change and its announcement in one statement (so one transaction): announced only if
        # written, and delivered when it commits, in the order of the commits.
        # The row goes to the database once: the announcement takes it from the written row.
        news = f"{self.id} {room.id} {version + 1}"
        written = await self._run(
            "WITH written AS (UPDATE rooms SET last_active = %s, data = %s, version = version + 1 "
            "WHERE id = %s AND version = %s RETURNING data) SELECT pg_notify(%s, CASE WHEN "
            f"octet_length(data) <= {_ANNOUNCED_BYTES} THEN %s || ' ' || data ELSE %s END) FROM written",
            (room.last_active, text, room.id, version, CHANNEL, news, news),
        )
        return len(written) == 1

    async def _load(self, room_id: str, known: int | None) -> tuple[str | None, int, set[int]] | None:
        for again in (True, False):
            session = await self._session()
            rows = await self._run(
                f"SELECT CASE WHEN version = %s THEN NULL ELSE data END, version, {_HELD}, {_MINE}, "
                f"{_ALIVE} FROM rooms WHERE id = %s",
                (known if known is not None else -1, *session, *session, room_id),
                read=True,
            )
            if not again or not rows or rows[0][4]:
                break
            # The presence session ended (PostgreSQL restarted, say) before anyone noticed: connect it
            # again, which holds this process's seats again, and read once more.
            async with self._presence_lock:
                if self._presence is not None and self._sessions and self._sessions[-1] == session:
                    await self._presence.close()
                    self._presence = None
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

    def _held_here(self, room_id: str) -> set[int]:
        return set(self._held.get(room_id, ()))

    async def _tombstoned(self, room_id: str) -> bool:
        return bool(await self._run("SELECT 1 FROM expired WHERE id = %s", (room_id,), read=True))

    async def _remove(self, room_id: str, version: int | None, expired_at: float | None) -> None:
        async with self._tx() as conn:
            if version is None:
                cursor = await conn.execute("DELETE FROM rooms WHERE id = %s", (room_id,))
            else:  # only the room that was read expired: another process may have touched it since
                cursor = await conn.execute(
                    "DELETE FROM rooms WHERE id = %s AND version = %s", (room_id, version)
                )
            if expired_at is not None and cursor.rowcount == 1:
                await conn.execute(
                    "INSERT INTO expired (id, expired_at) VALUES (%s, %s) "
                    "ON CONFLICT (id) DO UPDATE SET expired_at = excluded.expired_at",
                    (room_id, expired_at),
                )
            await conn.execute("DELETE FROM presence WHERE room_id = %s", (room_id,))
            await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{self.id} {room_id}"))

    async def _sweep(self, now: float, cutoff: float) -> list[str]:
        async with self._tx() as conn:
            cursor = await conn.execute(
                "WITH gone AS (DELETE FROM rooms WHERE last_active <= %s RETURNING id) "
                "INSERT INTO expired (id, expired_at) SELECT id, %s FROM gone "
                "ON CONFLICT (id) DO UPDATE SET expired_at = excluded.expired_at RETURNING id",
                (cutoff, now),
            )
            gone = await cursor.fetchall()
            await conn.execute("DELETE FROM expired WHERE expired_at <= %s", (now - TOMBSTONE_SECONDS,))
            await conn.execute("DELETE FROM uses WHERE minute < %s", (int(now // 60) - 1,))
        return [str(r[0]) for r in gone]

    async def _count_use(self, kind: str, address: str, minute: int, limit: int) -> bool:
        if limit < 1:
            return False
        # One statement: of the processes counting at once, the row's lock lets each see the others'.
        return bool(
            await self._run(
                "INSERT INTO uses (kind, address, minute, count) VALUES (%s, %s, %s, 1) "
                "ON CONFLICT (kind, address, minute) DO UPDATE SET count = uses.count + 1 "
                "WHERE uses.count < %s RETURNING count",
                (kind, address, minute, limit),
            )
        )

    # ------------------------------------------------------------- moving rooms (synchronous)

    def _admin_db(self, what: str) -> psycopg.Connection[Any]:
        _off_the_loop(what)
        if self._admin is None or self._admin.closed:
            try:
                self._admin = psycopg.connect(self.url, autocommit=True, connect_timeout=5)
            except psycopg.Error:
                raise OSError(f"{_shown(self.url)}: cannot reach the room database") from None
        return self._admin

    def close(self) -> None:
        if self._admin is not None:
            self._admin.close()
            self._admin = None

    def count(self) -> int:
        row = self._admin_db("count").execute("SELECT COUNT(*) FROM rooms").fetchone()
        return int(row[0]) if row else 0

    def rows(self) -> Iterator[Row]:
        found = (
            self._admin_db("rows")
            .execute("SELECT id, last_active, data, version FROM rooms ORDER BY id")
            .fetchall()
        )
        for room_id, last_active, data, version in found:
            yield str(room_id), float(last_active), str(data), int(version)

    def tombstones(self) -> Iterator[tuple[str, float]]:
        found = (
            self._admin_db("tombstones").execute("SELECT id, expired_at FROM expired ORDER BY id").fetchall()
        )
        for room_id, expired_at in found:
            yield str(room_id), float(expired_at)

    def put_rows(self, rows: list[Row], tombstones: list[tuple[str, float]]) -> int:
        conn = self._admin_db("put_rows")
        with conn.transaction(), conn.cursor() as cursor:
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

    async def _hold_again(self, conn: psycopg.AsyncConnection[Any], room_id: str, seat: int) -> bool:
        """Hold ``seat`` again after reconnecting (on the new presence connection ``conn``), unless a
        live session of another process holds it now; whether this session holds it. One statement,
        so of two processes reconnecting at once only one can take a seat (the other then finds the
        winner's session alive). A row naming one of this process's own sessions is taken back even
        if that session has not ended yet (a dropped connection's server process can outlive it by a
        moment)."""
        pids, starts = [p for p, _ in self._sessions], [s for _, s in self._sessions]
        try:
            cursor = await conn.execute(
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
            return bool(await cursor.fetchall())
        except _LOST as exc:
            await conn.close()
            self._presence = None
            raise _reconnecting(exc) from None

    async def hold(self, room_id: str, seat: int) -> None:
        # Counted as held here only once its row names this session (else a read in between would
        # find it taken); when the database is away, the reconnection holds it.
        try:
            await self._on_presence(
                "WITH held AS (INSERT INTO presence (room_id, seat, backend, started) "
                "SELECT %s, %s, pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid() "
                "ON CONFLICT (room_id, seat) DO UPDATE SET backend = excluded.backend, "
                "started = excluded.started) SELECT pg_notify(%s, %s)",
                (room_id, seat, CHANNEL, f"{self.id} {room_id}"),
            )
        finally:
            self._held.setdefault(room_id, set()).add(seat)
            self._taken.get(room_id, set()).discard(seat)
            if not self._taken.get(room_id, True):
                del self._taken[room_id]

    async def release(self, room_id: str, seat: int) -> None:
        for seats in (self._held, self._taken):
            seats.get(room_id, set()).discard(seat)
            if not seats.get(room_id, True):
                del seats[room_id]
        await self._on_presence(
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
                store.listening(True)
                if down:
                    down = False
                    await store.drop_connection()  # it was lost too: connect afresh rather than fail once
                    await back()
                async for note in conn.notifies():
                    writer, room_id, version, data = parse_news(note.payload)
                    if writer == store.id:
                        continue
                    store.stale(room_id, seats=version is None)
                    if version is not None:
                        store.announced(room_id, version, data)
                    await changed(room_id)
        except (psycopg.OperationalError, psycopg.InterfaceError):
            store.listening(False)
            if not down:
                down = True
                await lost()
            await asyncio.sleep(retry_seconds)
        except BaseException:
            store.listening(False)  # cancelled (the server stops): nothing is announced any more
            raise
