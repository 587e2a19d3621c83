"""What knowing a house rule is worth to the hard (or expert) level, and what it costs in decision time.

For each house rule, duplicate games under it: for every seed the level that plays by the game's
rulebook sits at seat 0 and the same level told the standard rules (``HardPlayer(seed,
rulebook=standard_rulebook())``, or ``ExpertPlayer`` likewise: it discards and plays as if the rule did
not exist, while the game scores by it) at seat 1, then the same seed again with the seats swapped, so
both get exactly the same cards. A house rule is either a profile file (``--profile FILE``, loaded with
`cribcore.load_profile` by its path as a user's would be), or one of two test rules added to the
standard profile (``--rule``). The test plugins of ``tests/house_rules.py`` (``play-flush``,
``ten-pairs``, ``fifteens-four``, ``four-suits``) are registered in this process as a third-party plugin
would be installed, so a profile file may name them; an installed plugin package needs nothing more:

- ``play-flush``: three or more cards of one suit laid in a row in one count score one point a card;
- ``ten-pairs``: every pair in the show scores 10;
- ``tests/data/fifteens-four.toml``: each fifteen in the show scores 4.

It prints the knowing level's win rate with a 95 % interval over the duplicate pairs (a pair scores 1,
0.5 or 0; mean plus or minus 1.96 standard errors), and the median, 90th and 99th percentile time of
the knowing level's decisions with more than one legal action, for discards and plays and together;
then the same times for the level under the standard profile (``--standard-games`` games against
itself). Each profile's tables (the crib table; for the expert also the win table) are computed (or read
from the data directory) before the games and their time printed: set ``CRIBCORE_DATA_DIR`` to keep
them out of the user's data directory.

Run: ``python benchmarks/bench_house_rules.py [--profile FILE ...] [--rule play-flush ...]
[--level hard|expert] [--games 2000] [--workers 2] [--clock cpu]`` (``--clock cpu`` times decisions by
the deciding process's CPU time, which other work on a busy machine does not inflate; ``--games 0`` only
times the standard games; with neither ``--profile`` nor ``--rule``, both test rules). Not part of the
test suite.
"""

from __future__ import annotations

import argparse
import functools
import math
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from multiprocessing import Pool
from multiprocessing.pool import Pool as WorkerPool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Last, only to find tests/house_rules.py: cribcore itself comes from the installed package, never from
# the checkout put before it.
sys.path.append(str(ROOT))

from cribcore import Discard, Game, Profile, load_profile  # noqa: E402
from cribcore.players.crib import crib_table_for  # noqa: E402
from cribcore.players.expert import ExpertPlayer  # noqa: E402
from cribcore.players.hard import HardPlayer  # noqa: E402
from cribcore.players.pegtable import fits, peg_table_for  # noqa: E402
from cribcore.players.wintable_build import win_table_for  # noqa: E402
from cribcore.rulebook import rulebook_for, standard_rulebook  # noqa: E402
from tests import house_rules  # noqa: E402  (the test plugins)

RULES = (house_rules.PLAY_FLUSH, house_rules.PLUGIN)
LEVELS = {"hard": HardPlayer, "expert": ExpertPlayer}


@dataclass(frozen=True)
class Subject:
    """One house rule under test: a test rule added to the standard profile (``rule``), a profile file
    (``path``), or neither (the standard profile)."""

    rule: str | None = None
    path: str | None = None

    @property
    def label(self) -> str:
        return self.path or self.rule or "standard"


@functools.cache
def profile_of(subject: Subject) -> Profile:
    """The subject's profile: a file is loaded by its path, exactly as ``--profile FILE`` loads it."""
    if subject.path is not None:
        return load_profile(Path(subject.path))
    return profile_with(subject.rule)


@dataclass
class Tally:
    """What one or more games produced, merged across workers."""

    pairs: list[float] = field(default_factory=list)
    games: int = 0
    wins: int = 0
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))

    def merge(self, other: Tally) -> None:
        self.pairs.extend(other.pairs)
        self.games += other.games
        self.wins += other.wins
        for key, values in other.times.items():
            self.times[key].extend(values)


def profile_with(rule: str | None) -> Profile:
    base = load_profile()
    if rule is None:
        return base
    return Profile(name=rule, rules=base.rules, plugins=(rule,))


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = time.perf_counter
"""How decisions are timed (``--clock``): wall time, or the CPU time of the deciding process, which
other work on a busy machine does not inflate."""
level = "hard"
"""The level that plays both seats (``--level``)."""


def play_game(profile: Profile, seed: int, knows: int, tally: Tally) -> int:
    """One game; the seat ``knows`` plays by the game's rulebook, the other is told the standard rules
    (under the standard profile both know them). Returns the winning seat."""
    game = Game(profile, seed=seed)
    told = standard_rulebook()
    player = LEVELS[level]
    players = [player(seed * 2 + seat, rulebook=None if seat == knows else told) for seat in range(2)]
    while game.to_act:
        seat = game.to_act[0]
        view = game.view(seat)
        start = clock()
        action = players[seat].choose(view)
        elapsed = (clock() - start) * 1000
        if seat == knows and len(view.legal_actions) > 1:
            tally.times["discard" if isinstance(action, Discard) else "play"].append(elapsed)
        game.apply(seat, action)
    assert game.winner is not None
    return game.winner


def duplicate(task: tuple[Subject, int]) -> Tally:
    """One duplicate pair: the seed with the knowing level at seat 0, then at seat 1."""
    subject, seed = task
    profile = profile_of(subject)
    tally = Tally()
    won = int(play_game(profile, seed, 0, tally) == 0) + int(play_game(profile, seed, 1, tally) == 1)
    tally.games = 2
    tally.wins = won
    tally.pairs.append(won / 2)
    return tally


def times_line(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"median {statistics.median(ordered):.2f} ms, 90th percentile {p90:.2f} ms, "
        f"99th percentile {p99:.2f} ms ({len(ordered)} decisions)"
    )


def run(pool: WorkerPool, subject: Subject, pairs: int, first_seed: int, every: int = 0) -> Tally:
    tally = Tally()
    tasks = [(subject, seed) for seed in range(first_seed, first_seed + pairs)]
    for part in pool.imap_unordered(duplicate, tasks, chunksize=2):
        tally.merge(part)
        if every and len(tally.pairs) % every == 0:
            decisions = tally.times["discard"] + tally.times["play"]
            print(f"  so far: {rate_line(tally)}; decisions: {times_line(decisions)}", flush=True)
    return tally


def rate_line(tally: Tally) -> str:
    """The knowing level's wins, rate and 95 % interval over the duplicate pairs."""
    n = len(tally.pairs)
    mean = statistics.fmean(tally.pairs)
    half = 1.96 * statistics.stdev(tally.pairs) / math.sqrt(n) if n > 1 else float("nan")
    return (
        f"wins {tally.wins} of {tally.games} games = {tally.wins / tally.games:.1%}, 95% interval "
        f"{mean - half:.1%} to {mean + half:.1%} over {n} duplicate pairs"
    )


def _start_worker(clock_name: str, level_name: str) -> None:
    global clock, level
    house_rules.install()
    clock = CLOCKS[clock_name]
    level = level_name


def prepare(subject: Subject, level_name: str) -> None:
    """Compute (or read) the tables the level needs for the subject's profile, and print how long."""
    book = rulebook_for(profile_of(subject))
    start = time.perf_counter()
    table = crib_table_for(book)
    print(
        f"{subject.label}: crib table ready in {time.perf_counter() - start:.1f} s ({table.source})",
        flush=True,
    )
    if fits(book) and not book.is_standard_play:
        start = time.perf_counter()
        peg_table_for(book)
        print(f"{subject.label}: pegging table ready in {time.perf_counter() - start:.1f} s", flush=True)
    if level_name == "expert":
        start = time.perf_counter()
        found = win_table_for(book)
        what = "ready" if found is not None else "not available (the expert plays for points)"
        print(f"{subject.label}: win table {what} in {time.perf_counter() - start:.1f} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per house rule (2000; pairs of two)")
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument("--first-seed", type=int, default=0, help="seeds first, first+1, ... (0)")
    parser.add_argument("--standard-games", type=int, default=40, help="standard games to time (40)")
    parser.add_argument("--report-every", type=int, default=25, help="print the rate every N pairs (25)")
    parser.add_argument("--clock", choices=CLOCKS, default="wall", help="time decisions by (wall)")
    parser.add_argument("--rule", action="append", choices=RULES, help="test house rules")
    parser.add_argument(
        "--profile", action="append", metavar="FILE", help="a profile file of the house rule (repeatable)"
    )
    parser.add_argument("--level", choices=LEVELS, default="hard", help="the level on both seats (hard)")
    args = parser.parse_args(argv)
    house_rules.install()
    global clock, level
    clock = CLOCKS[args.clock]
    level = args.level
    subjects = [Subject(rule=rule) for rule in args.rule or []]
    subjects += [Subject(path=path) for path in args.profile or []]
    if not subjects:
        subjects = [Subject(rule=rule) for rule in RULES]
    try:
        for subject in subjects:
            profile_of(subject)
    except ValueError as exc:  # a profile's one-line error (ProfileError), as the command line says it
        print(f"bench_house_rules: {exc}", file=sys.stderr)
        return 1
    for subject in [*(subjects if args.games else []), *([Subject()] if args.standard_games else [])]:
        prepare(subject, level)
    # Workers fork after the tables are in memory, so they share them.
    with Pool(args.workers, initializer=_start_worker, initargs=(args.clock, level)) as pool:
        for subject in subjects if args.games else []:
            start = time.perf_counter()
            tally = run(pool, subject, max(1, args.games // 2), args.first_seed, args.report_every)
            elapsed = time.perf_counter() - start
            print(
                f"{subject.label}: the {level} level that knows the rule, against itself told the standard "
                f"rules: {rate_line(tally)} ({elapsed:.0f} s)",
                flush=True,
            )
            print_times(tally)
        if args.standard_games:
            tally = run(pool, Subject(), max(1, args.standard_games // 2), args.first_seed)
            print(f"standard ({tally.games} games, {level} against itself):")
            print_times(tally)
    return 0


def print_times(tally: Tally) -> None:
    print(f"  {level} discard: {times_line(tally.times['discard'])}")
    print(f"  {level} play:    {times_line(tally.times['play'])}")
    print(f"  {level}, all:    {times_line(tally.times['discard'] + tally.times['play'])}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
