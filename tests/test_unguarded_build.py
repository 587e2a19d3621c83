"""Events, views, deal logs and deals built by plain assignment are the frozen classes themselves; the
standard hand's discards read from the shared pairs are the ones `combinations` lists."""

from __future__ import annotations

import dataclasses
from itertools import combinations

import pytest

from cribcore.actions import Discard
from cribcore.cards import parse_cards
from cribcore.deals import DealCards, SeededDeals
from cribcore.engine import DealLog, Game, standard_profile
from cribcore.events import Event, make_event, unguarded
from cribcore.views import SeatView


def test_a_built_event_is_a_frozen_event_equal_to_one_made_by_init() -> None:
    cards = tuple(parse_cards("5H 5S"))
    built = make_event("play", 2, 1, cards, 2, (), (3, 4), 10, True, None, "n", None)
    made = Event("play", 2, 1, cards, 2, (), (3, 4), 10, True, None, "n", None)
    assert type(built) is Event
    assert built == made and hash(built) == hash(made)
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.kind = "hand"  # type: ignore[misc]


def test_built_views_logs_and_deals_are_their_frozen_classes() -> None:
    game = Game(seed=4)
    view = game.view(0)
    assert type(view) is SeatView
    assert dataclasses.replace(view) == view
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.seat = 1  # type: ignore[misc]
    (log,) = game.deal_logs()
    assert type(log) is DealLog and dataclasses.replace(log) == log
    cards = SeededDeals(4).deal(0, 0, standard_profile().rules)
    assert type(cards) is DealCards and dataclasses.replace(cards) == cards


def test_only_a_slotted_class_has_an_unguarded_twin() -> None:
    class Plain:
        pass

    with pytest.raises(TypeError):
        unguarded(Plain)


def test_a_six_card_hand_lists_its_fifteen_discards_in_combination_order() -> None:
    for seed in range(40):
        game = Game(seed=seed)
        for seat in range(2):
            hand = game.view(seat).hand
            expected = tuple(Discard(pair) for pair in combinations(hand, 2))
            assert game.legal_actions(seat) == expected
            again = Game(seed=seed)  # the shared pairs made by the first game are read back
            assert again.legal_actions(seat) == expected
