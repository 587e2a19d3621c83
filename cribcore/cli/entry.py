"""The ``cribbage`` console command's entry point, kept tiny: it imports nothing heavy before it can
handle Ctrl-C, so an interrupt even while the rest of the command line loads ends with exit status
130 and one line, never a traceback. ``cribbage --version`` answers without loading the engine."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence

from ..i18n import DEFAULT_LANGUAGE, language_from_env, take_lang_option
from ..version import VERSION
from .errors import PROG, report
from .interrupts import INTERRUPTED, INTERRUPTED_WORDS

__all__ = ["INTERRUPTED", "INTERRUPTED_WORDS", "main"]


def _interrupted(argv: Sequence[str]) -> str:
    """`INTERRUPTED_WORDS` in the language chosen as `cribcore.i18n.language_from_env` chooses it."""
    try:
        lang, _rest = take_lang_option(argv)
        code = language_from_env(lang)
    except ValueError:  # a bad --lang or $CRIBCORE_LANG: the usage error never came
        code = DEFAULT_LANGUAGE
    return INTERRUPTED_WORDS.get(code, INTERRUPTED_WORDS[DEFAULT_LANGUAGE])


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``cribbage`` with ``argv`` (default: the process arguments) and return its exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args == ["--version"]:
            print(f"{PROG} {VERSION}")
            return 0
        from .main import main as command_line

        return command_line(args)
    except KeyboardInterrupt:
        with contextlib.suppress(OSError, ValueError, KeyboardInterrupt):  # no stderr, a second Ctrl-C
            report(_interrupted(args))
        return INTERRUPTED
