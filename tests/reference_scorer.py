"""A deliberately plain brute-force show scorer, independent of `cribcore.scoring`.

It looks at every subset of the five cards (four hand cards and the starter) and applies the show rules
of docs/rules.md literally. It is slow on purpose: it is the oracle for the scoring tests and the
baseline for the scoring benchmark. It only reads each card's ``rank`` (1..13) and ``suit``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

KINDS = ("fifteen", "pair", "run", "flush", "nobs")
JACK = 11


def count_value(card: Any) -> int:
    """Ace 1, two to ten at face value, jack, queen and king 10."""
    return min(int(card.rank), 10)


def all_subsets(cards: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Every subset of ``cards`` with at least one card."""
    subsets: list[tuple[Any, ...]] = []
    for size in range(1, len(cards) + 1):
        subsets.extend(combinations(cards, size))
    return subsets


def is_run(cards: Sequence[Any]) -> bool:
    """Three or more cards whose ranks are distinct and consecutive."""
    if len(cards) < 3:
        return False
    ranks = sorted(int(card.rank) for card in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def reference_show(hand: Sequence[Any], starter: Any, *, crib: bool = False) -> dict[str, int]:
    """Points per kind (``fifteen``, ``pair``, ``run``, ``flush``, ``nobs``) for a four-card hand or crib."""
    cards = [*hand, starter]
    subsets = all_subsets(cards)
    points = dict.fromkeys(KINDS, 0)

    for subset in subsets:
        if sum(count_value(card) for card in subset) == 15:
            points["fifteen"] += 2

    for subset in subsets:
        if len(subset) == 2 and subset[0].rank == subset[1].rank:
            points["pair"] += 2

    runs = [subset for subset in subsets if is_run(subset)]
    for run in runs:
        inside_a_longer_run = False
        for other in runs:
            if len(other) > len(run) and set(run) <= set(other):
                inside_a_longer_run = True
        if not inside_a_longer_run:
            points["run"] += len(run)

    hand_suits = {card.suit for card in hand}
    if len(hand) >= 3 and len(hand_suits) == 1:  # one or two cards of a suit are no flush
        if starter.suit in hand_suits:
            points["flush"] = len(hand) + 1
        elif not crib:
            points["flush"] = len(hand)

    for card in hand:
        if int(card.rank) == JACK and card.suit == starter.suit:
            points["nobs"] += 1

    return points


def reference_total(hand: Sequence[Any], starter: Any, *, crib: bool = False) -> int:
    """The total show score of ``hand`` with ``starter``."""
    return sum(reference_show(hand, starter, crib=crib).values())
