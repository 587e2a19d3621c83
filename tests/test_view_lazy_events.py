"""A view's event log is built when first read, yet is always the log as it stood when the view was made."""

from __future__ import annotations

import copy
import random
from dataclasses import replace

from cribcore.engine import Game


def _play_on(game: Game, rng: random.Random, actions: int) -> None:
    for _ in range(actions):
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))


def test_a_view_read_after_more_play_shows_the_log_of_its_moment() -> None:
    game = Game(seed=3)
    rng = random.Random(3)
    _play_on(game, rng, 5)
    early = [game.view(seat) for seat in range(2)]
    lengths = [len(view.new_events(0)) for view in (game.view(0), game.view(1))]
    late_unread = game.view(0)
    _play_on(game, rng, 7)
    assert [len(view.events) for view in early] == lengths
    assert len(late_unread.events) == lengths[0]
    # The same seat's log read at once and read later are equal, and private cards stay redacted.
    assert game.view(0).events[: lengths[0]] == early[0].events
    for event in early[1].events:
        if event.private_to == 0:
            assert event.cards == ()


def test_an_unread_view_compares_copies_and_pickles_with_its_events() -> None:
    game = Game(seed=5)
    rng = random.Random(5)
    _play_on(game, rng, 4)
    first, second = game.view(1), game.view(1)
    assert first == second
    assert hash(first) == hash(second)
    assert copy.copy(game.view(1)) == first
    assert replace(game.view(1), deal=first.deal).events == first.events
