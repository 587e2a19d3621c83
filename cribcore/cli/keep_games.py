"""Keeping a finished game at the terminal for ``cribbage history`` (`cribcore.history.keep_game`): one
file written when the game ends, never a review (so the table never waits for the coach), and never
the end of the session: a data directory that cannot be written costs one line."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from ..engine import Game
from ..history import keep_game
from ..i18n import _
from ..records import game_record

__all__ = ["keep_finished"]


def keep_finished(game: Game, kinds: Sequence[str], level: str, console: Console) -> None:
    """Keep ``game`` (over) if a seat of ``kinds`` is human; say so in one line if it cannot be."""
    try:
        sides = [game.rules.side_of(seat) for seat in range(len(kinds))]
        keep_game(game_record(game), kinds, level, sides=sides)
    except (OSError, RuntimeError) as exc:
        console.print(
            Text(_("The game is not kept for your history: {reason}").format(reason=exc), style="yellow")
        )
