"""Time ``cribbage stats``: the exact standard hand and crib tables, cold, in a fresh process.

Runs ``cribbage stats --json`` (both tables, interpreter start included) and, separately, the library
calls alone in a fresh interpreter, then the seven-card hands (122,151,120 combinations). The reference
is what scoring all 2 × 12,994,800 combinations one by one with the reference scorer would take, from
its time per hand measured in the same run. Run: ``python benchmarks/bench_stats.py``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

# Last, for tests/ and benchmarks/ of this checkout only: cribcore itself comes from the installed
# package, never from the checkout put before it.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_scoring import best_time, fixed_hands, reference_score

COMBINATIONS = 12_994_800

LIBRARY = """
import time
start = time.perf_counter()
from cribcore.stats import show_distribution
hands = show_distribution({cards})
cribs = show_distribution({cards}, crib=True)
print(time.perf_counter() - start)
"""


def timed(command: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands to time the reference on (3000)")
    args = parser.parse_args(argv)

    cli, out = timed([sys.executable, "-m", "cribcore.cli", "stats", "--json"])
    data = json.loads(out)
    ok = (
        data["hand"]["counts"][0] == 1_009_008
        and data["hand"]["counts"][29] == 4
        and data["crib"]["counts"][0] == 1_022_208
    )
    _, library = timed([sys.executable, "-c", LIBRARY.format(cards=4)])
    seven, _ = timed(
        [sys.executable, "-m", "cribcore.cli", "stats", "--profile", "seven-card", "--hand", "--json"]
    )
    reference = best_time(reference_score, fixed_hands(args.hands, 2024), 1) / args.hands
    brute = 2 * COMBINATIONS * reference

    print(f"cribbage stats (standard hand + crib, fresh process): {cli:6.2f} s   published figures: {ok}")
    print(f"  of which the two tables:                            {float(library):6.2f} s")
    print(f"cribbage stats --profile seven-card --hand:           {seven:6.2f} s")
    per_hand = f"{reference * 1e6:.1f} µs/hand"
    print(f"reference scorer, one by one (estimated, one core):  {brute:6.0f} s   ({per_hand})")
    print(f"ratio reference/stats: {brute / cli:.0f}x")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
