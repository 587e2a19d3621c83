"""A room's stored text, built from parts kept between saves, is always its whole `Room.to_json`."""

from __future__ import annotations

import json
import random

from cribcore.profiles import load_profile
from cribcore.server.rooms import Room


def test_the_stored_text_is_the_whole_room_after_every_move_and_game() -> None:
    room, keys, _ = Room.create(
        mode="computer", profile=load_profile(), names=["Ann"], level="easy", seed=7, now=0.0
    )
    ((seat, _key),) = keys
    room.connected = {seat}
    chooser = random.Random(3)
    for _ in range(2000):
        assert json.loads(room.to_text()) == room.to_json()
        if room.game.is_over:
            if room.number == 2:
                break
            assert room.new_game(seat, 0.0)
        elif room.between_hands is not None:
            room.next_hand(seat, 0.0)
        else:
            view = room.game.view(seat)
            room.act(seat, str(chooser.choice(view.legal_actions)), 0.0)
    assert room.number == 2
    assert Room.from_json(room.to_text()).to_json() == room.to_json()


def test_a_seat_is_sent_the_same_event_words_as_without_the_kept_ones() -> None:
    from cribcore.server.wire import event_to_json

    room, keys, _ = Room.create(
        mode="computer", profile=load_profile(), names=["Ann"], level="easy", seed=8, now=0.0
    )
    ((seat, _key),) = keys
    room.connected = {seat}
    for lang in ("en", "es", "en"):
        sent = room.state(seat, lang=lang)["events"]
        assert sent == [event_to_json(e, lang=lang) for e in room.game.view(seat).events]


def test_the_stored_text_names_a_player_who_takes_a_seat_after_the_first_save() -> None:
    room, _keys, invite = Room.create(
        mode="friend", profile=load_profile(), names=["Ann"], level="easy", seed=8, now=0.0
    )
    room.to_text()
    assert invite is not None
    room.join(invite, "Bob", 0.0)
    assert json.loads(room.to_text()) == room.to_json()
    assert json.loads(room.to_text())["record"]["players"] == ["Ann", "Bob"]


def test_the_kept_room_object_is_always_the_room_as_written_afresh() -> None:
    room, _keys, invite = Room.create(
        mode="friend", profile=load_profile(), names=["Ann"], level="easy", seed=9, now=0.0
    )
    assert invite is not None
    assert room.room_json_kept(0) == room.room_json(0)
    room.join(invite, "Bob", 0.0)
    chooser = random.Random(4)
    now = 0.0
    for step in range(3000):
        room.connected = {0, 1} if step % 7 else {0}
        for seat in (0, 1):
            assert room.room_json_kept(seat) == room.room_json(seat)
        room.connected = {0, 1}
        now += 0.4  # the expiry moves on every few steps
        if room.game.is_over:
            if room.number == 2:
                break
            room.new_game(0, now)
            room.new_game(1, now)
        elif room.between_hands is not None:
            room.next_hand(step % 2, now)
        else:
            seat = room.game.to_act[0]
            room.act(seat, str(chooser.choice(room.game.view(seat).legal_actions)), now)
    assert room.number == 2


def test_the_kept_expiry_text_is_the_one_written_afresh_even_a_microsecond_before_a_second() -> None:
    from datetime import UTC, datetime

    from cribcore.server.rooms import EXPIRY_SECONDS

    room, _keys, _ = Room.create(
        mode="friend", profile=load_profile(), names=["Ann"], level="easy", seed=1, now=0.0
    )
    steps = random.Random(1)
    at = 1_700_000_000.0
    for _ in range(5000):
        at += steps.choice([4e-7, 5e-7, 6e-7, 1e-7, 0.01, 0.3, 0.9999995])
        room.last_active = at
        fresh = datetime.fromtimestamp(at + EXPIRY_SECONDS, UTC).isoformat(timespec="seconds")
        assert room.room_json(0)["expires"] == fresh
