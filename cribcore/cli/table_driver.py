"""The terminal's one table driver: the turn loop that local play, same-device play and ``cribbage join``
all run, with where actions come from and go to behind a `cribcore.cli.transport.Transport`.

The loop: the transport tells the game until a person here must decide; the driver asks that person
(the seat's table drawn, the action read with `cribcore.cli.table_steps.ask_turn`) and gives the
transport the answer; at the end of a game the transport says what it was worth and whether the
table goes on. Leaving is the driver's: ``quit`` or the end of input (`QuitGame`) and Ctrl-C away from
a prompt end the loop, after the transport has said where the game was left. The steps both
transports take while telling a game (arriving at one under way, the board at a prompt) are here too.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from ..actions import Action
from ..events import Event
from ..i18n import _
from .describe import Voice
from .errors import report
from .interrupts import INTERRUPTED
from .narrate import Narrator
from .prompt import NewGame, QuitGame, Reader
from .render import Painter
from .table_steps import ask_turn, catch_up, tell_events
from .transport import Transport, Turn

__all__ = ["TableDriver", "arrive", "show_board"]


class TableDriver:
    """Runs one table at this terminal over ``transport``; see the module docstring. ``reader`` is
    ``None`` at a table with no person (computers only), which is never asked anything."""

    def __init__(
        self, console: Console, reader: Reader | None, painter: Painter, transport: Transport
    ) -> None:
        self.console = console
        self.reader = reader
        self.painter = painter
        self.transport = transport

    def run(self) -> int:
        """Play until the table is done or a person leaves; return the exit status: 0 at the end or
        on leaving, the `QuitGame`'s code when input ended (1), 130 after Ctrl-C away from a prompt."""
        transport = self.transport
        try:
            transport.begin()
            while True:
                try:
                    turn = transport.advance()
                    if turn is None:
                        if not transport.game_over():
                            return 0
                        continue
                    transport.send(turn, self.ask(turn))
                except NewGame:
                    transport.restart()
        except QuitGame as stop:
            transport.leave()
            if stop.code:
                report(transport.stop_line(stop.reason))
            return stop.code
        except KeyboardInterrupt:
            self.console.print()
            transport.leave()
            return INTERRUPTED
        finally:
            transport.close()

    def ask(self, turn: Turn) -> Action:
        """A person's decision at ``turn``: the seat's table drawn, then an action read and checked."""
        assert self.reader is not None  # only a table with a person here has turns
        return ask_turn(
            self.console,
            self.reader,
            turn.view,
            turn.voice,
            self.painter,
            turn.narrator,
            turn.check,
            extra=turn.extra,
            commands=turn.commands,
            help_text=turn.help_text,
            hints=turn.hints,
            held_here=turn.held_here,
            hinter=turn.hinter,
        )


def show_board(console: Console, narrator: Narrator) -> None:
    """``board`` typed at a prompt: the pegging board as the table stands, after a blank line."""
    console.print()
    for line in narrator.board():
        console.print(line)


def arrive(
    console: Console,
    narrator: Narrator,
    voice: Voice,
    events: Sequence[Event],
    *,
    sides: int,
    show_before: bool = False,
    with_cut: bool = False,
    say_from: bool = False,
) -> None:
    """Arrive at a game under way: the deals before the last taken in untold (see `catch_up` for
    ``show_before`` and ``with_cut``), the rest told; with ``say_from``, a line saying from which deal
    and score the telling starts when deals were taken in."""
    start = catch_up(narrator, events, show_before=show_before, with_cut=with_cut)
    if say_from and start > 0:
        before = next((e.scores for e in reversed(events[:start]) if e.scores), None)
        scores = voice.scores(before or (0,) * sides)
        line = _("From deal {number}, when the score was {scores}:").format(
            number=events[start].deal + 1, scores=scores
        )
        console.print(Text(line, style="bold"))
    tell_events(narrator, events[start:], arriving=True)
