"""Unattended games per second for every computer kind, and for `cribcore.simulate` on local processes.

Each kind in the player registry (`cribcore.players.COMPUTER_KINDS`) plays itself on the standard
profile, games 0, 1, 2, … of one seeded run, exactly as ``cribbage simulate`` plays them (each seat
decides from its own `SeatView`), for a time budget. ``random`` is the reference measured in the same
run: the ratio says how many times slower a kind's games are, whatever the machine. Last, the whole
``simulate`` path (processes, tallies) plays random games on every core.
Run: ``python benchmarks/bench_games.py [--seconds 3]``.
"""

from __future__ import annotations

import argparse
import time

from cribcore import load_profile
from cribcore.players import COMPUTER_KINDS
from cribcore.simulate import Matchup, default_jobs, play_game, simulate

REFERENCE = "random"


def games_per_second(kind: str, seconds: float, min_games: int) -> tuple[float, int, float]:
    """Games per second of ``kind`` against itself over games 0, 1, … until ``seconds`` have passed
    (and at least ``min_games`` were played); also the games played and the mean deals per game."""
    matchup = Matchup(load_profile(), (kind, kind), seed=0)
    games = deals = 0
    start = time.perf_counter()
    while games < min_games or time.perf_counter() - start < seconds:
        deals += play_game(matchup, games).deal_number + 1
        games += 1
    return games / (time.perf_counter() - start), games, deals / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per kind (default 3)")
    parser.add_argument("--min-games", type=int, default=3, help="games per kind at least (default 3)")
    parser.add_argument("--simulate-games", type=int, default=2000, help="games for simulate (default 2000)")
    args = parser.parse_args(argv)

    kinds = [REFERENCE, *(kind for kind in COMPUTER_KINDS if kind != REFERENCE)]
    rates: dict[str, float] = {}
    for kind in kinds:
        rate, games, deals = games_per_second(kind, args.seconds, args.min_games)
        rates[kind] = rate
        ratio = rate / rates[REFERENCE]
        print(
            f"{kind:>8} vs {kind:<8} {rate:9.1f} games/s  ({games} games, {deals:.1f} deals each)  "
            f"ratio to {REFERENCE}: {ratio:.4f}"
        )
    jobs = default_jobs()
    start = time.perf_counter()
    simulate(args.simulate_games, (REFERENCE, REFERENCE), seed=0, jobs=jobs)
    rate = args.simulate_games / (time.perf_counter() - start)
    print(
        f"simulate {args.simulate_games} {REFERENCE} games on {jobs} processes: {rate:.1f} games/s  "
        f"(ratio to one process: {rate / rates[REFERENCE]:.2f})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
