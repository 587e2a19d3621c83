"""The show: each hand in the rules' counting order, then the crib; then the deal is over and the next
one begins. Under muggins the show pauses at each declared count for the seat to declare it.

One path for every profile, with a fast branch for the standard show: its totals come from the show
tables, and the items are worked out only if someone reads them.
"""

from __future__ import annotations

import functools
from typing import Any

from ..cards import Card
from ..claims import Claim
from ..events import lazy_items, make_event
from ..scoring import ScoreItem, show_items, show_total_standard
from .state import SHOW, GameState, by_index

__all__ = ["show"]


def _hand_items(cards: tuple[Card, ...], starter: Card) -> tuple[ScoreItem, ...]:
    """A hand's standard show items (for a show event's items, worked out when first read)."""
    return show_items(cards, starter)


def _crib_items(cards: tuple[Card, ...], starter: Card) -> tuple[ScoreItem, ...]:
    """The crib's standard show items (for a show event's items, worked out when first read)."""
    return show_items(cards, starter, crib=True)


def show(game: GameState) -> None:
    """Count the hands, then the crib, then start the next deal."""
    game._to_play = None
    _show_from(game, game.rulebook.counting_order(game._dealer), 0)


def _show_from(game: GameState, order: tuple[int, ...], step: int) -> None:
    """Count the hands from ``order[step]`` on, then the crib, then start the next deal."""
    assert game._cards is not None
    starter = game._cards.starter
    book = game.rulebook
    for index in range(step, len(order) + 1):
        crib = index == len(order)
        seat = game._dealer if crib else order[index]
        cards = tuple(sorted(game._crib, key=by_index)) if crib else game._kept[seat]
        kind = "crib" if crib else "hand"
        items: Any  # a tuple, or lazy items (see `cribcore.events.lazy_items`)
        declared = game._declares[kind]
        if game._counts_shows and not declared:
            # Counted from the show tables; the items are worked out only if someone reads them.
            if game._standard_show:
                points = show_total_standard(cards, starter, crib)
                # `lazy_items` without its argument packing: a partial of positional arguments is
                # built in half the time (three a deal).
                items = functools.partial(_crib_items if crib else _hand_items, cards, starter)
            else:
                dealer = game._dealer
                points = book.show_total(cards, starter, crib=crib, seat=seat, dealer=dealer)
                items = lazy_items(book.show_items, cards, starter, crib=crib, seat=seat, dealer=dealer)
            if game._score(kind, seat, points, cards, items):
                return
            continue
        items = book.show_items(cards, starter, crib=crib, seat=seat, dealer=game._dealer)
        if declared:
            game._phase = SHOW
            game._emit(make_event(kind, game._deal_index, seat=seat, cards=cards, note="to count"))
            then = functools.partial(_show_from, game, order, index + 1)
            game._claim = Claim(seat, cards, items, then)
            return
        points = 0
        for item in items:
            points += item.points
        if game._score(kind, seat, points, cards, items):
            return
    game._logs.append(game._current_log())
    game._cards = None
    game._dealer = (game._dealer + 1) % game.rules.seats
    game._begin_next_deal()
