"""Turning a pydantic `ValidationError` into the one line a user reads: the key, then the reason."""

from __future__ import annotations

from pydantic import ValidationError

__all__ = ["first_problem"]


def first_problem(exc: ValidationError, *prefix: str, whole: str = "") -> tuple[str, str]:
    """The first error's dotted key (after ``prefix``; ``whole`` when the error is about the whole
    value) and its message, without pydantic's ``Value error,`` prefix for a validator's own reason."""
    first = exc.errors()[0]
    key = ".".join(str(part) for part in (*prefix, *first["loc"])) or whole
    return key, first["msg"].removeprefix("Value error, ")
