"""``cribbage history``: your finished games over time (`cribcore.history`): games and wins by level and
profile, the points lost per deal in the discard and in the play, the trend over the last games as a
chart, and the costliest decisions of all with the command that shows each again. The reviews are
computed on demand (with progress) and cached; ``--json`` prints the figures, ``--html FILE`` writes a
self-contained page, ``--clear`` removes the kept games."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from ..files import atomic_write_text
from ..history import clear, kept_games, reviews_for, summarize
from ..i18n import _, current_language, ngettext
from ..players.reasons import percent_text, points_text
from .render import columns, is_unicode, make_console, print_json

__all__ = ["add_history_parser", "history_command"]


def add_history_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``history`` to the ``cribbage`` parser."""
    parser = commands.add_parser(
        "history",
        help=_("your finished games: wins by level, points lost per deal, the costliest decisions"),
        description=_(
            "Your finished games with a human seat, kept in the data directory when they end (play with "
            "--no-keep to keep none): games and wins by level and profile, the points lost per deal in the "
            "discard and in the play (the coach's review of each game, computed once and cached), the trend "
            "over the last games, and the costliest decisions of all with the command that shows each "
            "again."
        ),
        epilog=_(
            "JSON (--json): {games, wins, by_level: [{level, profile, games, wins}], deals, "
            "discard_lost_per_deal, play_lost_per_deal, trend: [{finished, won, lost_per_deal}], "
            "costliest: [review decision + {file, seat, finished, replay}], per_game: [{file, finished, "
            "level, profile, seat, won, deals, discard_lost_per_deal, play_lost_per_deal}]} (docs/review.md)."
        ),
    )
    parser.add_argument("--json", action="store_true", help=_("print the history as JSON"))
    parser.add_argument("--html", metavar="FILE", help=_("write the history as a web page (one file)"))
    parser.add_argument("--clear", action="store_true", help=_("remove the kept games and their reviews"))
    parser.add_argument("--ascii", action="store_true", help=_("plain ASCII: cards as 5H TD"))
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace, console: Console) -> int:
    if args.ascii:
        console = make_console(ascii_only=True)
    if args.clear:
        removed = clear()
        console.print(
            ngettext("Removed {n} kept game.", "Removed {n} kept games.", removed).format(n=removed)
        )
        return 0
    return history_command(as_json=args.json, html=Path(args.html) if args.html else None, console=console)


def _progress() -> Any:
    """A progress report on standard error: a bar at a terminal, else a line a game."""
    err = sys.stderr
    if err.isatty():
        from rich.progress import Progress

        bar = Progress(console=Console(stderr=True), transient=True)
        task = bar.add_task(_("Reviewing your games"), total=None)
        started = [False]

        def tell(done: int, total: int) -> None:
            if not started[0]:
                bar.start()
                started[0] = True
            bar.update(task, completed=done, total=total)
            if done >= total:
                bar.stop()

        return tell

    def line(done: int, total: int) -> None:
        print(
            _("Reviewing your games: {done} of {total}").format(done=done, total=total), file=err, flush=True
        )

    return line


def history_command(*, as_json: bool, html: Path | None, console: Console) -> int:
    """Print the history (or write it as a page to ``html``)."""
    games = kept_games()
    lang = current_language()
    reviews = reviews_for(games, lang, progress=_progress())
    data = summarize(games, reviews)
    if html is not None:
        atomic_write_text(html, html_page(data, lang))
        if not as_json:
            console.print(_("History written to {path}").format(path=html))
    if as_json:
        print_json(data)
    elif html is None:
        print_history(data, console)
    return 0


def _level_word(level: str) -> str:
    if level == "people":
        return _("people at one device")
    return level


def _per_deal_line(data: Mapping[str, Any]) -> str:
    return _("Points lost per deal over {deals} deals: {discard} in the discard, {play} in the play").format(
        deals=data["deals"],
        discard=points_text(data["discard_lost_per_deal"] or 0.0),
        play=points_text(data["play_lost_per_deal"] or 0.0),
    )


def _loss_words(decision: Mapping[str, Any]) -> str:
    text = _("{points} points").format(points=points_text(float(decision["points_lost"])))
    if decision.get("win_lost") is not None:
        text += _(", {percent} winning chances").format(percent=percent_text(float(decision["win_lost"])))
    return text


def _decision_words(decision: Mapping[str, Any]) -> str:
    return _("{date}, deal {deal}: you chose {chosen}, the expert {best}: {loss} lost").format(
        date=str(decision["finished"])[:10],
        deal=decision["deal"],
        chosen=_action(decision["chosen"]),
        best=_action(decision["best"]),
        loss=_loss_words(decision),
    )


def _action(text: str) -> str:
    verb, _sep, rest = str(text).partition(" ")
    if verb == "discard":
        return _("to lay away {cards}").format(cards=rest)
    if verb == "play":
        return _("to lay {card}").format(card=rest)
    return str(text)


def print_history(data: Mapping[str, Any], console: Console) -> None:
    """The history in the terminal."""
    if not data["games"]:
        console.print(
            _("No finished games kept yet: games you play with 'cribbage play' are kept when they end.")
        )
        return
    console.print(
        Text(
            ngettext("{n} game, {wins} won", "{n} games, {wins} won", data["games"]).format(
                n=data["games"], wins=data["wins"]
            ),
            style="bold",
        )
    )
    rows: list[list[Text | str]] = [
        [Text(h, style="bold") for h in (_("level"), _("profile"), _("games"), _("wins"))]
    ]
    rows += [
        [_level_word(g["level"]), g["profile"], str(g["games"]), str(g["wins"])] for g in data["by_level"]
    ]
    for line in columns(rows, right=(2, 3)):
        line.pad_left(2)
        console.print(line)
    if data["deals"]:
        console.print(Text(_per_deal_line(data)))
    trend = [t for t in data["trend"] if t["lost_per_deal"] is not None]
    if trend:
        console.print()
        console.print(
            Text(
                _("Points lost per deal in your last {n} games (the latest on the right):").format(
                    n=len(trend)
                ),
                style="bold",
            )
        )
        for line in trend_lines(trend, unicode=is_unicode(console)):
            console.print(line)
    if data["costliest"]:
        console.print()
        console.print(Text(_("The costliest decisions of all:"), style="bold"))
        for decision in data["costliest"]:
            console.print(Text("  " + _decision_words(decision)))
            if decision.get("reason"):
                console.print(Text("    " + decision["reason"], style="dim"))
            console.print(
                Text("    " + _("see it again: {command}").format(command=decision["replay"]), style="dim")
            )


TREND_ROWS = 6
"""The trend chart's height in lines."""


def trend_lines(trend: Sequence[Mapping[str, Any]], *, unicode: bool = True) -> list[Text]:
    """A bar a game (points lost per deal, the discard and the play together), at most 80 columns:
    green for a game won, red for one lost."""
    values = [float(t["lost_per_deal"]) for t in trend]
    top = max(max(values), 0.1)
    full, half = ("█", "▄") if unicode else ("#", ".")
    lines = []
    for row in range(TREND_ROWS):
        level = top * (TREND_ROWS - row) / TREND_ROWS
        below = top * (TREND_ROWS - row - 1) / TREND_ROWS
        label = points_text(top) if row == 0 else ("0" if row == TREND_ROWS - 1 else "")
        line = Text(f"{label:>6} ", style="dim")
        for t, value in zip(trend, values, strict=True):
            char = full if value >= level else half if value > (level + below) / 2 else " "
            line.append(char * 2 + " ", style="green" if t["won"] else "red")
        line.rstrip()
        lines.append(line)
    return lines


# ----------------------------------------------------------------------------- the page


def _e(text: object) -> str:
    import html

    return html.escape(str(text), quote=True)


_STYLE = (
    "<style>body{font-family:system-ui,sans-serif;max-width:760px;margin:1em auto;padding:0 1em;"
    "color:#222}table{border-collapse:collapse}td,th{padding:2px 10px;text-align:left}"
    "td.n{text-align:right}.won{fill:#2f855a}.lost{fill:#c53030}"
    "code{background:#f3f3f3;padding:1px 4px}.dim{color:#666}</style>"
)


def html_page(data: Mapping[str, Any], lang: str) -> str:
    """The history as one self-contained HTML page: its style inline, its chart inline SVG, nothing
    fetched from another host."""
    title = _("Your cribbage games")
    parts = [
        "<!doctype html>",
        f'<html lang="{_e(lang)}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title>",
        _STYLE,
        f"</head><body><h1>{_e(title)}</h1>",
    ]
    if not data["games"]:
        nothing = _("No finished games kept yet.")
        parts.append(f"<p>{_e(nothing)}</p></body></html>\n")
        return "".join(parts)
    parts.append(
        "<p>"
        + _e(
            ngettext("{n} game, {wins} won", "{n} games, {wins} won", data["games"]).format(
                n=data["games"], wins=data["wins"]
            )
        )
        + "</p>"
    )
    heads = (_("level"), _("profile"), _("games"), _("wins"))
    parts.append("<table><tr>" + "".join(f"<th>{_e(h)}</th>" for h in heads) + "</tr>")
    for g in data["by_level"]:
        parts.append(
            f"<tr><td>{_e(_level_word(g['level']))}</td><td>{_e(g['profile'])}</td>"
            f'<td class="n">{g["games"]}</td><td class="n">{g["wins"]}</td></tr>'
        )
    parts.append("</table>")
    if data["deals"]:
        parts.append(f"<p>{_e(_per_deal_line(data))}</p>")
    trend = [t for t in data["trend"] if t["lost_per_deal"] is not None]
    if trend:
        parts.append(
            "<h2>" + _e(_("Points lost per deal in your last {n} games").format(n=len(trend))) + "</h2>"
        )
        parts.append(_trend_svg(trend))
    if data["costliest"]:
        heading = _("The costliest decisions of all")
        parts.append(f"<h2>{_e(heading)}</h2><ol>")
        again = _("see it again:")
        for decision in data["costliest"]:
            reason = (
                f'<br><span class="dim">{_e(decision["reason"])}</span>' if decision.get("reason") else ""
            )
            parts.append(
                f"<li>{_e(_decision_words(decision))}{reason}<br>"
                f"{_e(again)} <code>{_e(decision['replay'])}</code></li>"
            )
        parts.append("</ol>")
    parts.append("</body></html>\n")
    return "".join(parts)


def _trend_svg(trend: Sequence[Mapping[str, Any]]) -> str:
    values = [float(t["lost_per_deal"]) for t in trend]
    top = max(max(values), 0.1)
    width, height, bar = 40 + 24 * len(values), 140, 16
    bars = []
    for i, (t, value) in enumerate(zip(trend, values, strict=True)):
        h = 110 * value / top
        label = _e(f"{str(t['finished'])[:10]}: {points_text(value)}")
        bars.append(
            f'<rect class="{"won" if t["won"] else "lost"}" x="{36 + 24 * i}" y="{120 - h:.1f}" '
            f'width="{bar}" height="{h:.1f}"><title>{label}</title></rect>'
        )
    return (
        f'<svg viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img">'
        f'<text x="30" y="14" font-size="11" text-anchor="end">{_e(points_text(top))}</text>'
        f'<text x="30" y="122" font-size="11" text-anchor="end">0</text>'
        f'<line x1="34" x2="{width}" y1="120" y2="120" stroke="#999"/>' + "".join(bars) + "</svg>"
    )
