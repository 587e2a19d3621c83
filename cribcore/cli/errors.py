"""One-line error reporting: every failure the user sees is a single line on standard error."""

from __future__ import annotations

import sys

__all__ = ["PROG", "error_line", "report"]

PROG = "cribbage"


def error_line(message: str, prog: str = PROG) -> str:
    """``cribbage: error: <message>`` with any line breaks in the message folded to spaces."""
    return f"{prog}: error: {' '.join(message.split())}"


def report(message: str, prog: str = PROG) -> None:
    """Write `error_line` to standard error."""
    print(error_line(message, prog), file=sys.stderr, flush=True)
