"""Generate ``cribcore/players/win_table.json``: the standard game's win table for the expert level.

The method is stated in `cribcore.players.wintable`. In short: first deals of self-play (every game's
first deal, at 0 to 0, played to the end of its show) give how a deal's points arrive; a dynamic
programme from the target downward turns them into the dealer's chance to win from every pair of scores.
Round 0 measures deals of the hard level against itself; every later round measures deals of the expert
against itself, the expert judging by the previous round's table, and solves again, until the table
moves less than ``--tolerance`` anywhere (or ``--rounds`` runs out): the table is then consistent with
the play of the level that uses it.

Run (the shipped table's command, also stored in the file under ``command``)::

    nice python benchmarks/make_win_table.py --deals 10000 --expert-deals 6000 --rounds 3 \
        --tolerance 0.01 --seed 1 --jobs 2

(the defaults: the command without options makes the same file, with any ``--jobs``).

Deterministic for given options, whatever the backend: ``--jobs J`` local processes (default one per
core) or ``--dask ADDRESS`` (a Dask scheduler, cribcore installed on its workers), as ``cribbage
simulate``. ``--out FILE`` writes elsewhere than the package's data file.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cribcore.engine import standard_profile
from cribcore.players.base import Player
from cribcore.players.expert import ExpertPlayer
from cribcore.players.registry import make_player
from cribcore.players.wintable import DealRecord, WinTable, deal_stats, solve, table_to_json
from cribcore.players.wintable_build import deal_chunk
from cribcore.profiles import Profile
from cribcore.simulate import _ignore_interrupts, _stop_workers, default_jobs

OUT = Path(__file__).resolve().parent.parent / "cribcore" / "players" / "win_table.json"

CHUNK = 25
"""First deals per unit of work."""


@dataclass(frozen=True, slots=True)
class Seats:
    """Each seat's player: an expert judging by ``table`` when one is given, any other kind by name."""

    table: WinTable | None

    def __call__(self, kind: str, seed: int) -> Player:
        if kind == "expert" and self.table is not None:
            return ExpertPlayer(seed, table=self.table)
        return make_player(kind, seed)


def _chunks(deals: int) -> Iterator[tuple[int, int]]:
    return ((start, min(start + CHUNK, deals)) for start in range(0, deals, CHUNK))


def run_deals(
    profile: Profile,
    kinds: tuple[str, ...],
    seed: int,
    deals: int,
    table: WinTable | None,
    jobs: int,
    dask: str | None,
    progress: Callable[[int], None],
) -> list[DealRecord]:
    """The records of first deals 0 to ``deals - 1`` of the run seeded ``seed``, in index order."""
    results: dict[int, list[DealRecord]] = {}
    seats = Seats(table)
    chunks = _chunks(deals)
    done = 0
    if dask is not None:
        distributed: Any = importlib.import_module("distributed")
        with distributed.Client(dask, timeout="10s", set_as_default=False) as client:
            futures = {
                client.submit(deal_chunk, profile, kinds, seed, start, stop, seats, pure=False): start
                for start, stop in chunks
            }
            for future in distributed.as_completed(list(futures)):
                results[futures[future]] = future.result()
                done += len(results[futures[future]])
                progress(done)
    elif jobs <= 1:
        for start, stop in chunks:
            results[start] = deal_chunk(profile, kinds, seed, start, stop, seats)
            done += stop - start
            progress(done)
    else:
        executor = ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupts)
        try:
            pending: dict[Future[list[DealRecord]], int] = {}

            def hand_out() -> None:
                chunk = next(chunks, None)
                if chunk is not None:
                    pending[executor.submit(deal_chunk, profile, kinds, seed, *chunk, seats)] = chunk[0]

            for _ in range(jobs * 2):
                hand_out()
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    start = pending.pop(future)
                    results[start] = future.result()
                    done += CHUNK
                    progress(min(done, deals))
                    hand_out()
        except BaseException:
            _stop_workers(executor)
            raise
        executor.shutdown(wait=True)
    return [record for start in sorted(results) for record in results[start]]


def largest_change(old: WinTable, new: WinTable) -> float:
    return max(
        abs(p - q)
        for row_a, row_b in zip(old.dealer, new.dealer, strict=True)
        for p, q in zip(row_a, row_b, strict=True)
    )


def build_parser() -> argparse.ArgumentParser:
    """The command's options; their defaults are the shipped table's."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10000, help="hard self-play first deals (round 0)")
    parser.add_argument(
        "--expert-deals", type=int, default=6000, help="expert self-play deals per later round"
    )
    parser.add_argument("--rounds", type=int, default=3, help="expert rounds at most (0: hard only)")
    parser.add_argument("--tolerance", type=float, default=0.01, help="stop when no entry moves more")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--dask", metavar="ADDRESS", default=None)
    parser.add_argument("--out", type=Path, default=OUT)
    return parser


def command_line(args: argparse.Namespace) -> str:
    """The command that makes the same table from `args` (``--jobs``, ``--dask`` and ``--out`` aside)."""
    return (
        f"python benchmarks/make_win_table.py --deals {args.deals} --expert-deals {args.expert_deals} "
        f"--rounds {args.rounds} --tolerance {args.tolerance} --seed {args.seed}"
    )


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    profile = standard_profile()
    target = profile.rules.target
    command = command_line(args)

    def progress(label: str, total: int) -> Callable[[int], None]:
        began = time.perf_counter()

        def tell(done: int) -> None:
            rate = done / max(1e-9, time.perf_counter() - began)
            print(f"\r{label}: {done}/{total} deals ({rate:.1f}/s)", end="", file=sys.stderr, flush=True)

        return tell

    records = run_deals(
        profile,
        ("hard", "hard"),
        args.seed,
        args.deals,
        None,
        args.jobs,
        args.dask,
        progress("round 0 (hard)", args.deals),
    )
    print(file=sys.stderr)
    table = solve(deal_stats(records), target, source=f"round 0: {len(records)} deals of hard self-play")
    print(f"round 0: {len(records)} deals; first dealer wins {table.dealer[0][0]:.4f}", file=sys.stderr)
    rounds = 0
    for round_ in range(1, args.rounds + 1):
        records = run_deals(
            profile,
            ("expert", "expert"),
            args.seed * 1000 + round_,
            args.expert_deals,
            table,
            args.jobs,
            args.dask,
            progress(f"round {round_} (expert)", args.expert_deals),
        )
        print(file=sys.stderr)
        new = solve(
            deal_stats(records), target, source=f"round {round_}: {len(records)} deals of expert self-play"
        )
        change = largest_change(table, new)
        print(
            f"round {round_}: {len(records)} deals; first dealer wins {new.dealer[0][0]:.4f}; "
            f"largest change {change:.4f}",
            file=sys.stderr,
        )
        table = new
        rounds = round_
        if change < args.tolerance:
            break
    table.source = f"{table.source} (after {rounds} expert rounds); made by: {command}"
    args.out.write_text(table_to_json(table, {"command": command}), encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
