"""The ``lab`` command: what a house rule does to the game, measured on paired games (`cribcore.lab`),
as a terminal summary with the largest differences first, as JSON, or as an HTML page with charts."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from rich.console import Console
from rich.text import Text

from ..i18n import _
from ..lab import KNOWING_LEVELS, LabResult, LabSetup, run_lab, weaker_level
from ..written_numbers import count_text
from .commands import UsageError
from .profile_arg import load_profile_option
from .render import columns, print_json
from .simulate import _progress_bar, _whole, add_run_arguments

__all__ = ["DEFAULT_GAMES", "QUICK_GAMES", "add_lab_parser"]

COMMAND = "lab"

DEFAULT_GAMES = 2400
"""Paired games by default: the first dealer's share to about ±2 points of percentage (95 %)."""

QUICK_GAMES = 120
"""Paired games with ``--quick``: rough figures in well under a minute at the hard level."""


def add_lab_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``lab`` to the ``cribbage`` parser."""
    parser = commands.add_parser(
        COMMAND,
        help=_("measure what a house rule does to the game"),
        description=_(
            "Play paired games on the same seeds under PROFILE and under the reference rules and report "
            "every figure for each side with its 95 percent interval, and the difference: deals per game, "
            "the first dealer's share, margins, skunks, points per deal by source, skill, and what "
            "knowing the rule is worth."
        ),
        epilog=_(
            "Examples: cribbage lab muggins --quick;  cribbage lab FILE.toml --games 4000 --html lab.html"
        ),
    )
    parser.add_argument("profile", metavar="PROFILE", help=_("the house rules: a profile name or file"))
    parser.add_argument(
        "--against",
        default="standard",
        metavar="REFERENCE",
        help=_("the rules to compare with (default standard)"),
    )
    parser.add_argument(
        "--games",
        type=_whole(1),
        metavar="N",
        help=_("paired games (default {default}; --quick {quick})").format(
            default=DEFAULT_GAMES, quick=QUICK_GAMES
        ),
    )
    parser.add_argument(
        "--level",
        choices=KNOWING_LEVELS,
        default="hard",
        help=_("the level on both seats and the stronger one for skill (default hard)"),
    )
    add_run_arguments(parser)
    parser.add_argument(
        "--html", metavar="FILE", help=_("also write the results as one HTML page with charts")
    )
    parser.add_argument("--quick", action="store_true", help=_("rough figures in under a minute"))
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace, console: Console) -> int:
    if args.dask is not None and args.jobs is not None:
        raise UsageError(_("--jobs is for local processes; a Dask cluster has its own workers"), COMMAND)
    if args.quick and args.games is not None:
        raise UsageError(_("--quick chooses the number of games; give --games or --quick"), COMMAND)
    html = args.html
    if html is not None:
        from ..files import check_writable
        from ..lab_html import lab_html

        check_writable(html)  # before the games, not after minutes of them
    profile = load_profile_option(args.profile, COMMAND, None)
    reference = load_profile_option(args.against, COMMAND, "--against")
    games = args.games if args.games is not None else (QUICK_GAMES if args.quick else DEFAULT_GAMES)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    setup = LabSetup(profile, reference, level=args.level, weaker=weaker_level(args.level), seed=seed)
    shown = not args.json and sys.stderr.isatty()
    with _progress_bar(games, shown) as progress:
        result = run_lab(setup, games, jobs=args.jobs, dask=args.dask, progress=progress)
    if html is not None:
        from ..files import atomic_write_text

        atomic_write_text(html, lab_html(result))
    if args.json:
        print_json(result.to_json())
    else:
        _print_summary(console, result)
    return 130 if result.partial and result.tally.games < games else 0


def _print_summary(console: Console, result: LabResult) -> None:
    from ..lab_report import estimate_text, excludes_zero, figure_label, levels_text

    setup = result.setup
    console.print(
        Text(
            _("{games} paired games: {profile} against {reference}, {level} on both seats").format(
                games=count_text(result.tally.games),
                profile=setup.profile.name,
                reference=setup.reference.name,
                level=setup.level,
            ),
            style="bold",
        )
    )
    if result.partial:
        console.print(
            Text(_("Partial: the run was stopped; these figures cover the games finished."), style="red")
        )
    console.print(_("Seed {seed} (run again with --seed {seed})").format(seed=setup.seed))
    if not result.to_json()["paired_seeds"]:
        console.print(_("The same rules on both sides: the reference plays seeds of its own."))
    console.print()
    bold = "bold"
    rows: list[list[Text | str]] = [
        [
            Text(_("figure"), style=bold),
            Text(setup.profile.name, style=bold),
            Text(setup.reference.name, style=bold),
            Text(_("difference"), style=bold),
        ]
    ]
    for figure in result.by_size():
        style = bold if excludes_zero(figure) else ""
        rows.append(
            [
                Text(figure_label(figure.name), style=style),
                estimate_text(figure.name, figure.profile),
                estimate_text(figure.name, figure.reference),
                Text(estimate_text(figure.name, figure.difference, sign=True), style=style),
            ]
        )
    for line in columns(rows, right=(1, 2, 3), gap=3):
        console.print(line)
    console.print(levels_text(result))
