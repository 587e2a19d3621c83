"""The pegging board: one track of holes per side to the target, with two pegs each, as on a wooden
board (seeds 001 and 003). The front peg stands at the side's score and the back peg at its score
before the last points, so the last move can always be read off the board.

The tracks are drawn as rows of holes in groups of five, as many holes to a row as the width allows
(60 on an 80-column terminal, 30 on a 40-column one); the last hole of the last row is the game hole.
A track of more than `MAX_ROWS` rows (a target in the hundreds or thousands) shows only its first row,
the rows where the pegs stand and the last row, with a line saying which holes are left out: drawing
the board after every deal must not cost more as the target grows.
Where the pegs stand comes only from the scores the events carry (`pegs`), so points from any rule or
plugin move them the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.text import Text

from ..events import Event
from ..i18n import _

__all__ = ["PegKeeper", "Pegs", "board_lines", "pegs"]

SIDE_STYLES = ("bold cyan", "bold magenta", "bold green", "bold yellow")
"""The colour of each side's pegs (and nothing else is coloured, so shapes alone still tell)."""

_GROUP = 5
_ROW_CHOICES = tuple(range(60, 0, -_GROUP))
_MAX_LABEL = 12
MAX_ROWS = 8
"""The most rows of holes drawn for one side; longer tracks show only the rows that matter."""


@dataclass(frozen=True, slots=True)
class Pegs:
    """One side's two pegs: ``front`` at the score, ``back`` at the score before the last points."""

    front: int = 0
    back: int = 0

    @property
    def moved(self) -> int:
        """The points of the side's last move."""
        return self.front - self.back


def pegs(events: Iterable[Event], sides: int) -> tuple[Pegs, ...]:
    """Each side's pegs after ``events`` (a game's events in order): every time a side's total
    changes, its back peg jumps to where the front peg was and the front peg to the new total."""
    keeper = PegKeeper(sides)
    keeper.feed(events)
    return keeper.pegs


class PegKeeper:
    """Moves the pegs as a game's events arrive (see `pegs`) and remembers which scores the board
    was last drawn with, so that a table can redraw it only when a peg has moved."""

    def __init__(self, sides: int) -> None:
        self._pegs = [Pegs() for _ in range(sides)]
        self._drawn: tuple[int, ...] | None = None

    @property
    def pegs(self) -> tuple[Pegs, ...]:
        return tuple(self._pegs)

    def feed(self, events: Iterable[Event]) -> None:
        sides = len(self._pegs)
        for event in events:
            if not event.scores or len(event.scores) != sides:
                continue
            for side, total in enumerate(event.scores):
                if total != self._pegs[side].front:
                    self._pegs[side] = Pegs(front=total, back=self._pegs[side].front)

    @property
    def moved_since_drawn(self) -> bool:
        """Whether a peg moved since `mark_drawn` (always true before the first drawing)."""
        return self._drawn != tuple(p.front for p in self._pegs)

    def mark_drawn(self) -> None:
        self._drawn = tuple(p.front for p in self._pegs)

    def forget_drawn(self) -> None:
        """The board is no longer on screen (it was cleared): the next table draws it again."""
        self._drawn = None


@dataclass(frozen=True, slots=True)
class _Marks:
    hole: str
    back: str
    front: str
    gap: str

    @classmethod
    def for_ascii(cls, ascii_only: bool) -> _Marks:
        return cls(".", "o", "@", ":") if ascii_only else cls("·", "○", "●", "⋮")


def _row_width(per_row: int) -> int:
    return per_row + (per_row - 1) // _GROUP


def _layout(holes: int, width: int, number: int) -> tuple[int, bool]:
    """Holes per row (before the game hole) and whether each row ends with its last hole's number.

    A row is a space, the holes in groups of five, the game hole on the last row (a space and one
    mark), then the number. A row length that splits the track evenly into at most six rows is
    preferred, then the longest; the numbers are dropped before rows get shorter than 30 holes."""

    def fitting(numbers: bool) -> list[int]:
        extra = 1 + 2 + ((1 + number) if numbers else 0)
        return [n for n in _ROW_CHOICES if extra + _row_width(n) <= width]

    with_numbers = fitting(True)
    if not with_numbers or with_numbers[0] < min(30, holes):
        without = fitting(False)
        if without and (not with_numbers or without[0] > with_numbers[0]):
            return _prefer_even(without, holes), False
    if not with_numbers:
        return _GROUP, False
    return _prefer_even(with_numbers, holes), True


def _prefer_even(choices: Sequence[int], holes: int) -> int:
    even = [n for n in choices if holes % n == 0 and holes // n <= 6]
    return even[0] if even else choices[0]


def _rows_shown(rows: int, per_row: int, where: Pegs) -> frozenset[int]:
    """Which rows of a track to draw: all of them up to `MAX_ROWS`; on a longer track (a very high
    target) only the first row, the rows holding a peg, and the last row (the game hole), so that a
    board costs the same to draw whatever the target."""
    if rows <= MAX_ROWS:
        return frozenset(range(rows))
    with_pegs = {max(hole - 1, 0) // per_row for hole in (where.back, where.front)}
    return frozenset({0, rows - 1, *(min(row, rows - 1) for row in with_pegs)})


def _hole(hole: int, where: Pegs, marks: _Marks, style: str) -> Text:
    if hole == where.front:
        return Text(marks.front, style=style)
    # A back peg is behind the front one: after points taken away (a price paid) it is not drawn ahead.
    if hole == where.back and where.back < where.front:
        return Text(marks.back, style=style)
    return Text(marks.hole, style="dim")


def board_lines(
    names: Sequence[str],
    sides: Sequence[Pegs],
    target: int | Sequence[int],
    *,
    width: int = 80,
    ascii_only: bool = False,
) -> list[Text]:
    """The board as lines at most ``width`` wide (down to about 20 columns): for each side a line
    with its name, score and last move, then its track from hole 1 to the game hole ``target`` (a
    score at or past the target stands in the game hole). ``names`` are the sides', in side order.
    ``target`` may be one per side (sides with targets of their own); each side's track then ends at its
    own game hole."""
    marks = _Marks.for_ascii(ascii_only)
    targets = (target,) * len(sides) if isinstance(target, int) else tuple(target)
    lines: list[Text] = []
    for side, (name, where) in enumerate(zip(names, sides, strict=True)):
        lines.extend(_side_lines(side, name, where, targets[side], marks, width))
    return lines


def _side_lines(side: int, name: str, where: Pegs, target: int, marks: _Marks, width: int) -> list[Text]:
    """One side's head line and track rows to its game hole ``target``."""
    track = max(target - 1, 1)
    number = len(str(target))
    per_row, numbered = _layout(track, width, number)
    lines: list[Text] = []
    style = SIDE_STYLES[side % len(SIDE_STYLES)]
    shown = Pegs(min(where.front, target), min(where.back, target))
    head = Text(name, style="bold").append(f" {where.front}", style=style)
    if where.moved > 0:
        head.append(_("  (+{moved} from {back})").format(moved=where.moved, back=where.back), style="dim")
    elif where.moved < 0:
        head.append(_("  (-{lost} from {back})").format(lost=-where.moved, back=where.back), style="dim")
    lines.append(head)
    firsts = range(1, track + 1, per_row)
    shown_rows = _rows_shown(len(firsts), per_row, shown)
    for index, first in enumerate(firsts):
        if index not in shown_rows:
            if index - 1 in shown_rows:
                skipped = next((i for i in range(index, len(firsts)) if i in shown_rows), len(firsts))
                upto = min(firsts[skipped - 1] + per_row - 1, track)
                lines.append(
                    Text(
                        " "
                        + _("{gap} holes {first} to {upto}").format(gap=marks.gap, first=first, upto=upto),
                        style="dim",
                    )
                )
            continue
        last = min(first + per_row - 1, track)
        row = Text(" ")
        for hole in range(first, last + 1):
            if hole > first and (hole - first) % _GROUP == 0:
                row.append(" ")
            row.append_text(_hole(hole, shown, marks, style))
        final = last == track
        if final:
            row.append(" ").append_text(_hole(target, shown, marks, style))
        if numbered:
            row.pad_right(1 + _row_width(per_row) + 2 - row.cell_len)
            row.append(f" {target if final else last:>{number}}", style="dim")
        row.rstrip()
        lines.append(row)
    return lines
