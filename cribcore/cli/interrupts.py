"""What Ctrl-C ends a command with, for the modules of `cribcore.cli` that end one: the exit status
and the one word said. A low module of constants, importing nothing, so that the entry point
(`cribcore.cli.entry`), the command line (`cribcore.cli.main`) and the tables all take them from
here, and none of them has to import another for them."""

from __future__ import annotations

__all__ = ["INTERRUPTED", "INTERRUPTED_WORDS"]

INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT), as shells report it."""

INTERRUPTED_WORDS = {"en": "interrupted", "es": "interrumpido"}
"""The error after Ctrl-C by language, held here rather than read from the catalog so that saying it
loads nothing while an interrupt may come again (a test keeps it equal to the catalog's entry)."""
