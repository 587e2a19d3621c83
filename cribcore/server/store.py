"""Where rooms are kept, so a restarted server continues every room where it was.

`Store` is the whole interface the server uses (add, get, save, delete, sweep, the per-address
counts and the seats held by connections), one asynchronous interface whatever the database: the
server awaits it and no database call holds the event loop. It keeps the rooms it has read in memory
and leaves the rows to a backend: `RoomStore` here, a SQLite file (the default, one server process:
`lock_database` keeps a second one off the file), and ``store_pg.PostgresStore`` (several processes
and hosts on one PostgreSQL). This module imports no backend but its own: ``stores.open_store`` picks
one from the ``--db`` value.

One row per room: its id, when it was last active (indexed, for expiry), its version and its
`Room.to_json` as JSON text. Every change is written back with `save` in its own transaction, and only
over the version it was read at (compare-and-swap), so of two changes made from one version exactly one
is applied, whichever process made them (a crash loses at most the message being handled, never a
half-written room). An expired room leaves a tombstone for `TOMBSTONE_SECONDS`, so that it is answered
``expired`` rather than ``no-room``.

The moving of rooms between databases (`rows`, `tombstones`, `put_rows`, `count`, `close`) is
synchronous: ``cribbage serve --migrate-from`` runs it with no server and no event loop.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import sqlite3
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, ClassVar, TypeVar

from .catchup import catch_up
from .rooms import Room, RoomError

__all__ = [
    "TOMBSTONE_SECONDS",
    "DatabaseLock",
    "RoomStore",
    "Store",
    "is_postgres",
    "lock_database",
]

_T = TypeVar("_T")

TOMBSTONE_SECONDS = 30 * 24 * 3600.0
"""How long an expired room is remembered as expired (then it is answered as no room at all)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    last_active REAL NOT NULL,
    data TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS rooms_last_active ON rooms (last_active);
CREATE TABLE IF NOT EXISTS expired (
    id TEXT PRIMARY KEY,
    expired_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS uses (
    kind TEXT NOT NULL,
    address TEXT NOT NULL,
    minute INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (kind, address, minute)
);
"""

Row = tuple[str, float, str, int]
"""A stored room as it is moved between databases: id, last active, data, version."""


def is_postgres(db: str | Path) -> bool:
    """Whether ``db`` names a PostgreSQL database (a ``postgresql://`` or ``postgres://`` URL)."""
    return str(db).startswith(("postgresql://", "postgres://"))


def _expired() -> RoomError:
    return RoomError("expired", "this room expired after 7 days without play")


class Store:
    """The rooms of one database, with at most ``cached`` of them kept in memory: beyond that the least
    recently used room that nobody is connected to is dropped from memory (it stays in the database and
    is read back when asked for).

    A subclass provides the rows (the ``_``-methods). When ``shared`` (other processes write the same
    rows), `get` asks the database for the row's version and, when it moved on, brings the room in
    memory up to it by the new actions only (`catchup.catch_up`; another game is read whole), unless
    every other process's changes are announced to this one (`listening`) and none of this room has
    been since it was read (`stale`): then the room in memory is the database's, but for a change whose
    announcement is still on its way, which the write's compare-and-swap refuses (the caller tries
    again on the room read afresh). Otherwise the process owns the database and its memory is the
    truth (a write still goes only over the version it read).
    """

    shared: ClassVar[bool] = False

    def __init__(self, cached: int) -> None:
        self._rooms: OrderedDict[str, Room] = OrderedDict()
        self._versions: dict[str, int] = {}
        self._cached = cached
        self.rebuilt = 0
        """How many rooms were read whole from their rows (replaying each game's record)."""
        self.caught_up = 0
        """How many actions of rooms moved on elsewhere were applied to the rooms in memory instead."""
        self.reads = 0
        """How many times a room's row was read from the database."""
        self._announced: dict[str, tuple[int, str | None]] = {}
        self._listening = False
        """Whether every change another process makes is being announced to this one (`listening`)."""
        self._news: dict[str, int] = {}
        """How many announcements of each room in memory have arrived (`stale`)."""
        self._all_news = 0
        """How many announcements of any room have arrived."""
        self._fresh: set[str] = set()
        """The rooms in memory that no change elsewhere has been announced of since they were read:
        a shared store's `get` answers them without reading the database (see `get`)."""
        self._elsewhere: dict[str, set[int]] = {}
        """The seats of each fresh room held by connections to other processes, as last read."""

    # ------------------------------------------------------------- the rows (per database)

    async def _insert(self, room: Room, text: str) -> None:
        raise NotImplementedError

    async def _update(self, room: Room, text: str, version: int) -> bool:
        """Write the row over ``version``; whether it was still that version (and so was written)."""
        raise NotImplementedError

    async def _load(self, room_id: str, known: int | None) -> tuple[str | None, int, set[int]] | None:
        """The row's data (``None`` when its version is still ``known``), version and the seats held by
        live connections anywhere (an empty set where the database does not know them); ``None`` when
        there is no row."""
        raise NotImplementedError

    async def _tombstoned(self, room_id: str) -> bool:
        raise NotImplementedError

    async def _remove(self, room_id: str, version: int | None, expired_at: float | None) -> None:
        """Delete the row (only at ``version`` when given), leaving a tombstone with ``expired_at``."""
        raise NotImplementedError

    async def sweep(self, now: float, max_age: float) -> int:
        """Delete every room inactive for ``max_age`` seconds, leaving tombstones, and forget tombstones
        older than `TOMBSTONE_SECONDS`; returns how many rooms. Reads only the rows' ``last_active``
        column, never a room's contents, and is safe from every process at once."""
        gone = await self._sweep(now, now - max_age)
        for room_id in gone:
            self._forget(room_id)
        return len(gone)

    async def _sweep(self, now: float, cutoff: float) -> list[str]:
        raise NotImplementedError

    async def count_use(self, kind: str, address: str, now: float, limit: int) -> bool:
        """Count one more ``kind`` of request (``"room"``, ``"state"``, ``"review"``) from the client
        ``address`` in the clock minute of ``now``, unless ``limit`` are counted there already; whether
        it was counted (allowed). The count is the database's, so every process serving it counts
        against one limit. Counts older than the minute before are forgotten by `sweep`."""
        return await self._count_use(kind, address, int(now // 60), limit)

    async def _count_use(self, kind: str, address: str, minute: int, limit: int) -> bool:
        raise NotImplementedError

    def count(self) -> int:
        raise NotImplementedError

    def rows(self) -> Iterator[Row]:
        """Every stored room's row (for moving rooms to another database)."""
        raise NotImplementedError

    def tombstones(self) -> Iterator[tuple[str, float]]:
        raise NotImplementedError

    def put_rows(self, rows: list[Row], tombstones: list[tuple[str, float]]) -> int:
        """Store rows moved from another database, in one transaction, keeping any room already here;
        returns how many were added."""
        raise NotImplementedError

    def close(self) -> None:
        """Close the database (the migration's, and a store never opened on an event loop)."""
        raise NotImplementedError

    async def open(self) -> None:
        """Connect (idempotent): before the first request, on the event loop that will serve them.
        Every operation opens the store when it has not been."""

    async def aclose(self) -> None:
        """Close the database, on the event loop that served it."""
        self.close()

    # ------------------------------------------------------------- connections (shared stores)

    def _held_here(self, room_id: str) -> set[int]:
        """The seats of ``room_id`` held by this process's connections (for a shared store)."""
        del room_id
        return set()

    async def hold(self, room_id: str, seat: int) -> None:
        """A connection of this process holds ``seat`` (other processes count it as connected)."""

    async def release(self, room_id: str, seat: int) -> None:
        """This process's connection for ``seat`` has gone."""

    def listening(self, on: bool) -> None:
        """Whether every change other processes make to the rooms (their rows and the seats their
        connections hold) is announced to this process from now on (`stale`, `announced`): while it
        is, a room in memory that no announcement has touched since it was read is current, and `get`
        answers it without reading the database. Turned off (the announcements were lost), every room
        is read again."""
        self._listening = on
        self._fresh.clear()

    def stale(self, room_id: str, *, seats: bool = True) -> None:
        """Another process changed ``room_id``: the next `get` reads it from the database (or `told`
        brings it up to the announced row). ``seats``: the seats its connections hold may have changed
        too (only a written row's announcement leaves them as they were)."""
        self._fresh.discard(room_id)
        if seats:
            self._elsewhere.pop(room_id, None)
            self._announced.pop(room_id, None)
        self._all_news += 1
        if room_id in self._rooms:
            self._news[room_id] = self._news.get(room_id, 0) + 1

    def fresh(self, room_id: str) -> bool:
        """Whether `get` would answer ``room_id`` from memory without reading the database."""
        return room_id in self._fresh

    def _still_fresh(self, room_id: str, news: tuple[int, int], elsewhere: set[int]) -> None:
        """After reading ``room_id``: fresh, unless an announcement of it arrived meanwhile (``news``:
        how many of it, or of any room when it was not in memory, had arrived when the read began) or
        nothing is being announced."""
        count, total = news
        if not self._listening:
            return
        if (self._news.get(room_id, 0) == count) if count >= 0 else (self._all_news == total):
            self._fresh.add(room_id)
            self._elsewhere[room_id] = elsewhere

    def announced(self, room_id: str, version: int, data: str | None) -> None:
        """Another process wrote ``room_id`` at ``version`` (its row's ``data``, when it came with
        the announcement): for the next `told`."""
        if room_id in self._rooms:  # (of a room not in memory it is read whole anyway)
            self._announced[room_id] = (version, data)

    def told(self, room_id: str) -> Room | None:
        """The room in memory brought up to its last `announced` version without reading the
        database, when that is possible (it is in memory, and the announcement carried the next
        version's row or one it already has); otherwise ``None``: `get` it. Only for sending the
        change to the seats: a change is made over a `get`. Never when the seats held elsewhere may
        have changed since the room was read (`stale`): the seats' connections are read then."""
        news = self._announced.pop(room_id, None)
        room = self._rooms.get(room_id)
        known = self._versions.get(room_id)
        if news is None or room is None or known is None or room_id not in self._elsewhere:
            return None
        version, data = news
        if version <= known:
            return room
        if version != known + 1 or data is None:
            return None
        applied = catch_up(room, data)
        if applied is None:
            self._forget(room_id)
            return None
        self.caught_up += applied
        self._versions[room_id] = version
        # Announcements are handled one at a time, in the order of their commits: none of this room
        # came after this one yet, and the seats held elsewhere are as they were.
        self._still_fresh(room_id, (self._news.get(room_id, 0), 0), self._elsewhere[room_id])
        return room

    def taken(self, room_id: str) -> set[int]:
        """The seats of ``room_id`` this process holds that a connection to another process has taken
        since (as of the room's last `get`): this process's connections for them are replaced."""
        del room_id
        return set()

    # ------------------------------------------------------------- the interface

    async def add(self, room: Room) -> None:
        """Store a new room."""
        await self._insert(room, room.to_text())
        self._rooms[room.id] = room
        self._versions[room.id] = 1
        self._forget_idle()

    def _forget_idle(self) -> None:
        if len(self._rooms) <= self._cached:
            return
        for room_id in [r for r, room in self._rooms.items() if not room.connected]:
            self._forget(room_id)
            if len(self._rooms) <= self._cached:
                return

    def _forget(self, room_id: str) -> None:
        self._rooms.pop(room_id, None)
        self._versions.pop(room_id, None)
        self._announced.pop(room_id, None)
        self._news.pop(room_id, None)
        self._fresh.discard(room_id)
        self._elsewhere.pop(room_id, None)

    async def save(self, room: Room) -> None:
        """Write ``room`` as it is now (one transaction), over the version it was read at.

        Raises `RoomError` (``conflict``) when the stored room changed since (another server wrote it):
        nothing is written, and the room is read afresh next time. Whatever else fails (the database
        is unreachable, say), the room is forgotten too: its change was not stored.
        """
        version = self._versions.get(room.id, 0)
        try:
            written = await self._update(room, room.to_text(), version)
        except BaseException:
            self._forget(room.id)
            raise
        if not written:
            self._forget(room.id)
            raise RoomError("conflict", "this room was changed elsewhere at the same time: try again")
        self._versions[room.id] = version + 1

    async def get(self, room_id: str, now: float) -> Room:
        """The room ``room_id``. Raises `RoomError`: ``no-room`` when there is none (or its row cannot be
        read back: that room only), ``expired`` when it has been inactive for seven days or was swept.

        From a shared store the room's ``connected`` is the seats held anywhere."""
        room = self._rooms.get(room_id)
        if room is not None and room_id in self._fresh:
            # Nothing announced of it since it was read: as the database has it (a change announced
            # a moment from now is caught by the write's compare-and-swap, or sent when it arrives).
            room.connected = set(self._elsewhere.get(room_id, ()))
        elif room is None or self.shared:
            known = self._versions.get(room_id) if room is not None else None
            news = (self._news.get(room_id, 0) if room is not None else -1, self._all_news)
            row = await self._load(room_id, known)
            self.reads += 1
            if row is None:
                self._forget(room_id)
                if await self._tombstoned(room_id):
                    raise _expired()
                raise RoomError("no-room", "there is no such room (it may have expired)")
            data, version, held = row
            if data is not None or room is None:
                if data is None:  # pragma: no cover - a version is only known for a cached room
                    raise RoomError("no-room", "there is no such room (it may have expired)")
                # Moved on by another process: its new actions only, or (another game, say) all again.
                applied = catch_up(room, data) if room is not None else None
                if room is None or applied is None:
                    self._forget(room_id)
                    room = Room.from_json(data)
                    self.rebuilt += 1
                else:
                    self.caught_up += applied
                if room.id != room_id:
                    raise RoomError(
                        "no-room", "this room's stored game cannot be read back (id: not its row's)"
                    )
                self._rooms[room_id] = room
                self._versions[room_id] = version
                self._forget_idle()
            if self.shared:
                room.connected = held
                self._still_fresh(room_id, news, held - self._held_here(room_id))
        self._rooms.move_to_end(room_id)
        if room.expired(now):
            read_at = self._versions.get(room_id)
            self._forget(room_id)
            await self._remove(room_id, read_at, now)
            raise _expired()
        return room

    def forget(self, room_id: str) -> None:
        """Drop the room from memory (a change to it failed half made): the next `get` reads it back
        from the database, as it was last saved."""
        self._forget(room_id)

    async def delete(self, room_id: str, *, expired_at: float | None = None) -> None:
        """Delete a room; with ``expired_at``, leave its tombstone."""
        self._forget(room_id)
        await self._remove(room_id, None, expired_at)


class RoomStore(Store):
    """The rooms of one SQLite file (``":memory:"`` for none), for one server process.

    Its database calls run in one worker thread of its own (`_call`), one at a time, so the event loop
    never waits on the file (a write that syncs the disk, a checkpoint of the log, a lock held by a
    copy being taken). The thread and not an asynchronous SQLite library: such a library is itself a
    thread around the same module, and a move costs one call (its room is read from memory)."""

    def __init__(self, path: str | Path, cached: int = 2000) -> None:
        super().__init__(cached)
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cribcore-sqlite")
        self._closed = False
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(_SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(rooms)")}
            if "version" not in columns:  # a database from before versions
                self._db.execute("ALTER TABLE rooms ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
        except sqlite3.Error as exc:
            raise OSError(f"{path}: cannot open the room database ({exc})") from None

    def close(self) -> None:
        self._closed = True
        self._worker.shutdown(wait=True)
        self._db.close()

    async def aclose(self) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self.close)

    async def _call(self, call: Callable[..., _T], *args: object) -> _T:
        """``call(*args)`` in the store's worker thread (so one at a time, and never on the loop)."""
        if self._closed:  # a call that outlived the server's shutdown
            raise RoomError("reconnecting", "the server is shutting down: try again shortly")
        return await asyncio.get_running_loop().run_in_executor(self._worker, call, *args)

    async def _insert(self, room: Room, text: str) -> None:
        await self._call(self._insert_now, room.id, room.last_active, text)

    async def _update(self, room: Room, text: str, version: int) -> bool:
        return await self._call(self._update_now, room.id, room.last_active, text, version)

    async def _load(self, room_id: str, known: int | None) -> tuple[str | None, int, set[int]] | None:
        return await self._call(self._load_now, room_id, known)

    async def _tombstoned(self, room_id: str) -> bool:
        return await self._call(self._tombstoned_now, room_id)

    async def _remove(self, room_id: str, version: int | None, expired_at: float | None) -> None:
        await self._call(self._remove_now, room_id, version, expired_at)

    async def _sweep(self, now: float, cutoff: float) -> list[str]:
        return await self._call(self._sweep_now, now, cutoff)

    async def _count_use(self, kind: str, address: str, minute: int, limit: int) -> bool:
        return await self._call(self._count_use_now, kind, address, minute, limit)

    def _insert_now(self, room_id: str, last_active: float, text: str) -> None:
        with self._db:
            self._db.execute(
                "INSERT INTO rooms (id, last_active, data, version) VALUES (?, ?, ?, 1)",
                (room_id, last_active, text),
            )

    def _update_now(self, room_id: str, last_active: float, text: str, version: int) -> bool:
        with self._db:
            cursor = self._db.execute(
                "UPDATE rooms SET last_active = ?, data = ?, version = version + 1 "
                "WHERE id = ? AND version = ?",
                (last_active, text, room_id, version),
            )
        return cursor.rowcount == 1

    def _load_now(self, room_id: str, known: int | None) -> tuple[str | None, int, set[int]] | None:
        row = self._db.execute("SELECT data, version FROM rooms WHERE id = ?", (room_id,)).fetchone()
        if row is None:
            return None
        return (None if known == int(row[1]) else str(row[0])), int(row[1]), set()

    def _tombstoned_now(self, room_id: str) -> bool:
        return self._db.execute("SELECT 1 FROM expired WHERE id = ?", (room_id,)).fetchone() is not None

    def _remove_now(self, room_id: str, version: int | None, expired_at: float | None) -> None:
        del version  # one process owns the file: what it read is still the row
        with self._db:
            self._db.execute("DELETE FROM rooms WHERE id = ?", (room_id,))
            if expired_at is not None:
                self._db.execute(
                    "INSERT OR REPLACE INTO expired (id, expired_at) VALUES (?, ?)", (room_id, expired_at)
                )

    def _sweep_now(self, now: float, cutoff: float) -> list[str]:
        with self._db:
            gone = [r for (r,) in self._db.execute("SELECT id FROM rooms WHERE last_active <= ?", (cutoff,))]
            self._db.execute(
                "INSERT OR REPLACE INTO expired (id, expired_at) "
                "SELECT id, ? FROM rooms WHERE last_active <= ?",
                (now, cutoff),
            )
            self._db.execute("DELETE FROM rooms WHERE last_active <= ?", (cutoff,))
            self._db.execute("DELETE FROM expired WHERE expired_at <= ?", (now - TOMBSTONE_SECONDS,))
            self._db.execute("DELETE FROM uses WHERE minute < ?", (int(now // 60) - 1,))
        return gone

    def _count_use_now(self, kind: str, address: str, minute: int, limit: int) -> bool:
        if limit < 1:
            return False
        with self._db:
            row = self._db.execute(
                "INSERT INTO uses (kind, address, minute, count) VALUES (?, ?, ?, 1) "
                "ON CONFLICT (kind, address, minute) DO UPDATE SET count = count + 1 WHERE count < ? "
                "RETURNING count",
                (kind, address, minute, limit),
            ).fetchone()
        return row is not None

    def count(self) -> int:
        row = self._db.execute("SELECT COUNT(*) FROM rooms").fetchone()
        return int(row[0])

    def rows(self) -> Iterator[Row]:
        for room_id, last_active, data, version in self._db.execute(
            "SELECT id, last_active, data, version FROM rooms ORDER BY id"
        ):
            yield str(room_id), float(last_active), str(data), int(version)

    def tombstones(self) -> Iterator[tuple[str, float]]:
        for room_id, expired_at in self._db.execute("SELECT id, expired_at FROM expired ORDER BY id"):
            yield str(room_id), float(expired_at)

    def put_rows(self, rows: list[Row], tombstones: list[tuple[str, float]]) -> int:
        with self._db:
            before = self.count()
            self._db.executemany(
                "INSERT OR IGNORE INTO rooms (id, last_active, data, version) VALUES (?, ?, ?, ?)", rows
            )
            self._db.executemany("INSERT OR IGNORE INTO expired (id, expired_at) VALUES (?, ?)", tombstones)
            return self.count() - before


class DatabaseLock:
    """An exclusive lock on a database file, held by one server process until `release` (or its end:
    the system drops the lock of a process that dies, even by ``kill -9``, so a lock is never stale)."""

    def __init__(self, handle: IO[str]) -> None:
        self._handle = handle

    def release(self) -> None:
        self._handle.close()


def lock_database(path: str | Path) -> DatabaseLock | None:
    """Lock the database at ``path`` for this process (``None`` for ``":memory:"``, which is its own).

    Raises `OSError` with one line when another process holds it: two servers on one database would
    each accept moves the other does not see.
    """
    if str(path) == ":memory:":
        return None
    lock_path = Path(f"{path}.lock")
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    handle = lock_path.open("a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip()
        handle.close()
        who = f" (process {holder})" if holder.isdigit() else ""
        raise OSError(f"{path}: another cribbage server is using this room database{who}") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return DatabaseLock(handle)
