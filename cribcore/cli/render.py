"""Drawing for the terminal: the console, cards with suit symbols and colour, a score's itemized
breakdown, and the table a human sees each time they must act.

Output goes through one rich `Console` made by `make_console`: it writes no ANSI escapes when the
output is not a terminal, when ``TERM`` is ``dumb``, and no colour under ``NO_COLOR``; with
``ascii_only`` (``--ascii``) every character it writes is ASCII (cards as ``TD``, rules as dashes, the
board's pegs as ``@`` and ``o``). Everything is built as `rich.text.Text`, never markup, so card
texts and player names are printed exactly.
"""

from __future__ import annotations

import io
import json
import string
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, cast

from rich.console import (
    Console,
    ConsoleOptions,
    ConsoleRenderable,
    Group,
    RenderableType,
    RenderHook,
    RenderResult,
)
from rich.rule import Rule
from rich.segment import Segment
from rich.text import Text

from ..actions import Play
from ..cards import Card, Rank
from ..i18n import _, ngettext
from ..scoring import ScoreItem
from ..speech import is_silent, wild_word
from .describe import Voice, item_name
from .errors import PLAIN_ERRORS, visible

if TYPE_CHECKING:  # only a hint: the views load the engine, which 'cribbage score' never needs
    from ..views import SeatView

__all__ = [
    "AsciiStream",
    "Painter",
    "columns",
    "is_unicode",
    "items_lines",
    "make_console",
    "print_json",
    "seat_table",
]


_PLAIN_ERRORS = PLAIN_ERRORS


class AsciiStream:
    """A text stream that writes through to ``target`` with every non-ASCII character replaced (a
    dash for a dash, letters for suits, ``?`` for anything else). Its encoding is ``ascii``, which is
    how the console and `Painter.for_console` know to draw plainly. It has what `Console` uses of a
    file: ``write``, ``flush``, ``isatty``, ``fileno`` and ``encoding``."""

    encoding = "ascii"

    def __init__(self, target: IO[str]) -> None:
        self._target = target

    def write(self, text: str) -> int:
        self._target.write(text.encode("ascii", errors=_PLAIN_ERRORS).decode("ascii"))
        return len(text)

    def flush(self) -> None:
        self._target.flush()

    def isatty(self) -> bool:
        return self._target.isatty()

    def fileno(self) -> int:
        return self._target.fileno()


class _Visible:
    """A renderable drawn as ``inner`` is, with control characters in its text shown escaped."""

    def __init__(self, inner: ConsoleRenderable) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.inner, options):
            text = segment.text
            if segment.control or text.isprintable():
                yield segment
            else:
                yield Segment(visible(text, keep="\n\t"), segment.style)


class _EscapeControls(RenderHook):
    """Every console's one guard against terminal escapes in what it prints: a player's name from a
    record, a profile's description, a path. Its own styles and cursor moves are not text, so they pass."""

    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [_Visible(renderable) for renderable in renderables]


def _guarded(console: Console) -> Console:
    console.push_render_hook(_EscapeControls())
    return console


def make_console(file: IO[str] | None = None, *, ascii_only: bool = False) -> Console:
    """The console every command prints through (standard output unless ``file`` is given).

    Markup, emoji codes and automatic highlighting are off so that text is printed as given, and soft
    wrapping keeps long lines whole when output is piped. When standard output cannot encode Unicode
    (an ASCII locale), it is switched to write dashes and bars for the few non-ASCII marks the
    commands use rather than fail; cards then use letters (see `Painter.for_console`). With
    ``ascii_only`` the output is ASCII whatever the locale (see `AsciiStream`). Control characters in
    the text printed (an escape sequence in a name) are shown escaped, never sent to the terminal.
    """
    stream = sys.stdout if file is None else file
    encoding = (getattr(stream, "encoding", None) or "utf-8").lower().replace("-", "")
    if ascii_only:
        plain = cast(IO[str], AsciiStream(stream))
        return _guarded(Console(file=plain, highlight=False, markup=False, emoji=False, soft_wrap=True))
    if not encoding.startswith("utf") and isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors=_PLAIN_ERRORS)
    return _guarded(Console(file=file, highlight=False, markup=False, emoji=False, soft_wrap=True))


def print_json(data: object) -> None:
    """Write ``data`` as one line of JSON to standard output (bypassing rich, which would wrap it)."""
    sys.stdout.write(json.dumps(data) + "\n")
    sys.stdout.flush()


def is_unicode(console: Console) -> bool:
    """Whether ``console`` may print characters beyond ASCII (suit symbols, pegs, box drawing)."""
    return console.encoding.lower().replace("-", "").startswith("utf")


@dataclass(frozen=True, slots=True)
class Painter:
    """Draws cards. With ``symbols`` a card looks as printed on it (``10♦``, red for hearts and
    diamonds); without, it is the canonical text (``TD``) that the commands also accept as input."""

    symbols: bool = True

    @classmethod
    def for_console(cls, console: Console) -> Painter:
        """Suit symbols when the console's encoding can print them."""
        return cls(symbols=is_unicode(console))

    def plain(self, card: Card) -> str:
        # A plugin's extra card (a joker) is drawn as its own text form, never as its rank and suit.
        if not self.symbols or not card.standard:
            return str(card)
        rank = "10" if card.rank == Rank.TEN else card.rank.symbol
        return rank + card.suit.symbol

    def card(self, card: Card) -> Text:
        red = card.standard and card.suit.is_red
        return Text(self.plain(card), style="bold red" if red else "bold")

    def cards(self, cards: Iterable[Card], *, dim: Iterable[Card] = ()) -> Text:
        """Cards separated by spaces; cards in ``dim`` are drawn faint (e.g. unplayable ones)."""
        faint = set(dim)
        text = Text()
        for i, card in enumerate(cards):
            if i:
                text.append(" ")
            text.append_text(self.card(card) if card not in faint else Text(self.plain(card), "dim"))
        return text

    def item_cards(self, item: ScoreItem) -> Text:
        """An item's cards, each wild card with what it stood for (``J♠ as 4♦``, `ScoreItem.wild`)."""
        if not item.wild:
            return self.cards(item.cards)
        text = Text()
        for i, card in enumerate(item.cards):
            if i:
                text.append(" ")
            stood = item.stood_for(card)
            if stood == card:
                text.append_text(self.card(card))
                continue
            text.append_text(self.card(card))
            text.append(f" {wild_word()} ")
            text.append_text(self.card(stood))
        return text


def columns(rows: Sequence[Sequence[Text | str]], *, right: Iterable[int] = (), gap: int = 3) -> list[Text]:
    """Rows of cells laid out in aligned columns, one `Text` line per row. Columns whose index is in
    ``right`` are right-aligned. Lines carry no trailing spaces (they are pasted and diffed)."""
    cells = [[Text(c) if isinstance(c, str) else c for c in row] for row in rows]
    ncols = max((len(row) for row in cells), default=0)
    widths = [max((row[i].cell_len for row in cells if i < len(row)), default=0) for i in range(ncols)]
    flush_right = set(right)
    lines = []
    for row in cells:
        line = Text()
        for i, cell in enumerate(row):
            if i:
                line.append(" " * gap)
            pad = " " * (widths[i] - cell.cell_len)
            if i in flush_right:
                line.append(pad).append_text(cell)
            else:
                line.append_text(cell).append(pad)
        line.rstrip()
        lines.append(line)
    return lines


def fill(template: str, style: str = "", **parts: str | int | Text) -> Text:
    """A translated ``template`` with its ``{fields}`` filled in, keeping the style of `Text` parts
    (cards drawn in colour): ``fill(_("You play {card}"), card=painter.card(c))``."""
    text = Text(style=style)
    for literal, field_name, spec, _conv in string.Formatter().parse(template):
        text.append(literal)
        if field_name is None:
            continue
        value = parts[field_name]
        if isinstance(value, Text):
            text.append_text(value)
        else:
            text.append(format(value, spec or ""))
    return text


def items_lines(
    items: Sequence[ScoreItem], painter: Painter, *, indent: int = 2, total: int | None = None
) -> list[Text]:
    """One line per item: its name, the cards that make it, and its points (right-aligned); with
    ``total``, a last line giving it."""
    rows: list[list[Text | str]] = [
        [item_name(item), painter.item_cards(item), "" if is_silent(item) else str(item.points)]
        for item in items
    ]
    if total is not None:
        rows.append([Text(_("total"), style="bold"), "", Text(str(total), style="bold")])
    lines = columns(rows, right=(2,))
    for line in lines:
        line.pad_left(indent)
    return lines


def seat_table(
    view: SeatView,
    voice: Voice,
    painter: Painter,
    *,
    board: Sequence[Text] = (),
    extra: Sequence[Text] = (),
    width: int = 80,
) -> RenderableType:
    """What the seat of ``view`` needs in order to act: scores (with the ``board`` lines when given),
    any ``extra`` lines (a match's standing), whose crib, the starter, the running count with its
    cards, how many cards the others hold, and its own hand numbered from 1 so cards can be picked by
    position. Cards that cannot be played now are drawn faint. Fits ``width`` columns down to 40."""
    seat = view.seat
    lines: list[RenderableType] = []
    if view.my_turn:
        title = voice.tell(
            seat, _("Your turn · deal {number}"), _("{name}'s turn · deal {number}"), number=view.deal + 1
        )
    else:
        title = _("The table · deal {number}").format(number=view.deal + 1)
    lines.append(Rule(Text(title), style="dim", align="left"))
    lines.extend(board)
    goal = voice.goal(view.rules)
    scores = Text(_("  Scores   {scores}").format(scores=voice.scores(view.scores)))
    first_to = f"   ({goal})"
    if scores.cell_len + len(first_to) <= width:
        lines.append(scores.append(first_to))
    else:  # a narrow terminal: the target on a line of its own
        targets = {view.rules.target_of(side) for side in range(view.rules.sides)}
        target = str(targets.pop()) if len(targets) == 1 else goal
        lines.extend([scores, Text(_("  Target   {target}").format(target=target))])
    lines.extend(extra)
    whose = voice.tell(view.dealer, _("yours"), _("{name}'s"))
    crib = Text(_("  Crib     {whose}").format(whose=whose))
    if view.discarded:
        crib.append_text(fill(_("   (you laid away {cards})"), cards=painter.cards(view.discarded)))
    lines.append(crib)
    starter = Text(_("  Starter  "))
    starter.append_text(painter.card(view.starter) if view.starter else Text(_("not turned yet"), "dim"))
    lines.append(starter)
    if view.phase == "play":
        count = Text(_("  Count    {count}").format(count=view.count))
        if view.pile:
            count.append("   ").append_text(painter.cards(card for _seat, card in view.pile))
        else:
            count.append(_("   (a new count)"), style="dim")
        lines.append(count)
        for other, n in enumerate(view.held):
            if other != seat:
                if n:
                    held = voice.tell(
                        other,
                        ngettext("You hold {n} card", "You hold {n} cards", n),
                        ngettext("{name} holds {n} card", "{name} holds {n} cards", n),
                        n=n,
                    )
                else:
                    held = voice.tell(other, _("You have no cards left"), _("{name} has no cards left"))
                lines.append(Text(f"  {held}", style="dim"))
    lines.extend(_hand_lines(view, voice, painter, width))
    return Group(*lines)


def _hand_lines(view: SeatView, voice: Voice, painter: Painter, width: int) -> list[Text]:
    playable = {a.card for a in view.legal_actions if isinstance(a, Play)}
    faint = view.phase == "play" and view.my_turn
    label = voice.tell(view.seat, _("Your hand"), _("{name}'s hand"))
    cells: list[Text] = []
    for position, card in enumerate(view.hand, start=1):
        cell = Text(f"{position}) ", style="dim")
        if faint and card not in playable:
            cell.append(painter.plain(card), style="dim")
        else:
            cell.append_text(painter.card(card))
        cells.append(cell)
    head = Text(f"  {label}  ")
    if not cells:
        if view.plugin_phase is not None:
            return []  # a plugin's phase before the deal (an auction): no hand yet, nothing to show
        if view.claim_stage is not None:
            # Counting under muggins: the cards were laid in the play; the show lists them above.
            return [head.append(_("(being counted: the cards are shown above)"), style="dim")]
        return [head.append(_("(no cards left)"), style="dim")]
    one_line = head.cell_len + sum(cell.cell_len + 2 for cell in cells)
    if one_line <= width:
        for cell in cells:
            head.append("  ").append_text(cell)
        return [head]
    # A narrow terminal: the hand goes below its label, as many cards to a line as fit.
    head.rstrip()
    lines = [head]
    line = Text("   ")
    for cell in cells:
        if line.cell_len > 3 and line.cell_len + 2 + cell.cell_len > width:
            lines.append(line)
            line = Text("   ")
        line.append("  ").append_text(cell)
    lines.append(line)
    return lines
