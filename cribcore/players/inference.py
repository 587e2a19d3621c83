"""What the other seat's discard says about its hand: a likelihood for a drawn hand of six.

In the two-handed six-card game the other seat kept four of its six cards and laid two in the crib.
Sound players keep by the kept hand's average over the starters plus or minus what the two laid-away
cards are worth in the crib (plus in their own crib, minus in the other's), so not every split of six
cards is as likely: a pone seldom lays a five in the dealer's crib, so a pone likely holds its fives.

`KeepModel` gives that likelihood quickly, by ranks alone: ``model(kept, thrown)`` is the chance that
a player keeping by such values keeps ``kept`` from ``kept + thrown``: a soft maximum, the best split
the likeliest and the others less so by how much worse they are (`BETA` per point). Values by ranks:

- the kept hand: its fifteens, pairs and runs with each of the 46 possible starters, by rank (the
  starter's rank weighted by the cards of that rank not among the six), plus a kept jack's chance of
  his nobs; flushes are left out;
- the crib: the shipped crib table's value of the two ranks laid away, unsuited (``dealer`` for the
  own crib, ``pone`` for the other's).

A hand of six and a split are looked up by their multisets of ranks, so the values are computed once
per multiset (a few thousand of them over a process) and a draw's likelihood costs one dictionary look-up
once warm. The play search (`cribcore.players.pegging.search_play`'s ``keep_model``) weighs each draw
of the other seat's hand and the crib's unseen cards by it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from itertools import combinations

from ..cards import STANDARD_CARDS
from ..scoring import PLAY_LIMIT
from ..views import SeatView
from .crib import RANK_SYMBOLS, crib_table
from .pegging import quick_score
from .tally import RANK, VALUE, rank_points

__all__ = ["BETA", "PLAY_BETA", "KeepModel", "PlaysSeen", "keep_model", "plays_seen"]

BETA = 2.5
"""How sharply the model prefers the best split: a split ``d`` points worse than another is
``exp(-BETA * d)`` times as likely. 2.5 fits the hard level's discards best (the log-likelihood of its
choice in 3,000 random hands of six, dealer and pone: -0.73 a hand at 2 and 3, -0.79 at 1.5, -0.80
at 4, -2.71 for a random split; its choice is the model's likeliest split in 93 % of them)."""

PLAY_BETA = 2.0
"""How sharply a player is taken to prefer the card the play search's quick rule likes best
(`cribcore.players.pegging.quick_score`): 2 fits the hard level's plays best (log-likelihood of its
card in 1,997 plays with a choice: -0.87 a play at 1.5 and 2, -0.90 at 1 and 3, -1.08 for a random
legal card; when a card scores at once, it lays the best-scoring one 91 % of the time)."""

NOBS = 11 / 46
"""A kept jack's chance that the starter has its suit (the one point of his nobs)."""

_RANK_CODE = tuple(1 << (3 * r) for r in range(14))
"""A rank's share of a multiset-of-ranks code: three bits per rank, so that codes add."""


_CARD_RANK_CODE = tuple(_RANK_CODE[RANK[card]] for card in range(STANDARD_CARDS))
"""A card's share of a multiset-of-ranks code (`_RANK_CODE` of its rank)."""


def _crib_value(low: int, high: int, own: bool) -> float:
    table = crib_table()
    key = RANK_SYMBOLS[low - 1] + RANK_SYMBOLS[high - 1]
    return (table.dealer if own else table.pone)[key]


class KeepModel:
    """``model(kept, thrown)``: the chance that a sound player keeps ``kept`` (four card indices) of
    ``kept + thrown`` (six), laying ``thrown`` in its own crib (``own``) or the other's. ``beta`` is
    `BETA` by default."""

    def __init__(self, own: bool, beta: float = BETA) -> None:
        self.own = own
        self.beta = beta
        self._by_split: dict[tuple[int, int], float] = {}

    def __call__(self, kept: Sequence[int], thrown: Sequence[int]) -> float:
        code_of = _CARD_RANK_CODE
        kept_code = 0
        for card in kept:
            kept_code += code_of[card]
        six = kept_code
        for card in thrown:
            six += code_of[card]
        chance = self._by_split.get((six, kept_code))
        if chance is None:
            chance = self._split_chance(
                sorted(RANK[c] for c in (*kept, *thrown)), tuple(sorted(RANK[c] for c in kept))
            )
        return chance

    def crib_value(self, low: int, high: int) -> float:
        """What the model takes two laid-away ranks (``low`` <= ``high``) to be worth in the crib, to the
        crib's owner: the shipped crib table's value (a subclass may read them otherwise)."""
        return _crib_value(low, high, self.own)

    def _split_chance(self, six: list[int], kept: tuple[int, ...]) -> float:
        """Fill `_by_split` for every split of the six ranks ``six`` (sorted); return ``kept``'s."""
        sign = 1 if self.own else -1
        codes = [_RANK_CODE[r] for r in six]
        six_code = sum(codes)
        values: list[tuple[int, float]] = []
        for held in combinations(range(6), 4):
            four = tuple(six[i] for i in held)
            low, high = (six[i] for i in range(6) if i not in held)
            by_starter, total = _starter_points(four)
            # The starters left: four of each rank, less the six's own cards.
            hand = (4 * total - sum(by_starter[r] for r in six)) / 46 + NOBS * four.count(11)
            values.append((sum(codes[i] for i in held), hand + sign * self.crib_value(low, high)))
        top = max(v for _, v in values)
        weights = [(code, math.exp(self.beta * (v - top))) for code, v in values]
        norm = sum(w for _, w in weights)
        for code, weight in weights:
            # Splits of the same ranks are alike: each of them is one card-level choice of the 15.
            self._by_split[(six_code, code)] = weight / norm
        return self._by_split[(six_code, sum(_RANK_CODE[r] for r in kept))]


_STARTER_POINTS: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}
"""`_starter_points` by the four ranks (sorted), filled on first use (at most 1,820 entries)."""


def _starter_points(four: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """The fifteens, pairs and runs of the four ranks (sorted) with a starter of each rank (indexed by
    the rank, 0 unused), and their sum."""
    known = _STARTER_POINTS.get(four)
    if known is None:
        points = (0, *(rank_points(tuple(sorted((*four, rank)))) for rank in range(1, 14)))
        known = _STARTER_POINTS[four] = (points, sum(points))
    return known


@functools.cache
def keep_model(own: bool, beta: float = BETA) -> KeepModel:
    """The process's one `KeepModel` for ``own`` and ``beta`` (its look-ups stay warm across decisions)."""
    return KeepModel(own, beta)


class PlaysSeen:
    """What the other seat's cards laid this deal say about the hand it kept: ``seen(kept)`` is the
    chance that a player who lays by the quick rule (a soft maximum of
    `cribcore.players.pegging.quick_score`, `PLAY_BETA` per point) laid the cards it laid, in the order
    and on the counts it laid them, from the hand of four ``kept`` (its laid cards and held ones).

    A player that passes a pair or a fifteen it held is rare: draws that give it one are less likely.
    ``plays`` are (pile before, count before, card laid) for each of its cards, oldest first."""

    def __init__(self, plays: Sequence[tuple[tuple[int, ...], int, int]], beta: float = PLAY_BETA) -> None:
        self.plays = tuple(plays)
        self.beta = beta
        self._scores: dict[tuple[int, int], float] = {}
        self._by_ranks: dict[int, float] = {}

    def __call__(self, kept: Sequence[int]) -> float:
        # The quick rule reads ranks alone: hands of the same ranks are alike.
        code = 0
        for card in kept:
            code += _CARD_RANK_CODE[card]
        chance = self._by_ranks.get(code)
        if chance is None:
            chance = self._by_ranks[code] = self._chance(kept)
        return chance

    def _chance(self, kept: Sequence[int]) -> float:
        chance = 1.0
        hand = set(kept)
        for step, (_, count, card) in enumerate(self.plays):
            room = PLAY_LIMIT - count
            mine = self._score(step, card)
            total = 0.0
            for other in hand:
                if VALUE[other] <= room:
                    total += math.exp(self.beta * (self._score(step, other) - mine))
            if total > 0.0:
                chance /= total
            hand.discard(card)
        return chance

    def _score(self, step: int, card: int) -> float:
        score = self._scores.get((step, card))
        if score is None:
            pile, count, _ = self.plays[step]
            score = self._scores[(step, card)] = quick_score(pile, count, card)
        return score


def plays_seen(view: SeatView, seat: int) -> PlaysSeen:
    """`PlaysSeen` of the cards ``seat`` laid in ``view``'s deal so far, read from its events."""
    plays: list[tuple[tuple[int, ...], int, int]] = []
    pile: list[int] = []
    count = 0
    for event in view.events:
        if event.deal != view.deal:
            continue
        if event.kind == "reset":
            pile = []
            count = 0
        elif event.kind == "play" and event.cards and event.count is not None:
            card = event.cards[0].index
            if event.seat == seat:
                plays.append((tuple(pile), count, card))
            pile.append(card)
            count = event.count
    return PlaysSeen(plays)
