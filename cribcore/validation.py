"""Turning a pydantic `ValidationError` into the one line a user reads: the key, then the reason."""

from __future__ import annotations

import unicodedata

from pydantic import ValidationError

__all__ = ["first_problem", "one_line"]


def one_line(message: str) -> str:
    """``message`` as one line of printable text: the control and format characters that a file's
    keys or texts may hold (a line break, a terminal escape) are written as escapes (``\\n``)."""
    return "".join(
        ch.encode("unicode_escape").decode("ascii") if unicodedata.category(ch).startswith("C") else ch
        for ch in message
    )


def first_problem(exc: ValidationError, *prefix: str, whole: str = "") -> tuple[str, str]:
    """The first error's dotted key (after ``prefix``; ``whole`` when the error is about the whole
    value) and its message, without pydantic's ``Value error,`` prefix for a validator's own reason."""
    first = exc.errors()[0]
    key = ".".join(str(part) for part in (*prefix, *first["loc"])) or whole
    return key, first["msg"].removeprefix("Value error, ")
