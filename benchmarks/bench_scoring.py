"""Time the show scorers per hand against the brute-force reference scorer, in the same run.

Scores the same fixed random hands (four cards and a starter, every other one as a crib) with
`cribcore.scoring.show_total` (the fast total), `cribcore.scoring.score_show` (the itemized count the
engine shows), and the deliberately plain all-subsets scorer of `tests/reference_scorer.py`. The ratios
do not depend on the machine. Run: ``python benchmarks/bench_scoring.py``; exits 1 if any total differs.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

# Last, for tests/ and benchmarks/ of this checkout only: cribcore itself comes from the installed
# package, never from the checkout put before it.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from cribcore import FULL_DECK, Card, score_show
from cribcore.scoring import show_total
from tests.reference_scorer import reference_total

Deal = tuple[tuple[Card, ...], Card, bool]
Scorer = Callable[[Sequence[Card], Card, bool], int]


def fixed_hands(count: int, seed: int) -> list[Deal]:
    rng = random.Random(seed)
    hands = []
    for i in range(count):
        cards = rng.sample(FULL_DECK, 5)
        hands.append((tuple(cards[:4]), cards[4], i % 2 == 1))
    return hands


def one_pass(score: Scorer, hands: list[Deal]) -> float:
    start = time.perf_counter()
    for hand, starter, crib in hands:
        score(hand, starter, crib)
    return time.perf_counter() - start


def best_time(score: Scorer, hands: list[Deal], repeats: int) -> float:
    """The fastest of ``repeats`` passes over ``hands``, in seconds."""
    return min(one_pass(score, hands) for _ in range(repeats))


def fast_score(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    return show_total(hand, starter, crib=crib)


def itemized_score(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    return score_show(hand, starter, crib=crib).total


def reference_score(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    return reference_total(hand, starter, crib=crib)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands to score (default 20000)")
    parser.add_argument("--repeats", type=int, default=3, help="passes; the fastest counts (default 3)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the fixed hands (default 2024)")
    args = parser.parse_args(argv)

    hands = fixed_hands(args.hands, args.seed)
    # The first pass of the fast total also fills its rank table (from empty: nothing is built at import).
    cold = one_pass(fast_score, hands) / len(hands) * 1e6
    mismatches = sum(
        fast_score(*deal) != reference_score(*deal) or itemized_score(*deal) != fast_score(*deal)
        for deal in hands
    )
    fast = best_time(fast_score, hands, args.repeats) / len(hands) * 1e6
    itemized = best_time(itemized_score, hands, args.repeats) / len(hands) * 1e6
    reference = best_time(reference_score, hands, args.repeats) / len(hands) * 1e6

    print(f"hands: {len(hands)} (seed {args.seed}, best of {args.repeats} passes)")
    print(f"show_total (fast):        {fast:8.2f} µs/hand   (first pass, filling its table: {cold:.2f})")
    print(f"score_show (itemized):    {itemized:8.2f} µs/hand")
    print(f"reference (all subsets):  {reference:8.2f} µs/hand")
    print(f"ratio reference/show_total: {reference / fast:6.1f}x")
    print(f"ratio reference/score_show: {reference / itemized:6.1f}x")
    print(f"totals that disagree: {mismatches}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
