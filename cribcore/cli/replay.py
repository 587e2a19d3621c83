"""The ``replay`` command: re-play a game record through the engine and list every scoring event,
then the result. The record is checked card by card on the way; a bad one stops with the
`RecordError` that says which deal and card."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.text import Text

from ..cards import Card
from ..events import Event
from ..i18n import _
from ..records import RecordError, parse_record, read_record, replay
from ..rules import RuleSet
from ..scoring import HEELS
from .describe import Voice, reasons
from .render import Painter, print_json

__all__ = ["add_replay_parser", "load_record", "replay_command", "scoring_line"]


def add_replay_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``replay`` to the ``cribbage`` parser."""
    replay = commands.add_parser(
        "replay",
        help=_("replay a game record and list its scores"),
        description=_("Re-play a game record through the engine and list every score, then the result."),
    )
    replay.add_argument("file", metavar="FILE", help=_("the record (JSON); - reads standard input"))
    replay.add_argument("--json", action="store_true", help=_("print the scoring events as JSON"))
    replay.set_defaults(
        handler=lambda args, console: replay_command(args.file, as_json=args.json, console=console)
    )


def load_record(source: str) -> dict[str, Any]:
    """The record's JSON from the file ``source``, or from standard input when it is ``-``.
    Raises `RecordError` when it cannot be read or is not a JSON object."""
    if source != "-":
        return read_record(source)
    if sys.stdin is None:
        raise RecordError("-: standard input is closed")
    try:
        text = sys.stdin.read()
    except UnicodeDecodeError as exc:
        raise RecordError(f"-: cannot read: {exc}") from None
    return parse_record(text, "-")


def replay_command(source: str, *, as_json: bool, console: Console) -> int:
    """Replay the record at ``source`` and print its scoring events and result."""
    game = replay(load_record(source))
    scoring = [event for event in game.events if event.scored]
    if as_json:
        print_json(
            {
                "events": [event.to_json() for event in scoring],
                "scores": list(game.scores),
                "winner": game.winner,
                **_sides_json(game.rules),
            }
        )
        return 0
    voice = Voice.for_game(game.players, game.rules)
    seed = f", seed {game.seed}" if game.seed is not None else ""
    console.print(Text(f"{' vs '.join(game.players)} (profile {game.profile.name}{seed})", style="bold"))
    width = max(len(name) for name in game.players)
    starters: dict[int, Card] = {
        event.deal: event.cards[0] for event in game.events if event.kind == "starter" and event.cards
    }
    for event in scoring:
        console.print(
            scoring_line(event, voice, starters.get(event.deal), width, Painter.for_console(console))
        )
    if game.winner is not None:
        console.print(Text(f"Result: {voice.result(game.winner, game.scores)}.", style="bold"))
    else:
        console.print(
            Text(
                f"Unfinished: the record stops in deal {game.deal_number + 1} "
                f"with {voice.scores(game.scores)}.",
                style="bold",
            )
        )
    return 0


def _sides_json(rules: RuleSet) -> dict[str, object]:
    """With uneven sides (sizes or targets), which seats play for each side and each side's target."""
    if not rules.uneven:
        return {}
    sides = range(rules.sides)
    return {"sides": [list(rules.seats_of(s)) for s in sides], "targets": [rules.target_of(s) for s in sides]}


def scoring_line(
    event: Event, voice: Voice, starter: Card | None, width: int = 0, painter: Painter | None = None
) -> str:
    """One scoring event as a line: deal number (from 1), player, points, what scored, the scores.
    Cards are drawn by ``painter`` (as the game draws them on the console; default: letters)."""
    name = voice.names[event.seat] if event.seat is not None else ""
    return (
        f"deal {event.deal + 1:>2}  {name:<{width}}  {event.points:>2}  "
        f"{_what(event, starter, painter or Painter(symbols=False))}   ({voice.scores(event.scores)})"
    )


def _what(event: Event, starter: Card | None, painter: Painter) -> str:
    def cards(some: Iterable[Card]) -> str:
        return " ".join(painter.plain(card) for card in some)

    kind = event.kind
    if kind == "play" and event.cards:
        return f"plays {cards(event.cards[:1])} at {event.count}: {reasons(event.items)}"
    if kind == "go":
        return f"{event.note or 'go'} at {event.count}"
    if kind == "heels" and event.cards:
        if all(item.kind == HEELS for item in event.items):
            return f"his heels (starter {cards(event.cards[:1])})"
        return f"starter {cards(event.cards[:1])}: {reasons(event.items)}"
    if kind in ("hand", "crib"):
        with_starter = f" + {cards([starter])}" if starter is not None else ""
        return f"{kind} {cards(event.cards)}{with_starter}: {reasons(event.items) or 'nothing'}"
    if kind == "compensation":
        return "three for last (not dealing first)" if event.points == 3 else "for last (not dealing first)"
    if kind in ("count", "muggins", "penalty"):
        # Muggins: a count's note says what was declared; a call's, what was called and missed.
        return f"{kind} ({event.note})" if event.note else kind
    return f"{kind.replace('-', ' ')}: {reasons(event.items)}" if event.items else kind
