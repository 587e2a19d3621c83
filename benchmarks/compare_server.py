"""The server's load run against a reference build, side by side: moves per second of server CPU.

Runs `bench_server.run_load` (friend rooms played to the end over WebSockets by computer seats)
alternately against this checkout's ``cribbage serve`` and a reference build's (another cribcore
installed in another environment, for example a wheel of an older commit: ``--reference
/tmp/venv-base/bin/python``), ``--rounds`` times each. The figure is the seats' moves (discards and
plays) per second of the server process's own CPU time (user and system, read from ``/proc``), so
the client's own work does not count; each build keeps its best round (and its median), and the
ratio is ours over the reference's. Every round must be played to the end without an error (for the
reference build, without an error message: its events may be worded otherwise than this checkout's).

The same client plays both builds: it reads a full state message, as every build sends, and the
changes-only states of builds that send them (``docs/server.md``).

Run (nice, on a shared machine): ``nice -n 10 python benchmarks/compare_server.py --reference
/tmp/venv-base/bin/python --rooms 40 --rounds 3``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

# Last, for tests/ and benchmarks/ of this checkout only: cribcore itself comes from the installed
# package, never from the checkout put before it.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from benchmarks import bench_server


def one_round(
    python: str, rooms: int, kind: str, seed: int, reference: bool, reference_changes: bool = False
) -> dict[str, Any]:
    """One load run against the server that ``python`` runs. A reference server is started outside
    this checkout, so that its ``python -m cribcore.cli`` imports its own installed cribcore; its seats
    take whole states unless ``reference_changes`` (a build that knows states of changes)."""
    saved_python, saved_root, saved_changes = sys.executable, bench_server.ROOT, bench_server.ASK_FOR_CHANGES
    with tempfile.TemporaryDirectory(prefix="compare-server-") as elsewhere:
        # The bench starts ``sys.executable -m cribcore.cli serve`` in ROOT: point both at the build.
        sys.executable = python
        if reference:
            bench_server.ROOT = Path(elsewhere)
            # An older build refuses a hello field it does not know.
            bench_server.ASK_FOR_CHANGES = reference_changes
        try:
            run = asyncio.run(bench_server.run_load(rooms, kind, seed))
        finally:
            sys.executable, bench_server.ROOT = saved_python, saved_root
            bench_server.ASK_FOR_CHANGES = saved_changes
    cpu = run.server_cpu or 0.0
    problems = run.tally.errors[:3]
    if not reference:  # another build may word its events otherwise than this checkout's wire module
        problems += [f"{room}: {p}" for room, p in list(run.problems().items())[:3]]
    return {
        "actions": run.play_actions,
        "nexts": run.tally.nexts,
        "messages": run.play_messages,
        "server_cpu_seconds": cpu,
        "moves_per_cpu_second": run.play_actions / cpu if cpu else 0.0,
        "ok": not problems and run.finished == rooms and run.server_exit == 0,
        "problems": problems,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--reference", required=True, help="the reference build's python")
    parser.add_argument("--ours", default=sys.executable, help="this checkout's python (default: this one)")
    parser.add_argument("--rooms", type=int, default=40, help="rooms played at once (default 40)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each build, alternating (default 3)")
    parser.add_argument("--players", default="medium", help="computer kind (default medium)")
    parser.add_argument("--seed", type=int, default=1, help="room i is seeded seed + i (default 1)")
    parser.add_argument(
        "--reference-changes",
        action="store_true",
        help="the reference knows states of changes (a recent build): its seats ask for them too",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    rounds: dict[str, list[dict[str, Any]]] = {"reference": [], "ours": []}
    for _ in range(args.rounds):
        for name, python in (("reference", args.reference), ("ours", args.ours)):
            result = one_round(
                python, args.rooms, args.players, args.seed, name == "reference", args.reference_changes
            )
            rounds[name].append(result)
            if not args.json:
                print(
                    f"{name:9} {result['moves_per_cpu_second']:7.0f} moves per server CPU-second "
                    f"({result['actions']} moves, {result['server_cpu_seconds']:.2f} s)"
                    + ("" if result["ok"] else f"  FAILED: {result['problems']}"),
                    flush=True,
                )
    best = {name: max(r["moves_per_cpu_second"] for r in results) for name, results in rounds.items()}
    median = {
        name: statistics.median(r["moves_per_cpu_second"] for r in results)
        for name, results in rounds.items()
    }
    ratio = best["ours"] / best["reference"] if best["reference"] else 0.0
    median_ratio = median["ours"] / median["reference"] if median["reference"] else 0.0
    # Each round's ratio to the reference's run just before it: the machine's load drifts less
    # within a pair than across the whole run.
    paired = statistics.median(
        o["moves_per_cpu_second"] / r["moves_per_cpu_second"]
        for r, o in zip(rounds["reference"], rounds["ours"], strict=True)
        if r["moves_per_cpu_second"]
    )
    ok = all(r["ok"] for results in rounds.values() for r in results)
    if args.json:
        figures = {
            "best": best,
            "ratio": ratio,
            "median": median,
            "median_ratio": median_ratio,
            "paired_median_ratio": paired,
        }
        print(json.dumps({"rounds": rounds, **figures, "ok": ok}, indent=1))
    else:
        print(
            f"best: reference {best['reference']:.0f}, ours {best['ours']:.0f} moves per server "
            f"CPU-second; ratio {ratio:.2f}x"
        )
        print(
            f"median: reference {median['reference']:.0f}, ours {median['ours']:.0f}; "
            f"ratio {median_ratio:.2f}x"
        )
        print(f"median of the rounds' own ratios (each to the reference's run before it): {paired:.2f}x")
        print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
