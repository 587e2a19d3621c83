"""Fast counting for the computer players: cards as dense indices, show totals and play points as ints.

The computer levels score thousands of hands per decision, so they work on card indices
(`Card.index`, 0..51, rank-major) rather than `Card` objects, and never build itemized scores in their
inner loops. Every number here is the standard count of `cribcore.scoring`:

- the show total is split into a part that depends only on the ranks (fifteens, pairs, runs), taken
  from `cribcore.scoring.show_total` once per multiset of ranks and cached, and the flush and nobs,
  which depend on suits and are added here;
- `peg_points` (on ranks) and `peg_pile` (on card indices) re-state `cribcore.scoring.play_items`
  (a test checks that they agree).

These are the standard fast paths only: the players reach them through `cribcore.players.counting`,
which uses them when the game's `cribcore.rulebook.Rulebook` says its scoring is the standard one and
asks the rulebook otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import FULL_DECK, Card
from ..scoring import show_total

__all__ = [
    "JACK",
    "RANK",
    "SUIT",
    "VALUE",
    "card_of",
    "hand_values",
    "indices",
    "peg_pile",
    "peg_points",
    "rank_points",
    "show_points",
]

RANK: tuple[int, ...] = tuple(int(card.rank) for card in FULL_DECK)
"""Rank (ace 1 … king 13) of each card index."""
VALUE: tuple[int, ...] = tuple(card.value for card in FULL_DECK)
"""Count value of each card index."""
SUIT: tuple[int, ...] = tuple(card.index % 4 for card in FULL_DECK)
"""Suit (0..3) of each card index."""
JACK = 11

_PAIR_POINTS = (0, 0, 2, 6, 12)


def card_of(index: int) -> Card:
    """The `Card` with dense index ``index``."""
    return FULL_DECK[index]


def indices(cards: Iterable[Card]) -> list[int]:
    """The dense indices of ``cards``, in the order given."""
    return [card.index for card in cards]


def _show_total(hand: Sequence[Card], starter: Card, *, crib: bool) -> int:
    """The one place the players call the engine's show scorer."""
    return show_total(hand, starter, crib=crib)


def _flush(hand: Sequence[int], starter: int, crib: bool) -> int:
    suit = SUIT[hand[0]]
    for card in hand:
        if SUIT[card] != suit:
            return 0
    if SUIT[starter] == suit:
        return len(hand) + 1
    return 0 if crib else len(hand)


_JACK_OF = tuple((JACK - 1) * 4 + suit for suit in range(4))
"""The index of the jack of each suit (indices are rank-major, the suit is the index's remainder by 4)."""


def _nobs(hand: Sequence[int], starter: int) -> int:
    return 1 if _JACK_OF[SUIT[starter]] in hand else 0


_RANK_POINTS: dict[tuple[int, ...], int] = {}


def rank_points(ranks: tuple[int, ...]) -> int:
    """Fifteens, pairs and runs of cards with these ranks (sorted, at least two, at most four alike).

    Computed once per multiset with the engine's scorer on stand-in cards, minus the stand-ins'
    flush and nobs, then cached (there are at most a few thousand multisets of four to six ranks).
    """
    points = _RANK_POINTS.get(ranks)
    if points is None:
        # Consecutive positions get different suits, so equal ranks (adjacent once sorted) never
        # need the same card.
        cards = [(rank - 1) * 4 + i % 4 for i, rank in enumerate(ranks)]
        hand, starter = cards[:-1], cards[-1]
        total = _show_total([FULL_DECK[c] for c in hand], FULL_DECK[starter], crib=False)
        points = total - _flush(hand, starter, False) - _nobs(hand, starter)
        _RANK_POINTS[ranks] = points
    return points


def show_points(hand: Sequence[int], starter: int, *, crib: bool = False) -> int:
    """The standard show total of ``hand`` (card indices, at least one) with ``starter``."""
    ranks = tuple(sorted([RANK[c] for c in hand] + [RANK[starter]]))
    return rank_points(ranks) + _flush(hand, starter, crib) + _nobs(hand, starter)


_BASES: dict[tuple[int, ...], list[int]] = {}
"""By a hand's sorted ranks: its `rank_points` with a starter of each rank (index 1..13; -1 until
first needed)."""


def hand_values(hand: Sequence[int], starters: Sequence[int], *, crib: bool = False) -> list[int]:
    """The show total of ``hand`` with each of ``starters``, in order. The rank count with a starter
    of each rank is computed once per multiset of ranks and kept, so a hand costs a look-up per
    starter (and a pass for the flush or nobs when it can have them)."""
    ranks = tuple(sorted([RANK[c] for c in hand]))
    bases = _BASES.get(ranks)
    if bases is None:
        if len(_BASES) >= 1 << 16:
            _BASES.clear()
        bases = _BASES[ranks] = [-1] * 14
    starter_ranks = [RANK[s] for s in starters]
    for rank in set(starter_ranks):
        if bases[rank] < 0:
            bases[rank] = rank_points(tuple(sorted([*ranks, rank])))
    values = [bases[rank] for rank in starter_ranks]
    size = len(hand)
    suit = SUIT[hand[0]]
    flush_suit = suit if all(SUIT[c] == suit for c in hand) else -1
    nobs_suits = [SUIT[c] for c in hand if RANK[c] == JACK]
    if flush_suit >= 0 or nobs_suits:
        for i, starter in enumerate(starters):
            starter_suit = SUIT[starter]
            if flush_suit >= 0:
                if starter_suit == flush_suit:
                    values[i] += size + 1
                elif not crib:
                    values[i] += size
            if nobs_suits:
                values[i] += nobs_suits.count(starter_suit)
    return values


def peg_points(ranks: Sequence[int], count: int) -> int:
    """Points for laying the last of ``ranks`` (the current count's ranks in order) with the count now
    at ``count``: fifteen, 31, pairs and the longest run suffix (no go point), as in
    `cribcore.scoring.play_items`."""
    points = 2 if count in (15, 31) else 0
    n = len(ranks)
    last = ranks[-1]
    same = 1
    while same < n and ranks[-same - 1] == last:
        same += 1
    if same >= 2:
        # A pair means the last two ranks repeat, so no run suffix can score.
        return points + _PAIR_POINTS[same]
    if n < 3:
        return points
    low = high = last
    seen = 1 << last
    run = 0
    for length in range(2, n + 1):
        rank = ranks[-length]
        bit = 1 << rank
        if seen & bit:
            break
        seen |= bit
        if rank < low:
            low = rank
        elif rank > high:
            high = rank
        if length >= 3 and high - low == length - 1:
            run = length
    return points + run


def peg_pile(pile: Sequence[int], count: int, seat: int = 0) -> int:
    """`peg_points` on card indices: the standard points for laying the last card of ``pile`` (the
    current count's cards in the order laid) with the count now at ``count``. ``seat`` is ignored (the
    standard play does not depend on it); it makes this a drop-in for a profile's scorer."""
    return peg_points([RANK[card] for card in pile], count)
