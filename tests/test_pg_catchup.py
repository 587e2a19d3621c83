"""A room in memory brought up to a later stored version by its new actions only (`catch_up`), as a
process sharing PostgreSQL does when another process moved the room on: the result is exactly the room
read whole from the row, only the new actions are applied, and anything that is not a continuation
(another game, a different move) is declined so the room is read whole."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from cribcore.players.registry import make_player
from cribcore.profiles import load_profile
from cribcore.server.catchup import catch_up
from cribcore.server.rooms import Room

from .pg import ann_and_bob, postgres_server, postgres_url

__all__ = ["postgres_server", "postgres_url"]


def moves(text: str) -> int:
    """How many actions the stored room's game has had (discards, cards and claims)."""
    deals: list[dict[str, Any]] = json.loads(text)["record"]["deals"]
    return sum(
        sum(1 for d in deal["discards"] if d) + len(deal["plays"]) + len(deal.get("claims", []))
        for deal in deals
    )


def played(profile: str, seed: int) -> list[str]:
    """The stored text of a same-device room after each thing done in it, to the end of its game."""
    rules = load_profile(profile)
    names = [f"P{i}" for i in range(rules.rules.seats)]
    room = Room.create(mode="same-device", profile=rules, names=names, level="easy", seed=seed, now=1)[0]
    room.connected = set(range(len(names)))
    players = [make_player("easy", seed=i) for i in range(len(names))]
    texts = [room.to_text()]
    while not room.game.is_over:
        if room.between_hands is not None:
            room.next_hand(next(i for i in range(len(names)) if i not in room.ready), 2.0)
        else:
            seat = room.game.to_act[0]
            room.act(seat, str(players[seat].choose(room.game.view(seat))), 2.0)
        texts.append(room.to_text())
    return texts


@pytest.mark.parametrize("profile", ["standard", "muggins", "three-players"])
def test_a_room_catches_up_by_its_new_actions_to_exactly_the_stored_room(profile: str) -> None:
    texts = played(profile, seed=5)
    for first in range(0, len(texts) - 1, 9):
        for later in (first + 1, min(first + 13, len(texts) - 1), len(texts) - 1):
            room = Room.from_json(texts[first])
            applied = catch_up(room, texts[later])
            assert applied == moves(texts[later]) - moves(texts[first])
            whole = Room.from_json(texts[later])
            assert room.to_text() == whole.to_text() == texts[later]
            for seat in range(len(room.seats)):
                assert room.game.view(seat) == whole.game.view(seat)


def test_what_does_not_continue_the_room_is_declined() -> None:
    texts = played("standard", seed=6)
    mid = Room.from_json(texts[3])
    other = Room.from_json(texts[3])
    mid.connected = other.connected = {0, 1}
    seat = other.game.to_act[0]
    legal = other.game.legal_actions(seat)
    mid.act(seat, str(legal[0]), 3.0)
    other.act(seat, str(legal[-1]), 3.0)  # another move from the same version: a fork, not a prefix
    assert catch_up(Room.from_json(mid.to_text()), other.to_text()) is None
    assert catch_up(Room.from_json(texts[-1]), texts[2]) is None  # an older version
    done = Room.from_json(texts[-1])
    done.connected = {0, 1}
    done.new_game(0, 4.0)
    assert catch_up(Room.from_json(texts[-1]), done.to_text()) is None  # another game
    assert catch_up(Room.from_json(texts[3]), "{}") is None


def test_a_process_applies_only_the_moves_made_elsewhere(postgres_url: str) -> None:
    from cribcore.server.store_pg import PostgresStore

    async def scenario() -> None:
        here, there = PostgresStore(postgres_url), PostgresStore(postgres_url)
        try:
            room = ann_and_bob(4)
            await here.add(room)
            assert (await there.get(room.id, 2.0)).to_text() == room.to_text() and there.rebuilt == 1
            players = [make_player("easy", seed=i) for i in range(2)]
            for turn in range(10):  # the two processes take turns moving the room on
                mover, other = (here, there) if turn % 2 else (there, here)
                at = await mover.get(room.id, 2.0)
                at.connected = {0, 1}
                before = moves(at.to_text())
                if at.between_hands is not None:
                    at.next_hand(0, 2.0)
                    at.next_hand(1, 2.0)
                seat = at.game.to_act[0]
                at.act(seat, str(players[seat].choose(at.game.view(seat))), 2.0)
                await mover.save(at)
                caught = other.caught_up
                assert (await other.get(room.id, 2.0)).to_text() == at.to_text()
                assert other.caught_up - caught == moves(at.to_text()) - before
            assert here.rebuilt == 0 and there.rebuilt == 1  # never replayed whole again
            finished = await here.get(room.id, 2.0)
            finished.connected = {0, 1}
            finished.new_game(0, 3.0)  # another game: read whole
            finished.new_game(1, 3.0)
            await here.save(finished)
            assert (await there.get(room.id, 3.0)).number == 2 and there.rebuilt == 2
        finally:
            await here.aclose()
            await there.aclose()

    asyncio.run(scenario())


def test_a_change_announced_with_its_row_is_taken_without_reading_it(postgres_url: str) -> None:
    import psycopg

    from cribcore.server.store_pg import CHANNEL, PostgresStore, parse_news

    async def scenario() -> None:
        here, there = PostgresStore(postgres_url), PostgresStore(postgres_url)
        try:
            with psycopg.connect(postgres_url, autocommit=True) as ear:
                ear.execute(f"LISTEN {CHANNEL}")
                room = ann_and_bob(8)
                await here.add(room)
                there.listening(True)  # as its listener says, once it listens
                await there.get(room.id, 2.0)
                reads = there.reads
                for _ in range(3):  # each change, as another process's listener is told it
                    at = await here.get(room.id, 2.0)
                    at.connected = {0, 1}
                    seat = at.game.to_act[0]
                    at.act(seat, str(at.game.legal_actions(seat)[0]), 2.0)
                    await here.save(at)
                    note = next(ear.notifies(timeout=60, stop_after=1))
                    writer, room_id, version, data = parse_news(note.payload)
                    assert (writer, room_id, data) == (here.id, room.id, at.to_text())
                    assert version is not None
                    there.announced(room_id, version, data)
                    told = there.told(room.id)
                    assert told is not None and told.to_text() == at.to_text()
                assert there.reads == reads  # never read back from the database
                there.announced(room.id, 1000, None)  # a version it has not seen, without its row
                assert there.told(room.id) is None  # so it is read
        finally:
            await here.aclose()
            await there.aclose()

    asyncio.run(scenario())
