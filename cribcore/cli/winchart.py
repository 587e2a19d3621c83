"""The win-chance graph in the terminal: a compact chart of a review's `cribcore.winchart.ChanceSeries`,
drawn as rich `Text` lines that fit the width given (80 columns by default), in ASCII when the console
is (``--ascii``), with the deals numbered under it and the biggest swings listed below it."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from ..i18n import _
from ..players.reasons import percent_text
from ..winchart import ChancePoint, ChanceSeries
from ..written_numbers import decimal_text
from .render import is_unicode

__all__ = ["ROWS", "chart_lines", "print_chart", "value_text"]

ROWS = 11
"""The chart's height in lines (odd: the middle line is an even game)."""

_LABEL = 6
"""Columns for the scale's labels on the left."""


def value_text(series: ChanceSeries, value: float) -> str:
    """A value of ``series`` as its measure is written: ``56.3%``, ``+0.4`` game points, ``+7`` points."""
    if series.measure == "win":
        return percent_text(value)
    if series.measure == "game_points":
        return decimal_text(value, 1, sign=True)
    return f"{round(value):+d}" if round(value) else "0"


def _label(series: ChanceSeries, value: float) -> str:
    if series.measure == "win":
        return f"{round(100 * value)}%"
    if series.measure == "game_points":
        return decimal_text(value, 1, sign=value != 0)
    return f"{round(value):+d}" if round(value) else "0"


def _columns(count: int, width: int) -> list[int]:
    """The point drawn in each column: one point a column (two when there is room), or a sample of
    them evenly spread when there are more points than columns."""
    if count == 0:
        return []
    if count * 2 <= width:
        return [i // 2 if i % 2 == 0 else -1 for i in range(count * 2 - 1)]
    if count <= width:
        return list(range(count))
    return [round(c * (count - 1) / (width - 1)) for c in range(width)]


def chart_lines(series: ChanceSeries, *, width: int = 80, unicode: bool = True) -> list[Text]:
    """The chart's lines, none wider than ``width`` (at least 20): the scale on the left, a point for
    each decision and deal's start (the biggest swings drawn apart), the even line across, and the deal
    numbers beneath."""
    plot = max(10, width - _LABEL - 1)
    where = _columns(len(series.points), plot)
    dot, swing, even, fill = ("●", "◆", "┈", "│") if unicode else ("*", "#", "-", ":")
    span = (series.high - series.low) or 1.0
    middle = (series.high + series.low) / 2
    swings = set(series.swings)

    def row_of(value: float) -> int:
        clipped = min(series.high, max(series.low, value))
        return round((series.high - clipped) / span * (ROWS - 1))

    mid_row = row_of(middle)
    grid: list[list[tuple[str, str]]] = [[(" ", "")] * len(where) for _ in range(ROWS)]
    for row in (mid_row,):
        grid[row] = [(even, "dim")] * len(where)
    for column, index in enumerate(where):
        if index < 0:
            continue
        point = series.points[index]
        style = "green" if point.value > middle else "red" if point.value < middle else ""
        row = row_of(point.value)
        # The area between the even line and the point: who leads reads at a glance.
        for between in range(min(row, mid_row) + 1, max(row, mid_row)):
            grid[between][column] = (fill, f"dim {style}".strip())
        grid[row][column] = (swing, "bold yellow") if index in swings else (dot, style)
    lines = []
    for row in range(ROWS):
        value = series.high - row * span / (ROWS - 1)
        label = _label(series, value) if row in (0, mid_row, ROWS - 1) else ""
        line = Text(f"{label:>{_LABEL - 1}} ", style="dim")
        for char, style in grid[row]:
            line.append(char, style=style)
        line.rstrip()
        lines.append(line)
    lines.append(_deal_axis(series.points, where))
    return lines


def _deal_axis(points: Sequence[ChancePoint], where: Sequence[int]) -> Text:
    word = _("deal")
    axis = [" "] * len(where)
    free = 0
    for column, index in enumerate(where):
        if index >= 0 and points[index].kind == "start" and column >= free:
            number = str(points[index].deal + 1)
            if column + len(number) <= len(axis):
                axis[column : column + len(number)] = list(number)
                free = column + len(number) + 1
    head = word if len(word) < _LABEL else word[: _LABEL - 1]
    return Text(f"{head:>{_LABEL - 1}} " + "".join(axis).rstrip(), style="dim")


def _title(series: ChanceSeries, name: str) -> str:
    if series.measure == "win":
        return _("{name}: the chance to win after each decision and at each deal's start").format(name=name)
    if series.measure == "game_points":
        return _("{name}: expected game points after each decision and at each deal's start").format(
            name=name
        )
    return _("{name}: the lead in points after each decision and at each deal's start").format(name=name)


def swing_line(series: ChanceSeries, index: int, describe: dict[int, str]) -> str:
    """One biggest swing in words: where it was, what was done, and the value before and after."""
    point = series.points[index]
    before = series.points[index - 1]
    deal = point.deal
    if point.kind == "start":
        deal = before.deal
        what = _("the rest of the deal and the show")
    elif point.kind == "end":
        what = _("the end of the game")
    else:
        what = describe.get(point.decision if point.decision is not None else -1, point.kind)
    return _("deal {deal}, {what}: {before} to {after}").format(
        deal=deal + 1,
        what=what,
        before=value_text(series, before.value),
        after=value_text(series, point.value),
    )


def print_chart(
    series: ChanceSeries, console: Console, name: str, describe: dict[int, str], *, width: int | None = None
) -> None:
    """Print the chart of ``series`` for the seat called ``name``: its title, the note when there is
    no table, the chart (at most ``width`` columns, default the console's, never over 80), and the
    biggest swings (``describe``: decision index to its words)."""
    if not series.points:
        return
    unicode = is_unicode(console)
    columns = min(80, width or console.width or 80)
    console.print()
    console.print(Text(_title(series, name), style="bold"))
    if series.note:
        console.print(Text(series.note, style="yellow"))
    for line in chart_lines(series, width=columns, unicode=unicode):
        console.print(line)
    if series.swings:
        mark = "◆" if unicode else "#"
        console.print(Text(_("The biggest swings:"), style="bold"))
        for index in series.swings:
            console.print(Text(f"  {mark} " + swing_line(series, index, describe)))
