"""The expert level's strength and speed: what the closing note of the expert's issue reports.

- ``expert`` against ``hard`` and against ``medium``: duplicate games, seats swapped: game ``i`` is
  played twice with the same deals (the same game seed), the expert at seat 1 then at seat 2, through
  `cribcore.simulate` (so ``--jobs`` and ``--dask`` run them as ``cribbage simulate`` does). The share
  of the 2 x N games the expert wins, with its 95 % Wilson interval (the pairs are played on the same
  deals, so the interval is if anything too wide).
- ``expert`` against itself: the first dealer's share of wins, with its 95 % interval.
- Decision time: every expert decision with more than one legal action in a few games against
  ``hard`` in this process: median and 99th percentile, for the discard, the play and both, after the
  table is loaded (its once-per-process cost is reported apart).

Run: ``nice python benchmarks/bench_expert.py --games 2000 --self-games 1000 --time-games 20 --jobs 2``
(``--skip`` names parts to leave out: ``hard``, ``medium``, ``self``, ``time``). Prints one line per
figure and, with ``--json``, the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from cribcore.engine import Game, standard_profile
from cribcore.players.registry import make_player
from cribcore.players.wintable import shipped_table
from cribcore.simulate import game_seed, player_seed, simulate, wilson_interval


def duplicate(opponent: str, games: int, seed: int, jobs: int | None, dask: str | None) -> dict[str, object]:
    """The expert's wins against ``opponent`` over ``games`` deals played from both seats."""
    first = simulate(games, ("expert", opponent), seed=seed, jobs=jobs, dask=dask)
    second = simulate(games, (opponent, "expert"), seed=seed, jobs=jobs, dask=dask)
    wins = first.tally.wins[0] + second.tally.wins[1]
    total = first.games + second.games
    low, high = wilson_interval(wins, total)
    return {"opponent": opponent, "wins": wins, "games": total, "rate": wins / total, "ci95": [low, high]}


def self_play(games: int, seed: int, jobs: int | None, dask: str | None) -> dict[str, object]:
    run = simulate(games, ("expert", "expert"), seed=seed, jobs=jobs, dask=dask)
    rate = run.first_dealer()
    low, high = rate.interval
    return {"first_dealer_wins": rate.count, "games": rate.trials, "rate": rate.rate, "ci95": [low, high]}


def decision_times(games: int, seed: int) -> dict[str, object]:
    """Milliseconds per expert decision (more than one legal action), by kind, once the table and its
    helper tables are loaded (``warm_up_ms``: what that costs once per process, in the first decision)."""
    began = time.perf_counter()
    table = shipped_table()
    table.discard_values(0, 0, True)(0, 0.0)
    table.discard_values(0, 0, False)(0, 0.0)
    warm_up = (time.perf_counter() - began) * 1000
    times: dict[str, list[float]] = {"discard": [], "play": [], "other": []}
    for index in range(games):
        gseed = game_seed(seed, index)
        expert_seat = index % 2
        game = Game(standard_profile(), seed=gseed, players=["a", "b"])
        kinds = ["hard", "hard"]
        kinds[expert_seat] = "expert"
        players = [make_player(kind, player_seed(gseed, seat)) for seat, kind in enumerate(kinds)]
        while not game.is_over:
            seat = game.to_act[0]
            view = game.view(seat)
            began = time.perf_counter()
            action = players[seat].choose(view)
            spent = (time.perf_counter() - began) * 1000
            if seat == expert_seat and len(view.legal_actions) > 1:
                kind = view.phase if view.phase in ("discard", "play") else "other"
                times[kind].append(spent)
            game.apply(seat, action)
    out: dict[str, object] = {"warm_up_ms": warm_up}
    every = [t for values in times.values() for t in values]
    for name, values in (*times.items(), ("all", every)):
        if values:
            values = sorted(values)
            out[name] = {
                "decisions": len(values),
                "median_ms": statistics.median(values),
                "p99_ms": values[min(len(values) - 1, int(0.99 * len(values)))],
                "max_ms": values[-1],
            }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="duplicate pairs against hard and medium")
    parser.add_argument("--self-games", type=int, default=1000, help="expert self-play games")
    parser.add_argument("--time-games", type=int, default=20, help="games timed in this process")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--dask", metavar="ADDRESS", default=None)
    parser.add_argument("--skip", action="append", default=[], choices=["hard", "medium", "self", "time"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results: dict[str, object] = {"seed": args.seed}

    def show(label: str, figure: dict[str, object]) -> None:
        interval = figure["ci95"]
        assert isinstance(interval, list)
        low, high = interval
        print(f"{label}: {figure['rate']:.2%} (95 % {low:.2%} to {high:.2%}; {figure['games']} games)")

    for opponent in ("hard", "medium"):
        if opponent not in args.skip:
            figure = duplicate(opponent, args.games, args.seed, args.jobs, args.dask)
            results[f"vs_{opponent}"] = figure
            show(f"expert against {opponent}, duplicate", figure)
    if "self" not in args.skip:
        figure = self_play(args.self_games, args.seed, args.jobs, args.dask)
        results["self_play"] = figure
        show("expert self-play, first dealer wins", figure)
    if "time" not in args.skip:
        timing = decision_times(args.time_games, args.seed)
        results["decision_time"] = timing
        print(
            f"decision time: loading the table and its helpers, once a process: {timing['warm_up_ms']:.0f} ms"
        )
        for name, values in timing.items():
            if not isinstance(values, dict):
                continue
            print(
                f"decision time, {name}: median {values['median_ms']:.1f} ms, p99 {values['p99_ms']:.1f} ms, "
                f"max {values['max_ms']:.1f} ms ({values['decisions']} decisions)"
            )
    if args.json:
        print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
