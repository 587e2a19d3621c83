"""The ``review`` command: the coach. One seat's decisions in a game record, each with the expert's
choice, what the seat's choice lost (expected points, and winning chances where the expert has a win
table), and a mark; then a summary. The numbers are `cribcore.review`; this module parses and prints."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.text import Text

from ..actions import Action, Discard, Play
from ..i18n import N_, _, ngettext
from ..players.reasons import percent_text, points_text
from ..profile_titles import profile_title
from ..review import MARKS, Review, ReviewedDecision, describe_action, review_game
from .commands import UsageError
from .describe import is_default_you
from .render import Painter, make_console, print_json
from .replay import load_record
from .winchart import print_chart

__all__ = ["add_review_parser", "print_review", "review_command", "thresholds_help"]

_MARK_WORDS = {
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
}

_MARK_COUNTS = {
    "inaccuracy": N_("inaccuracies: {n}"),
    "mistake": N_("mistakes: {n}"),
    "blunder": N_("blunders: {n}"),
}


def thresholds_help() -> str:
    """The marks' thresholds in words, in the current language, for ``--help`` (the table is in
    `cribcore.review`)."""
    return "; ".join(
        _(
            "{mark} at least {points} expected points lost (or {percent} winning chances, where the "
            "expert has a win table)"
        ).format(
            mark=_(_MARK_WORDS[mark.name]), points=points_text(mark.points), percent=percent_text(mark.win)
        )
        for mark in reversed(MARKS)
    )


_JSON_SHAPE = (
    "{seat, player, players, profile, thresholds: {name: {points, win}}, decisions: [{deal, kind, "
    "scores, hand, count, chosen, best, points_lost, win_lost, mark, reason}], summary: {deals, "
    "discard_lost_per_deal, play_lost_per_deal, marks: {name: n}, costliest: [decision index]}, "
    "chances: {measure, low, high, note, points: [{deal, kind, decision, scores, chance, value}], "
    "swings: [point index]}}"
)
"""The shape of ``--json``'s output (its keys are the same in every language)."""


def add_review_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``review`` to the ``cribbage`` parser."""
    parser = commands.add_parser(
        "review",
        help=_("the coach: one seat's decisions in a game record, judged by the expert"),
        description=_(
            "Go through one seat's decisions in a game record (each discard, and each card "
            "laid when more than one could be): the expert's choice, what the seat's choice lost in "
            "expected points (and in winning chances, where the expert has a win table), and a mark; then "
            "the points lost per deal in the discard and in the play, and the three costliest decisions. "
            "Each decision is judged from the seat's own view: the coach knows what the player knew."
        ),
        epilog=_("Marks: {thresholds}. JSON (--json): {shape} (docs/review.md).").format(
            thresholds=thresholds_help(), shape=_JSON_SHAPE
        ),
    )
    parser.add_argument("file", metavar="RECORD", help=_("the game record (JSON); - reads standard input"))
    parser.add_argument(
        "--seat",
        type=int,
        default=1,
        metavar="N",
        help=_("the seat to review, counted from 1 as the board counts them (default 1)"),
    )
    parser.add_argument("--json", action="store_true", help=_("print the review as JSON"))
    parser.add_argument("--ascii", action="store_true", help=_("plain ASCII: cards as 5H TD"))
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace, console: Console) -> int:
    if args.seat < 1:
        raise UsageError(_("--seat counts from 1, not {seat}").format(seat=args.seat), "review")
    if args.ascii:
        console = make_console(ascii_only=True)
    return review_command(args.file, seat=args.seat - 1, as_json=args.json, console=console)


def review_command(source: str, *, seat: int, as_json: bool, console: Console) -> int:
    """Review ``seat`` (counted from 0, as records count seats) in the record at ``source`` (``-``:
    standard input) and print it. A bad record raises `cribcore.records.RecordError` (one line)."""
    record = load_record(source)
    players = record.get("players")
    if isinstance(players, list) and players and not 0 <= seat < len(players):
        # Said as the person counts (--seat, from 1), not as the record does.
        raise ValueError(
            _("--seat {seat}: the record has seats 1 to {last}").format(seat=seat + 1, last=len(players))
        )
    review = review_game(record, seat)
    if as_json:
        print_json(review.to_json())
        return 0
    print_review(review, console, Painter.for_console(console))
    return 0


def _action(action: Action, painter: Painter) -> Text:
    if isinstance(action, Discard):
        return painter.cards(action.cards)
    if isinstance(action, Play):
        return painter.card(action.card)
    return Text(str(action))


def _loss(decision: ReviewedDecision) -> str:
    text = _("{points} points").format(points=points_text(decision.points_lost))
    if decision.win_lost is not None:
        text += _(", {percent} winning chances").format(percent=percent_text(decision.win_lost))
    return text


def _decision_lines(decision: ReviewedDecision, painter: Painter) -> list[Text]:
    kind = _("discard") if decision.kind == "discard" else _("play")
    head = Text(_("deal {deal}").format(deal=decision.deal + 1) + f"  {kind:<8} ", style="bold")
    head.append_text(painter.cards(decision.hand))
    if decision.kind == "play":
        head.append("  " + _("count {count}").format(count=decision.count))
    lines = [head]
    agree = decision.chosen == decision.best
    line = Text("    " + _("you") + " ")
    line.append_text(_action(decision.chosen, painter))
    if agree:
        line.append("  " + _("the expert's choice too"), style="green")
    else:
        line.append("   " + _("expert") + " ")
        line.append_text(_action(decision.best, painter))
    if decision.even:
        line.append("   " + _("just as good"), style="green")
    elif not agree:
        line.append("   " + _("lost {loss}").format(loss=_loss(decision)))
        if decision.mark is not None:
            style = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}[decision.mark]
            line.append("   " + _(_MARK_WORDS[decision.mark]).upper(), style=style)
    lines.append(line)
    # The reason argues for the expert's choice: beside an even one it would read as a loss.
    if decision.reason and not agree and not decision.even:
        lines.append(Text(f"    {decision.reason}", style="dim"))
    return lines


def print_review(review: Review, console: Console, painter: Painter, *, marked_only: bool = False) -> None:
    """Print ``review``: each decision (with ``marked_only``, those marked), then the summary."""
    name = review.players[review.seat]
    # "Review of You" (in Spanish "Revisión de Tú") is no sentence: the default name is "your game".
    heading = (
        _("Review of your game (seat {seat}), {players}, profile {profile}")
        if is_default_you(name)
        else _("Review of {name} (seat {seat}), {players}, profile {profile}")
    )
    console.print(
        Text(
            heading.format(
                name=name,
                seat=review.seat + 1,
                players=_(" vs ").join(review.players),
                profile=profile_title(review.profile),
            ),
            style="bold",
        )
    )
    for decision in review.decisions:
        if marked_only and decision.mark is None:
            continue
        for line in _decision_lines(decision, painter):
            console.print(line)
    print_summary(review, console, painter)
    if review.chances is not None and review.decisions:
        describe = {
            i: (_("laid away {cards}") if d.kind == "discard" else _("laid {card}")).format(
                cards=describe_action(d.chosen), card=describe_action(d.chosen)
            )
            for i, d in enumerate(review.decisions)
        }
        print_chart(review.chances, console, review.players[review.seat], describe)


def print_summary(review: Review, console: Console, painter: Painter) -> None:
    """The summary alone: points lost per deal in the discard and the play, the marks, the costliest."""
    console.print()
    if not review.decisions:
        console.print(Text(_("No decisions of this seat to review in this record."), style="bold"))
        return
    deals = ngettext("{n} deal", "{n} deals", review.deals).format(n=review.deals)
    console.print(
        Text(
            _(
                "Summary over {deals}: {discard} points lost per deal in the discard, {play} in the play"
            ).format(
                deals=deals, discard=points_text(review.discard_lost), play=points_text(review.play_lost)
            ),
            style="bold",
        )
    )
    counts = [_(_MARK_COUNTS[mark.name]).format(n=review.by_mark.get(mark.name, 0)) for mark in MARKS]
    console.print("  " + ", ".join(counts))
    if review.costliest:
        console.print(Text(_("The costliest decisions:"), style="bold"))
        for decision in review.costliest:
            line = Text("  " + _("deal {deal}").format(deal=decision.deal + 1) + "  ")
            line.append_text(_action(decision.chosen, painter))
            line.append(" -> ")
            line.append_text(_action(decision.best, painter))
            line.append(f"  {_loss(decision)}")
            if decision.reason:
                line.append(f": {decision.reason}", style="dim")
            console.print(line)
