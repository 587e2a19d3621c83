"""What a count's items look like, apart from the words for them: the shapes both languages of
`cribcore.speech` put into words (how runs overlap, how many cards of a rank the pairs hold)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .scoring import PAIR, ScoreItem

__all__ = ["counted_units", "run_shape", "same_rank_groups"]


def run_shape(runs: Sequence[ScoreItem]) -> tuple[int, tuple[int, ...], int]:
    """For the runs of one hand: the length of each run, how many cards of each repeated rank they use
    (largest first: ``(2,)`` a double run, ``(3,)`` a triple, ``(2, 2)`` a double-double) and how many
    runs there are."""
    # A wild card is of the rank it stood for.
    per_rank = Counter(card.rank for card in {item.stood_for(c) for item in runs for c in item.cards})
    repeated = tuple(sorted((n for n in per_rank.values() if n > 1), reverse=True))
    return len(runs[0].cards), repeated, len(runs)


def same_rank_groups(pairs: Sequence[ScoreItem]) -> list[tuple[int, int]]:
    """The pair items grouped by rank, in the order met: the cards of that rank they use (2 a pair, 3 a
    pair royal, 4 a double pair royal) and their points."""
    by_rank: dict[int, list[ScoreItem]] = {}
    for item in pairs:
        by_rank.setdefault(item.stood_for(item.cards[0]).rank, []).append(item)
    return [
        (len({c for item in same for c in item.cards}), sum(item.points for item in same))
        for same in by_rank.values()
    ]


def counted_units(items: Sequence[ScoreItem]) -> list[tuple[ScoreItem, int, int]]:
    """``items`` as a player names them, in order: each item alone, except that the pairs of one rank
    holding three or four cards are one unit (a pair royal, "three of a kind", is not "three pairs").
    Each unit is ``(its first item, the cards of its rank (0 for an item alone), its points)``."""
    pairs = [item for item in items if item.kind == PAIR]
    points_of: dict[int, int] = {}
    for item in pairs:
        points_of[item.cards[0].rank] = points_of.get(item.cards[0].rank, 0) + item.points
    cards_of = {
        rank: len({c for item in pairs if item.cards[0].rank == rank for c in item.cards})
        for rank in points_of
    }
    units: list[tuple[ScoreItem, int, int]] = []
    told: set[int] = set()
    for item in items:
        held = item.cards[0].rank if item.kind == PAIR and item.cards else None
        if held is None or cards_of.get(held, 0) < 3 or len(item.cards) >= 3:
            units.append((item, 0, item.points))
        elif held not in told:
            told.add(held)
            units.append((item, cards_of[held], points_of[held]))
    return units
