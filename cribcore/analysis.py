"""Discard analysis: what each way of laying cards away is worth, on average, before the starter is cut.

For every possible discard, the kept hand is counted exactly with each possible starter (every card not
in the hand: 46 for a hand of six), giving its expected, lowest and highest show; the crib is estimated
from the self-computed crib table (`cribcore.players.crib`). Under a profile whose show is not the
standard count, the hand is counted by the profile's `cribcore.rulebook.Rulebook` and the crib valued with
the profile's own crib table, exactly as the hard level values its discards. The
net is the expected hand plus the expected crib when the crib is the seat's own, minus it when the crib
is an opponent's. This is the hard computer level's discard (`cribcore.players.discards`) and the
``cribbage analyze`` command's table.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, format_cards
from .i18n import N_
from .players.discards import DiscardOption, discard_options
from .rulebook import Rulebook

__all__ = ["SHAPES", "DiscardOption", "analyze", "discard_options"]

SHAPES: dict[tuple[int, int], str] = {
    (5, 2): N_("five-card, two players"),
    (5, 1): N_("three or four players"),
    (6, 2): N_("six-card, two players"),
    (7, 2): N_("seven-card, two players"),
}
"""The (cards dealt, cards laid away) that `analyze` accepts, with the game each belongs to (in
English; marked for the catalog, translated where shown)."""


def analyze(
    hand: Sequence[Card], *, dealer: bool, discards: int = 2, rulebook: Rulebook | None = None
) -> list[DiscardOption]:
    """The discard table for a dealt ``hand`` (5, 6 or 7 cards; see `SHAPES`), best first, under
    ``rulebook``'s rules (standard by default, whose fast tables the computer players share).

    ``dealer`` says whether the crib is the seat's own. With one card laid away (three or four players)
    the crib gets the other seats' cards. Raises `ValueError` for a repeated card or an unknown shape.
    """
    cards = list(hand)
    repeated = sorted({card for card in cards if cards.count(card) > 1})
    if repeated:
        raise ValueError(f"{format_cards(repeated)} is named twice: a pack has one of each card")
    shape = (len(cards), discards)
    if shape not in SHAPES:
        sizes = ", ".join(f"{n} cards laying away {d}" for n, d in SHAPES)
        raise ValueError(f"cannot analyze {len(cards)} cards laying away {discards}: use {sizes}")
    seats = 2 if discards == 2 else 3
    if rulebook is not None and not rulebook.is_standard_scoring:
        # The hand as seat 0's, dealt by seat 0 (own crib) or seat 1: the hard level's own valuation.
        dealing = 0 if dealer else 1
        return discard_options(
            cards, discards, own_crib=dealer, seats=seats, rulebook=rulebook, seat=0, dealer=dealing
        )
    return discard_options(cards, discards, own_crib=dealer, seats=seats)
