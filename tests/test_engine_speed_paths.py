"""The engine's faster paths agree with the general ones they stand in for: the standard show total of a
four-card hand, and the legal discard a seat's listed choices recognize by identity."""

from __future__ import annotations

import random

import pytest

from cribcore import FULL_DECK, Card
from cribcore.actions import Discard
from cribcore.cards import Rank, Suit
from cribcore.engine import Game
from cribcore.scoring import show_total, show_total_standard


def test_the_standard_show_total_is_show_total_for_every_size_flush_and_crib() -> None:
    rng = random.Random(15)
    suited = [card for card in FULL_DECK if card.suit is Suit.HEARTS]
    for i in range(3000):
        size = 4 if i % 5 else rng.choice((1, 2, 3, 5))
        pool = suited if i % 7 == 0 and size < len(suited) else FULL_DECK  # flushes, with and without
        cards = rng.sample(pool, size + 1)
        hand, starter = tuple(cards[:size]), cards[size]
        for crib in (False, True):
            assert show_total_standard(hand, starter, crib) == show_total(hand, starter, crib=crib)


def test_the_standard_show_total_counts_an_extra_card_as_show_total_does() -> None:
    joker = Card.extra("X7", rank=Rank.FIVE, suit=Suit.SPADES)
    hand = (FULL_DECK[16], FULL_DECK[40], joker, FULL_DECK[45])
    for crib in (False, True):
        assert show_total_standard(hand, FULL_DECK[17], crib) == show_total(hand, FULL_DECK[17], crib=crib)


def test_only_a_listed_discard_of_held_cards_is_taken_and_others_get_the_general_checks() -> None:
    game = Game(seed=4)
    listed = game.legal_actions(0)
    chosen = listed[3]
    assert isinstance(chosen, Discard)
    other = [card for card in FULL_DECK if card not in game.view(0).hand]
    # An equal discard that is not the listed object, and one of cards not held, are judged in full.
    with pytest.raises(ValueError, match="do not hold"):
        game.apply(0, Discard((other[0], other[1])))
    game.apply(0, Discard(chosen.cards))
    assert game.view(0).discarded == chosen.cards
    assert game.legal_actions(0) == ()
