"""The ``tables`` command: build the computer's tables for a profile ahead of play, list and clear them.

``build PROFILE`` computes every table the computer levels use for the profile that does not ship
with cribcore (`cribcore.players.tables`): the crib table, the pegging table and the expert's win
table, each with a progress bar and the time left, in local processes (``--jobs``) or on a Dask
cluster (``--dask``), and keeps them in the data directory where games find them. ``list`` shows what
is kept there; ``clear`` removes a profile's tables, or all of them.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from ..i18n import _, ngettext
from .commands import UsageError
from .profile_arg import load_profile_option

if TYPE_CHECKING:
    from ..players.tables import TableStep

__all__ = ["add_tables_parser"]


def add_tables_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``tables`` and its subcommands to the ``cribbage`` parser."""
    parser = commands.add_parser(
        "tables",
        help=_("build the computer's tables for a profile ahead of play"),
        description=_(
            "The computer players use tables of expected points and chances to win. The standard "
            "profile's ship with cribcore; another profile's are computed once and kept in the data folder."
        ),
    )
    sub = parser.add_subparsers(dest="tables_command", metavar="ACTION", title=_("actions"))
    sub.required = True

    build = sub.add_parser(
        "build",
        help=_("build every table a profile needs"),
        description=_(
            "Build every table the computer uses for a profile that is not built yet (or is damaged), "
            "with a progress bar, so that no game waits for one."
        ),
    )
    build.add_argument("profile", metavar="NAME|FILE", help=_("a built-in profile's name or a profile file"))
    build.add_argument(
        "--jobs", type=int, default=None, help=_("local processes to build with (default: every core)")
    )
    build.add_argument(
        "--dask",
        metavar="ADDRESS",
        default=None,
        help=_("build on the Dask cluster whose scheduler is at ADDRESS, e.g. tcp://host:8786"),
    )
    build.set_defaults(handler=_build)

    listing = sub.add_parser(
        "list", help=_("the tables kept"), description=_("List the tables kept in the data folder.")
    )
    listing.set_defaults(handler=_list)

    clear = sub.add_parser(
        "clear",
        help=_("remove kept tables"),
        description=_(
            "Remove a profile's tables from the data folder, or every table when no profile is named."
        ),
    )
    clear.add_argument("profile", metavar="NAME|FILE", nargs="?", default=None)
    clear.set_defaults(handler=_clear)


def _build(args: argparse.Namespace, console: Console) -> int:

    from ..players.tables import tables_for
    from ..rulebook import rulebook_for

    if args.dask is not None and args.jobs is not None:
        raise UsageError(
            _("--jobs is for local processes; a Dask cluster has its own workers"), "tables build"
        )
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(_("--jobs must be at least 1"), "tables build")
    profile = load_profile_option(args.profile, "tables build", None)
    book = rulebook_for(profile)
    jobs = args.jobs if args.jobs is not None else max(1, os.cpu_count() or 1)
    steps = tables_for(book)
    if not steps:
        console.print(
            _("{profile}: the computer needs no table beyond those that ship with cribcore").format(
                profile=book.profile_name
            )
        )
        return 0
    for step in steps:
        if step.kept():
            console.print(
                _("{table} for {profile}: already built").format(table=step.name, profile=book.profile_name)
            )
            continue
        began = time.perf_counter()
        _build_one(step, book.profile_name, jobs, args.dask, console)
        console.print(
            _("{table} for {profile}: built in {seconds:.1f} s").format(
                table=step.name, profile=book.profile_name, seconds=time.perf_counter() - began
            )
        )
    return 0


def _build_one(step: TableStep, profile: str, jobs: int, dask: str | None, console: Console) -> None:
    """Build one table, with a progress bar and the time left on a terminal."""
    from ..players.tablefiles import build_progress

    description = _("{table} for {profile}").format(table=step.name, profile=profile)
    with build_progress(description, step.total, console=console) as progress:
        step.build(jobs, dask, progress)


def _list(args: argparse.Namespace, console: Console) -> int:
    from ..players.tablefiles import kept_tables, kind_name

    found = kept_tables()
    if not found:
        console.print(_("no tables are kept in the data folder"))
        return 0
    table = Table(box=None)
    for heading in (_("table"), _("profile"), _("fingerprint"), _("size"), _("built"), _("state")):
        table.add_column(heading)
    for kept in found:
        state = {"ready": _("ready"), "old": _("made by an older version"), "damaged": _("damaged")}[
            kept.state
        ]
        size = f"{kept.size / 1024:.0f} KiB"
        built = kept.built.replace("T", " ")[:16]
        table.add_row(kind_name(kept.kind), kept.profile, kept.fingerprint, size, built, state)
    console.print(table)
    return 0


def _clear(args: argparse.Namespace, console: Console) -> int:
    from ..players.tablefiles import kept_tables

    found = kept_tables()
    if args.profile is not None:
        from ..rulebook import rulebook_for

        fingerprint = rulebook_for(load_profile_option(args.profile, "tables clear", None)).fingerprint
        found = [kept for kept in found if kept.path.stem == fingerprint]
    removed = 0
    for kept in found:
        try:
            kept.path.unlink()
            removed += 1
        except FileNotFoundError:
            pass
    console.print(
        ngettext("removed {count} table file", "removed {count} table files", removed).format(count=removed)
    )
    return 0
