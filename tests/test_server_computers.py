"""A slow computer seat (the expert) decides off the server's event loop, so that its decision holds
its own room only; the quick levels decide on it (issue 33: no thread hop per move)."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cribcore.actions import Action
from cribcore.players.base import Player
from cribcore.players.hints import Hint, hint
from cribcore.players.registry import make_player
from cribcore.rulebook import Rulebook, standard_rulebook
from cribcore.server import app, rooms
from cribcore.server.app import Limits, create_app
from cribcore.views import SeatView

from .server_client import connect

FAST = Limits(messages_per_second=1e6, burst=10**6, rooms_per_minute=10**6, friend_seeds=True)
GUARD_SECONDS = 20.0
"""Only so that a server that decides on its loop fails the test instead of hanging it: the test
waits on events, and with decisions off the loop the gate is opened long before this."""


class Gate:
    """Holds a computer's play decisions, once armed, until the test releases them."""

    def __init__(self) -> None:
        self.armed = False
        self.entered = threading.Event()
        self.release = threading.Event()
        self.released_in_time: bool | None = None


class GatedPlayer:
    """A real player whose decisions in the play wait at the gate while it is armed."""

    def __init__(self, inner: Player, gate: Gate) -> None:
        self.inner = inner
        self.gate = gate

    def choose(self, view: SeatView) -> Action:
        if self.gate.armed and view.phase == "play":
            self.gate.entered.set()
            self.gate.released_in_time = self.gate.release.wait(GUARD_SECONDS)
        return self.inner.choose(view)


class Watched:
    """A real player that notes the thread each of its decisions is made on (in ``threads``)."""

    def __init__(self, inner: Player, threads: set[int]) -> None:
        self.inner = inner
        self.threads = threads

    def choose(self, view: SeatView) -> Action:
        self.threads.add(threading.get_ident())
        return self.inner.choose(view)


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Gate:
    """Gated players, and every level decided as the expert is (in a worker thread)."""
    gate = Gate()
    monkeypatch.setattr(app, "INLINE_LEVELS", frozenset())
    monkeypatch.setattr(
        rooms, "make_player", lambda kind, seed=None: GatedPlayer(make_player(kind, seed), gate)
    )
    return gate


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "rooms.sqlite3", limits=FAST)) as test_client:
        yield test_client


def test_another_room_is_served_while_a_computer_seat_decides(client: TestClient, gate: Gate) -> None:
    # A computer room where the person deals, so the computer leads the play once both have discarded.
    for seed in range(1, 50):
        made = client.post(
            "/api/rooms", json={"mode": "computer", "names": ["Ann"], "level": "easy", "seed": seed}
        )
        key = made.json()["keys"][0]["key"]
        state = client.get(f"/api/rooms/{made.json()['room']}/state", headers={"x-seat-key": key}).json()
        if state["view"]["dealer"] == 0:
            break
    else:
        raise AssertionError("no seed where the person deals")
    friends = client.post("/api/rooms", json={"mode": "friend", "names": ["Bea"], "seed": 3}).json()
    joined = client.post("/api/join", json={"invite": friends["invite"], "name": "Cal"}).json()
    chooser = make_player("easy", seed=0)
    with (
        connect(client, key) as ann,
        connect(client, friends["keys"][0]["key"]) as bea,
        connect(client, joined["key"]) as cal,
    ):
        bea.receive()  # Cal's arrival
        gate.armed = True
        ann.send(type="action", action=str(chooser.choose(ann.view)))
        assert gate.entered.wait(GUARD_SECONDS), "the computer was never asked to play"
        # The computer is deciding (held at the gate): the other room is answered meanwhile.
        bea.send(type="action", action=str(chooser.choose(bea.view)))
        for seat in (bea, cal):
            assert seat.receive()["type"] == "state"
        assert len([e for e in bea.log if e.kind == "discard"]) == 1
        gate.release.set()
        ann.receive()
        assert gate.released_in_time is True
        # One state after the person's discard, showing the computer's lead: the room's order kept.
        kinds = [(e.kind, e.seat) for e in ann.log]
        assert ("play", 1) in kinds
        assert kinds.index(("discard", 0)) < kinds.index(("play", 1))
        assert not ann.errors and not bea.errors


def test_the_quick_levels_decide_on_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    deciding: set[int] = set()

    monkeypatch.setattr(
        rooms, "make_player", lambda kind, seed=None: Watched(make_player(kind, seed), deciding)
    )
    assert client.portal is not None
    loop_thread = client.portal.call(_thread_ident)
    for level in sorted(app.INLINE_LEVELS):
        made = client.post(
            "/api/rooms", json={"mode": "computer", "names": ["Ann"], "level": level, "seed": 2}
        ).json()
        with connect(client, made["keys"][0]["key"]) as ann:
            chooser = make_player("easy", seed=0)
            while not any(e.kind == "play" for e in ann.log):
                ann.send(type="action", action=str(chooser.choose(ann.view)))
                ann.receive()
    assert deciding == {loop_thread}
    assert "expert" not in app.INLINE_LEVELS


async def _thread_ident() -> int:
    return threading.get_ident()


def test_another_room_is_served_while_a_hint_is_worked_out(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = Gate()

    def gated_hint(view: SeatView, lang: str | None = None) -> Hint:
        gate.entered.set()
        gate.released_in_time = gate.release.wait(GUARD_SECONDS)
        return hint(view, lang)

    monkeypatch.setattr(rooms, "hint", gated_hint)
    made = client.post(
        "/api/rooms", json={"mode": "computer", "names": ["Ann"], "level": "easy", "seed": 4}
    ).json()
    friends = client.post("/api/rooms", json={"mode": "friend", "names": ["Bea"], "seed": 3}).json()
    joined = client.post("/api/join", json={"invite": friends["invite"], "name": "Cal"}).json()
    with (
        connect(client, made["keys"][0]["key"]) as ann,
        connect(client, friends["keys"][0]["key"]) as bea,
        connect(client, joined["key"]) as cal,
    ):
        bea.receive()  # Cal's arrival
        ann.send(type="hint")
        assert gate.entered.wait(GUARD_SECONDS), "no hint was asked for"
        bea.send(type="ping")
        assert bea.receive()["type"] == "pong"  # answered while the hint is held at the gate
        gate.release.set()
        assert ann.receive()["type"] == "hint"
        assert gate.released_in_time is True
        assert not cal.errors


def test_a_quick_level_waits_for_its_tables_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A house rule's first pegging table is about a minute of CPU: it is made ready in a worker
    thread, once, while the server answers other rooms; then the level decides on the loop as usual."""
    gate = Gate()
    prepared: list[tuple[str, tuple[str, ...]]] = []
    deciding: set[int] = set()

    def gated_prepare(book: Rulebook, levels: Sequence[str]) -> None:
        prepared.append((book.fingerprint, tuple(levels)))
        gate.entered.set()
        gate.released_in_time = gate.release.wait(GUARD_SECONDS)

    monkeypatch.setattr(app, "prepare_tables", gated_prepare)
    # The hard level's seat, deciding as easy does: the tables are what this test is about.
    monkeypatch.setattr(
        rooms, "make_player", lambda kind, seed=None: Watched(make_player("easy", seed), deciding)
    )
    assert client.portal is not None
    loop_thread = client.portal.call(_thread_ident)
    friends = client.post("/api/rooms", json={"mode": "friend", "names": ["Bea"], "seed": 3}).json()
    with connect(client, friends["keys"][0]["key"]) as bea:
        made: dict[str, Any] = {}
        creating = threading.Thread(
            target=lambda: made.update(
                client.post(
                    "/api/rooms",
                    json={"mode": "computer", "names": ["Ann"], "level": "hard", "seed": 2},
                ).json()
            )
        )
        creating.start()  # the computer discards as the room is made: its tables first
        assert gate.entered.wait(GUARD_SECONDS), "the tables were never asked for"
        bea.send(type="ping")
        assert bea.receive()["type"] == "pong"  # answered while the tables are being made
        gate.release.set()
        creating.join(GUARD_SECONDS)
        assert gate.released_in_time is True
    with connect(client, made["keys"][0]["key"]) as ann:
        chooser = make_player("easy", seed=0)
        while not any(e.kind == "play" and e.seat == 1 for e in ann.log):
            ann.send(type="action", action=str(chooser.choose(ann.view)))
            ann.receive()
    assert prepared == [(standard_rulebook().fingerprint, ("hard",))]  # once, not per move
    assert deciding == {loop_thread}
