"""Clearing the screen between players who share one device.

On a terminal that understands escape codes the visible screen and its scrollback are both cleared,
so the next player cannot scroll back to the last player's cards. A dumb terminal cannot clear, so
the old lines are pushed off the top with blank lines instead. Output that is not a terminal (a pipe,
a file) is left alone: there is no screen to hide.
"""

from __future__ import annotations

from rich.console import Console

__all__ = ["CLEAR", "clear_screen"]

CLEAR = "\x1b[H\x1b[2J\x1b[3J"
"""Cursor home, erase the screen, erase the scrollback (xterm and its kin, tmux, most terminals)."""

_MIN_BLANK_LINES = 50


def clear_screen(console: Console) -> None:
    """Clear ``console``'s screen as well as it can (see the module docstring)."""
    if not console.is_terminal:
        return
    if console.is_dumb_terminal:
        console.file.write("\n" * max(console.height, _MIN_BLANK_LINES))
    else:
        console.file.write(CLEAR)
    console.file.flush()
