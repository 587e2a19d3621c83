"""Discard analysis: what each way of laying cards away is worth, on average, before the starter is cut.

For every possible discard, the kept hand is counted exactly with each possible starter (every card not
in the hand: 46 for a hand of six), giving its expected, lowest and highest show; the crib is estimated
from the self-computed crib table (`cribcore.players.crib`, through `crib_value`). Under a profile whose
show is not the standard count, the hand is counted by the profile's `cribcore.rulebook.Rulebook`. The
net is the expected hand plus the expected crib when the crib is the seat's own, minus it when the crib
is an opponent's. This is the hard computer level's discard (`cribcore.players.discards`) and the
``cribbage analyze`` command's table.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .cards import FULL_DECK, Card, format_cards
from .players.crib import crib_table_for, expected_crib
from .players.discards import DiscardOption, discard_options
from .rulebook import Rulebook

__all__ = ["SHAPES", "DiscardOption", "analyze", "crib_value", "discard_options", "rulebook_options"]

SHAPES: dict[tuple[int, int], str] = {
    (5, 2): "five-card, two players",
    (5, 1): "three or four players",
    (6, 2): "six-card, two players",
    (7, 2): "seven-card, two players",
}
"""The (cards dealt, cards laid away) that `analyze` accepts, with the game each belongs to."""


def crib_value(book: Rulebook, thrown: Sequence[Card], *, own: bool, crib_size: int, seats: int) -> float:
    """The expected points of a crib that ``thrown`` goes into, under ``book``'s rules.

    The one place the analysis values a crib. An exact average over every other crib and starter is
    too costly through a profile's hooks (about 45,000 shows per discard), so this is the computer
    players' crib model (`cribcore.players.crib.expected_crib`) on the profile's own crib table
    (`crib_table_for`: the shipped table when the crib counts as standard, else estimated once and kept
    in the data directory), the same numbers the hard level discards by.
    """
    return expected_crib(
        [card.index for card in thrown],
        own=own,
        crib_size=crib_size,
        seats=seats,
        table=crib_table_for(book),
    )


def rulebook_options(
    book: Rulebook, hand: Sequence[Card], discards: int, *, own_crib: bool, seats: int
) -> list[DiscardOption]:
    """`discard_options` under ``book``'s rules: each kept hand's show counted exactly by the rulebook
    with every possible starter (as the seat's own hand with seat 1 dealing, or the dealer's own hand),
    the crib from `crib_value`; best net first, ties as `discard_options` breaks them."""
    ordered = sorted(hand)
    starters = [card for card in FULL_DECK if card not in ordered]
    seat, dealer = 0, (0 if own_crib else 1)
    options = []
    for thrown in combinations(ordered, discards):
        kept = tuple(card for card in ordered if card not in thrown)
        values = [
            book.show_total(kept, starter, crib=False, seat=seat, dealer=dealer) for starter in starters
        ]
        mean = sum(values) / len(values)
        crib = crib_value(book, thrown, own=own_crib, crib_size=4, seats=seats)
        options.append(
            DiscardOption(
                discard=thrown,
                kept=kept,
                expected_hand=mean,
                expected_crib=crib,
                own_crib=own_crib,
                net=mean + crib if own_crib else mean - crib,
                min_hand=min(values),
                max_hand=max(values),
                hand_values=tuple(values),
            )
        )
    options.sort(key=lambda o: (-o.net, -o.expected_hand, [c.index for c in o.discard]))
    return options


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
        return rulebook_options(rulebook, cards, discards, own_crib=dealer, seats=seats)
    return discard_options(cards, discards, own_crib=dealer, seats=seats)
