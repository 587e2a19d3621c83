"""`cribbage serve` runs with the start-up objects frozen out of the collector's sight, and collects less
often (a move allocates thousands of short-lived containers)."""

from __future__ import annotations

import gc
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from cribcore.cli import serve_cmd


@pytest.fixture
def gc_restored() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


class _FakeUvicorn:
    """Stands in for uvicorn: records what the server would run, runs nothing."""

    def __init__(self) -> None:
        self.ran: list[tuple[int, ...]] = []

    def Config(self, app: Any, **options: Any) -> Any:
        return (app, options)

    def Server(self, config: Any) -> Any:
        fake = self

        class _Server:
            def run(self, sockets: list[socket.socket]) -> None:
                fake.ran.append(gc.get_threshold())

        return _Server()


@pytest.mark.usefixtures("gc_restored")
def test_the_server_runs_with_the_start_up_objects_frozen_and_fewer_collections() -> None:
    gc.unfreeze()
    uvicorn = _FakeUvicorn()
    with socket.socket() as sock:
        serve_cmd._run(uvicorn, object(), sock)
    assert uvicorn.ran == [serve_cmd.GC_THRESHOLDS]
    assert gc.get_freeze_count() > 0
