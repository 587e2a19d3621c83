"""The steps both terminal tables take: the table of this device (`cribcore.cli.session`) and the
table of a seat at a server (`cribcore.cli.join_table`), both run by `cribcore.cli.table_driver`.

Each step is driven by what a table has in common: a seat's `SeatView`, the `Narrator` telling the
game, and a check callable for a chosen action (the engine's `Game.check` at this device; none at a
server, which checks every action itself). A table says how it differs through the arguments, so a
change to a step reaches both tables:

- `table_title` and `print_heading`: the ``Ann vs Bob (profile), first to 121.`` line a game opens
  with, and `print_help_hint`, the line that says ``help`` names cards;
- `ask_turn`: a human's turn, the seat's table drawn (with the pegging board when the pegs moved
  since it was last drawn) and the action asked for;
- `catch_up` and `tell_events`: arriving at a game under way, told from its last deal;
- `where_in_game`: where a game was left, in the line said on leaving it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from ..actions import Action
from ..events import Event
from ..i18n import _
from ..profile_titles import profile_title
from ..views import SeatView
from .describe import Voice
from .narrate import Narrator
from .prompt import Reader, ask_action
from .render import Painter, seat_table

if TYPE_CHECKING:  # a hint is worked out only when asked for
    from ..players.hints import Hint

__all__ = [
    "ask_turn",
    "catch_up",
    "print_heading",
    "print_help_hint",
    "table_title",
    "tell_events",
    "where_in_game",
]


def table_title(names: Sequence[str], profile: str | None = None) -> str:
    """``Ann vs Bob``, and `` (PROFILE)`` after it for a table under a profile other than the standard
    rules (``profile``, its name: ``"standard"`` or ``None`` is not named). Both tables decide the note
    here, from the game's profile name (only the built-in standard profile may be named so)."""
    title = _(" vs ").join(names)
    return title if profile is None or profile == "standard" else f"{title} ({profile_title(profile)})"


def print_heading(console: Console, title: str, goal: str) -> None:
    """The line a game opens with: ``Ann vs Bob, first to 121.`` (``title`` from `table_title`,
    ``goal`` from `Voice.goal`)."""
    console.print(Text(f"{title}, {goal}.", style="bold"))


def print_help_hint(console: Console) -> None:
    """The line that tells a person at the table where to learn how cards are named."""
    console.print(Text(_("Type help at any prompt to see how to name cards."), style="dim"))


def ask_turn(
    console: Console,
    reader: Reader,
    view: SeatView,
    voice: Voice,
    painter: Painter,
    narrator: Narrator,
    check: Callable[[Action], None],
    *,
    commands: Mapping[str, Callable[[], None]],
    help_text: str,
    extra: Sequence[Text] = (),
    hints: bool = True,
    held_here: bool = True,
    hinter: Callable[[SeatView], Hint] | None = None,
) -> Action:
    """A human's turn at ``view``: print on ``console`` the seat's table (after a blank line, with the
    pegging board when the pegs moved since it was last drawn, and the ``extra`` lines), then ask for
    one of the view's legal actions with `ask_action`, which shows ``check``'s refusal and asks again.
    The rest is passed to `ask_action` as it is."""
    board = narrator.board(indent=2) if narrator.keeper.moved_since_drawn else []
    console.print()
    console.print(seat_table(view, voice, painter, board=board, extra=extra, width=console.width))
    return ask_action(
        reader,
        view,
        voice,
        painter,
        check,
        commands=commands,
        help_text=help_text,
        hints=hints,
        held_here=held_here,
        hinter=hinter,
    )


def catch_up(
    narrator: Narrator, events: Sequence[Event], *, show_before: bool = False, with_cut: bool = False
) -> int:
    """Arrive at a game under way: ``narrator`` takes in, untold, ``events`` before the last deal, so
    the pegs and the scores stand where they are; return the index the telling starts from (0 when
    nothing was taken in). With ``show_before``, from the deal before the last (its show, which a
    table pausing between hands has on the screen, is told again). With ``with_cut``, a game in its
    first deal is told from its start, the cut for the deal included. Tell ``events[start:]`` with
    `tell_events` (``arriving=True``)."""
    deals = [i for i, event in enumerate(events) if event.kind == "deal"]
    start = deals[-1] if deals else 0
    if show_before and len(deals) >= 2:
        start = deals[-2]
    if with_cut and events[start:] and events[start].deal == 0:
        start = 0
    if start > 0:
        narrator.absorb(events[:start])
    return start


def tell_events(narrator: Narrator, events: Sequence[Event], *, arriving: bool) -> None:
    """Tell ``events``, pausing between hands only at the last deal they begin: never on
    ``arriving`` at the table (what `catch_up` starts the telling with), since nothing was on the
    screen to read before it."""
    deals = [i for i, event in enumerate(events) if event.kind == "deal"]
    last = deals[-1] if deals else -1
    if last < 0 or (arriving and last == 0):
        narrator.tell(events, pause=False)
        return
    narrator.tell(events[:last], pause=False)
    narrator.tell(events[last:], pause=True)


def where_in_game(deal: int) -> str:
    """Where a game stands for a line said on leaving it: ``in deal 3`` (``deal`` counts from 0, as
    `SeatView.deal` does), or ``before the first deal`` (``deal`` -1)."""
    if deal >= 0:
        return _("in deal {number}").format(number=deal + 1)
    return _("before the first deal")
