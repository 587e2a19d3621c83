"""The ``cribbage`` command line: argument parsing, dispatch to the commands, exit statuses, and turning
every failure into one line on standard error.

Exit statuses: 0 success; 1 an error (a bad card, a bad record, a file that cannot be read or written,
input that ended mid-game, a plugin whose hook failed); 2 a usage error; 130 interrupted with Ctrl-C
outside a prompt.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from ..i18n import LANGUAGES, _, language_from_env, set_language, take_lang_option
from ..problems import PackagedProfileWarning, PluginError, PluginVersionWarning
from ..version import VERSION
from .argparse_words import speak_argparse
from .commands import Handler, UsageError
from .errors import PROG, os_error_text, plain_streams, report
from .interrupts import INTERRUPTED

__all__ = ["build_parser", "main"]

USAGE_ERROR = 2

COMMANDS: dict[str, tuple[str, str]] = {
    "score": ("score", "add_score_parser"),
    "analyze": ("analyze", "add_analyze_parser"),
    "peg": ("score", "add_peg_parser"),
    "replay": ("replay", "add_replay_parser"),
    "review": ("review", "add_review_parser"),
    "history": ("history", "add_history_parser"),
    "play": ("play_cmd", "add_play_parser"),
    "resume": ("play_cmd", "add_resume_parser"),
    "saves": ("saves_cmd", "add_saves_parser"),
    "practice": ("practice", "add_practice_parser"),
    "profiles": ("profiles_cmd", "add_profiles_parser"),
    "plugins": ("plugins_cmd", "add_plugins_parser"),
    "stats": ("stats", "add_stats_parser"),
    "simulate": ("simulate", "add_simulate_parser"),
    "lab": ("lab", "add_lab_parser"),
    "tables": ("tables_cmd", "add_tables_parser"),
    "join": ("join_cmd", "add_join_parser"),
    "serve": ("serve_cmd", "add_serve_parser"),
}
"""Each command, in the order ``--help`` lists them: the module of `cribcore.cli` that adds its parser
(setting ``handler(args, console) -> int``) and that function's name. Only the module of the command
given is imported, so that a command loads nothing another one needs (``score`` starts at once)."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line: the error and where to find help."""

    command_names: tuple[str, ...] = ()
    """The subcommands, for the error when none is given."""

    def error(self, message: str) -> NoReturn:
        report(_("{message} (see '{prog} --help')").format(message=message, prog=self.prog), prog=self.prog)
        raise SystemExit(USAGE_ERROR)


def build_parser(command: str | None = None) -> _Parser:
    """The parser for every command, or for ``command`` alone (its module is then the only one
    imported); each subcommand stores its handler in ``handler``."""
    parser = _Parser(
        prog=PROG,
        description=_("Cribbage: count hands and pegging, replay game records, and play a game."),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"{PROG} {VERSION}",
        help=_("show program's version number and exit"),
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        help=_("the language, with any command (default: $CRIBCORE_LANG, else the locale, else en)"),
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title=_("commands"))
    for name, (module, adder) in COMMANDS.items():
        if command is None or name == command:
            add_parser = getattr(importlib.import_module(f".{module}", __package__), adder)
            add_parser(commands)
    parser.command_names = tuple(COMMANDS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: the process arguments); return the exit status.

    Never raises for user errors: they are reported as one line on standard error. ``--lang es|en``
    is taken anywhere on the line, before the command or after it (see `cribcore.i18n`).
    """
    plain_streams()
    try:
        lang, rest = take_lang_option(sys.argv[1:] if argv is None else argv)
        set_language(language_from_env(lang), asked=lang is not None)
    except ValueError as exc:
        # A bad --lang: said in the language the environment chooses (English if that is bad too).
        with contextlib.suppress(ValueError):
            set_language(language_from_env(None))
        report(_("{message} (see '{prog} --help')").format(message=_message(exc), prog=PROG))
        return USAGE_ERROR
    speak_argparse()
    # A line that starts with a command needs only that command's parser; any other (--help, no
    # command, a misspelt one) gets them all, so that help and errors list every command.
    parser = build_parser(rest[0] if rest and rest[0] in COMMANDS else None)
    try:
        args = parser.parse_args(rest)
        if args.command is None:
            parser.error(_("choose a command: {commands}").format(commands=", ".join(parser.command_names)))
        with warnings.catch_warnings():
            warnings.simplefilter("always", PluginVersionWarning)
            warnings.simplefilter("always", PackagedProfileWarning)
            shown = warnings.showwarning
            warnings.showwarning = functools.partial(_warning_line, shown)
            return _dispatch(args)
    except SystemExit as exc:  # --help, --version and usage errors from argparse
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except UsageError as exc:
        report(
            _("{message} (see '{prog} --help')").format(message=_message(exc), prog=exc.prog), prog=exc.prog
        )
        return USAGE_ERROR
    except BrokenPipeError:
        _silence_stdout()
        return 1
    except (ValueError, OSError, PluginError) as exc:
        report(_message(exc))
        return 1
    except KeyboardInterrupt:
        report(_("interrupted"))
        return INTERRUPTED


def _dispatch(args: argparse.Namespace) -> int:
    from .render import make_console

    console = make_console()
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        raise UsageError(_("no such command: {command}").format(command=args.command), args.command)
    return handler(args, console)


def _warning_line(
    shown: Callable[..., None],
    message: Warning | str,
    category: type[Warning],
    *args: Any,
    **kwargs: Any,
) -> None:
    """Our own warnings are one line on standard error, as errors are; others are shown as usual."""
    if issubclass(category, (PluginVersionWarning, PackagedProfileWarning)):
        from ..speech_messages import say

        said = say(" ".join(str(message).split()))
        print(_("{prog}: warning: {message}").format(prog=PROG, message=said), file=sys.stderr, flush=True)
    else:
        shown(message, category, *args, **kwargs)


def _message(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return os_error_text(exc)
    # The engine's refusals (a count past 31), a save's or a profile's faults, in the language.
    from ..speech_messages import say_error

    return say_error(exc)


def _silence_stdout() -> None:
    # The reader went away (e.g. `| head`): send what is still buffered nowhere so that Python does
    # not report the broken pipe again at exit.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
