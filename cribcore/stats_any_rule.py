"""Show statistics for any profile: exact where its rules allow, sampled otherwise, never refused.

`show_statistics` picks the first way that applies:

1. the standard show or one of its flush variants: `cribcore.stats.show_distribution`'s table, exact;
2. a pack with no more combinations than the samples asked for: every combination scored, exact (the
   rules may see anything; small hands and cribs);
3. the 52 standard cards and a show that sees suits only through flushes and nobs:
   `cribcore.stats.show_distribution` by classes, exact (it checks the assumption as it counts and
   raises `SuitsSeen` when the profile breaks it);
4. otherwise ``samples`` combinations drawn at random from the profile's pack (`SampledDistribution`),
   every figure with its 95 % interval. The draws are seeded, so a seed gives the same table again.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from .proportions import wilson_interval
from .rulebook import Rulebook
from .stats import MAX_CARDS, Distribution, FlushRules, SuitsSeen, show_distribution

__all__ = [
    "DEFAULT_SAMPLES",
    "SampleReason",
    "SampledDistribution",
    "every_combination",
    "pack_combinations",
    "sample_distribution",
    "show_statistics",
]

DEFAULT_SAMPLES = 200_000
"""Combinations drawn for each of hands and cribs when a profile's show cannot be counted exactly: a few
seconds each under a plugin's show, and the mean within about ±0.015 points."""

_Z = 1.959964
"""The normal quantile of a two-sided 95 % interval."""

SampleReason = Literal["suits", "pack"]
"""Why a distribution is sampled: the show tells suits apart beyond flushes and nobs, or the pack holds
cards beyond the standard 52 (the classes count only those)."""


@dataclass(frozen=True, slots=True)
class SampledDistribution:
    """Show scores of ``sample.combinations`` combinations drawn uniformly at random (with replacement)
    from the ``combinations`` of ``cards`` cards and a starter in the profile's pack, with ``seed``.

    ``sample`` is the tally of the draws (its ``counts``, ``mean``, ``std``, ``median`` and ``mode`` are
    the estimates); each estimate here comes with its 95 % interval.
    """

    sample: Distribution
    combinations: int
    seed: int
    reason: SampleReason

    @property
    def cards(self) -> int:
        return self.sample.cards

    @property
    def crib(self) -> bool:
        return self.sample.crib

    @property
    def samples(self) -> int:
        return self.sample.combinations

    def share_interval(self, points: int) -> tuple[float, float]:
        """The 95 % (Wilson) interval of the share of all combinations scoring ``points``."""
        counts = self.sample.counts
        count = counts[points] if 0 <= points < len(counts) else 0
        low, high = wilson_interval(count, self.samples, _Z)
        # Rounding leaves a trace above 0 where nothing was drawn.
        return (0.0 if count == 0 else low), high

    @property
    def mean_interval(self) -> tuple[float, float]:
        """The mean plus or minus 1.96 standard errors."""
        half = _Z * self.sample.std / math.sqrt(self.samples)
        return self.sample.mean - half, self.sample.mean + half

    @property
    def std_interval(self) -> tuple[float, float]:
        """The standard deviation plus or minus 1.96 of its large-sample standard error,
        ``sqrt((m4 - s^4) / n) / (2 s)`` (``m4`` the fourth central moment), which needs no normal scores."""
        std = self.sample.std
        if std == 0:
            return 0.0, 0.0
        n = self.samples
        mean = self.sample.mean
        m4 = sum((p - mean) ** 4 * c for p, c in enumerate(self.sample.counts)) / n
        half = _Z * math.sqrt(max(m4 - std**4, 0.0) / n) / (2 * std)
        return max(0.0, std - half), std + half

    @property
    def median_interval(self) -> tuple[int, int]:
        """The scores at the draws ranked ``n/2 ± 1.96 sqrt(n)/2`` (the distribution-free interval of a
        median, from the binomial count of draws below it)."""
        n = self.samples
        spread = _Z * math.sqrt(n) / 2
        low = max(1, math.floor(n / 2 - spread))
        high = min(n, math.ceil(n / 2 + 1 + spread))
        return self._ranked(low), self._ranked(high)

    @property
    def mode_candidates(self) -> tuple[int, ...]:
        """The scores that may be the most common: those whose share's interval reaches the lower end of
        the most common score's."""
        floor = self.share_interval(self.sample.mode)[0]
        counts = self.sample.counts
        return tuple(p for p in range(len(counts)) if counts[p] and self.share_interval(p)[1] >= floor)

    @property
    def above_maximum(self) -> float:
        """An upper 95 % bound of the share of combinations scoring more than the highest score drawn
        (``3/n``: no draw of ``n`` found one)."""
        return 3 / self.samples

    def _ranked(self, rank: int) -> int:
        """The score of the draw ranked ``rank`` (from 1) from the lowest."""
        seen = 0
        for points, count in enumerate(self.sample.counts):
            seen += count
            if seen >= rank:
                return points
        return self.sample.maximum

    def to_json(self) -> dict[str, object]:
        sample = self.sample
        return {
            "cards": self.cards,
            "crib": self.crib,
            "method": "sampled",
            "sampled_because": self.reason,
            "flush_needs_starter": sample.rules.needs_starter(crib=self.crib),
            "combinations": self.combinations,
            "samples": self.samples,
            "seed": self.seed,
            "counts": list(sample.counts),
            "share_ci95": [list(self.share_interval(p)) for p in range(len(sample.counts))],
            "mean": sample.mean,
            "mean_ci95": list(self.mean_interval),
            "std": sample.std,
            "std_ci95": list(self.std_interval),
            "median": sample.median,
            "median_ci95": list(self.median_interval),
            "mode": sample.mode,
            "mode_candidates": list(self.mode_candidates),
            "max": sample.maximum,
            "above_max_at_most": self.above_maximum,
        }


def pack_combinations(book: Rulebook, cards: int) -> int:
    """How many sets of ``cards`` cards and a starter the profile's pack holds."""
    size = len(book.pack)
    return math.comb(size, cards) * (size - cards)


def every_combination(book: Rulebook, cards: int, *, crib: bool, rules: FlushRules) -> Distribution:
    """The exact distribution by scoring every combination of the profile's pack, one by one."""
    pack = book.pack
    score = book.show_counter
    tally: Counter[int] = Counter()
    for hand in combinations(pack, cards):
        for starter in pack:
            if starter not in hand:
                tally[score(hand, starter, crib=crib)] += 1
    return Distribution(cards=cards, crib=crib, rules=rules, counts=_counts(tally))


def sample_distribution(
    book: Rulebook,
    cards: int,
    *,
    crib: bool,
    rules: FlushRules,
    samples: int,
    seed: int,
    reason: SampleReason,
) -> SampledDistribution:
    """``samples`` combinations drawn uniformly with replacement from the profile's pack and scored.
    Hands and cribs draw from streams of their own, so either gives the same figures alone or with the
    other."""
    if samples < 1:
        raise ValueError(f"at least one sample, not {samples}")
    rng = random.Random(f"cribcore stats {seed} {'crib' if crib else 'hand'}")
    pack = list(book.pack)
    draw = rng.sample
    score = book.show_counter
    size = cards + 1
    tally: Counter[int] = Counter()
    for _ in range(samples):
        dealt = draw(pack, size)
        tally[score(dealt[:cards], dealt[cards], crib=crib)] += 1
    sample = Distribution(cards=cards, crib=crib, rules=rules, counts=_counts(tally))
    return SampledDistribution(sample, pack_combinations(book, cards), seed, reason)


def show_statistics(
    book: Rulebook,
    cards: int,
    *,
    crib: bool,
    rules: FlushRules,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
) -> Distribution | SampledDistribution:
    """The show scores of ``cards`` cards and a starter under ``book``, as a hand or, with ``crib``, a
    crib: exact where the profile allows, otherwise ``samples`` draws with ``seed`` (the module
    docstring says which). ``rules`` are the profile's flush rules, reported with the figures.

    Raises `ValueError` only for a number of cards outside 1 to `cribcore.stats.MAX_CARDS` or no samples."""
    if not 1 <= cards <= MAX_CARDS:
        raise ValueError(f"a hand or crib for the statistics has 1 to {MAX_CARDS} cards, not {cards}")
    if samples < 1:
        raise ValueError(f"at least one sample, not {samples}")
    extra = book.has_extra_cards
    if book.flush_rules is not None and not extra:
        return show_distribution(cards, crib=crib, rules=rules, rulebook=book)
    if pack_combinations(book, cards) <= samples:
        return every_combination(book, cards, crib=crib, rules=rules)
    if not extra:
        try:
            return show_distribution(cards, crib=crib, rules=rules, rulebook=book)
        except SuitsSeen:
            pass
    reason: SampleReason = "pack" if extra else "suits"
    return sample_distribution(book, cards, crib=crib, rules=rules, samples=samples, seed=seed, reason=reason)


def _counts(tally: Counter[int]) -> tuple[int, ...]:
    return tuple(tally.get(points, 0) for points in range(max(tally) + 1))
