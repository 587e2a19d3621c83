"""The ``cribbage`` command line: argument parsing, dispatch to the commands, exit statuses, and turning
every failure into one line on standard error.

Exit statuses: 0 success; 1 an error (a bad card, a bad record, a file that cannot be read or written,
input that ended mid-game); 2 a usage error; 130 interrupted with Ctrl-C outside a prompt.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from .. import __version__
from ..rulebook import Rulebook, rulebook_for
from .analyze import add_analyze_parser
from .commands import Handler, UsageError
from .errors import PROG, report
from .join_cmd import add_join_parser
from .play import INTERRUPTED
from .play_cmd import add_play_parser, add_resume_parser
from .plugins_cmd import add_plugins_parser
from .practice import add_practice_parser
from .profile_arg import PROFILE_HELP, add_profile_argument, load_profile_option
from .profiles_cmd import add_profiles_parser
from .render import make_console
from .replay import replay_command
from .saves_cmd import add_saves_parser
from .score import peg_command, score_command
from .serve_cmd import add_serve_parser
from .simulate import add_simulate_parser
from .stats import add_stats_parser

__all__ = ["build_parser", "main"]

USAGE_ERROR = 2


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line: the error and where to find help."""

    command_names: tuple[str, ...] = ()
    """The subcommands, for the error when none is given."""

    def error(self, message: str) -> NoReturn:
        report(f"{message} (see '{self.prog} --help')", prog=self.prog)
        raise SystemExit(USAGE_ERROR)


def build_parser() -> _Parser:
    """The parser for every command; each subcommand stores its handler in ``command``."""
    parser = _Parser(
        prog=PROG,
        description="Cribbage: count hands and pegging, replay game records, and play a game.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")

    score = commands.add_parser(
        "score",
        help="count a hand or crib in the show",
        description="Count a hand (or crib) with the starter, item by item.",
        epilog="Cards: rank A 2-9 T J Q K (or 10) and suit C D H S (or ♣ ♦ ♥ ♠), e.g. 5H, 10s, J♣.",
    )
    score.add_argument("cards", nargs="+", metavar="CARD", help="the hand: 1 to 6 cards")
    score.add_argument("--starter", metavar="CARD", help="the starter (cut) card; required")
    score.add_argument("--crib", action="store_true", help="count as the crib (flush needs all five)")
    score.add_argument("--json", action="store_true", help="print the score as JSON")
    add_profile_argument(score, default=None, help=f"{PROFILE_HELP} (default standard; JSON then names it)")

    add_analyze_parser(commands)

    peg = commands.add_parser(
        "peg",
        help="score cards laid in order on one count",
        description="Points each card scores when laid in this order on one count (the play).",
    )
    peg.add_argument("cards", nargs="+", metavar="CARD", help="cards in the order laid")
    peg.add_argument(
        "--last",
        action="store_true",
        help="nobody can play on: the final card also scores 1 for the go (unless it made 31)",
    )
    peg.add_argument("--json", action="store_true", help="print one JSON object per card")
    add_profile_argument(peg, default=None, help=f"{PROFILE_HELP} (default standard; JSON then names it)")

    replay = commands.add_parser(
        "replay",
        help="replay a game record and list its scores",
        description="Re-play a game record through the engine and list every score, then the result.",
    )
    replay.add_argument("file", metavar="FILE", help="the record (JSON); - reads standard input")
    replay.add_argument("--json", action="store_true", help="print the scoring events as JSON")

    add_play_parser(commands)
    add_resume_parser(commands)
    add_saves_parser(commands)
    add_practice_parser(commands)
    # Commands kept in their own modules register a parser and set ``handler(args, console) -> int``.
    add_profiles_parser(commands)
    add_plugins_parser(commands)
    add_stats_parser(commands)
    add_simulate_parser(commands)
    add_join_parser(commands)
    add_serve_parser(commands)
    parser.command_names = tuple(commands.choices)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: the process arguments); return the exit status.

    Never raises for user errors: they are reported as one line on standard error.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.error(f"choose a command: {', '.join(parser.command_names)}")
        return _dispatch(args)
    except SystemExit as exc:  # --help, --version and usage errors from argparse
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except UsageError as exc:
        report(f"{exc} (see '{exc.prog} --help')", prog=exc.prog)
        return USAGE_ERROR
    except BrokenPipeError:
        _silence_stdout()
        return 1
    except (ValueError, OSError) as exc:
        report(_message(exc))
        return 1
    except KeyboardInterrupt:
        report("interrupted")
        return INTERRUPTED


def _dispatch(args: argparse.Namespace) -> int:
    console = make_console()
    handler: Handler | None = getattr(args, "handler", None)
    if handler is not None:
        return handler(args, console)
    if args.command == "score":
        if args.starter is None:
            raise UsageError("the starter is missing: add --starter CARD, e.g. --starter 5S", "score")
        return score_command(
            args.cards,
            args.starter,
            crib=args.crib,
            as_json=args.json,
            console=console,
            rulebook=_rulebook_option(args.profile, "score"),
        )
    if args.command == "peg":
        return peg_command(
            args.cards,
            last=args.last,
            as_json=args.json,
            console=console,
            rulebook=_rulebook_option(args.profile, "peg"),
        )
    if args.command == "replay":
        return replay_command(args.file, as_json=args.json, console=console)
    raise UsageError(f"no such command: {args.command}", args.command)


def _rulebook_option(profile: str | None, command: str) -> Rulebook | None:
    """The rulebook of the ``--profile`` given, or ``None`` when none was (the standard rules)."""
    return None if profile is None else rulebook_for(load_profile_option(profile, command))


def _message(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror}"
    return str(exc)


def _silence_stdout() -> None:
    # The reader went away (e.g. `| head`): send what is still buffered nowhere so that Python does
    # not report the broken pipe again at exit.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
