"""How fast ``cribbage`` commands start, as whole processes: ``cribbage --version`` and ``cribbage score
5H 5D 5C JS --starter 5S`` against ``python -c "import pydantic"`` (the reference) and a bare Python,
each run many times in turn (interleaved, so a busy machine slows them alike) and reported by the median.

By default the installed ``cribbage`` next to this interpreter is timed; ``--venv DIR`` (repeatable) times
the one in each virtual environment instead, each against its own Python's pydantic import, so that two
versions of cribcore can be compared in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = {
    "python -c pass": ["{python}", "-c", "pass"],
    'python -c "import pydantic"': ["{python}", "-c", "import pydantic"],
    "cribbage --version": ["{cribbage}", "--version"],
    "cribbage score 5H 5D 5C JS --starter 5S": [
        "{cribbage}",
        "score",
        "5H",
        "5D",
        "5C",
        "JS",
        "--starter",
        "5S",
    ],
}
REFERENCE = 'python -c "import pydantic"'


def _time(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40, help="runs of each command (default 40)")
    parser.add_argument("--venv", action="append", metavar="DIR", help="a virtual environment to time")
    args = parser.parse_args()
    bins = [Path(v) / "bin" for v in args.venv] if args.venv else [Path(sys.executable).parent]
    jobs = {
        (str(b), name): [part.format(python=b / "python", cribbage=b / "cribbage") for part in template]
        for b in bins
        for name, template in COMMANDS.items()
    }
    times: dict[tuple[str, str], list[float]] = {key: [] for key in jobs}
    for argv in jobs.values():  # warm the file cache once
        _time(argv)
    for _ in range(args.runs):
        for key, argv in jobs.items():
            times[key].append(_time(argv))
    for b in bins:
        print(f"{b.parent} (median of {args.runs} runs)")
        reference = statistics.median(times[(str(b), REFERENCE)])
        for name in COMMANDS:
            median = statistics.median(times[(str(b), name)])
            print(f"  {name:42} {median * 1000:7.1f} ms  {median / reference:5.2f}x the pydantic import")
    return 0


if __name__ == "__main__":
    sys.exit(main())
