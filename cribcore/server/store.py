"""Rooms kept in SQLite, so a restarted server continues every room where it was.

One row per room: its id, when it was last active (indexed, for expiry), its version and its
`Room.to_json` as JSON text. Every change is written back with `save` in its own transaction, and only
over the version it was read at, so a change is applied at most once even if two stores share the
database (a crash loses at most the message being handled, never a half-written room). An expired room
leaves a tombstone for `TOMBSTONE_SECONDS`, so that it is answered ``expired`` rather than ``no-room``.

`RoomStore` is the whole interface the server uses (add, get, save, delete, sweep): another database
can stand behind it. `lock_database` keeps a second server process off a database file.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from collections import OrderedDict
from pathlib import Path
from typing import IO

from .rooms import Room, RoomError

__all__ = ["TOMBSTONE_SECONDS", "DatabaseLock", "RoomStore", "lock_database"]

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
"""


def _expired() -> RoomError:
    return RoomError("expired", "this room expired after 7 days without play")


class RoomStore:
    """The rooms of one database file (``":memory:"`` for none).

    At most ``cached`` rooms are kept in memory; beyond that the least recently used room that nobody
    is connected to is dropped from memory (it stays in the database and is read back when asked for).
    """

    def __init__(self, path: str | Path, cached: int = 2000) -> None:
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
        self._rooms: OrderedDict[str, Room] = OrderedDict()
        self._versions: dict[str, int] = {}
        self._cached = cached

    def close(self) -> None:
        self._db.close()

    def add(self, room: Room) -> None:
        """Store a new room."""
        with self._db:
            self._db.execute(
                "INSERT INTO rooms (id, last_active, data, version) VALUES (?, ?, ?, 1)",
                (room.id, room.last_active, room.to_text()),
            )
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

    def save(self, room: Room) -> None:
        """Write ``room`` as it is now (one transaction), over the version it was read at.

        Raises `RoomError` (``conflict``) when the stored room changed since (another server wrote it):
        nothing is written, and the room is read afresh next time.
        """
        version = self._versions.get(room.id, 0)
        with self._db:
            cursor = self._db.execute(
                "UPDATE rooms SET last_active = ?, data = ?, version = version + 1 "
                "WHERE id = ? AND version = ?",
                (room.last_active, room.to_text(), room.id, version),
            )
        if cursor.rowcount != 1:
            self._forget(room.id)
            raise RoomError("conflict", "this room was changed elsewhere at the same time: try again")
        self._versions[room.id] = version + 1

    def get(self, room_id: str, now: float) -> Room:
        """The room ``room_id``. Raises `RoomError`: ``no-room`` when there is none (or its row cannot be
        read back: that room only), ``expired`` when it has been inactive for seven days or was swept."""
        room = self._rooms.get(room_id)
        if room is None:
            row = self._db.execute("SELECT data, version FROM rooms WHERE id = ?", (room_id,)).fetchone()
            if row is None:
                if self._db.execute("SELECT 1 FROM expired WHERE id = ?", (room_id,)).fetchone():
                    raise _expired()
                raise RoomError("no-room", "there is no such room (it may have expired)")
            room = Room.from_json(row[0])
            if room.id != room_id:
                raise RoomError("no-room", "this room's stored game cannot be read back (id: not its row's)")
            self._rooms[room_id] = room
            self._versions[room_id] = int(row[1])
            self._forget_idle()
        self._rooms.move_to_end(room_id)
        if room.expired(now):
            self.delete(room_id, expired_at=now)
            raise _expired()
        return room

    def delete(self, room_id: str, *, expired_at: float | None = None) -> None:
        """Delete a room; with ``expired_at``, leave its tombstone."""
        self._forget(room_id)
        with self._db:
            self._db.execute("DELETE FROM rooms WHERE id = ?", (room_id,))
            if expired_at is not None:
                self._db.execute(
                    "INSERT OR REPLACE INTO expired (id, expired_at) VALUES (?, ?)", (room_id, expired_at)
                )

    def sweep(self, now: float, max_age: float) -> int:
        """Delete every room inactive for ``max_age`` seconds, leaving tombstones, and forget tombstones
        older than `TOMBSTONE_SECONDS`; returns how many rooms. Reads only the rows' ``last_active``
        column, never a room's contents."""
        cutoff = now - max_age
        with self._db:
            gone = [r for (r,) in self._db.execute("SELECT id FROM rooms WHERE last_active <= ?", (cutoff,))]
            self._db.execute(
                "INSERT OR REPLACE INTO expired (id, expired_at) "
                "SELECT id, ? FROM rooms WHERE last_active <= ?",
                (now, cutoff),
            )
            self._db.execute("DELETE FROM rooms WHERE last_active <= ?", (cutoff,))
            self._db.execute("DELETE FROM expired WHERE expired_at <= ?", (now - TOMBSTONE_SECONDS,))
        for room_id in gone:
            self._forget(room_id)
        return len(gone)

    def count(self) -> int:
        row = self._db.execute("SELECT COUNT(*) FROM rooms").fetchone()
        return int(row[0])


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
