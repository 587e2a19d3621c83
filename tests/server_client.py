"""A test-side client for the server's WebSocket protocol over Starlette's test client.

`SeatClient` holds one seat: it keeps the event log from the incremental ``state`` messages (checking
``events_start`` every time), rebuilds the seat's view with the wire module, and records every
message it received, so tests can inspect exactly what the server sent.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from cribcore.events import Event
from cribcore.server.wire import SeatLog
from cribcore.views import SeatView


class SeatClient:
    """One connection holding one seat."""

    def __init__(self, ws: WebSocketTestSession, key: str) -> None:
        self.ws = ws
        self.key = key
        self.seat_log = SeatLog()
        self._view: SeatView | None = None
        self.state: dict[str, Any] = {}
        self.received: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []

    def hello(self) -> dict[str, Any]:
        self.ws.send_json({"type": "hello", "key": self.key})
        return self.receive()

    def receive(self) -> dict[str, Any]:
        """The next message; a state updates the log and must continue it exactly."""
        message: dict[str, Any] = self.ws.receive_json()
        self.received.append(message)
        if message["type"] == "state":
            view = self.seat_log.accept(message)
            assert view is not None, f"events_start {message['events_start']} but the log has {len(self.log)}"
            self._view = view
            self.state = message
        elif message["type"] == "error":
            self.errors.append(message)
        return message

    def send(self, **message: Any) -> None:
        self.ws.send_json(message)

    def act(self, action: str) -> dict[str, Any]:
        self.send(type="action", action=action)
        return self.receive()

    @property
    def room(self) -> dict[str, Any]:
        room: dict[str, Any] = self.state["room"]
        return room

    @property
    def log(self) -> list[Event]:
        return self.seat_log.events

    @property
    def view(self) -> SeatView:
        assert self._view is not None, "no state received yet"
        return self._view


@contextmanager
def connect(client: TestClient, key: str) -> Iterator[SeatClient]:
    """A seat connected and greeted (its first full state received)."""
    with client.websocket_connect("/ws") as ws:
        seat = SeatClient(ws, key)
        first = seat.hello()
        assert first["type"] == "state", first
        yield seat
