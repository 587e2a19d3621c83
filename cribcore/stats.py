"""The exact distribution of show scores over every hand (or crib) of a given size and every starter.

`show_distribution` counts every combination of ``cards`` cards and a starter from one pack, for
instance all 12,994,800 of four cards and a starter, by the points the show gives them. It does not
visit them one by one. Fifteens, pairs and runs depend only on the ranks, and flush and nobs only on
which cards share a suit, so for each multiset of hand ranks and each starter rank the combinations fall
into at most four classes whose sizes are counted exactly:

- a flush with the starter of the same suit;
- a flush with the starter of another suit;
- no flush, and a jack of the starter's suit in the hand (nobs);
- no flush and no nobs.

Each class is scored by asking the profile's `cribcore.rulebook.Rulebook` for one real hand of it and
weighted by its size, so the figures are the engine's own rules applied to every combination (a test
checks the class sizes against a card-by-card enumeration). Standard hands and cribs take well under a
second. A profile whose plugins change the show is counted the same way, which is exact when its rules
see suits only through flushes and nobs. That is checked as the classes are counted: each class is
scored a second time with the suits exchanged, and for each pair of hand ranks and starter rank one
combination drawn at random (from a fixed seed) is scored and compared with its class. A profile that
scores a class's members differently raises `SuitsSeen` rather than being counted wrongly;
`cribcore.stats_any_rule` then samples it.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations_with_replacement

from .cards import FULL_DECK, Card, Rank
from .profiles import Profile
from .rulebook import Rulebook, rulebook_for, show_class
from .scoring import show_total

__all__ = [
    "MAX_CARDS",
    "Distribution",
    "FlushRules",
    "SuitsSeen",
    "flush_rules",
    "show_distribution",
]

MAX_CARDS = 6
"""The largest hand or crib (without the starter) `show_distribution` accepts."""

_JACK = int(Rank.JACK)
_SUITS = 4
_CHECK_SEED = 31
"""Seeds the combinations drawn to check a profile's classes, so that the check never varies."""


class SuitsSeen(ValueError):
    """A profile's show tells suits apart beyond flushes and nobs: its classes cannot be counted."""


@dataclass(frozen=True, slots=True)
class FlushRules:
    """Which flushes count without the starter: the defaults are the standard rules (docs/rules.md),
    a hand's own cards of one suit score, a crib's need the starter too. See `cribcore.scoring.show_items`."""

    hand_needs_starter: bool = False
    crib_needs_starter: bool = True

    def needs_starter(self, *, crib: bool) -> bool:
        return self.crib_needs_starter if crib else self.hand_needs_starter

    def to_json(self) -> dict[str, bool]:
        return {"hand_needs_starter": self.hand_needs_starter, "crib_needs_starter": self.crib_needs_starter}


def flush_rules(profile: Profile) -> FlushRules:
    """The flush rules of ``profile``: those its plugins declare (`Rulebook.flush_rules`, the
    ``cribcore_flush_rules`` hook: the ``hand-flush`` plugin's options, for one), otherwise the
    standard rules."""
    flush = rulebook_for(profile).flush_rules
    return FlushRules(*flush) if flush is not None else FlushRules()


@dataclass(frozen=True, slots=True)
class Distribution:
    """How many combinations of ``cards`` cards and a starter score each number of points in the show.

    ``counts[p]`` is the number of combinations scoring ``p`` points, for ``p`` from 0 to the highest
    score that occurs; every combination is one set of ``cards`` cards (order does not matter) and one
    starter from the rest of the pack.
    """

    cards: int
    crib: bool
    rules: FlushRules
    counts: tuple[int, ...]

    @property
    def combinations(self) -> int:
        return sum(self.counts)

    @property
    def mean(self) -> float:
        return self._sum(1) / self.combinations

    @property
    def std(self) -> float:
        """The standard deviation over all combinations (each counted once, none sampled)."""
        n = self.combinations
        total = self._sum(1)
        # Exact integers up to the final division: no cancellation in the variance.
        return math.sqrt((n * self._sum(2) - total * total) / (n * n))

    @property
    def median(self) -> int:
        """The lowest score that at least half of the combinations do not exceed."""
        half = (self.combinations + 1) // 2
        seen = 0
        for points, count in enumerate(self.counts):
            seen += count
            if seen >= half:
                return points
        raise AssertionError("a distribution is never empty")

    @property
    def mode(self) -> int:
        """The most frequent score (the lowest of equals)."""
        return max(range(len(self.counts)), key=lambda p: (self.counts[p], -p))

    @property
    def maximum(self) -> int:
        return len(self.counts) - 1

    def share(self, points: int) -> float:
        """The fraction of combinations scoring ``points`` (0 for a score that never occurs)."""
        count = self.counts[points] if 0 <= points < len(self.counts) else 0
        return count / self.combinations

    def _sum(self, power: int) -> int:
        return sum(points**power * count for points, count in enumerate(self.counts))

    def to_json(self) -> dict[str, object]:
        return {
            "cards": self.cards,
            "crib": self.crib,
            "method": "exact",
            "flush_needs_starter": self.rules.needs_starter(crib=self.crib),
            "combinations": self.combinations,
            "counts": list(self.counts),
            "mean": self.mean,
            "std": self.std,
            "median": self.median,
            "mode": self.mode,
            "max": self.maximum,
        }


def show_distribution(
    cards: int = 4, *, crib: bool = False, rules: FlushRules | None = None, rulebook: Rulebook | None = None
) -> Distribution:
    """The exact distribution of show scores over every set of ``cards`` cards (1 to `MAX_CARDS`) and
    every starter from the rest of the pack, counted as a hand or, with ``crib``, as a crib, by
    ``rulebook`` (a profile's rules) or else under the flush ``rules`` (standard by default).

    Raises `ValueError` for an unsupported number of cards, and `SuitsSeen` for a rulebook whose show
    tells suits apart beyond flushes and nobs (the classes of the module docstring would not be exact;
    `cribcore.stats_any_rule.show_statistics` samples such a profile instead)."""
    if not 1 <= cards <= MAX_CARDS:
        raise ValueError(f"a hand or crib for the statistics has 1 to {MAX_CARDS} cards, not {cards}")
    if rulebook is not None and rules is None:
        flush = rulebook.flush_rules
        rules = FlushRules(*flush) if flush is not None else FlushRules()
    rules = rules if rules is not None else FlushRules()
    scored_by_book = rulebook is not None and rulebook.flush_rules is None
    check = random.Random(_CHECK_SEED)
    tally: Counter[int] = Counter()
    for hand_ranks in _rank_multisets(cards):
        for starter_rank in range(1, 14):
            classes = _suit_classes(hand_ranks, starter_rank)
            if rulebook is not None and scored_by_book and classes:
                _check_member(rulebook, classes, hand_ranks, starter_rank, check, crib=crib)
            for weight, hand, starter in classes:
                if rulebook is not None and scored_by_book:
                    points = _class_points(rulebook, hand, starter, crib=crib)
                else:
                    points = show_total(
                        hand,
                        starter,
                        crib=crib,
                        hand_flush_needs_starter=rules.hand_needs_starter,
                        crib_flush_needs_starter=rules.crib_needs_starter,
                    )
                tally[points] += weight
    counts = tuple(tally.get(points, 0) for points in range(max(tally) + 1))
    return Distribution(cards=cards, crib=crib, rules=rules, counts=counts)


_SUIT_EXCHANGE = (2, 3, 0, 1)
"""A permutation of the suits moving every suit: a class's members differ from each other by one."""


def _class_points(book: Rulebook, hand: list[Card], starter: Card, *, crib: bool) -> int:
    points = book.show_total(hand, starter, crib=crib)
    exchanged = [_card(int(card.rank), _SUIT_EXCHANGE[card.index % _SUITS]) for card in hand]
    twin = _card(int(starter.rank), _SUIT_EXCHANGE[starter.index % _SUITS])
    if book.show_total(exchanged, twin, crib=crib) != points:
        raise _suits_seen(book)
    return points


def _suits_seen(book: Rulebook) -> SuitsSeen:
    return SuitsSeen(
        f"the profile {book.profile_name!r} scores suits apart beyond flushes and nobs: its show "
        "statistics cannot be counted by classes"
    )


def _check_member(
    book: Rulebook,
    classes: list[tuple[int, list[Card], Card]],
    hand_ranks: tuple[int, ...],
    starter_rank: int,
    rng: random.Random,
    *,
    crib: bool,
) -> None:
    """Raise `SuitsSeen` unless one combination of ``hand_ranks`` and ``starter_rank``, drawn uniformly
    with ``rng``, scores as the representative of its class does."""
    suits_of: dict[int, list[int]] = {
        rank: rng.sample(range(_SUITS), m) for rank, m in Counter(hand_ranks).items()
    }
    hand = [_card(rank, suits_of[rank].pop()) for rank in hand_ranks]
    taken = {card.index % _SUITS for card in hand if int(card.rank) == starter_rank}
    starter = _card(starter_rank, rng.choice([suit for suit in range(_SUITS) if suit not in taken]))
    kind = show_class(hand, starter)[2]
    for _weight, shown, cut in classes:
        if show_class(shown, cut)[2] == kind:
            if book.show_total(hand, starter, crib=crib) != book.show_total(shown, cut, crib=crib):
                raise _suits_seen(book)
            return
    raise AssertionError("every combination belongs to one of its classes")


def _rank_multisets(size: int) -> Iterator[tuple[int, ...]]:
    """Every ascending tuple of ``size`` ranks with no rank more than four times."""
    for ranks in combinations_with_replacement(range(1, 14), size):
        if all(ranks[i] != ranks[i + 4] for i in range(size - 4)):
            yield ranks


def _card(rank: int, suit: int) -> Card:
    return FULL_DECK[(rank - 1) * _SUITS + suit]


def _suit_classes(hand_ranks: tuple[int, ...], starter_rank: int) -> list[tuple[int, list[Card], Card]]:
    """The combinations whose hand has ``hand_ranks`` and whose starter has ``starter_rank``, split into
    the classes of the module docstring: ``(size, a hand of the class, its starter)`` for each class
    that is not empty. The sizes add up to every such combination."""
    per_rank = Counter(hand_ranks)
    alike = per_rank[starter_rank]
    if alike == _SUITS:
        return []
    jacks = per_rank[_JACK]
    hands = math.prod(math.comb(_SUITS, m) for m in per_rank.values())
    every = hands * (_SUITS - alike)
    distinct = len(per_rank) == len(hand_ranks)
    flush_same = _SUITS if distinct and alike == 0 else 0
    # A flush with a starter of another suit: any suit for the hand, any of the other three for the
    # starter (when the starter's rank is in the hand, that card has the flush suit, so this is all).
    flush_other = _SUITS * (_SUITS - 1) if distinct else 0
    # Over all combinations a given hand jack has the starter's suit in a quarter of the starter's
    # possible suits (its suit is independent of the other ranks'), unless the starter is a jack itself.
    nobs_all = every * jacks // _SUITS if starter_rank != _JACK else 0
    nobs_plain = nobs_all - flush_same * jacks
    plain = every - flush_same - flush_other - nobs_plain
    classes: list[tuple[int, list[Card], Card]] = []
    if flush_same:
        classes.append((flush_same, [_card(r, 0) for r in hand_ranks], _card(starter_rank, 0)))
    if flush_other:
        classes.append((flush_other, [_card(r, 0) for r in hand_ranks], _card(starter_rank, 1)))
    if nobs_plain:
        # Starter of suit 0 and a jack of suit 0; the starter's rank in the hand avoids suit 0.
        shift = {rank: (1 if rank == starter_rank else 0) for rank in per_rank}
        classes.append((nobs_plain, _spread(hand_ranks, shift, distinct), _card(starter_rank, 0)))
    if plain:
        # Starter of suit 3: jacks (at most three here) and its own rank take suits from 0 up.
        shift = dict.fromkeys(per_rank, 0)
        classes.append((plain, _spread(hand_ranks, shift, distinct), _card(starter_rank, _SUITS - 1)))
    return classes


def _spread(hand_ranks: tuple[int, ...], shift: dict[int, int], distinct: bool) -> list[Card]:
    """A hand of ``hand_ranks`` whose cards of each rank take consecutive suits from that rank's
    ``shift``, made not to be a flush: with all ranks distinct, the last card that is not a jack takes
    suit 1 when the suits would otherwise all be equal."""
    seen: Counter[int] = Counter()
    suits = []
    for rank in hand_ranks:
        suits.append(shift[rank] + seen[rank])
        seen[rank] += 1
    if distinct and len(set(suits)) == 1 and len(suits) > 1:
        last = max(i for i, rank in enumerate(hand_ranks) if rank != _JACK)
        suits[last] = 1
    return [_card(rank, suit) for rank, suit in zip(hand_ranks, suits, strict=True)]
