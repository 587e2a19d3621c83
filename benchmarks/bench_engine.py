"""Whole games against a reference build of cribcore, side by side in one run.

Each figure is CPU time in a fresh process, this checkout's interpreter and the reference interpreter
(an environment with another cribcore installed, e.g. a wheel of an older commit) taking turns, round
after round; each side keeps its best round, and the ratio is reference time over ours (above 1: we are
faster). Measured:

- ``api``: random games through the engine API (``legal_actions``, ``apply``; no views), seeds 0, 1, …;
- ``views``: random games as ``simulate`` plays and tallies them (each seat choosing as it does there:
  a random seat from its legal actions, all it reads of its view), in one process without the
  command's start-up;
- ``simulate``: the whole command ``cribbage simulate N --players random,random --jobs 1`` (start-up
  included), and with ``--hard N`` also ``--players hard,hard``;
- ``openspiel`` (with ``--openspiel PYTHON``, an environment with ``open_spiel`` installed): OpenSpiel's
  C++ cribbage playing random games through its Python API, as a second reference for ``api``.

Run: ``python benchmarks/bench_engine.py --reference /tmp/basevenv/bin/python [--openspiel PY]``.
Not a test: nothing here asserts a time.

With ``--check GAMES`` it times nothing: it plays GAMES random games through the engine API under each
built-in profile in both builds and compares digests of every event, the record's deals, the result and
each seat's view of the events, exiting 1 when a profile's differ (a faster engine must play the same
games).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve()


def _api_games(games: int) -> float:
    """CPU seconds for ``games`` random games through the engine API (run inside a worker)."""
    import random

    from cribcore.engine import Game

    Game(seed=0)  # imports and the profile's rulebook, outside the timing
    start = time.process_time()
    for seed in range(games):
        game = Game(seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    return time.process_time() - start


def _views_games(games: int) -> float:
    """CPU seconds for ``games`` random-versus-random games as ``simulate`` plays and tallies them,
    each seat choosing as it does there (a random seat from its legal actions, all it reads of its
    view), without the command's start-up (run inside a worker)."""
    from cribcore.engine import standard_profile
    from cribcore.simulate import Matchup, play_chunk

    matchup = Matchup(standard_profile(), ("random", "random"), seed=1)
    play_chunk(matchup, 0, 1)
    start = time.process_time()
    play_chunk(matchup, 0, games)
    return time.process_time() - start


def _openspiel_games(games: int) -> float:
    """CPU seconds for ``games`` random games of OpenSpiel's cribbage (run inside a worker)."""
    import random

    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("cribbage")
    start = time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        # Its ordinary loop, driven as cribcore is: every step, chance or a player's, a uniform draw
        # from the legal actions (a chance node's are its outcomes, all equally likely in cribbage).
        # Asking a chance node for its outcomes with their probabilities instead builds a list of
        # pairs each time, which made the reference 1.6 times slower than it is.
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
    return time.process_time() - start


CHECKED_PROFILES = (
    "standard",
    "five-card",
    "five-card-muggins",
    "flush-with-starter",
    "four-players",
    "lowball",
    "muggins",
    "partners",
    "seven-card",
    "skunk-match",
    "three-players",
)
"""The built-in profiles whose random games `--check` compares."""


def _digests(games: int) -> None:
    """Print, per built-in profile, a digest of ``games`` random games through the engine API: every
    event (its JSON form), every deal of the record, the result, and each seat's view of the events."""
    import hashlib
    import json
    import random

    from cribcore.engine import Game
    from cribcore.profiles import load_profile
    from cribcore.records import game_record

    for name in CHECKED_PROFILES:
        profile = load_profile(name)
        digest = hashlib.sha256()
        for seed in range(games):
            game = Game(profile, seed=seed)
            rng = random.Random(seed)
            while not game.is_over:
                seat = game.to_act[0]
                game.apply(seat, rng.choice(game.legal_actions(seat)))
            record = game_record(game)
            seen = [[event.to_json() for event in game.view(s).events] for s in range(len(game.players))]
            shown = {
                "events": [event.to_json() for event in game.events],
                "deals": record["deals"],
                "seen": seen,
            }
            shown["result"] = record.get("result")
            digest.update(json.dumps(shown, sort_keys=True).encode())
        print(name, digest.hexdigest()[:16])


WORKERS: dict[str, Callable[[int], float]] = {
    "api": _api_games,
    "views": _views_games,
    "openspiel": _openspiel_games,
}


def _worker_time(python: str, kind: str, games: int) -> float:
    # Run from a neutral directory so the reference interpreter imports its own installed cribcore.
    out = subprocess.run(
        [python, str(HERE), "--worker", kind, str(games)],
        capture_output=True,
        text=True,
        check=True,
        cwd="/",
    )
    return float(out.stdout.strip().splitlines()[-1])


def _command_time(python: str, players: str, games: int) -> float:
    """CPU seconds (user + system) of one ``cribbage simulate`` process of ``python``'s environment."""
    cribbage = str(Path(python).parent / "cribbage")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [cribbage, "simulate", str(games), "--players", players, "--jobs", "1", "--seed", "1"],
        capture_output=True,
        check=True,
        cwd="/",
        env={**os.environ, "NO_COLOR": "1"},
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _compile_ours() -> None:
    """Write the bytecode of this checkout's packages, as installing a wheel does for the reference: an
    editable install under ``PYTHONDONTWRITEBYTECODE`` would otherwise compile every module in every
    timed process (about 0.12 s of each ``cribbage`` command)."""
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import compileall, os, sys, cribcore, cribcore_plugins; "
            "ok = all(compileall.compile_dir(os.path.dirname(m.__file__), quiet=1) "
            "for m in (cribcore, cribcore_plugins)); sys.exit(0 if ok else 1)",
        ],
        check=True,
        cwd="/",
    )


def _check(reference: str, games: int) -> int:
    """Compare the digests of both builds, profile by profile; 0 when all are the same."""
    runs = []
    for python in (sys.executable, reference):
        out = subprocess.run(
            [python, str(HERE), "--worker", "digest", str(games)],
            capture_output=True,
            text=True,
            check=True,
            cwd="/",
        )
        runs.append(dict(line.split() for line in out.stdout.splitlines()))
    ours, theirs = runs
    differ = [name for name in CHECKED_PROFILES if ours[name] != theirs[name]]
    for name in CHECKED_PROFILES:
        print(f"{name:<20} {'same' if name not in differ else 'DIFFERENT'}")
    same = len(CHECKED_PROFILES) - len(differ)
    print(f"{games} random games a profile: {same} of {len(CHECKED_PROFILES)} profiles the same")
    return 1 if differ else 0


def _side_by_side(label: str, rounds: int, ours: Callable[[], float], reference: Callable[[], float]) -> None:
    best_ours = best_ref = float("inf")
    for _ in range(rounds):
        best_ref = min(best_ref, reference())
        best_ours = min(best_ours, ours())
    ratio = best_ref / best_ours
    print(f"{label:<58} reference {best_ref:7.2f} s   ours {best_ours:7.2f} s   ratio {ratio:5.2f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--reference", help="the reference environment's python (required)")
    parser.add_argument("--openspiel", help="a python with open_spiel installed (second reference)")
    parser.add_argument("--games", type=int, default=500, help="random games through the API (500)")
    parser.add_argument("--simulate", type=int, default=1000, help="games of simulate random,random (1000)")
    parser.add_argument("--hard", type=int, default=0, help="games of simulate hard,hard (0: skip)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per figure (3)")
    parser.add_argument(
        "--check",
        type=int,
        metavar="GAMES",
        help="instead of timing, check that GAMES random games under each built-in profile give the "
        "same events, deals, results and seat views in both builds (exit 1 if not)",
    )
    parser.add_argument("--worker", nargs=2, metavar=("KIND", "GAMES"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        kind, games = args.worker
        if kind == "digest":
            _digests(int(games))
        else:
            print(WORKERS[kind](int(games)))
        return 0
    if not args.reference:
        parser.error("--reference PYTHON is required")
    if args.check is not None:
        return _check(args.reference, args.check)

    _compile_ours()
    ours, ref, n = sys.executable, args.reference, args.games
    rate: dict[str, float] = {}

    def api(python: str, key: str) -> Callable[[], float]:
        def run() -> float:
            seconds = _worker_time(python, "api", n)
            rate[key] = max(rate.get(key, 0.0), n / seconds)
            return seconds

        return run

    _side_by_side(f"random games, engine API ({n})", args.rounds, api(ours, "ours"), api(ref, "ref"))
    print(f"{'':<58} reference {rate['ref']:7.0f} games/CPU-s   ours {rate['ours']:7.0f} games/CPU-s")
    if args.openspiel:
        spiel = min(_worker_time(args.openspiel, "openspiel", n) for _ in range(args.rounds))
        print(
            f"{'OpenSpiel cribbage (C++), random games':<58} {n / spiel:7.0f} games/CPU-s   "
            f"ours / OpenSpiel {rate['ours'] / (n / spiel):5.2f}   reference / OpenSpiel "
            f"{rate['ref'] / (n / spiel):5.2f}"
        )

    def views(python: str) -> Callable[[], float]:
        return lambda: _worker_time(python, "views", args.simulate)

    label = f"random games as simulate plays them ({args.simulate})"
    _side_by_side(label, args.rounds, views(ours), views(ref))
    for players, games in (("random,random", args.simulate), ("hard,hard", args.hard)):
        if games:

            def command(python: str, players: str = players, games: int = games) -> Callable[[], float]:
                return lambda: _command_time(python, players, games)

            label = f"cribbage simulate {games} --players {players} --jobs 1"
            _side_by_side(label, args.rounds, command(ours), command(ref))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
