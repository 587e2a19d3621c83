"""The server's tests again with the rooms in PostgreSQL (a real server: see ``tests/pg.py``).

A representative subset of ``tests/test_server.py`` (creating and joining, play, connections, a
restart, expiry and new games) runs here over the same code with the ``db`` fixture pointing at
PostgreSQL; the tests that open the SQLite file directly (a damaged row, the store's own memory) stay
SQLite's.
"""

from __future__ import annotations

import pytest

from . import test_server as base
from .pg import postgres_server, postgres_url
from .test_server import client, clock

__all__ = ["client", "clock", "postgres_server", "postgres_url"]


class _OnPostgres:
    @pytest.fixture
    def db(self, postgres_url: str) -> str:
        return postgres_url


# A test that reads the SQLite file itself is not collected here (a ``None`` in its place).


class TestCreateAndJoinOnPostgres(_OnPostgres, base.TestCreateAndJoin):
    test_bad_bodies_are_refused_in_one_line = None


class TestPlayOnPostgres(_OnPostgres, base.TestPlay):
    test_friends_play_a_whole_game = None  # type: ignore[assignment]
    # What the engine does over the wire does not depend on the store: these stay SQLite's (run time).
    test_variants_over_the_wire = None  # type: ignore[assignment]
    test_same_device_holds_both_seats = None  # type: ignore[assignment]
    test_events_carry_the_words_the_terminal_says = None  # type: ignore[assignment]


class TestConnectionsOnPostgres(_OnPostgres, base.TestConnections):
    pass


class TestRestartOnPostgres(_OnPostgres, base.TestRestart):
    pass


class TestExpiryOnPostgres(_OnPostgres, base.TestExpiry):
    test_a_room_expires_after_seven_days_without_play = None  # type: ignore[assignment]
    test_expired_rooms_are_swept_when_a_room_is_created = None  # type: ignore[assignment]


class TestNewGameOnPostgres(_OnPostgres, base.TestNewGame):
    test_after_a_game_one_seat_starts_the_next = None  # type: ignore[assignment]
    test_a_late_request_does_not_propose_replacing_the_next_game = None  # type: ignore[assignment]
