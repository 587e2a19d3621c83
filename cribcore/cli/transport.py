"""The small protocol between the terminal's one table driver (`cribcore.cli.table_driver`) and where a
game's actions come from and go to: a `Game` on this device (`cribcore.cli.session.Session`, the local
transport) or a seat at a server (`cribcore.cli.join_table.NetTable`, the network transport).

The driver runs the turn loop; a transport tells the game as it goes (the narration, the catch-up on
arriving), plays what is not asked here (the computers, the other seats at a server), and hands the
driver a `Turn` each time a person at this terminal must decide. What a transport says on leaving and
after a game is its own: the driver only says when.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from rich.text import Text

from ..actions import Action
from ..views import SeatView
from .describe import Voice
from .narrate import Narrator

if TYPE_CHECKING:  # a hint is worked out only when asked for
    from ..players.hints import Hint

__all__ = ["Transport", "Turn"]


@dataclass(frozen=True, slots=True)
class Turn:
    """A decision asked of a person here: the seat's ``view``, told in ``voice`` with ``narrator``'s
    board; ``check`` refuses an action before it is sent (it raises the engine's `ValueError`, or does
    nothing where the other end checks); the rest is passed to `cribcore.cli.table_steps.ask_turn`."""

    seat: int
    view: SeatView
    voice: Voice
    narrator: Narrator
    check: Callable[[Action], None]
    commands: Mapping[str, Callable[[], None]]
    help_text: str
    extra: Sequence[Text] = ()
    hints: bool = True
    held_here: bool = True
    hinter: Callable[[SeatView], Hint] | None = field(default=None)


class Transport(Protocol):
    """Where a table's actions come from and go to (see the module docstring). The driver calls
    `begin` once, then `advance` and `send` in turn; `game_over` when `advance` says the game ended;
    `restart` when a person asked for a new game (`cribcore.cli.prompt.NewGame`); `leave` and
    `stop_line` when a person leaves; `close` at the very end."""

    def begin(self) -> None:
        """Before the first turn: whatever the table needs before it is told (a first save, a
        connection's first state)."""

    def advance(self) -> Turn | None:
        """Tell what happened and play what is not asked here, until a person here must decide (that
        `Turn`) or the game is over (``None``)."""

    def send(self, turn: Turn, action: Action) -> None:
        """Carry out ``action``, chosen at ``turn``."""

    def game_over(self) -> bool:
        """The end of a game: what it was worth, the review, "play again?"; whether the table goes on
        (the next game is then under way)."""

    def restart(self) -> None:
        """A new game in place of the one under way, which a person asked for and confirmed."""

    def leave(self) -> None:
        """A person leaves (quit, Ctrl-D, Ctrl-C): say where the game was left and how to go on."""

    def stop_line(self, reason: str) -> str:
        """The error line when leaving was not the person's choice (input ended): ``reason`` and
        what became of the game."""

    def close(self) -> None:
        """The table is done: let go of what it holds."""
