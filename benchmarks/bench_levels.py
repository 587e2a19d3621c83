"""Strength of the computer levels: duplicate games, discard accuracy, and decision time.

Each pairing (``hard-medium`` and ``medium-easy`` by default) plays duplicate games on the standard
profile: for every seed, level A sits at seat 0 and B at seat 1, then the same seed is played again
with the seats swapped, so both levels get exactly the same cards and the luck of the deal cancels.
It prints:

- A's win rate over all games with a 95 % interval taken over the duplicate pairs (a pair scores 1, 0.5
  or 0 for A; the interval is the mean plus or minus 1.96 standard errors of the pair scores);
- for every level, the points it lost per deal against the exact best discard: the net of
  `cribcore.analysis.discard_options` (expected hand plus or minus expected crib) of the best legal
  discard minus that of the discard it made, averaged over all its discards;
- for the hard level, the median (and 90th percentile) time of a decision with more than one legal
  action, for discards and plays separately and together.

Run: ``python benchmarks/bench_levels.py [--pairs 2000] [--workers 2] [--pairing hard-medium ...]``.
Not part of the test suite. 2,000 pairs (4,000 games) per pairing take about 10 minutes on two cores.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool

from cribcore import Card, Discard, Game
from cribcore.analysis import discard_options
from cribcore.players import make_player


@dataclass
class Tally:
    """What one or more games produced, merged across workers."""

    wins: list[float] = field(default_factory=list)  # per pair, for level A
    games: int = 0
    a_wins: int = 0
    deals: int = 0
    loss: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))

    def merge(self, other: Tally) -> None:
        self.wins.extend(other.wins)
        self.games += other.games
        self.a_wins += other.a_wins
        self.deals += other.deals
        for key, values in other.loss.items():
            self.loss[key].extend(values)
        for key, values in other.times.items():
            self.times[key].extend(values)


def discard_loss(hand: Sequence[Card], action: Discard, own: bool) -> float:
    """Net points the discard gives up against the best one (standard two-player crib of four)."""
    options = discard_options(hand, len(action.cards), own_crib=own)
    chosen = next(o for o in options if o.discard == action.cards)
    return options[0].net - chosen.net


def play_game(seed: int, levels: tuple[str, str], tally: Tally) -> int:
    """Play one game with ``levels`` at seats 0 and 1; return the winning seat."""
    game = Game(seed=seed)
    players = [make_player(level, seed * 2 + seat) for seat, level in enumerate(levels)]
    while game.to_act:
        seat = game.to_act[0]
        view = game.view(seat)
        start = time.perf_counter()
        action = players[seat].choose(view)
        elapsed = (time.perf_counter() - start) * 1000
        level = levels[seat]
        if isinstance(action, Discard):
            tally.loss[level].append(discard_loss(view.hand, action, view.is_dealer))
        if level == "hard" and len(view.legal_actions) > 1:
            tally.times["discard" if isinstance(action, Discard) else "play"].append(elapsed)
        game.apply(seat, action)
    tally.deals += game.deal_number + 1
    assert game.winner is not None
    return game.winner


def duplicate(task: tuple[int, str, str]) -> Tally:
    """One duplicate pair: the seed with A at seat 0, then with A at seat 1."""
    seed, a, b = task
    tally = Tally()
    first = play_game(seed, (a, b), tally) == 0
    second = play_game(seed, (b, a), tally) == 1
    tally.games = 2
    tally.a_wins = int(first) + int(second)
    tally.wins.append((int(first) + int(second)) / 2)
    return tally


def median_and_p90(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    median = statistics.median(ordered)
    return f"median {median:.2f} ms, 90th percentile {p90:.2f} ms ({len(ordered)} decisions)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2000, help="duplicate pairs per pairing (2000)")
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument("--first-seed", type=int, default=0, help="seeds first, first+1, ... (0)")
    parser.add_argument(
        "--pairing",
        action="append",
        metavar="A-B",
        help="levels to pair, e.g. hard-medium (default: hard-medium and medium-easy)",
    )
    args = parser.parse_args(argv)
    pairings = args.pairing or ["hard-medium", "medium-easy"]
    all_loss: dict[str, list[float]] = defaultdict(list)
    all_times: dict[str, list[float]] = defaultdict(list)
    with Pool(args.workers) as pool:
        for pairing in pairings:
            a, b = pairing.split("-")
            start = time.perf_counter()
            tally = Tally()
            seeds = range(args.first_seed, args.first_seed + args.pairs)
            for part in pool.imap_unordered(duplicate, [(s, a, b) for s in seeds], chunksize=8):
                tally.merge(part)
            elapsed = time.perf_counter() - start
            n = len(tally.wins)
            mean = statistics.fmean(tally.wins)
            half = 1.96 * statistics.stdev(tally.wins) / math.sqrt(n) if n > 1 else float("nan")
            rate = tally.a_wins / tally.games
            print(
                f"{a} vs {b}: {a} wins {tally.a_wins} of {tally.games} games = {rate:.1%}, "
                f"95% interval {mean - half:.1%} to {mean + half:.1%} over {n} duplicate pairs "
                f"({tally.deals / tally.games:.1f} deals a game, {elapsed:.0f} s)",
                flush=True,
            )
            for key, values in tally.loss.items():
                all_loss[key].extend(values)
            for key, values in tally.times.items():
                all_times[key].extend(values)
    for level in ("easy", "medium", "hard"):
        values = all_loss.get(level, [])
        if values:
            exact = sum(1 for v in values if v < 1e-9) / len(values)
            lost = statistics.fmean(values)
            print(
                f"{level}: {lost:.3f} points lost per deal against the exact best discard "
                f"({exact:.1%} of {len(values)} discards were the best)"
            )
    if all_times:
        print(f"hard discard: {median_and_p90(all_times['discard'])}")
        print(f"hard play:    {median_and_p90(all_times['play'])}")
        print(f"hard, all:    {median_and_p90(all_times['discard'] + all_times['play'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
