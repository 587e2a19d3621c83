"""Score every one of the 12,994,800 hands of four cards plus a starter one by one, as a hand and as a
crib, with the fast total, and compare the distribution with the published figures (0 points:
1,009,008; 29: 4; 28: 76) and, count for count, with the class counting of ``cribbage stats``
(`cribcore.stats`).

A correctness check, not a timing, and too slow for the test suite (about 30 s on two cores); run by
hand: ``python benchmarks/exhaustive_show.py``. Exits 1 when a figure disagrees.
"""

from __future__ import annotations

import collections
import itertools
import multiprocessing
import sys
import time

from cribcore.cards import FULL_DECK
from cribcore.scoring import show_total
from cribcore.stats import show_distribution

Tally = collections.Counter[int]


def tally(first: int) -> tuple[Tally, Tally]:
    """Hand and crib score counts for the hands whose lowest card is ``FULL_DECK[first]``."""
    hands: Tally = collections.Counter()
    cribs: Tally = collections.Counter()
    for rest in itertools.combinations(FULL_DECK[first + 1 :], 3):
        hand = (FULL_DECK[first], *rest)
        for starter in FULL_DECK:
            if starter in hand:
                continue
            hands[show_total(hand, starter)] += 1
            cribs[show_total(hand, starter, crib=True)] += 1
    return hands, cribs


def main() -> int:
    start = time.perf_counter()
    hands: Tally = collections.Counter()
    cribs: Tally = collections.Counter()
    with multiprocessing.Pool() as pool:
        for hand_part, crib_part in pool.imap_unordered(tally, range(len(FULL_DECK) - 3)):
            hands.update(hand_part)
            cribs.update(crib_part)
    elapsed = time.perf_counter() - start
    total = sum(hands.values())
    hand_mean = sum(points * n for points, n in hands.items()) / total
    crib_mean = sum(points * n for points, n in cribs.items()) / total
    stats_hands = show_distribution(4).counts
    stats_cribs = show_distribution(4, crib=True).counts
    checks = [
        ("combinations", total, 12_994_800),
        ("hands scoring 0", hands[0], 1_009_008),
        ("hands scoring 29", hands[29], 4),
        ("hands scoring 28", hands[28], 76),
        ("hands scoring 19, 25, 26 or 27", sum(hands[p] for p in (19, 25, 26, 27)), 0),
        ("mean hand (4 places)", round(hand_mean, 4), 4.7692),
        ("cribs scoring 0", cribs[0], 1_022_208),
        ("mean crib (4 places)", round(crib_mean, 4), 4.7348),
    ]
    failed = False
    for name, got, want in checks:
        ok = got == want
        failed |= not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {got} (published {want})")
    for name, counted, stats in (("hands", hands, stats_hands), ("cribs", cribs, stats_cribs)):
        ok = tuple(counted.get(p, 0) for p in range(len(stats))) == stats and max(counted) < len(stats)
        failed |= not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: every count equals cribbage stats'")
    print(f"{elapsed:.0f} s to score them one by one")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
