"""Pure scoring: the show (a hand or crib with the starter) and the play (the card just laid).

Every function here is pure and returns an itemized `Score`: each fifteen, pair, run, flush, nobs, heels,
thirty-one and go is its own `ScoreItem` carrying the cards that make it and its points (docs/rules.md).
These are the standard rules, with the flush rules of the variants as parameters; other variants change
them through hooks (see `cribcore.hookspecs`), never here.

`show_total` is the same show count as a number only, for callers that score millions of hands: it
looks fifteens, pairs and runs up in a table of rank multisets that is filled lazily from the itemized
definition, so there is one definition of the rules and the table is a cache of it.
"""

from __future__ import annotations

import functools
import os
import sys
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, product
from operator import attrgetter, itemgetter
from typing import cast

from .cards import STANDARD_CARDS, Card, Rank

__all__ = [
    "FIFTEEN",
    "FLUSH",
    "FLUSH_MIN_CARDS",
    "GO",
    "HEELS",
    "NOBS",
    "PAIR",
    "PLAY_LIMIT",
    "RUN",
    "THIRTY_ONE",
    "Score",
    "ScoreItem",
    "check_show",
    "counted_play_items",
    "flush_points",
    "may_end_run",
    "peg_sequence",
    "play_items",
    "rank_points",
    "score_play",
    "score_show",
    "show_items",
    "show_total",
    "show_total_standard",
]

FIFTEEN = "fifteen"
"""The kind of a score item for cards adding up to fifteen (2 points)."""
PAIR = "pair"
"""The kind of a score item for two, three or four cards of a rank (2 points a pair)."""
RUN = "run"
"""The kind of a score item for a run of three or more ranks in sequence."""
FLUSH = "flush"
"""The kind of a score item for cards all of one suit."""
NOBS = "nobs"
"""The kind of a score item for the jack of the starter's suit in a hand or crib (1 point)."""
HEELS = "heels"
"""The kind of a score item for a jack turned up as the starter (2 points to the dealer)."""
THIRTY_ONE = "thirty-one"
"""The kind of a score item for a count of exactly 31 in the play (2 points)."""
GO = "go"
"""The kind of a score item for the go, or the last card of the play (1 point)."""

PLAY_LIMIT = 31
"""The running count may never exceed this."""

FLUSH_MIN_CARDS = 3
"""The fewest hand (or crib) cards that can make a flush. The rules give a flush to hands of four
(six-card), three (five-card) and five (seven-card) and to none smaller: one or two cards of a suit are
no flush, with or without the starter."""

_PLAY_PAIR_POINTS = {2: 2, 3: 6, 4: 12}


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its kind (``fifteen``, ``pair``, ``run``, ``flush``, ``nobs``, ``heels``,
    ``thirty-one``, ``go``, or a kind a plugin adds), the cards that make it, and its points.

    ``wild`` pairs each wild card among ``cards`` with the card it stood for in this count (``(J♠, 4♦)``:
    "J♠ as 4♦"; see `cribcore.wild`); it is empty when no card of the item was wild, or each stood for
    itself. ``cards`` always holds the cards as they are in the hand.
    """

    kind: str
    cards: tuple[Card, ...]
    points: int
    wild: tuple[tuple[Card, Card], ...] = ()

    def stood_for(self, card: Card) -> Card:
        """What ``card`` (one of `cards`) counted as in this item: the card it stood for, or itself."""
        for wild, standing in self.wild:
            if wild == card:
                return standing
        return card

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "kind": self.kind,
            "cards": [str(c) for c in self.cards],
            "points": self.points,
        }
        if self.wild:
            data["wild"] = {str(card): str(standing) for card, standing in self.wild}
        return data


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


Pattern = tuple[str, tuple[int, ...], int]
"""A combination found by rank alone: its kind, the positions of its cards in the sorted cards, points."""


def _fifteens(ranks: Sequence[int]) -> list[Pattern]:
    values = [min(rank, 10) for rank in ranks]
    if sum(values) < 15:
        return []
    found = []
    for combo in _subsets(len(ranks)):
        total = 0
        for i in combo:
            total += values[i]
        if total == 15:
            found.append((FIFTEEN, combo, 2))
    return found


def _pairs(ranks: Sequence[int]) -> list[Pattern]:
    return [(PAIR, (a, b), 2) for a, b in combinations(range(len(ranks)), 2) if ranks[a] == ranks[b]]


def _runs(ranks: Sequence[int]) -> list[Pattern]:
    by_rank: dict[int, list[int]] = {}
    for position, rank in enumerate(ranks):
        by_rank.setdefault(rank, []).append(position)
    found: list[Pattern] = []
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
            groups = [by_rank[r] for r in range(rank, top + 1)]
            found.extend((RUN, combo, length) for combo in product(*groups))
        rank = top + 1
    return found


@functools.cache
def _rank_patterns(ranks: tuple[int, ...]) -> tuple[Pattern, ...]:
    """The fifteens, pairs and runs among cards of these ranks (1..13, ascending), in counting order.

    This is the one definition of those three kinds. Suits never matter to them, so a hand's items are
    these patterns with its cards put in, and the points of every hand with the same ranks are equal:
    that is what makes `show_total` a table lookup. Cached per rank multiset (6,175 of five cards).
    """
    return (*_fifteens(ranks), *_pairs(ranks), *_runs(ranks))


def _flush_points(size: int, *, with_starter: bool, needs_starter: bool) -> int:
    """The flush of ``size`` hand cards all of one suit: one point each, plus one when the starter is of
    that suit too; nothing without the starter when ``needs_starter``, and nothing for fewer than
    `FLUSH_MIN_CARDS` cards. (Shared by both scorers, so they agree.)"""
    if size < FLUSH_MIN_CARDS:
        return 0
    if with_starter:
        return size + 1
    return 0 if needs_starter else size


flush_points = _flush_points
"""The points of a flush of ``size`` hand cards (see `_flush_points`), for callers that count suits apart
from ranks (`cribcore.wild`)."""


def _flush(hand: Sequence[Card], starter: Card, *, needs_starter: bool) -> list[ScoreItem]:
    suit = hand[0].suit
    if any(card.suit is not suit for card in hand):
        return []
    with_starter = starter.suit is suit
    points = _flush_points(len(hand), with_starter=with_starter, needs_starter=needs_starter)
    if not points:
        return []
    return [ScoreItem(FLUSH, (*hand, starter) if with_starter else tuple(hand), points)]


def _nobs(hand: Sequence[Card], starter: Card) -> list[ScoreItem]:
    return [
        ScoreItem(NOBS, (card,), 1) for card in hand if card.rank == Rank.JACK and card.suit is starter.suit
    ]


_by_index = attrgetter("index")
"""The sort key of cards in `Card` order (a C call)."""


def show_items(
    hand: Sequence[Card],
    starter: Card,
    *,
    crib: bool = False,
    hand_flush_needs_starter: bool = False,
    crib_flush_needs_starter: bool = True,
) -> tuple[ScoreItem, ...]:
    """The show items for ``hand`` (one or more distinct cards) with ``starter``.

    Flush: when all hand cards (three or more, `FLUSH_MIN_CARDS`) are of one suit they score one each,
    plus one if the starter matches.
    Without a matching starter a hand scores its flush unless ``hand_flush_needs_starter`` (the
    five-card-flush-only rule), and a crib scores none unless ``crib_flush_needs_starter`` is false.
    The defaults are the standard rules (docs/rules.md). Items come in counting order: fifteens, pairs,
    runs, flush, nobs; cards in each item are in `Card` order (the starter last in a flush).

    >>> from cribcore.cards import parse_card, parse_cards
    >>> items = show_items(parse_cards("4C 5D 6H KC"), parse_card("5S"))
    >>> [(item.kind, item.points) for item in items][3:]
    [('fifteen', 2), ('pair', 2), ('run', 3), ('run', 3)]
    >>> sum(item.points for item in items)
    16
    >>> show_items(parse_cards("4H 6H 8H TH"), parse_card("KS"), crib=True)  # a crib needs five of a suit
    ()
    """
    ordered = sorted(hand, key=_by_index)
    cards = [*ordered, starter]
    cards.sort(key=_by_index)
    # A standard card's rank is read from its index; an extra card (a joker) has only its rank field.
    ranks = tuple(
        [(card.index >> 2) + 1 if card.index < STANDARD_CARDS else int(card.rank) for card in cards]
    )
    items = [_item(kind, take(cards), points) for kind, take, points in _rank_takers(ranks)]
    needs_starter = crib_flush_needs_starter if crib else hand_flush_needs_starter
    items.extend(_flush(ordered, starter, needs_starter=needs_starter))
    items.extend(_nobs(ordered, starter))
    return tuple(items)


_Taker = Callable[[Sequence[Card]], tuple[Card, ...]]


@functools.cache
def _rank_takers(ranks: tuple[int, ...]) -> tuple[tuple[str, _Taker, int], ...]:
    """`_rank_patterns` with each pattern's positions as a getter of its cards (one C call a pattern)."""
    return tuple(
        (kind, cast(_Taker, itemgetter(*positions)), points)
        for kind, positions, points in _rank_patterns(ranks)
    )


_new_item = object.__new__
_set_kind = vars(ScoreItem)["kind"].__set__
_set_cards = vars(ScoreItem)["cards"].__set__
_set_points = vars(ScoreItem)["points"].__set__
_set_wild = vars(ScoreItem)["wild"].__set__


def _item(kind: str, cards: tuple[Card, ...], points: int) -> ScoreItem:
    """``ScoreItem(kind, cards, points)``, built in a third of the time (its slots set directly: no
    frozen-dataclass ``__init__``); for the show's many items."""
    item: ScoreItem = _new_item(ScoreItem)
    _set_kind(item, kind)
    _set_cards(item, cards)
    _set_points(item, points)
    _set_wild(item, ())
    return item


# The fast total. A rank multiset is keyed by the sum of 5**(rank - 1) over its cards: a base-5 number
# whose digits are the counts of each rank (never more than four in one pack), so the key is unique.
_RANK_KEY = tuple(5 ** (index >> 2) for index in range(STANDARD_CARDS))
"""Each card's share of the key, by `Card.index` (rank-major, so ``index >> 2`` is rank - 1)."""
_JACK_INDEX = (Rank.JACK - 1) * 4
"""`Card.index` of the jack of clubs; ``| suit`` gives the jack of that suit (``index & 3`` is the suit)."""

_RANK_TOTALS: dict[int, int] = {}
"""Fifteens + pairs + runs points by rank-multiset key: on the first key met, every key of
`_TABLE_FILE` at once; then any other from `_rank_patterns` as it is met."""

_TABLE_FILE = "show_totals.bin"
"""Next to this module: `_RANK_TOTALS` for every multiset of `_TABLE_SIZES` ranks, as `_table_bytes`
writes it. Only a cache: a test checks it against `_rank_patterns`, and without it the table is filled
key by key as before (about 6 % of a fresh run of random games, which met most of the 6,175 keys)."""
_TABLE_SIZES = (4, 5)
"""The multiset sizes stored: a standard show (four cards and the starter), five-card's (three and it)."""
_table_read = False


def _rank_total(cards: Iterable[Card], key: int) -> int:
    global _table_read
    if not _table_read:
        _table_read = True
        _RANK_TOTALS.update(_read_table())
        stored = _RANK_TOTALS.get(key)
        if stored is not None:
            return stored
    total = sum(points for _, _, points in _rank_patterns(tuple(sorted((c.index >> 2) + 1 for c in cards))))
    _RANK_TOTALS[key] = total
    return total


def rank_points(ranks: Iterable[int]) -> int:
    """The points of the fifteens, pairs and runs among cards of these ranks (1..13, at most four of
    one), whatever their suits: the rank table `show_total` reads, for callers that choose ranks first
    (`cribcore.wild`)."""
    ordered = tuple(sorted(ranks))
    key = _rank_key(ordered)
    total = _RANK_TOTALS.get(key)
    if total is None:
        global _table_read
        if not _table_read:
            _table_read = True
            _RANK_TOTALS.update(_read_table())
            total = _RANK_TOTALS.get(key)
        if total is None:
            total = _RANK_TOTALS[key] = sum(points for _, _, points in _rank_patterns(ordered))
    return total


def _rank_key(ranks: Iterable[int]) -> int:
    """The `_RANK_TOTALS` key of cards of these ranks (1..13)."""
    return sum(5 ** (rank - 1) for rank in ranks)


def _computed_table(sizes: Iterable[int] = _TABLE_SIZES) -> dict[int, int]:
    """`_RANK_TOTALS` for every multiset of ``sizes`` ranks (four cards at most of a rank), worked out
    from `_rank_patterns`: what `_TABLE_FILE` holds."""
    table: dict[int, int] = {}
    for size in sizes:
        for ranks in combinations_with_replacement(range(1, 14), size):
            if all(ranks[i] != ranks[i + 4] for i in range(size - 4)):
                table[_rank_key(ranks)] = sum(points for _, _, points in _rank_patterns(ranks))
    return table


def _table_bytes(table: dict[int, int]) -> bytes:
    """The file form of ``table``: its keys in ascending order as little-endian unsigned 32-bit numbers,
    then each key's points as one byte, in the same order."""
    keys = sorted(table)
    stored = array("I", keys)  # "I" is four bytes wherever CPython runs; checked when read
    if sys.byteorder == "big":
        stored.byteswap()
    return stored.tobytes() + bytes(table[key] for key in keys)


def _read_table() -> dict[int, int]:
    """`_TABLE_FILE` as a table, in one read; empty when it cannot be read (then keys are worked out as
    they are met)."""
    try:
        with open(os.path.join(os.path.dirname(__file__), _TABLE_FILE), "rb") as file:
            data = file.read()
    except OSError:
        return {}
    keys = array("I")
    count, rest = divmod(len(data), keys.itemsize + 1)
    if rest or keys.itemsize != 4:
        return {}
    keys.frombytes(data[: 4 * count])
    if sys.byteorder == "big":
        keys.byteswap()
    return dict(zip(keys, data[4 * count :], strict=True))


def show_total(
    hand: Sequence[Card],
    starter: Card,
    *,
    crib: bool = False,
    hand_flush_needs_starter: bool = False,
    crib_flush_needs_starter: bool = True,
) -> int:
    """The total of `show_items` for the same arguments, without building the items: for callers that
    score many hands (computer players, analysis, statistics).

    ``hand`` must hold one or more cards, all distinct and different from ``starter`` (as dealt from one
    pack); unlike `score_show` this is not checked. An extra card (a joker) counts as its rank and suit,
    through `show_items` (slower). Fifteens, pairs and runs come from a table of rank
    multisets filled lazily from the same definition as `show_items`, so the two always agree.
    """
    key_of = _RANK_KEY
    starter_index = starter.index
    nob = _JACK_INDEX | (starter_index & 3)
    suit = hand[0].index & 3
    one_suit = True
    points = 0
    try:
        key = key_of[starter_index]
        for card in hand:
            index = card.index
            key += key_of[index]
            if index & 3 != suit:
                one_suit = False
            if index == nob:
                points = 1
    except IndexError:
        # An extra card (a joker) has no place in the table: count it as its rank and suit, item by item.
        items = show_items(
            hand,
            starter,
            crib=crib,
            hand_flush_needs_starter=hand_flush_needs_starter,
            crib_flush_needs_starter=crib_flush_needs_starter,
        )
        return sum(item.points for item in items)
    ranked = _RANK_TOTALS.get(key)
    if ranked is None:
        ranked = _rank_total((*hand, starter), key)
    points += ranked
    if one_suit:
        points += _flush_points(
            len(hand),
            with_starter=suit == starter_index & 3,
            needs_starter=crib_flush_needs_starter if crib else hand_flush_needs_starter,
        )
    return points


def show_total_standard(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    """``show_total(hand, starter, crib=crib)`` under the standard flush rules (a hand's flush needs no
    starter, the crib's does): the same number, with a four-card hand of standard cards written out
    (the engine's show counts three a deal); any other hand goes to `show_total`."""
    try:
        first, second, third, fourth = hand
        key_of = _RANK_KEY
        a, b, c, d, cut = first.index, second.index, third.index, fourth.index, starter.index
        key = key_of[a] + key_of[b] + key_of[c] + key_of[d] + key_of[cut]
    except (ValueError, IndexError):  # not four cards, or an extra card (a joker)
        return show_total(hand, starter, crib=crib)
    points = _RANK_TOTALS.get(key)
    if points is None:
        points = _rank_total((*hand, starter), key)
    nob = _JACK_INDEX | (cut & 3)
    if a == nob or b == nob or c == nob or d == nob:
        points += 1
    suit = a & 3
    if b & 3 == suit and c & 3 == suit and d & 3 == suit:
        points += _flush_points(4, with_starter=suit == cut & 3, needs_starter=crib)
    return points


def check_show(hand: Sequence[Card], starter: Card) -> None:
    """Raise `ValueError` when a card of ``hand`` and ``starter`` appears twice or the hand is empty."""
    seen: set[Card] = set()
    for card in (*hand, starter):
        if card in seen:
            raise ValueError(f"{card} is named twice: a pack has one of each card")
        seen.add(card)
    if not hand:
        raise ValueError("a hand needs at least one card")


def score_show(
    hand: Sequence[Card],
    starter: Card,
    *,
    crib: bool = False,
    hand_flush_needs_starter: bool = False,
    crib_flush_needs_starter: bool = True,
) -> Score:
    """The show score of ``hand`` with ``starter`` (see `show_items`, which takes the same flush rules).

    Raises `ValueError` when a card appears twice or the hand is empty.
    """
    check_show(hand, starter)
    return Score(
        show_items(
            hand,
            starter,
            crib=crib,
            hand_flush_needs_starter=hand_flush_needs_starter,
            crib_flush_needs_starter=crib_flush_needs_starter,
        )
    )


def play_items(pile: Sequence[Card]) -> tuple[ScoreItem, ...]:
    """The standard items scored by the last card of ``pile``, the cards of the current count in the
    order laid. Go and last-card points are not included: they depend on what the other players hold.
    """
    count = 0
    for card in pile:
        count += card.value
    return counted_play_items(pile, count)


def may_end_run(last: int, before: int, third: int, size: int) -> bool:
    """Whether a run of three or more can end with the last card of a ``size``-card count whose last
    three ranks are ``third``, ``before``, ``last`` (``before`` differs from ``last``): such a run holds
    those three, so they are distinct and span less than ``size`` ranks. Most counts fail this, which
    spares them the search for the longest run."""
    gap, far, near = last - before, last - third, before - third
    return bool(far and near) and -size < gap < size and -size < far < size and -size < near < size


def counted_play_items(pile: Sequence[Card], count: int) -> tuple[ScoreItem, ...]:
    """`play_items` for a ``pile`` whose count (the sum of its cards' values) the caller already knows
    (the engine keeps it): the same items, without adding the pile up again."""
    last = pile[-1]
    size = len(pile)
    items: list[ScoreItem] = []
    if count == 15:
        items.append(_item(FIFTEEN, tuple(pile), 2))
    rank = last.rank
    if size >= 2:
        before = pile[-2].rank
        if before == rank:
            same = 2
            while same < size and pile[-same - 1].rank == rank:
                same += 1
            items.append(_item(PAIR, tuple(pile[-same:]), _PLAY_PAIR_POINTS[same]))
        elif size >= 3 and may_end_run(rank, before, pile[-3].rank, size):
            # The longest run ending with the last card: widen the window one card at a time until a
            # rank repeats (no longer window can be a run then); a window is a run when its distinct
            # ranks span exactly its length.
            seen = 1 << rank
            low = high = int(rank)
            best = 0
            for length in range(2, size + 1):
                other = pile[-length].rank
                bit = 1 << other
                if seen & bit:
                    break
                seen |= bit
                if other < low:
                    low = other
                elif other > high:
                    high = other
                if high - low == length - 1 and length >= 3:
                    best = length
            if best:
                items.append(_item(RUN, tuple(pile[-best:]), best))
    if count == PLAY_LIMIT:
        items.append(_item(THIRTY_ONE, tuple(pile), 2))
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


def peg_sequence(
    cards: Iterable[Card],
    *,
    last: bool = False,
    items: Callable[[Sequence[Card]], Sequence[ScoreItem]] = play_items,
) -> list[Score]:
    """Points for each card laid in order on one count. With ``last``, nobody can play on after the
    final card, which then also scores one for the go (none when it makes 31, which already ends the count).
    ``items`` scores each card from the count so far (default the standard `play_items`; a profile's
    is `cribcore.rulebook.Rulebook.play_items`).

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
        scores.append(Score(tuple(items(pile))))
    if last and pile and sum(c.value for c in pile) != PLAY_LIMIT:
        scores[-1] = scores[-1] + Score((ScoreItem(GO, (pile[-1],), 1),))
    return scores
