"""Unattended games between computer players, many at a time, with the statistics a study needs.

`simulate` plays ``games`` games of one profile between computer kinds (see
`cribcore.players.make_player`) and returns a `Simulation`: win rates with 95 % Wilson intervals, the
first dealer's win rate, skunk rates, and average points per deal by source (play, hand, crib, heels).

Determinism: game ``i`` of a run is seeded from the run's seed and ``i`` alone (`game_seed`), and so is
each of its players (`player_seed`); every game is played whole by one worker; the workers' integer
tallies are exact sums, so merging them in whatever order they finish gives the same totals. Games are
handed out in chunks made as they are needed, a few per worker at a time, so a run of any length holds
a bounded number of them in memory. So the same seed gives the same numbers whatever the backend (this
process, local processes, or a Dask cluster) and however the games are split. Players must themselves
be deterministic for a given seed (the registry's are).
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .actions import Action
from .daskclient import dask_client, distributed_module
from .engine import Game, standard_profile
from .players.registry import COMPUTER_KINDS, make_player
from .profiles import Profile
from .proportions import wilson_interval  # kept importable from here
from .rulebook import rulebook_for
from .seeds import game_seed, player_seed  # kept importable from here

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

__all__ = [
    "MAX_JOBS",
    "SOURCES",
    "Matchup",
    "Simulation",
    "Tally",
    "game_seed",
    "play_game",
    "play_out",
    "player_seed",
    "run_chunks",
    "simulate",
    "wilson_interval",
]

SOURCES = ("play", "hand", "crib", "heels", "other")
"""Where points come from: the play (go and last card included), the hands, the crib, his heels, and
anything a variant adds (such as five-card's three for last)."""

_SOURCE_OF_KIND = {"play": "play", "go": "play", "hand": "hand", "crib": "crib", "heels": "heels"}
_CLAIM_KINDS = frozenset({"count", "muggins"})
"""Under muggins, points come as declared counts and calls that follow the play, hand or crib event
they concern; they are credited to that source (a false call's penalty goes to "other")."""

Progress = Callable[[int], None]
"""Called with the number of games finished so far, as chunks of games finish."""


@dataclass(frozen=True, slots=True)
class Matchup:
    """What every game of a run shares: the resolved profile, one computer kind per seat, the run seed."""

    profile: Profile
    kinds: tuple[str, ...]
    seed: int

    def __post_init__(self) -> None:
        seats = self.profile.rules.seats
        if len(self.kinds) != seats:
            raise ValueError(
                f"the profile {self.profile.name!r} seats {seats} players, not {len(self.kinds)}"
            )
        for kind in self.kinds:
            if kind not in COMPUTER_KINDS:
                raise ValueError(f"unknown computer kind {kind!r}: use {', '.join(COMPUTER_KINDS)}")

    @property
    def sides(self) -> int:
        return self.profile.rules.sides

    def skunk_lines(self) -> tuple[int, int]:
        """The single and double skunk lines: a loser below them is skunked; 0 means never. The lines
        the profile's plugins declare (`Rulebook.skunk_lines`: the ``skunk`` plugin's, else the usual
        91 and 61 at 121), also when the profile does not award skunks, so that every run reports them
        the same way."""
        return rulebook_for(self.profile).skunk_lines


@dataclass(slots=True)
class Tally:
    """Integer sums over some games (exact, so merging in any grouping gives the same totals).

    Per side: ``wins``, ``game_points`` (games won counting skunk bonuses when the profile awards them),
    ``final_scores`` (summed), ``first_deals`` (games in which the side dealt first) and ``points`` by
    source (a dict of `SOURCES` to per-side sums). Per run: ``games``, ``deals`` (deals started),
    ``first_dealer_wins``, ``skunks`` (the best loser below the skunk line, double skunks included) and
    ``double_skunks``.
    """

    sides: int
    games: int = 0
    deals: int = 0
    wins: list[int] = field(default_factory=list)
    game_points: list[int] = field(default_factory=list)
    final_scores: list[int] = field(default_factory=list)
    first_deals: list[int] = field(default_factory=list)
    first_dealer_wins: int = 0
    skunks: int = 0
    double_skunks: int = 0
    points: dict[str, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("wins", "game_points", "final_scores", "first_deals"):
            if not getattr(self, name):
                setattr(self, name, [0] * self.sides)
        for source in SOURCES:
            self.points.setdefault(source, [0] * self.sides)

    def merge(self, other: Tally) -> None:
        """Add ``other``'s sums to this tally."""
        self.games += other.games
        self.deals += other.deals
        self.first_dealer_wins += other.first_dealer_wins
        self.skunks += other.skunks
        self.double_skunks += other.double_skunks
        for mine, theirs in (
            (self.wins, other.wins),
            (self.game_points, other.game_points),
            (self.final_scores, other.final_scores),
            (self.first_deals, other.first_deals),
            *((self.points[s], other.points[s]) for s in SOURCES),
        ):
            for side, value in enumerate(theirs):
                mine[side] += value


def play_game(matchup: Matchup, index: int) -> Game:
    """Play game ``index`` of ``matchup`` to the end, each seat choosing from its own view (or from its
    legal actions alone, for a player that reads nothing else: see
    `cribcore.players.base.ChoosesFromActions`)."""
    seed = game_seed(matchup.seed, index)
    names = [f"{kind} {seat + 1}" for seat, kind in enumerate(matchup.kinds)]
    game = Game(matchup.profile, seed=seed, players=names)
    players = [make_player(kind, player_seed(seed, seat)) for seat, kind in enumerate(matchup.kinds)]
    return play_out(game, players, index)


def play_out(game: Game, players: Sequence[Any], index: int = 0) -> Game:
    """Play ``game`` to the end with one player per seat (``index`` names the game in an error)."""
    # Bound once: a game is a hundred-odd decisions. A player that reads nothing of its view but the
    # legal actions (a `ChoosesFromActions`) is handed those alone: the same choice, and no view built.
    view, legal, apply = game.view, game.legal_actions, game.apply
    choosers: list[Callable[[Any], Action]] = []
    asked: list[Callable[[int], Any]] = []
    for player in players:
        choose_from = getattr(player, "choose_from", None)
        choosers.append(choose_from if choose_from is not None else player.choose)
        asked.append(legal if choose_from is not None else view)
    while not game.is_over:
        to_act = game.to_act
        if not to_act:  # only a replayed record can run out of deals; a seeded game never does
            raise RuntimeError(f"game {index} stopped with nobody to act")
        seat = to_act[0]
        apply(seat, choosers[seat](asked[seat](seat)))
    return game


def _count_game(game: Game, lines: tuple[int, int], tally: Tally) -> None:
    """Add ``game``'s result and points to ``tally``; ``lines`` are the matchup's skunk lines."""
    rules = game.rules
    winner = game.winner
    assert winner is not None
    first_dealer: int | None = None
    concerning = "other"
    points = tally.points
    side_of = [rules.side_of(seat) for seat in range(rules.seats)]
    sources = _SOURCE_OF_KIND
    # Three branches rather than one lookup and a merged test: most events of a game are plays.
    for event in game.events:
        kind = event.kind
        if kind in sources:
            concerning = sources[kind]
            if event.scored and event.points and event.seat is not None:
                points[concerning][side_of[event.seat]] += event.points
        elif kind == "deal":
            concerning = "other"
            if first_dealer is None:
                first_dealer = event.seat
            if event.scored and event.points and event.seat is not None:
                points["other"][side_of[event.seat]] += event.points
        elif event.scored and event.points and event.seat is not None:
            source = concerning if kind in _CLAIM_KINDS else "other"
            points[source][side_of[event.seat]] += event.points
    scores = game.scores
    tally.games += 1
    tally.deals += game.deal_number + 1
    tally.wins[winner] += 1
    if first_dealer is not None:
        first_side = rules.side_of(first_dealer)
        tally.first_deals[first_side] += 1
        tally.first_dealer_wins += first_side == winner
    for side, score in enumerate(scores):
        tally.final_scores[side] += score
    skunk_line, double_line = lines
    # Lines are set for the profile's target; a side with its own target is judged by its distance to it.
    best_loser = max(
        score - rules.target_of(side) + rules.target for side, score in enumerate(scores) if side != winner
    )
    skunked = best_loser < skunk_line
    double = best_loser < double_line
    tally.skunks += skunked or double
    tally.double_skunks += double
    tally.game_points[winner] += game.game_points


def play_chunk(matchup: Matchup, start: int, stop: int) -> Tally:
    """Play games ``start`` to ``stop - 1`` of ``matchup`` and tally them (the unit of work of every
    backend)."""
    tally = Tally(matchup.sides)
    lines = matchup.skunk_lines()
    for index in range(start, stop):
        _count_game(play_game(matchup, index), lines, tally)
    return tally


@dataclass(frozen=True, slots=True)
class Rate:
    """A proportion with its 95 % Wilson interval."""

    count: int
    trials: int

    @property
    def rate(self) -> float:
        return self.count / self.trials if self.trials else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.count, self.trials)

    def to_json(self) -> dict[str, object]:
        low, high = self.interval
        return {"count": self.count, "of": self.trials, "rate": self.rate, "ci95": [low, high]}


@dataclass(frozen=True, slots=True)
class Simulation:
    """The outcome of a run: the matchup, the backend that ran it, and the merged `Tally`."""

    matchup: Matchup
    tally: Tally
    backend: str

    @property
    def games(self) -> int:
        return self.tally.games

    def side_label(self, side: int) -> str:
        """``seat 1 (hard)``, or ``seats 1+3 (hard, random)`` for a partnership."""
        rules = self.matchup.profile.rules
        seats = [seat for seat in range(rules.seats) if rules.side_of(seat) == side]
        kinds = ", ".join(self.matchup.kinds[seat] for seat in seats)
        numbers = "+".join(str(seat + 1) for seat in seats)
        return f"seat{'s' if len(seats) > 1 else ''} {numbers} ({kinds})"

    def wins(self, side: int) -> Rate:
        return Rate(self.tally.wins[side], self.games)

    def first_dealer(self) -> Rate:
        """How often the side that dealt first won."""
        return Rate(self.tally.first_dealer_wins, self.games)

    def skunks(self) -> Rate:
        return Rate(self.tally.skunks, self.games)

    def double_skunks(self) -> Rate:
        return Rate(self.tally.double_skunks, self.games)

    def points_per_deal(self, side: int, source: str) -> float:
        """Average points ``side`` scored from ``source`` per deal started (0 with no deals)."""
        return self.tally.points[source][side] / self.tally.deals if self.tally.deals else 0.0

    def to_json(self) -> dict[str, object]:
        sides = range(self.matchup.sides)
        skunk_line, double_line = self.matchup.skunk_lines()
        return {
            "games": self.games,
            "seed": self.matchup.seed,
            "profile": self.matchup.profile.name,
            "players": list(self.matchup.kinds),
            "backend": self.backend,
            "deals": self.tally.deals,
            "deals_per_game": self.tally.deals / self.games if self.games else 0.0,
            "sides": [
                {
                    "side": side,
                    "label": self.side_label(side),
                    "target": self.matchup.profile.rules.target_of(side),
                    "wins": self.wins(side).to_json(),
                    "game_points": self.tally.game_points[side],
                    "mean_final_score": self.tally.final_scores[side] / self.games if self.games else 0.0,
                    "dealt_first": self.tally.first_deals[side],
                    "points_per_deal": self._points_json(side),
                }
                for side in sides
            ],
            "first_dealer_wins": self.first_dealer().to_json(),
            "skunks": {**self.skunks().to_json(), "line": skunk_line},
            "double_skunks": {**self.double_skunks().to_json(), "line": double_line},
        }

    def _points_json(self, side: int) -> dict[str, float]:
        values = {source: self.points_per_deal(side, source) for source in SOURCES}
        values["total"] = sum(values.values())
        return values


MAX_JOBS = 256
"""The most local processes a run may use (each one is a whole Python process)."""

_IN_FLIGHT_PER_WORKER = 2
"""Chunks handed out per worker at a time: enough to keep each busy, never all N games at once."""


def _chunk_size(games: int, workers: int) -> int:
    # Several chunks per worker keep them all busy to the end and let progress move; results do not
    # depend on the split.
    return max(1, min(100, math.ceil(games / (workers * 32))))


def _chunks(games: int, size: int) -> Iterator[tuple[int, int]]:
    """The chunks of ``games`` games, made as they are needed: a run of ten billion games holds a few
    chunks at a time, not a list of all of them."""
    return ((start, min(start + size, games)) for start in range(0, games, size))


def _ignore_interrupts() -> None:
    # Ctrl-C reaches every process of the terminal's group; only the parent should react to it. A
    # worker is stopped by SIGTERM (the parent's, on Ctrl-C), not turned into an interrupt as the parent
    # turns it while the run goes on.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class Sums(Protocol):
    """Exact sums over some games that merge in any order to the same totals (a `Tally`, or another
    study's own): what the runners add up as chunks come back."""

    games: int

    def merge(self, other: Any) -> None: ...


S = TypeVar("S", bound=Sums)


def run_chunks(
    play: Callable[[int, int], S],
    tally: S,
    games: int,
    *,
    jobs: int | None = None,
    dask: str | None = None,
    progress: Progress | None = None,
    prepare: Callable[[], None] | None = None,
) -> str:
    """Play ``games`` games by chunks with ``play`` (``play(start, stop)`` plays games ``start`` to
    ``stop - 1`` and returns their sums; picklable, for processes and Dask) and merge every chunk into
    ``tally`` as it comes back (so that, after Ctrl-C, ``tally`` holds the chunks finished so far). The
    chunks run in this process, in ``jobs`` local processes (default one per core), or on the Dask
    cluster at ``dask``;
    ``prepare`` is called once before local processes start (to compute what they share). Returns
    the backend's description. Raises `ValueError` for a bad ``jobs`` or an unusable Dask."""
    report = progress if progress is not None else _no_progress
    if dask is not None:
        with _terminate_as_interrupt():
            _run_dask(play, tally, _chunks(games, _chunk_size(games, 8)), dask, report)
        return f"dask {dask}"
    workers = jobs if jobs is not None else min(default_jobs(), MAX_JOBS)
    if not 1 <= workers <= MAX_JOBS:
        raise ValueError(f"--jobs must be 1 to {MAX_JOBS}, not {workers}")
    size = _chunk_size(games, workers)
    workers = min(workers, math.ceil(games / size))
    with _terminate_as_interrupt():
        if workers <= 1:
            _run_here(play, tally, _chunks(games, size), report)
            return "this process"
        if prepare is not None:
            prepare()
        _run_local(play, tally, _chunks(games, size), workers, report)
    return f"{workers} processes"


@contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """While a run goes on, SIGTERM stops it as Ctrl-C does (`KeyboardInterrupt` in this process:
    the workers are stopped and the sums so far kept), where it would otherwise end this process alone
    and leave the workers running. Only in the main thread, and only when nobody else handles SIGTERM."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _run_here(
    play: Callable[[int, int], S], tally: S, chunks: Iterator[tuple[int, int]], progress: Progress
) -> None:
    for start, stop in chunks:
        tally.merge(play(start, stop))
        progress(tally.games)


def _run_local(
    play: Callable[[int, int], S], tally: S, chunks: Iterator[tuple[int, int]], jobs: int, progress: Progress
) -> None:
    # Loaded only for local processes: a run in this process does without them.
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    executor = ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupts)
    try:
        pending: set[Future[S]] = set()

        def hand_out() -> None:
            chunk = next(chunks, None)
            if chunk is not None:
                pending.add(executor.submit(play, *chunk))

        for _ in range(jobs * _IN_FLIGHT_PER_WORKER):
            hand_out()
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                pending.discard(future)
                tally.merge(future.result())
                progress(tally.games)
                hand_out()
    except BaseException:
        _stop_workers(executor)
        raise
    executor.shutdown(wait=True)


def _stop_workers(executor: ProcessPoolExecutor) -> None:
    """Stop at once (after Ctrl-C or a failure) rather than let every running chunk finish first."""
    terminate = getattr(executor, "terminate_workers", None)  # Python 3.14 and later
    if terminate is not None:
        terminate()
        return
    processes: dict[int, Any] = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()
    # Waiting costs nothing once the workers are gone, and it must be done: the executor's own thread
    # closes its wake-up pipe as it ends, and left running it races the interpreter's exit, which wakes
    # it through that pipe (a traceback, "Bad file descriptor", after the run has stopped).
    executor.shutdown(wait=True, cancel_futures=True)


def _run_dask(
    play: Callable[[int, int], S],
    tally: S,
    chunks: Iterator[tuple[int, int]],
    address: str,
    progress: Progress,
) -> None:
    distributed = distributed_module()
    client = dask_client(address)
    with client:

        def submit(chunk: tuple[int, int]) -> Any:
            return client.submit(play, *chunk, pure=False)

        first = [submit(chunk) for chunk in itertools.islice(chunks, _DASK_IN_FLIGHT)]
        running = distributed.as_completed(first, loop=client.loop)
        for future in running:
            tally.merge(future.result())
            progress(tally.games)
            chunk = next(chunks, None)
            if chunk is not None:
                running.add(submit(chunk))


_DASK_IN_FLIGHT = 8 * 32
"""Chunks handed to a Dask cluster at a time (its workers are not counted here)."""


def default_jobs() -> int:
    """The processes used by default: one per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def simulate(
    games: int,
    kinds: Sequence[str],
    *,
    profile: Profile | None = None,
    seed: int = 0,
    jobs: int | None = None,
    dask: str | None = None,
    progress: Progress | None = None,
) -> Simulation:
    """Play ``games`` games (one or more) of ``profile`` (standard by default) between ``kinds``, one
    computer kind per seat, seeded from ``seed``.

    The games run in ``jobs`` local processes (default: one per core; 1 plays them in this process), or
    on the Dask cluster whose scheduler is at ``dask`` (cribcore must be installed on its workers).
    ``progress`` is called with the number of games finished as work comes back. The result is the same
    for the same arguments whatever the backend. Raises `ValueError` for bad arguments or when Dask is
    missing or its scheduler cannot be reached.
    """
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, not {games}")
    matchup = Matchup(profile if profile is not None else standard_profile(), tuple(kinds), seed)

    def prepare() -> None:
        from .players.tables import prepare as prepare_tables

        prepare_tables(rulebook_for(matchup.profile), matchup.kinds)  # once here, not in every worker

    tally = Tally(matchup.sides)
    play = functools.partial(play_chunk, matchup)
    backend = run_chunks(play, tally, games, jobs=jobs, dask=dask, progress=progress, prepare=prepare)
    return Simulation(matchup, tally, backend)


def _no_progress(done: int) -> None:
    del done
