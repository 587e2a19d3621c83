"""The seats kept by ``cribbage join``: the seat keys taken with invitations, in the data directory's
``seats.json`` (readable by this user only), one entry per server and invitation, so that the same
command run again goes back to its seat once the invitation is used up.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..files import atomic_write_text
from ..i18n import _
from ..saves import data_dir

__all__ = ["SEATS_FILE", "SeatBook", "seats_path"]

SEATS_FILE = "seats.json"
_FORMAT = "cribbage-seats"
_VERSION = 1


def seats_path(directory: Path | None = None) -> Path:
    """The file that keeps the seat keys taken with invitations."""
    return (directory if directory is not None else data_dir()) / SEATS_FILE


@dataclass
class SeatBook:
    """The seat keys taken with invitations, one entry per server and invitation::

        {"format": "cribbage-seats", "version": 1, "seats": [{"server": "http://host:8000",
         "invite": "CODE", "key": "KEY", "room": "ID", "seat": 1, "name": "Bob", "joined": "…"}]}

    The file is written atomically and readable by its owner only: a key is the proof of a seat.
    """

    path: Path
    seats: list[dict[str, Any]]

    @classmethod
    def load(cls, path: Path | None = None) -> SeatBook:
        """The book in ``path`` (default `seats_path`); empty when there is no file. Raises
        `ValueError` for a file that is not a seats file (it is left as it is)."""
        where = path if path is not None else seats_path()
        try:
            text = where.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(where, [])
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        seats = data.get("seats") if isinstance(data, dict) and data.get("format") == _FORMAT else None
        if not isinstance(seats, list) or not all(isinstance(entry, dict) for entry in seats):
            raise ValueError(
                _("{where} is not a file of seat keys: move it away to join again").format(where=where)
            )
        return cls(where, [dict(entry) for entry in seats])

    def find(self, server: str, invite: str) -> dict[str, Any] | None:
        for entry in self.seats:
            if entry.get("server") == server and entry.get("invite") == invite:
                key = entry.get("key")
                return entry if isinstance(key, str) and key else None
        return None

    def put(self, entry: dict[str, Any]) -> None:
        self._drop(entry["server"], entry["invite"])
        self.seats.append(entry)
        self.save()

    def remove(self, server: str, invite: str) -> None:
        if self._drop(server, invite):
            self.save()

    def _drop(self, server: str, invite: str) -> bool:
        kept = [e for e in self.seats if not (e.get("server") == server and e.get("invite") == invite)]
        dropped = len(kept) != len(self.seats)
        self.seats = kept
        return dropped

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            # Created private before the first write: atomic_write_text keeps the mode the file has.
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        data = {"format": _FORMAT, "version": _VERSION, "seats": self.seats}
        atomic_write_text(self.path, json.dumps(data, indent=1) + "\n")
