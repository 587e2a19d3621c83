"""One-line error reporting: every failure the user sees is a single line on standard error."""

from __future__ import annotations

import sys

__all__ = ["PROG", "error_line", "os_error_text", "report"]

PROG = "cribbage"


def error_line(message: str, prog: str = PROG) -> str:
    """``cribbage: error: <message>`` with any line breaks in the message folded to spaces."""
    return f"{prog}: error: {' '.join(message.split())}"


def report(message: str, prog: str = PROG) -> None:
    """Write `error_line` to standard error."""
    print(error_line(message, prog), file=sys.stderr, flush=True)


def os_error_text(exc: OSError) -> str:
    """An `OSError` as the user should read it: ``<file>: <reason>`` when it names a file."""
    if exc.strerror:
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror}"
    return str(exc)
