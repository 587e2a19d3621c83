"""Rooms kept in SQLite, so a restarted server continues every room where it was.

One row per room: its id, when it was last active (indexed, for expiry) and its `Room.to_json` as JSON
text. `RoomStore` caches rooms it has read; every change is written back with `save` in its own
transaction, so a crash loses at most the message being handled, never a half-written room.
"""

from __future__ import annotations

import json
import sqlite3
from collections import OrderedDict
from pathlib import Path

from .rooms import Room, RoomError

__all__ = ["RoomStore"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    last_active REAL NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rooms_last_active ON rooms (last_active);
"""


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
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise OSError(f"{path}: cannot open the room database ({exc})") from None
        self._rooms: OrderedDict[str, Room] = OrderedDict()
        self._cached = cached

    def close(self) -> None:
        self._db.close()

    def add(self, room: Room) -> None:
        self._rooms[room.id] = room
        self.save(room)
        self._forget_idle()

    def _forget_idle(self) -> None:
        if len(self._rooms) <= self._cached:
            return
        for room_id in [r for r, room in self._rooms.items() if not room.connected]:
            del self._rooms[room_id]
            if len(self._rooms) <= self._cached:
                return

    def save(self, room: Room) -> None:
        """Write ``room`` as it is now (one transaction)."""
        with self._db:
            self._db.execute(
                "INSERT INTO rooms (id, last_active, data) VALUES (?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET last_active = excluded.last_active, data = excluded.data",
                (room.id, room.last_active, json.dumps(room.to_json(), separators=(",", ":"))),
            )

    def get(self, room_id: str, now: float) -> Room:
        """The room ``room_id``. Raises `RoomError`: ``no-room`` when there is none, ``expired`` (and
        deletes it) when it has been inactive for seven days."""
        room = self._rooms.get(room_id)
        if room is None:
            row = self._db.execute("SELECT data FROM rooms WHERE id = ?", (room_id,)).fetchone()
            if row is None:
                raise RoomError("no-room", "there is no such room (it may have expired)")
            try:
                data = json.loads(row[0])
            except ValueError:
                raise RoomError("no-room", "this room's stored game cannot be read back (not JSON)") from None
            room = Room.from_json(data)
            self._rooms[room_id] = room
            self._forget_idle()
        self._rooms.move_to_end(room_id)
        if room.expired(now):
            self.delete(room_id)
            raise RoomError("expired", "this room expired after 7 days without play")
        return room

    def delete(self, room_id: str) -> None:
        self._rooms.pop(room_id, None)
        with self._db:
            self._db.execute("DELETE FROM rooms WHERE id = ?", (room_id,))

    def sweep(self, now: float, max_age: float) -> int:
        """Delete every room inactive for ``max_age`` seconds; returns how many."""
        cutoff = now - max_age
        for room_id in [r for r, room in self._rooms.items() if room.last_active <= cutoff]:
            del self._rooms[room_id]
        with self._db:
            cursor = self._db.execute("DELETE FROM rooms WHERE last_active <= ?", (cutoff,))
        return cursor.rowcount

    def count(self) -> int:
        row = self._db.execute("SELECT COUNT(*) FROM rooms").fetchone()
        return int(row[0])
