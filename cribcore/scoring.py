"""Pure scoring: the show (a hand or crib with the starter) and the play (the card just laid).

Every function here is pure and returns an itemized `Score`: each fifteen, pair, run, flush, nobs, heels,
thirty-one and go is its own `ScoreItem` carrying the cards that make it and its points (RULES.md §2).
These are the standard rules; variants change them through hooks (see `cribcore.hookspecs`), never here.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from .cards import Card, Rank

__all__ = [
    "FIFTEEN",
    "FLUSH",
    "GO",
    "HEELS",
    "NOBS",
    "PAIR",
    "PLAY_LIMIT",
    "RUN",
    "THIRTY_ONE",
    "Score",
    "ScoreItem",
    "peg_sequence",
    "play_items",
    "score_play",
    "score_show",
    "show_items",
]

FIFTEEN = "fifteen"
PAIR = "pair"
RUN = "run"
FLUSH = "flush"
NOBS = "nobs"
HEELS = "heels"
THIRTY_ONE = "thirty-one"
GO = "go"

PLAY_LIMIT = 31
"""The running count may never exceed this."""

_PLAY_PAIR_POINTS = {2: 2, 3: 6, 4: 12}


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its kind (``fifteen``, ``pair``, ``run``, ``flush``, ``nobs``, ``heels``,
    ``thirty-one``, ``go``, or a kind a plugin adds), the cards that make it, and its points."""

    kind: str
    cards: tuple[Card, ...]
    points: int

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "cards": [str(c) for c in self.cards], "points": self.points}


@dataclass(frozen=True, slots=True)
class Score:
    """An itemized score; ``total`` is the sum of the items' points."""

    items: tuple[ScoreItem, ...] = ()

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def __add__(self, other: Score) -> Score:
        return Score(self.items + other.items)

    def to_json(self) -> dict[str, object]:
        return {"total": self.total, "items": [item.to_json() for item in self.items]}


@functools.cache
def _subsets(size: int) -> tuple[tuple[int, ...], ...]:
    """Every subset of two or more of ``size`` positions, smallest first."""
    return tuple(combo for n in range(2, size + 1) for combo in combinations(range(size), n))


def _fifteens(cards: Sequence[Card]) -> list[ScoreItem]:
    values = [card.value for card in cards]
    if sum(values) < 15:
        return []
    items = []
    for combo in _subsets(len(cards)):
        total = 0
        for i in combo:
            total += values[i]
        if total == 15:
            items.append(ScoreItem(FIFTEEN, tuple(cards[i] for i in combo), 2))
    return items


def _pairs(cards: Sequence[Card]) -> list[ScoreItem]:
    return [ScoreItem(PAIR, (a, b), 2) for a, b in combinations(cards, 2) if a.rank == b.rank]


def _runs(cards: Sequence[Card]) -> list[ScoreItem]:
    by_rank: dict[Rank, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    items: list[ScoreItem] = []
    rank = 1
    while rank <= 13:
        if rank not in by_rank:
            rank += 1
            continue
        top = rank
        while top + 1 in by_rank:
            top += 1
        length = top - rank + 1
        if length >= 3:
            # One run per choice of card at each rank: a double run of three is two items.
            groups = [by_rank[Rank(r)] for r in range(rank, top + 1)]
            items.extend(ScoreItem(RUN, combo, length) for combo in product(*groups))
        rank = top + 1
    return items


def _flush(hand: Sequence[Card], starter: Card, *, crib: bool) -> list[ScoreItem]:
    suit = hand[0].suit
    if any(card.suit != suit for card in hand):
        return []
    if starter.suit == suit:
        return [ScoreItem(FLUSH, (*hand, starter), len(hand) + 1)]
    if crib:
        return []
    return [ScoreItem(FLUSH, tuple(hand), len(hand))]


def _nobs(hand: Sequence[Card], starter: Card) -> list[ScoreItem]:
    return [
        ScoreItem(NOBS, (card,), 1) for card in hand if card.rank == Rank.JACK and card.suit == starter.suit
    ]


def show_items(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> tuple[ScoreItem, ...]:
    """The standard show items for ``hand`` (any number of cards) with ``starter``.

    Flush: all hand cards of one suit score one each, plus one if the starter matches; a crib scores a
    flush only when the starter matches too. Items come in counting order: fifteens, pairs, runs,
    flush, nobs; cards in each item are in `Card` order.
    """
    ordered = sorted(hand)
    cards = sorted((*ordered, starter))
    return (
        *_fifteens(cards),
        *_pairs(cards),
        *_runs(cards),
        *_flush(ordered, starter, crib=crib),
        *_nobs(ordered, starter),
    )


def score_show(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> Score:
    """The standard show score of ``hand`` with ``starter`` (see `show_items`).

    Raises `ValueError` when a card appears twice.
    """
    seen: set[Card] = set()
    for card in (*hand, starter):
        if card in seen:
            raise ValueError(f"{card} is named twice: a pack has one of each card")
        seen.add(card)
    if not hand:
        raise ValueError("a hand needs at least one card")
    return Score(show_items(hand, starter, crib=crib))


def play_items(pile: Sequence[Card]) -> tuple[ScoreItem, ...]:
    """The standard items scored by the last card of ``pile``, the cards of the current count in the
    order laid. Go and last-card points are not included: they depend on what the other players hold.
    """
    last = pile[-1]
    count = sum(card.value for card in pile)
    items: list[ScoreItem] = []
    if count == 15:
        items.append(ScoreItem(FIFTEEN, tuple(pile), 2))
    same = 1
    while same < len(pile) and pile[-same - 1].rank == last.rank:
        same += 1
    if same >= 2:
        items.append(ScoreItem(PAIR, tuple(pile[-same:]), _PLAY_PAIR_POINTS[same]))
    for length in range(len(pile), 2, -1):
        ranks = {card.rank for card in pile[-length:]}
        if len(ranks) == length and max(ranks) - min(ranks) == length - 1:
            items.append(ScoreItem(RUN, tuple(pile[-length:]), length))
            break
    if count == PLAY_LIMIT:
        items.append(ScoreItem(THIRTY_ONE, tuple(pile), 2))
    return tuple(items)


def score_play(pile: Sequence[Card]) -> Score:
    """The standard points for laying the last card of ``pile`` (see `play_items`).

    Raises `ValueError` when the count passes 31, a card repeats, or the pile is empty.
    """
    if not pile:
        raise ValueError("nothing has been laid")
    repeated = [card for i, card in enumerate(pile) if card in pile[:i]]
    if repeated:
        raise ValueError(f"{repeated[0]} appears twice in the count")
    if sum(card.value for card in pile) > PLAY_LIMIT:
        raise ValueError(f"the count would pass {PLAY_LIMIT}")
    return Score(play_items(pile))


def peg_sequence(cards: Iterable[Card], *, last: bool = False) -> list[Score]:
    """Points for each card laid in order on one count. With ``last``, nobody can play on after the
    final card, which then also scores one for the go (none when it makes 31, which already ends the count).

    Raises `ValueError` naming the card that repeats or passes 31.
    """
    pile: list[Card] = []
    scores = []
    for card in cards:
        if card in pile:
            raise ValueError(f"{card} is laid twice")
        count = sum(c.value for c in pile) + card.value
        if count > PLAY_LIMIT:
            raise ValueError(f"{card} would take the count to {count}, past {PLAY_LIMIT}")
        pile.append(card)
        scores.append(Score(play_items(pile)))
    if last and pile and sum(c.value for c in pile) != PLAY_LIMIT:
        scores[-1] = scores[-1] + Score((ScoreItem(GO, (pile[-1],), 1),))
    return scores
