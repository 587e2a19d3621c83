"""Whose turn it is in the play: pure functions over the cards each seat holds, as card indices.

These are the engine's turn rules written once, for the engine and for every computer player that plays
the rest of a deal out in its head:

- after a card is laid on a count below 31, the next seat round the table (the seat that laid it last of
  all) that holds a card the count has room for lays next (`next_able`); the seats passed over that
  hold cards say go (`passed_over`);
- when nobody can lay, the seat that laid the last card scores `GO_POINTS` for the go (or the last
  card) (`scores_go`), and the count closes; a count that reaches 31 closes without a go;
- after a count closes, the next seat after the one that laid last that still holds cards leads the new
  count (`next_holding`), if the profile's play goes on (`cribcore.rulebook.Rulebook.play_continues`).

Hands are sequences of `cribcore.cards.Card.index` values; their order does not matter.
"""

from __future__ import annotations

from collections.abc import Sequence, Sized
from typing import Final

from .cards import FULL_DECK
from .scoring import PLAY_LIMIT

__all__ = ["CARD_VALUE", "GO_POINTS", "next_able", "next_holding", "passed_over", "scores_go"]

CARD_VALUE: Final[tuple[int, ...]] = tuple(card.value for card in FULL_DECK)
"""The count value of each card index."""

GO_POINTS: Final = 1
"""What the go, or the last card of the play, scores."""


def next_able(
    hands: Sequence[Sequence[int]], last: int, count: int, values: Sequence[int] = CARD_VALUE
) -> int | None:
    """The first seat after ``last`` (``last`` itself last of all) holding a card that fits on
    ``count``, or ``None`` when nobody can lay. ``values`` is each card index's count value (the
    standard 52 by default; a pack with extra cards passes its own)."""
    room = PLAY_LIMIT - count
    seats = len(hands)
    for k in range(1, seats + 1):
        seat = (last + k) % seats
        for card in hands[seat]:
            if values[card] <= room:
                return seat
    return None


def passed_over(hands: Sequence[Sequence[int]], last: int, able: int | None) -> tuple[int, ...]:
    """The seats after ``last`` and before ``able`` (all the others when ``able`` is ``None``) that
    hold cards: they cannot lay on the count and say go."""
    seats = len(hands)
    found = []
    for k in range(1, seats):
        seat = (last + k) % seats
        if seat == able:
            break
        if hands[seat]:
            found.append(seat)
    return tuple(found)


def scores_go(able: int | None, count: int) -> bool:
    """Whether the card just laid, taking the count to ``count``, scores the go (or the last card):
    nobody can lay after it and the count is short of 31."""
    return able is None and count < PLAY_LIMIT


def next_holding(hands: Sequence[Sized], after: int) -> int | None:
    """The first seat after ``after`` (``after`` itself last of all) that still holds cards, or
    ``None`` when no seat does."""
    seats = len(hands)
    for k in range(1, seats + 1):
        seat = (after + k) % seats
        if hands[seat]:
            return seat
    return None
