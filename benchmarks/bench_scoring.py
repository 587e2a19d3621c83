"""Time `cribcore.scoring.score_show` per hand against the brute-force reference scorer.

Both score the same fixed random hands (four cards and a starter, half as hands and half as cribs) in
the same run, so the ratio does not depend on the machine. Run: ``python benchmarks/bench_scoring.py``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cribcore import FULL_DECK, Card, score_show
from tests.reference_scorer import reference_total

Deal = tuple[tuple[Card, ...], Card, bool]


def fixed_hands(count: int, seed: int) -> list[Deal]:
    rng = random.Random(seed)
    hands = []
    for i in range(count):
        cards = rng.sample(FULL_DECK, 5)
        hands.append((tuple(cards[:4]), cards[4], i % 2 == 1))
    return hands


def best_time(score: Callable[[Sequence[Card], Card, bool], int], hands: list[Deal], repeats: int) -> float:
    """The fastest of ``repeats`` passes over ``hands``, in seconds."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for hand, starter, crib in hands:
            score(hand, starter, crib)
        best = min(best, time.perf_counter() - start)
    return best


def engine_score(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    return score_show(hand, starter, crib=crib).total


def reference_score(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    return reference_total(hand, starter, crib=crib)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands to score (default 20000)")
    parser.add_argument("--repeats", type=int, default=3, help="passes; the fastest counts (default 3)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the fixed hands (default 2024)")
    args = parser.parse_args(argv)

    hands = fixed_hands(args.hands, args.seed)
    mismatches = sum(engine_score(*deal) != reference_score(*deal) for deal in hands)
    engine = best_time(engine_score, hands, args.repeats) / len(hands) * 1e6
    reference = best_time(reference_score, hands, args.repeats) / len(hands) * 1e6

    print(f"hands: {len(hands)} (seed {args.seed}, best of {args.repeats} passes)")
    print(f"score_show:          {engine:8.2f} µs/hand")
    print(f"reference (brute):   {reference:8.2f} µs/hand")
    print(f"ratio reference/score_show: {reference / engine:.2f}x")
    print(f"totals that disagree: {mismatches}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
