"""States of changes only (``hello`` with ``"changes": true``, docs/server.md): what a client builds from
them is exactly the whole state, and a connection that did not ask is sent whole states as before."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cribcore.players.registry import make_player
from cribcore.profiles import load_profile
from cribcore.server.app import Limits, create_app
from cribcore.server.rooms import Room
from cribcore.server.states import Sent, state_text
from cribcore.server.wire import SeatLog

FAST = Limits(messages_per_second=1e6, burst=10**6, rooms_per_minute=10**6, friend_seeds=True)


def _friend_room(seed: int) -> Room:
    room, _, invite = Room.create(
        mode="friend", profile=load_profile("standard"), names=["Ann"], level="medium", seed=seed, now=0.0
    )
    assert invite is not None
    room.join(invite, "Bob", 0.0)
    room.connected.update({0, 1})
    return room


def test_a_whole_game_of_changes_builds_every_whole_state_and_whole_states_are_unchanged() -> None:
    room = _friend_room(11)
    players = [make_player("random", 1), make_player("random", 2)]
    sent, logs, counts = [Sent(), Sent()], [SeatLog(), SeatLog()], [0, 0]
    changes = 0
    moves = 0
    while True:
        for seat in (0, 1):
            whole = room.state(seat)
            assert json.loads(state_text(room, seat, 0, "es")[0]) == room.state(seat, lang="es")
            text, count = state_text(room, seat, counts[seat], "en", sent[seat])
            message = json.loads(text)
            changes += message.get("changes") is True
            counts[seat] += count
            view = logs[seat].accept(message)
            assert view is not None
            assert logs[seat].room == whole["room"] and logs[seat].view_data == whole["view"]
            assert view == dataclasses.replace(room.game.view(seat), claim_points=None)
        if room.game.is_over:
            break
        if room.between_hands is not None:
            room.next_hand(0, float(moves))
            room.next_hand(1, float(moves))
            continue
        seat = room.game.to_act[0]
        room.act(seat, str(players[seat].choose(room.game.view(seat))), float(moves))
        moves += 1
    assert changes > 2 * moves  # every state after the first was one of changes


def test_changes_to_a_state_never_held_are_not_applied() -> None:
    log = SeatLog()
    message = {"type": "state", "changes": True, "room": {}, "view": {}, "events_start": 3, "events": []}
    assert log.accept(message) is None
    assert log.room is None and log.events == []


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "rooms.sqlite3", limits=FAST)) as test_client:
        yield test_client


def _seats(client: TestClient) -> tuple[str, list[str]]:
    made = client.post("/api/rooms", json={"mode": "friend", "names": ["Ann"], "seed": 4}).json()
    joined = client.post("/api/join", json={"invite": made["invite"], "name": "Bob"}).json()
    return made["room"], [made["keys"][0]["key"], joined["key"]]


def test_a_connection_that_asks_is_sent_changes_and_one_that_does_not_whole_states(
    client: TestClient,
) -> None:
    room_id, keys = _seats(client)
    with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as bob:
        ann.send_json({"type": "hello", "key": keys[0], "changes": True})
        first = ann.receive_json()
        assert first["type"] == "state" and "changes" not in first and first["events_start"] == 0
        logs = {0: SeatLog(), 1: SeatLog()}
        assert logs[0].accept(first) is not None
        bob.send_json({"type": "hello", "key": keys[1]})
        assert logs[1].accept(bob.receive_json()) is not None
        told = ann.receive_json()  # Bob connected
        assert told["changes"] is True and told["view"] == {} and "waiting_for" in told["room"]
        assert logs[0].accept(told) is not None
        hand = logs[0].view_data
        assert hand is not None
        ann.send_json({"type": "action", "action": hand["legal"][0]})
        mine, theirs = ann.receive_json(), bob.receive_json()
        assert mine["changes"] is True and "changes" not in theirs
        assert set(mine["view"]) < set(theirs["view"]) and mine["events"]
        for seat, message in ((0, mine), (1, theirs)):
            assert logs[seat].accept(message) is not None
            state = client.get(f"/api/rooms/{room_id}/state", headers={"x-seat-key": keys[seat]}).json()
            assert logs[seat].room == state["room"] and logs[seat].view_data == state["view"]
        ann.send_json({"type": "sync"})
        whole = ann.receive_json()
        assert "changes" not in whole and whole["events_start"] == 0 and whole["view"] == logs[0].view_data
