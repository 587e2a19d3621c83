"""The ``join`` command's arguments: ``cribbage join LINK [--name NAME] [--ascii]``.

The table itself (`cribcore.cli.join_table`, with the WebSocket client) is imported only when the
command runs, so that the other commands start without it.
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from ..i18n import _

__all__ = ["add_join_parser"]


def add_join_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``join`` to the ``cribbage`` parser."""
    parser = commands.add_parser(
        "join",
        help=_("play at a cribbage server: join with an invitation link, or rejoin your seat"),
        description=_(
            "Take a seat at a game on a cribbage server ('cribbage serve') and play it here. "
            "LINK is an invitation, http://HOST:PORT/#join=CODE, or your own seat's link, "
            "http://HOST:PORT/#key=KEY. The seat key the server gives is kept in the data directory, so "
            "the same 'cribbage join LINK' goes back to the same seat after you leave."
        ),
        epilog=_(
            "Leaving (quit, Ctrl-C, Ctrl-D) keeps your seat: run the same command to rejoin it. "
            "The key is a secret: whoever has it holds the seat."
        ),
    )
    parser.add_argument(
        "link", metavar="LINK", help=_("an invitation link (#join=CODE) or a seat link (#key=KEY)")
    )
    parser.add_argument(
        "--name", metavar="NAME", help=_("your name at the table (asked for when not given; 1-24 characters)")
    )
    parser.add_argument(
        "--ascii", action="store_true", help=_("draw with ASCII only (cards as TD, pegs as @ and o)")
    )
    parser.set_defaults(handler=_join_command)


def _join_command(args: argparse.Namespace, console: Console) -> int:
    from .join_table import join_command

    return join_command(args, console)
