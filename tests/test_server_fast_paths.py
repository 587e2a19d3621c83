"""The server's shortcuts give what the general way gives: an event's text written field by field, a
room's stored text written from kept parts, and a state written straight to an idle connection."""

from __future__ import annotations

import asyncio
import json
import random
import sys
from typing import Any

import pytest
from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketState

from cribcore.engine import Game
from cribcore.profiles import builtin_names, load_profile
from cribcore.server.app import Limits, _Connection, _Server
from cribcore.server.rooms import Room, RoomError
from cribcore.server.states import Sent, state_text
from cribcore.server.stores import open_store
from cribcore.server.wire import event_text, event_to_json


def _random_game(profile: str, seed: int) -> Game:
    game = Game(load_profile(profile), seed=seed)
    chooser = random.Random(seed)
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, chooser.choice(game.view(seat).legal_actions))
    return game


@pytest.mark.parametrize("profile", builtin_names())
def test_an_events_text_is_its_json_object_under_every_profile(profile: str) -> None:
    game = _random_game(profile, 5)
    for seat in range(game.rules.seats):
        for event in game.view(seat).events:
            for lang in ("en", "es"):
                assert json.loads(event_text(event, lang)) == event_to_json(event, lang)


@pytest.mark.parametrize("profile", ["muggins", "three-players", "five-card"])
def test_the_stored_text_is_the_whole_room_after_every_change_of_a_friend_room(profile: str) -> None:
    room, keys, invite = Room.create(
        mode="friend", profile=load_profile(profile), names=["Ann"], level="easy", seed=3, now=0.0
    )
    assert json.loads(room.to_text()) == room.to_json()
    assert invite is not None
    seats = room.profile.rules.seats
    for index in range(1, seats):
        room.join(invite, f"Player {index}", 1.5 * index)  # renames a player after the first save
        assert json.loads(room.to_text()) == room.to_json()
    room.connected = set(range(seats))
    chooser = random.Random(4)
    now = 10.0
    while room.number == 1:
        now += 0.37
        if room.game.is_over:
            room.new_game(0, now)
        elif room.between_hands is not None:
            room.next_hand(chooser.choice([s for s in range(seats) if s not in room.ready]), now)
        else:
            seat = room.game.to_act[0]
            room.act(seat, str(chooser.choice(room.game.view(seat).legal_actions)), now)
        assert json.loads(room.to_text()) == room.to_json()
    assert Room.from_json(room.to_text()).to_json() == room.to_json()
    assert [seat for seat, _ in keys] == [0]


class _Protocol:
    """Stands for an ASGI server's WebSocket send: it waits while ``writable`` is clear (a paused socket)."""

    def __init__(self) -> None:
        self.writable = asyncio.Event()
        self.writable.set()
        self.sent: list[str] = []

    async def send(self, message: Message) -> None:
        await self.writable.wait()
        self.sent.append(message["text"])


async def _receive() -> Message:  # pragma: no cover - never read here
    raise AssertionError("not read")


def _connection(protocol: _Protocol) -> tuple[_Server, _Connection]:
    ws = WebSocket({"type": "websocket", "path": "/ws", "headers": []}, _receive, protocol.send)
    ws.application_state = WebSocketState.CONNECTED
    server = _Server(open_store(":memory:"), lambda: 0.0, Limits(), {})
    conn = _Connection(ws, "room", 0)
    conn.writer = asyncio.ensure_future(server.write(conn))
    return server, conn


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_message_to_an_idle_connection_is_written_at_once_and_in_order_after_a_stall() -> None:
    async def scenario() -> dict[str, Any]:
        protocol = _Protocol()
        server, conn = _connection(protocol)
        await _settle()  # the writer waits for its first message
        await server.deliver(conn, "one")
        if sys.version_info < (3, 12):  # the write's own task begins on the loop's next turn
            await asyncio.sleep(0)
        at_once = list(protocol.sent)  # written without the event loop running the writer
        protocol.writable.clear()  # the client reads too slowly: its socket is paused
        await server.deliver(conn, "two")
        await _settle()
        paused = list(protocol.sent)
        protocol.writable.set()
        await server.deliver(conn, "three")  # "two" is still with the writer: this one queues behind
        await _settle()
        assert conn.writer is not None
        conn.writer.cancel()
        return {"at_once": at_once, "paused": paused, "all": protocol.sent}

    result = asyncio.run(scenario())
    assert result == {"at_once": ["one"], "paused": ["one"], "all": ["one", "two", "three"]}


@pytest.mark.parametrize("profile", ["muggins", "three-players", "five-card", "lowball"])
def test_states_written_as_text_are_the_rooms_states_under_other_rules(profile: str) -> None:
    room, _, invite = Room.create(
        mode="friend", profile=load_profile(profile), names=["Ann"], level="easy", seed=6, now=0.0
    )
    assert invite is not None
    seats = room.profile.rules.seats
    for index in range(1, seats):
        room.join(invite, f"Player {index}", 0.0)
    room.connected = set(range(seats))
    sent = [Sent() for _ in range(seats)]
    built: list[dict[str, Any]] = [{} for _ in range(seats)]
    chooser = random.Random(7)
    for _ in range(80):  # a few deals (a whole game's states are the same data, only more of it)
        for seat in range(seats):
            start = len(built[seat].get("events", []))
            message = json.loads(state_text(room, seat, start, "es", sent[seat])[0])
            if message.pop("changes", False):
                built[seat]["room"].update(message["room"])
                built[seat]["view"].update(message["view"])
                built[seat]["events"] += message["events"]
            else:
                built[seat] = {**message, "events": message["events"]}
            whole = room.state(seat, 0, "es")
            assert built[seat] == whole
            assert json.loads(state_text(room, seat, 0, "es")[0]) == whole
        if room.game.is_over:
            break
        if room.between_hands is not None:
            for seat in range(seats):
                room.next_hand(seat, 0.0)
        else:
            seat = room.game.to_act[0]
            room.act(seat, str(chooser.choice(room.game.view(seat).legal_actions)), 0.0)


def test_an_action_text_kept_parsed_is_still_checked_each_time() -> None:
    room, _, invite = Room.create(
        mode="friend", profile=load_profile("standard"), names=["Ann"], level="easy", seed=9, now=0.0
    )
    assert invite is not None
    room.join(invite, "Bob", 0.0)
    room.connected = {0, 1}
    for _ in range(2):  # a text that is not an action is refused every time, never kept
        with pytest.raises(RoomError, match="not a card") as refused:
            room.act(0, "play nothing", 0.0)
        assert refused.value.code == "malformed"
    discard = str(room.game.view(0).legal_actions[0])
    room.act(0, discard, 0.0)
    with pytest.raises(RoomError, match="you have already discarded"):
        room.act(0, discard, 0.0)  # the same text, parsed before, is checked against the game again
    assert room.game.view(0).discarded
