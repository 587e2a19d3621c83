"""The ``play`` and ``resume`` command lines: their options, checked before any card is dealt, then
`cribcore.cli.play.play` and `cribcore.cli.play.resume`.

Every option problem is a usage error (exit status 2) with one line saying what is wrong: a profile
that does not load, ``--players`` that do not fit the profile's seats, a level the computer players do
not provide, a ``--record`` file that could not be written (a folder that does not exist or takes no
new file, a device or a pipe).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console

from ..files import check_writable
from ..i18n import _
from ..players import DEFAULT_LEVEL
from ..saves import MODES
from .commands import UsageError
from .errors import os_error_text
from .play import PlayOptions, default_kinds, levels, play, resume, seat_kind_names, seat_kinds, seat_names
from .profile_arg import add_profile_argument, load_profile_option
from .render import make_console

__all__ = ["add_play_parser", "add_resume_parser", "console_for", "seed_argument"]

MAX_GAMES = 99


def _seat_kinds(text: str) -> tuple[str, ...]:
    try:
        return seat_kinds(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def seed_argument(text: str) -> int:
    """``--seed``: a whole number, 0 or more."""
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a whole number: {text}").format(text=repr(text))) from None
    if seed < 0:
        raise argparse.ArgumentTypeError(_("a seed is 0 or more, not {seed}").format(seed=seed))
    return seed


def _games(text: str) -> int:
    try:
        games = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a whole number: {text}").format(text=repr(text))) from None
    if not 1 <= games <= MAX_GAMES:
        raise argparse.ArgumentTypeError(
            _("a match is 1 to {most} games, not {games}").format(most=MAX_GAMES, games=games)
        )
    return games


def _level(text: str) -> str:
    known = levels()
    level = text.strip().lower()
    if level not in known:
        offer = ", ".join(known) if known else _("none are installed")
        raise argparse.ArgumentTypeError(
            _("unknown level {level}: use {offer}").format(level=repr(text), offer=offer)
        )
    return level


def add_play_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``play`` to the ``cribbage`` parser."""
    parser = commands.add_parser(
        "play",
        help=_("play a game: against the computer, on one device, or a match"),
        description=_(
            "Play a game of cribbage: the standard game (two players, six cards, first to 121) "
            "unless --profile names another. A game with a human is saved after every move; "
            "'cribbage resume' goes on where it stopped."
        ),
        epilog=_(
            "Try: cribbage play --players computer,computer --seed 7  (a whole game, unattended). "
            "Two people on one device: cribbage play --players human,human --name Ann --name Bob."
        ),
    )
    parser.add_argument(
        "--seed", type=seed_argument, metavar="N", help=_("fix the shuffles to replay a game")
    )
    parser.add_argument(
        "--players",
        type=_seat_kinds,
        metavar="KINDS",
        help=_(
            "one kind per seat, comma separated: {kinds} "
            "(default: you and computers, as many seats as the profile has)"
        ).format(kinds=", ".join(seat_kind_names())),
    )
    parser.add_argument(
        "--name",
        action="append",
        default=[],
        metavar="NAME",
        help=_('the human\'s name (default "You"); repeat for several human seats'),
    )
    parser.add_argument(
        "--level",
        type=_level,
        metavar="LEVEL",
        help=_("how 'computer' seats play: {levels} (default: {level})").format(
            levels=", ".join(levels()) or _("no levels installed"), level=DEFAULT_LEVEL
        ),
    )
    add_profile_argument(parser)
    parser.add_argument(
        "--match",
        type=_games,
        default=1,
        metavar="N",
        help=_("play a match of N games: games won and game points are kept, skunks announced"),
    )
    parser.add_argument(
        "--record", type=Path, metavar="FILE", help=_("write the game record here when the game ends")
    )
    parser.add_argument(
        "--no-save", action="store_true", help=_("do not save this game (a saved game is left alone)")
    )
    parser.add_argument(
        "--no-keep", action="store_true", help=_("do not keep the finished game for 'cribbage history'")
    )
    _add_ascii(parser)
    parser.set_defaults(handler=_play)


def add_resume_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``resume`` to the ``cribbage`` parser."""
    parser = commands.add_parser(
        "resume",
        help=_("continue a saved game where it stopped"),
        description=_(
            "Continue the saved game exactly where it stopped, with the same cards to come. "
            "There is one save for games against the computer and one for games on this device."
        ),
    )
    parser.add_argument(
        "mode",
        nargs="?",
        choices=MODES,
        metavar="MODE",
        help=_("which save: {modes} (needed only when both are saved)").format(modes=_(" or ").join(MODES)),
    )
    parser.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help=_("write the game record here (default: where the game's --record wrote it)"),
    )
    _add_ascii(parser)
    parser.set_defaults(handler=_resume)


def _add_ascii(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ascii",
        action="store_true",
        help=_("plain ASCII: cards as 5H TD, no suit symbols or box drawing (set NO_COLOR for no colour)"),
    )


def console_for(args: argparse.Namespace, console: Console) -> Console:
    """The console a game prints through: a plain ASCII one when ``--ascii`` was given. On a terminal
    long lines are wrapped between words to its width (a narrow terminal would cut words)."""
    chosen = make_console(ascii_only=True) if getattr(args, "ascii", False) else console
    chosen.soft_wrap = not chosen.is_terminal
    return chosen


def _play(args: argparse.Namespace, console: Console) -> int:
    profile = load_profile_option(args.profile, "play")
    seats = profile.rules.seats
    kinds: tuple[str, ...] = args.players if args.players is not None else default_kinds(seats)
    if len(kinds) != seats:
        raise UsageError(
            _("--players needs {seats} seat kinds for the profile {profile}, not {given}").format(
                seats=seats, profile=repr(profile.name), given=len(kinds)
            ),
            "play",
        )
    try:
        seat_names(kinds, args.name)
    except ValueError as exc:
        raise UsageError(str(exc), "play") from None
    record: Path | None = args.record
    _check_record(record, "play")
    options = PlayOptions(
        seed=args.seed,
        kinds=kinds,
        human_names=tuple(args.name),
        record=record,
        profile=args.profile,
        level=args.level or "computer",
        games=args.match,
        save=not args.no_save,
        keep=not args.no_keep,
    )
    return play(options, console_for(args, console))


def _check_record(record: Path | None, command: str) -> None:
    """A ``--record`` file that cannot be written is a usage error before any card is dealt: it must
    not cost a whole game."""
    if record is None:
        return
    if not record.resolve().parent.is_dir():
        raise UsageError(
            _("--record: the folder {folder} does not exist").format(folder=repr(str(record.parent))), command
        )
    if record.is_dir():
        raise UsageError(
            _("--record: {path} is a folder; name a file").format(path=repr(str(record))), command
        )
    try:
        check_writable(record)
    except OSError as exc:
        raise UsageError(f"--record: {os_error_text(exc)}", command) from None


def _resume(args: argparse.Namespace, console: Console) -> int:
    _check_record(args.record, "resume")
    return resume(args.mode, console_for(args, console), args.record)
