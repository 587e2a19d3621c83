"""Which store serves a ``--db`` value: a PostgreSQL URL gets ``store_pg.PostgresStore``, anything else
is a SQLite file (``":memory:"`` for none) and gets ``store.RoomStore``.

The choice lives here, above the backends, so that the base module imports none of them (each backend
imports the base); a backend's own dependencies (psycopg) are imported only when it is chosen.
"""

from __future__ import annotations

from pathlib import Path

from .store import RoomStore, Store, is_postgres

__all__ = ["open_store"]


def open_store(db: str | Path, cached: int = 2000) -> Store:
    """The store for ``db``: a PostgreSQL URL (``postgresql://`` or ``postgres://``), or a SQLite file.
    A PostgreSQL store connects when it is first used (`Store.open`), on the event loop serving it."""
    if is_postgres(db):
        from .store_pg import PostgresStore

        return PostgresStore(str(db), cached=cached)
    return RoomStore(db, cached=cached)
