"""The play channel is found at ``/ws`` (below the application's root path too) and nowhere else: the
server hands it to the play loop ahead of Starlette's router, which still refuses every other path."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cribcore.server.app import Limits, create_app


def _key(client: TestClient) -> str:
    created = client.post("/api/rooms", json={"mode": "computer", "names": ["Ann"], "level": "easy"})
    assert created.status_code == 201
    return str(created.json()["keys"][0]["key"])


def test_a_websocket_on_another_path_is_refused(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "rooms.db", limits=Limits(rooms_per_minute=1000))) as client:
        for path in ("/ws/", "/wsx", "/api/ws", "/"):
            with pytest.raises(WebSocketDisconnect), client.websocket_connect(path) as ws:
                ws.receive_json()


def test_the_play_channel_answers_below_a_root_path(tmp_path: Path) -> None:
    app = create_app(tmp_path / "rooms.db", limits=Limits(rooms_per_minute=1000))
    with TestClient(app, root_path="/cribbage") as client:
        key = _key(client)
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "key": key})
            assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["type"] == "pong"
