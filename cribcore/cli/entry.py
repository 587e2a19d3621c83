"""The ``cribbage`` console command's entry point, kept tiny: it imports nothing heavy before it can
handle Ctrl-C, so an interrupt even while the rest of the command line loads ends with exit status
130 and one line, never a traceback. ``cribbage --version`` answers without loading the engine."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence

from ..version import VERSION
from .errors import PROG, report

__all__ = ["INTERRUPTED", "main"]

INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT), as shells report it."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``cribbage`` with ``argv`` (default: the process arguments) and return its exit status."""
    try:
        args = list(sys.argv[1:] if argv is None else argv)
        if args == ["--version"]:
            print(f"{PROG} {VERSION}")
            return 0
        from .main import main as command_line

        return command_line(args)
    except KeyboardInterrupt:
        with contextlib.suppress(OSError, ValueError, KeyboardInterrupt):  # no stderr, a second Ctrl-C
            report("interrupted")
        return INTERRUPTED
