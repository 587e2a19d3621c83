"""A level's decision time (hard by default) against reference builds of cribcore, side by side in one run.

The positions are the same for every build: seeded games of the medium level against itself on the
standard profile (``Game(seed=s)``, medium players seeded ``2s`` and ``2s + 1``); at every decision
with more than one legal card (the play) or discard, the level (``make_player(LEVEL, 7)``) is
asked what it would do, and the CPU time of that one call is noted. Each build runs in a fresh
process (the reference interpreters from a neutral directory, so that they import their own
cribcore); one warm-up game first fills the level's lookup tables. Builds take turns, round after
round, and each keeps its round with the least total time.

Printed per build: the play decision's median and 99th percentile, the discard's, and the ratio of
each reference's to ours (above 1: we are faster). ``--shuffled`` adds this checkout's hard level
drawing its hands by shuffling, as it did before (`HardPlayer.shuffled_draws`), whose choices are
exactly the old ones for the same seed.

Run: ``python benchmarks/bench_decisions.py --reference 48e0aed=/tmp/venv-48e0aed/bin/python
--reference e24d759=/tmp/basevenv/bin/python [--level hard|expert] [--games 8] [--rounds 2]
[--shuffled]`` (the expert's table is loaded in the warm-up game, outside the times).
Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()


def _times(games: int, shuffled: bool, level: str) -> dict[str, list[float]]:
    """Milliseconds of CPU per decision of ``level``, by kind, over ``games`` games (run inside a worker)."""
    from cribcore.engine import Game
    from cribcore.players import make_player

    player = make_player(level, 7)
    if shuffled:
        player.shuffled_draws = True  # type: ignore[attr-defined]
    times: dict[str, list[float]] = {"play": [], "discard": []}
    for seed in range(games + 1):
        game = Game(seed=1000 + seed)
        players = [make_player("medium", 2 * seed + s) for s in range(game.rules.seats)]
        while not game.is_over:
            seat = game.to_act[0]
            view = game.view(seat)
            actions = view.legal_actions
            kind = type(actions[0]).__name__.lower()
            if len(actions) > 1 and kind in times:
                start = time.process_time()
                player.choose(view)
                spent = (time.process_time() - start) * 1000
                if seed:  # game 0 warms the tables up
                    times[kind].append(spent)
            game.apply(seat, players[seat].choose(view))
    return times


def _run(python: str, games: int, level: str, shuffled: bool = False) -> dict[str, list[float]]:
    command = [python, str(HERE), "--worker", str(games), "--level", level]
    if shuffled:
        command.append("--shuffled")
    out = subprocess.run(command, capture_output=True, text=True, check=True, cwd="/")
    result: dict[str, list[float]] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--reference", action="append", default=[], metavar="LABEL=PYTHON", help="a reference build"
    )
    parser.add_argument("--games", type=int, default=8, help="timed games of positions (8)")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds (2)")
    parser.add_argument("--level", choices=("hard", "expert"), default="hard", help="the level timed (hard)")
    parser.add_argument("--shuffled", action="store_true", help="also ours with the old shuffled draws")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        print(json.dumps(_times(args.worker, args.shuffled, args.level)))
        return 0
    builds: list[tuple[str, str, bool]] = [("ours", sys.executable, False)]
    if args.shuffled:
        builds.append(("ours, shuffled draws", sys.executable, True))
    for item in args.reference:
        label, _, python = item.partition("=")
        if not python:
            parser.error(f"--reference wants LABEL=PYTHON, not {item!r}")
        builds.append((label, python, False))
    best: dict[str, dict[str, list[float]]] = {}
    for _ in range(args.rounds):
        for label, python, shuffled in reversed(builds):
            times = _run(python, args.games, args.level, shuffled)
            total = sum(map(sum, times.values()))
            if label not in best or total < sum(map(sum, best[label].values())):
                best[label] = times
    ours = best["ours"]
    print(
        f"{args.level} level decision CPU time, ms "
        f"({args.games} games of positions, best of {args.rounds} rounds)"
    )
    for label, _, _ in builds:
        times = best[label]
        line = f"{label:<22}"
        for kind in ("play", "discard"):
            values = times[kind]
            median = statistics.median(values)
            line += f"  {kind} n={len(values):<4} median {median:7.3f}  p99 {_p99(values):7.2f}"
            if label != "ours":
                line += f"  ({median / statistics.median(ours[kind]):4.2f}x ours)"
        print(line)
    for label, _, _ in builds[1:]:
        ratios = "   ".join(
            f"{kind}: mean {statistics.fmean(best[label][kind]) / statistics.fmean(ours[kind]):4.2f}x"
            for kind in ("play", "discard")
        )
        print(f"{label} / ours   {ratios}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
