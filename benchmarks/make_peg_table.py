"""Generate ``cribcore/players/peg_table.json``: each side's expected pegging by the four ranks kept.

The method is stated in `cribcore.players.pegtable`: for every multiset of four kept ranks and each
role, every opponent's four ranks (weighed by their number of ways and how likely a sound player keeps
them) played out by the hard level's quick rule. Exact, so no seed: the same file on every run.

Run: ``nice -n 10 python benchmarks/make_peg_table.py [--jobs N] [--out PATH]`` (about a minute of CPU).
"""

from __future__ import annotations

import argparse
import time
from multiprocessing import Pool
from pathlib import Path

from cribcore.files import atomic_write_text
from cribcore.players.pegtable import KEYS, entry, table_from_json, table_to_json

OUT = Path(__file__).resolve().parent.parent / "cribcore" / "players" / "peg_table.json"
COMMAND = "python benchmarks/make_peg_table.py"


def both(key: tuple[int, ...]) -> tuple[tuple[float, float], tuple[float, float]]:
    return entry(key, True), entry(key, False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="local processes (default 2)")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write the table")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    began = time.perf_counter()
    with Pool(args.jobs) as pool:
        rows = pool.map(both, KEYS, chunksize=20)
    text = table_to_json([r[0] for r in rows], [r[1] for r in rows], COMMAND)
    table_from_json(text)  # never write a file that does not read back
    atomic_write_text(args.out, text)
    print(f"{args.out}: {len(KEYS)} keeps x 2 roles in {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
