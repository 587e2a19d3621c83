"""Generate ``cribcore/players/crib_table.json``: the expected crib for the cards laid away.

The method is stated in `cribcore.players.crib`. In short: the ``random`` and ``one`` tables are exact
enumerations (the other crib cards and the starter uniformly among the unseen cards); the ``dealer`` and
``pone`` tables simulate deals in which the opponent discards soundly (best average hand plus or minus
the ``random`` crib value) and average each crib exactly over the starters left.

Run: ``python benchmarks/make_crib_table.py [--samples N] [--workers N]``; the default 10,000 deals per
pair and role (those of the shipped table) take 10 to 20 minutes on two cores. Deterministic for given
options.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from itertools import combinations
from multiprocessing import Pool
from pathlib import Path

from cribcore.players.crib import RANK_SYMBOLS, pair_key
from cribcore.players.tally import JACK, RANK, SUIT, hand_values, rank_points

OUT = Path(__file__).resolve().parent.parent / "cribcore" / "players" / "crib_table.json"


def card(rank: int, suit: int) -> int:
    return (rank - 1) * 4 + suit


def pair_cards() -> dict[str, tuple[int, int]]:
    """One representative pair of cards per key (suits are symmetric)."""
    keys: dict[str, tuple[int, int]] = {}
    for low in range(1, 14):
        for high in range(low, 14):
            keys[pair_key(card(low, 0), card(high, 1))] = (card(low, 0), card(high, 1))
            if low != high:
                keys[pair_key(card(low, 0), card(high, 0))] = (card(low, 0), card(high, 0))
    return keys


def crib_average(known: Sequence[int], unseen: Sequence[int], others: int) -> float:
    """Exact average crib count: ``known`` cards plus ``others`` more and a starter, all from ``unseen``.

    Each set of ``others + 1`` unseen cards is counted once with each of its cards as the starter (only
    nobs tells the starter apart: the crib flush needs all five cards of one suit either way).
    """
    known_ranks = [RANK[c] for c in known]
    total = 0.0
    sets = 0
    for extra in combinations(unseen, others + 1):
        ranks = tuple(sorted(known_ranks + [RANK[c] for c in extra]))
        points = rank_points(ranks)
        cards = (*known, *extra)
        suit = SUIT[cards[0]]
        if all(SUIT[c] == suit for c in cards):
            points += 5
        jack_suits = [SUIT[c] for c in cards if RANK[c] == JACK]
        nobs = 0
        for starter in extra:
            # The starter itself is not in the crib: a jack starter gives no nobs.
            nobs += sum(1 for c in cards if c != starter and RANK[c] == JACK and SUIT[c] == SUIT[starter])
        total += points + (nobs / len(extra) if jack_suits else 0.0)
        sets += 1
    return total / sets


def random_pair(key_cards: tuple[str, tuple[int, int]]) -> tuple[str, float]:
    key, pair = key_cards
    unseen = [c for c in range(52) if c not in pair]
    return key, crib_average(pair, unseen, 2)


def random_one(rank: int) -> tuple[str, float]:
    mine = card(rank, 0)
    unseen = [c for c in range(52) if c != mine]
    return RANK_SYMBOLS[rank - 1], crib_average((mine,), unseen, 3)


def best_discard(hand: Sequence[int], baseline: dict[str, float], own_crib: bool) -> tuple[int, int]:
    """The discard a sound player makes: best average hand over its 46 starters +/- the crib value."""
    starters = [c for c in range(52) if c not in hand]
    sign = 1.0 if own_crib else -1.0
    best: tuple[float, tuple[int, int]] | None = None
    for pair in combinations(hand, 2):
        kept = [c for c in hand if c not in pair]
        values = hand_values(kept, starters)
        net = sum(values) / len(values) + sign * baseline[pair_key(*pair)]
        if best is None or net > best[0]:
            best = (net, pair)
    assert best is not None
    return best[1]


def simulate(task: tuple[str, tuple[int, int], bool, int, dict[str, float]]) -> tuple[str, bool, float]:
    """The average crib when a seat lays ``pair`` away (to its own crib when ``dealer``)."""
    key, pair, dealer, samples, baseline = task
    rng = random.Random(f"crib-table/{key}/{dealer}")
    rest = [c for c in range(52) if c not in pair]
    total = 0.0
    for _ in range(samples):
        rng.shuffle(rest)
        opponent = rest[4:10]  # rest[:4] are the seat's other cards
        thrown = best_discard(opponent, baseline, own_crib=not dealer)
        crib = (*pair, *thrown)
        starters = rest[10:]
        total += sum(hand_values(crib, starters, crib=True)) / len(starters)
    return key, dealer, total / samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=10000, help="deals per pair and role (10000)")
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write the table")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    keys = pair_cards()
    with Pool(args.workers) as pool:
        baseline = dict(pool.map(random_pair, sorted(keys.items())))
        one = dict(pool.map(random_one, range(1, 14)))
        print(f"exact tables: {time.perf_counter() - start:.0f} s", flush=True)
        tasks = [
            (key, pair, dealer, args.samples, baseline)
            for key, pair in sorted(keys.items())
            for dealer in (True, False)
        ]
        results = pool.map(simulate, tasks, chunksize=4)
    dealer_table = {key: round(value, 3) for key, is_dealer, value in results if is_dealer}
    pone_table = {key: round(value, 3) for key, is_dealer, value in results if not is_dealer}
    data = {
        "source": (
            "self-computed by benchmarks/make_crib_table.py: random and one by exact enumeration; "
            f"dealer and pone by simulation, {args.samples} deals per pair and role, "
            "exact over the starters left"
        ),
        "dealer": dealer_table,
        "pone": pone_table,
        "random": {key: round(value, 3) for key, value in sorted(baseline.items())},
        "one": {key: round(value, 3) for key, value in one.items()},
    }
    args.out.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    mean = sum(baseline.values()) / len(baseline)
    print(f"wrote {args.out} in {time.perf_counter() - start:.0f} s (mean random pair value {mean:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
