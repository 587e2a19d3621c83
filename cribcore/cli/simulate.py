"""The ``simulate`` command: many unattended games between computer kinds, summarized as win rates with
95 % intervals, the first dealer's advantage, skunks and points per deal by source, or as JSON. The
games run through `cribcore.simulate` (local processes, or a Dask cluster with ``--dask``)."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.text import Text

from ..i18n import N_, Nn_, _, ngettext
from ..players.registry import COMPUTER_KINDS
from ..simulate import MAX_JOBS, SOURCES, Rate, Simulation, simulate
from ..simulate import Progress as ProgressCallback
from ..written_numbers import count_text, decimal_text, percent_text
from .commands import UsageError
from .profile_arg import load_profile_option
from .render import columns, print_json

__all__ = ["SimulateOptions", "add_simulate_parser", "simulate_command"]

COMMAND = "simulate"


def add_simulate_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``simulate`` to the ``cribbage`` parser."""
    parser = commands.add_parser(
        COMMAND,
        help=_("play many unattended games between computer players"),
        description=_(
            "Play N games between computer players and report win rates with 95 percent intervals, "
            "the first dealer's advantage, skunks, and average points per deal by source. The same "
            "--seed gives the same numbers however the games are run."
        ),
        epilog=_(
            "Examples: cribbage simulate 1000 --players computer,random --seed 1;  "
            "cribbage simulate 100000 --dask tcp://scheduler:8786 (needs pip install 'cribcore[dask]' "
            "here and on the workers)."
        ),
    )
    parser.add_argument(
        "games",
        type=_whole(1),
        metavar="N",
        help=_("how many games (any number: they are played as they come)"),
    )
    parser.add_argument(
        "--players",
        type=_kinds,
        default=("computer",),
        metavar="KINDS",
        help=_(
            "one computer kind per seat, comma separated, or one for every seat: {kinds} (default computer)"
        ).format(kinds=", ".join(COMPUTER_KINDS)),
    )
    parser.add_argument(
        "--profile", default="standard", metavar="NAME|FILE", help=_("whose rules (default standard)")
    )
    add_run_arguments(parser)
    parser.set_defaults(handler=_handle)


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """``--seed``, ``--jobs``, ``--dask`` and ``--json``, as every command that plays a run of games
    (`simulate`, `lab`) takes them."""
    parser.add_argument(
        "--seed", type=_whole(0), metavar="S", help=_("fix every game (default: a random seed, printed)")
    )
    parser.add_argument(
        "--jobs",
        type=_whole(1, MAX_JOBS),
        metavar="J",
        help=_("local processes to use, 1 to {most} (default: one per core)").format(most=MAX_JOBS),
    )
    parser.add_argument(
        "--dask",
        metavar="ADDRESS",
        help=_("run the games on the Dask cluster whose scheduler is at ADDRESS, e.g. tcp://host:8786"),
    )
    parser.add_argument("--json", action="store_true", help=_("print the results as JSON"))


def _whole(low: int, high: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                _("not a whole number: {text}").format(text=repr(text))
            ) from None
        if number < low:
            raise argparse.ArgumentTypeError(
                _("must be at least {low}, not {number}").format(low=low, number=number)
            )
        if high is not None and number > high:
            raise argparse.ArgumentTypeError(
                _("must be at most {high}, not {number}").format(high=high, number=number)
            )
        return number

    return parse


def _kinds(text: str) -> tuple[str, ...]:
    kinds = tuple(part.strip().lower() for part in text.split(","))
    for kind in kinds:
        if kind not in COMPUTER_KINDS:
            shown = repr(kind) if kind else repr(_("(empty)"))
            raise argparse.ArgumentTypeError(
                _("unknown computer kind {kind}: use {kinds}").format(
                    kind=shown, kinds=", ".join(COMPUTER_KINDS)
                )
            )
    return kinds


def _handle(args: argparse.Namespace, console: Console) -> int:
    if args.dask is not None and args.jobs is not None:
        raise UsageError(_("--jobs is for local processes; a Dask cluster has its own workers"), COMMAND)
    options = SimulateOptions(
        games=args.games,
        kinds=args.players,
        profile=args.profile,
        seed=args.seed,
        jobs=args.jobs,
        dask=args.dask,
        as_json=args.json,
    )
    return simulate_command(options, console)


@dataclass(frozen=True, slots=True)
class SimulateOptions:
    """What the command line chose. ``kinds`` has one computer kind per seat, or one for every seat;
    ``seed`` ``None`` picks one (and prints it); ``jobs`` ``None`` uses every core."""

    games: int
    kinds: tuple[str, ...] = ("computer",)
    profile: str = "standard"
    seed: int | None = None
    jobs: int | None = None
    dask: str | None = None
    as_json: bool = False


def simulate_command(options: SimulateOptions, console: Console) -> int:
    """Run the games and print the summary. Raises `UsageError` for a bad profile or the wrong number
    of kinds, and `ValueError` for a kind that is not a computer kind, or a Dask scheduler that cannot
    be used."""
    profile = load_profile_option(options.profile, "simulate")
    seats = profile.rules.seats
    kinds = options.kinds * seats if len(options.kinds) == 1 else options.kinds
    if len(kinds) != seats:
        raise UsageError(
            _(
                "--players: the profile {profile} seats {seats} players; give {seats} kinds "
                "or one for every seat, not {given}"
            ).format(profile=repr(profile.name), seats=seats, given=len(kinds)),
            COMMAND,
        )
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**32)
    show_progress = not options.as_json and sys.stderr.isatty() and options.games > 1
    with _progress_bar(options.games, show_progress) as progress:
        result = simulate(
            options.games,
            kinds,
            profile=profile,
            seed=seed,
            jobs=options.jobs,
            dask=options.dask,
            progress=progress,
        )
    if options.as_json:
        print_json(result.to_json())
    else:
        _print_summary(console, result)
    return 0


@contextmanager
def _progress_bar(games: int, shown: bool) -> Iterator[ProgressCallback]:
    if not shown:
        yield lambda done: None
        return
    # Only a terminal sees the bar: a run whose output is read by a program does not load it.
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(
        TextColumn(_("games")),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(_("games"), total=games)
    with bar:
        yield lambda done: bar.update(task, completed=done)


_SOURCE_WORDS = {
    "play": N_("play"),
    "hand": N_("hand"),
    "crib": N_("crib"),
    "heels": N_("heels"),
    "other": N_("other"),
}
"""A source of points (`cribcore.simulate.SOURCES`) as a column heading, translated where shown."""

_SIDE = Nn_("seat {seats} ({kinds})", "seats {seats} ({kinds})")


def _backend(backend: str) -> str:
    """How the games were run (`Simulation.backend`, English there) in the language."""
    if backend == "this process":
        return _("this process")
    count, _space, rest = backend.partition(" ")
    if rest == "processes" and count.isdigit():
        return ngettext("{n} process", "{n} processes", int(count)).format(n=count)
    if count == "dask":
        return _("dask {address}").format(address=rest)
    return backend


def _side_label(result: Simulation, side: int) -> str:
    """``seat 1 (hard)``, or ``seats 1+3 (hard, random)`` for a partnership (as
    `Simulation.side_label` words it, in the language)."""
    rules = result.matchup.profile.rules
    seats = [seat for seat in range(rules.seats) if rules.side_of(seat) == side]
    kinds = ", ".join(result.matchup.kinds[seat] for seat in seats)
    numbers = "+".join(str(seat + 1) for seat in seats)
    return ngettext(*_SIDE, len(seats)).format(seats=numbers, kinds=kinds)


def _rate_cells(rate: Rate) -> list[Text | str]:
    low, high = rate.interval
    return [
        count_text(rate.count),
        percent_text(rate.rate * 100),
        f"{percent_text(low * 100)} – {percent_text(high * 100)}",
    ]


def _print_summary(console: Console, result: Simulation) -> None:
    matchup = result.matchup
    tally = result.tally
    versus = _(" vs ").join(matchup.kinds)
    console.print(
        Text(
            _("{games} games of {profile}: {versus}").format(
                games=count_text(result.games), profile=matchup.profile.name, versus=versus
            ),
            style="bold",
        )
    )
    console.print(
        _("Seed {seed} (run again with --seed {seed}) · {backend}").format(
            seed=matchup.seed, backend=_backend(result.backend)
        )
    )
    console.print()
    sides = range(matchup.sides)
    skunk_line, double_line = matchup.skunk_lines()
    bold = "bold"
    rows: list[Sequence[Text | str]] = [
        [
            Text("", style=bold),
            Text(_("games"), style=bold),
            Text(_("rate"), style=bold),
            Text(_("{level} interval").format(level="95%"), style=bold),
        ]
    ]
    rows += [
        [_("{side} wins").format(side=_side_label(result, side)), *_rate_cells(result.wins(side))]
        for side in sides
    ]
    rows.append([_("the first dealer wins"), *_rate_cells(result.first_dealer())])
    if skunk_line:
        rows.append([_("skunks (loser below {line})").format(line=skunk_line), *_rate_cells(result.skunks())])
    if double_line:
        rows.append(
            [_("double skunks (below {line})").format(line=double_line), *_rate_cells(result.double_skunks())]
        )
    for line in columns(rows, right=(1, 2, 3), gap=3):
        console.print(line)
    if any(points != wins for points, wins in zip(tally.game_points, tally.wins, strict=True)):
        awarded = ", ".join(f"{_side_label(result, s)} {count_text(tally.game_points[s])}" for s in sides)
        console.print(_("Games won counting skunk bonuses: {sides}").format(sides=awarded))
    console.print()
    shown = [s for s in SOURCES if s != "other" or any(tally.points["other"])]
    header: list[Text | str] = [Text(_("points per deal"), style=bold)]
    header += [Text(_(_SOURCE_WORDS.get(source, source)), style=bold) for source in shown]
    header.append(Text(_("total"), style=bold))
    table: list[Sequence[Text | str]] = [header]
    for side in sides:
        values = [result.points_per_deal(side, source) for source in SOURCES]
        cells = [decimal_text(result.points_per_deal(side, source), 2) for source in shown]
        table.append([_side_label(result, side), *cells, decimal_text(sum(values), 2)])
    for line in columns(table, right=range(1, len(header)), gap=3):
        console.print(line)
    deals = tally.deals / result.games
    console.print(
        _("{deals} deals, {per_game} per game (points per deal count every deal started)").format(
            deals=count_text(tally.deals), per_game=decimal_text(deals, 2)
        )
    )
