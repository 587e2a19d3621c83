"""The shape of a command kept in its own module: ``handler(args, console) -> exit status``.

Such a module adds its subparser to the ``cribbage`` parser and stores its handler with
``parser.set_defaults(handler=...)``; `cribcore.cli.main` calls it and turns any `ValueError` or
`OSError` it raises into one line on standard error (exit status 1).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from .errors import PROG

if TYPE_CHECKING:  # a hint only: a command that prints nothing loads no rich
    from rich.console import Console

__all__ = ["Handler", "UsageError"]

Handler = Callable[[argparse.Namespace, "Console"], int]


class UsageError(Exception):
    """A command line that parsed but cannot be run as given; reported like argparse's errors (exit
    status 2), naming the command's help."""

    def __init__(self, message: str, command: str) -> None:
        super().__init__(message)
        self.prog = f"{PROG} {command}"
