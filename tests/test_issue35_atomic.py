"""Issue 35 item 29: an action that fails in a third-party hook changes nothing, in the engine and on
the server (which drops its room in memory and answers with one error)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cribcore.engine import Game
from cribcore.players import RandomPlayer
from cribcore.pluginmanager import PluginError
from cribcore.records import game_record
from cribcore.testing import one_plugin_profile, registered

from .plugin_boom.cribcore_test_boom import Boom


def _state(game: Game) -> object:
    return (
        game_record(game),
        [game.view(seat) for seat in range(game.rules.seats)],
        tuple(game.events),
        game.scores,
        game.to_act,
    )


def test_a_play_whose_items_hook_fails_changes_nothing() -> None:
    with registered("boom", Boom):
        profile = one_plugin_profile("boom", {"hook": "cribcore_play_items", "after": 6})
        game = Game(profile, seed=3)
        players = [RandomPlayer(1), RandomPlayer(2)]
        failed = None
        for _ in range(200):
            seat = game.to_act[0]
            action = players[seat].choose(game.view(seat))
            before = _state(game)
            try:
                game.apply(seat, action)
            except PluginError:
                failed = (seat, action)
                break
        assert failed is not None
        assert _state(game) == before
        # Tried again (the hook fails on every call from its sixth): refused again, still nothing changed.
        with pytest.raises(PluginError):
            game.apply(*failed)
        assert _state(game) == before


def test_the_server_answers_a_failed_move_with_one_error_and_keeps_the_room_as_saved(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from cribcore.players.registry import make_player
    from cribcore.server.app import Limits, create_app

    from .server_client import connect

    fast = Limits(messages_per_second=1e6, burst=10**6, rooms_per_minute=10**6, friend_seeds=True)
    with registered("boom", Boom):
        # The hook asked when a count closes fails (its first call is the rules being read): the card
        # that closed the count is already laid by then.
        profile = one_plugin_profile("boom", {"hook": "cribcore_play_continues", "after": 2})
        app = create_app(tmp_path / "rooms.sqlite3", limits=fast, profiles={"boom": profile})
        with TestClient(app) as client:
            answer = client.post(
                "/api/rooms",
                json={"mode": "same-device", "profile": "boom", "names": ["Ann", "Bob"], "seed": 4},
            ).json()
            keys = [k["key"] for k in answer["keys"]]
            with connect(client, keys[0]) as ann, connect(client, keys[1]) as bob:
                ann.receive()  # Bob's arrival
                seats = [ann, bob]
                player = make_player("easy", 1)
                failed = None
                for _ in range(40):
                    to_act = seats[0].view.to_act
                    seat = seats[to_act[0]]
                    before = [s.view for s in seats]
                    seat.send(type="action", action=str(player.choose(seat.view)))
                    reply = seat.receive()
                    if reply["type"] == "error":
                        failed = reply
                        break
                    seats[1 - to_act[0]].receive()
                assert failed is not None
                assert failed["code"] == "failed"
                assert failed["message"].startswith("the server could not do that, and nothing changed: ")
                # One error, and the room is as it was saved before the move: asked again, both seats
                # are sent the state from before.
                for s, view in zip(seats, before, strict=True):
                    s.send(type="sync")
                    assert s.receive()["type"] == "state"
                    assert s.view == view
                assert client.portal is not None
                stored = client.portal.call(
                    app.state.server.store.get, answer["room"], app.state.server.clock()
                )
                assert stored.game.view(0) == before[0]
