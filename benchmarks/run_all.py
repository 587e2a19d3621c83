"""Run every benchmark in turn: scoring per hand, games per second, and ``cribbage stats``.

Run: ``python benchmarks/run_all.py`` (about a minute on two cores); ``--exhaustive`` adds the
one-by-one check of all 12,994,800 hands (`exhaustive_show.py`). Exits 1 if any benchmark's own
correctness check fails.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# Last, for tests/ and benchmarks/ of this checkout only: cribcore itself comes from the installed
# package, never from the checkout put before it.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from benchmarks import bench_games, bench_scoring, bench_stats, exhaustive_show


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--exhaustive", action="store_true", help="also score all 12,994,800 hands")
    args = parser.parse_args(argv)
    status = 0
    for title, run in (
        ("scoring", lambda: bench_scoring.main([])),
        ("games", lambda: bench_games.main([])),
        ("stats", lambda: bench_stats.main([])),
        *((("exhaustive show", exhaustive_show.main),) if args.exhaustive else ()),
    ):
        print(f"== {title}", flush=True)
        status |= run()
        print(flush=True)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
