"""The ``replay`` command: re-play a game record through the engine and list every scoring event,
then the result. The record is checked card by card on the way; a bad one stops with the
`RecordError` that says which deal and card."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterable
from typing import Any

from rich.console import Console
from rich.text import Text

from ..cards import Card
from ..events import Event
from ..i18n import _
from ..records import MAX_RECORD_BYTES, RecordError, parse_record, read_record, replay
from ..rules import RuleSet
from ..scoring import HEELS
from ..speech import wild_text
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
        raise RecordError(_("-: standard input is closed"))
    try:
        # Never more than a record can be: standard input may be endless (``< /dev/zero``).
        text = sys.stdin.read(MAX_RECORD_BYTES + 1)
    except UnicodeDecodeError as exc:
        raise RecordError(f"-: cannot read: {exc}") from None
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"-: too large to be a record (over {MAX_RECORD_BYTES // 2**20} MB)")
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
    players = _(" vs ").join(game.players)
    if game.seed is not None:
        heading = _("{players} (profile {profile}, seed {seed})").format(
            players=players, profile=game.profile.name, seed=game.seed
        )
    else:
        heading = _("{players} (profile {profile})").format(players=players, profile=game.profile.name)
    console.print(Text(heading, style="bold"))
    width = max(len(name) for name in game.players)
    starters: dict[int, Card] = {
        event.deal: event.cards[0] for event in game.events if event.kind == "starter" and event.cards
    }
    painter = Painter.for_console(console)
    counted: Event | None = None
    for event in game.events:
        if event.kind in _COUNTED:
            counted = event  # what a muggins count that follows is the count of
        if event.scored:
            line = scoring_line(event, voice, starters.get(event.deal), width, painter, counted=counted)
            console.print(line)
    if game.winner is not None:
        result = voice.result(game.winner, game.scores)
        console.print(Text(_("Result: {result}.").format(result=result), style="bold"))
    else:
        console.print(
            Text(
                _("Unfinished: the record stops in deal {number} with {scores}.").format(
                    number=game.deal_number + 1, scores=voice.scores(game.scores)
                ),
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


_COUNTED = ("hand", "crib", "play")
"""The events whose points a muggins count declares (the hand, the crib, a card laid)."""


def scoring_line(
    event: Event,
    voice: Voice,
    starter: Card | None,
    width: int = 0,
    painter: Painter | None = None,
    *,
    counted: Event | None = None,
) -> str:
    """One scoring event as a line: deal number (from 1), player, points, what scored, the scores.
    Cards are drawn by ``painter`` (as the game draws them on the console; default: letters). A
    muggins count, call or penalty says what was counted: ``counted``, the hand, crib or card laid
    last before it."""
    name = voice.names[event.seat] if event.seat is not None else ""
    deal = _("deal {number:>2}").format(number=event.deal + 1)
    what = _what(event, starter, painter or Painter(symbols=False), counted)
    return f"{deal}  {name:<{width}}  {event.points:>2}  {what}   ({voice.scores(event.scores)})"


def _what(event: Event, starter: Card | None, painter: Painter, counted: Event | None = None) -> str:
    # A wild card is shown with what it stood for in the items ("J♠ as 4♦").
    stood = {card: standing for item in event.items for card, standing in item.wild}

    def cards(some: Iterable[Card]) -> str:
        return " ".join(
            wild_text(painter.plain(card), painter.plain(stood[card]))
            if card in stood
            else painter.plain(card)
            for card in some
        )

    kind = event.kind
    if kind == "play" and event.cards:
        return _("plays {card} at {count}: {reasons}").format(
            card=cards(event.cards[:1]), count=event.count, reasons=reasons(event.items)
        )
    if kind == "go":
        line = _("last card at {count}") if event.note == "last card" else _("go at {count}")
        return line.format(count=event.count)
    if kind == "heels" and event.cards:
        if all(item.kind == HEELS for item in event.items):
            return _("his heels (starter {card})").format(card=cards(event.cards[:1]))
        return _("starter {card}: {reasons}").format(
            card=cards(event.cards[:1]), reasons=reasons(event.items)
        )
    if kind in ("hand", "crib"):
        shown = cards(event.cards) + (f" + {cards([starter])}" if starter is not None else "")
        line = _("hand {cards}: {reasons}") if kind == "hand" else _("crib {cards}: {reasons}")
        return line.format(cards=shown, reasons=reasons(event.items) or _("nothing"))
    if kind == "compensation":
        if event.points == 3:
            return _("three for last (not dealing first)")
        return _("for last (not dealing first)")
    if kind in ("count", "muggins", "penalty"):
        return _claim(event, _counted_words(counted, starter, cards))
    return f"{kind.replace('-', ' ')}: {reasons(event.items)}" if event.items else kind


def _counted_words(
    counted: Event | None, starter: Card | None, cards: Callable[[Iterable[Card]], str]
) -> str:
    """What a muggins count is the count of: ``the hand 9♠ 10♥ J♣ K♥ + 5♦``, ``the crib …``, ``the
    play of K♥ at 31``."""
    if counted is None:
        return _("the count")
    if counted.kind == "play" and counted.cards:
        return _("the play of {card} at {count}").format(card=cards(counted.cards[:1]), count=counted.count)
    shown = cards(counted.cards) + (f" + {cards([starter])}" if starter is not None else "")
    if counted.kind == "crib":
        return _("the crib {cards}").format(cards=shown)
    return _("the hand {cards}").format(cards=shown)


_DECLARED = re.compile(r"declared (\d+)(?:, corrected to (\d+))?")
_CALLED = re.compile(r"called (\d+); (?:(\d+) missed|false call)")


def _claim(event: Event, what: str) -> str:
    """A muggins event in words: whose count of what, what was declared or called, and what it took.
    Its note (written by `cribcore.claims`) holds the numbers."""
    if event.kind == "count":
        declared = _DECLARED.match(event.note)
        if declared is None:
            return _("count of {what}").format(what=what)
        if declared.group(2) is not None:
            return _("count of {what}: declared {declared}, corrected to {points}").format(
                what=what, declared=declared.group(1), points=declared.group(2)
            )
        return _("count of {what}: declared {declared}").format(what=what, declared=declared.group(1))
    if event.kind == "muggins":
        called = _CALLED.match(event.note)
        number = called.group(1) if called is not None else "?"
        missed = called.group(2) if called is not None else None
        if missed is not None and event.items:
            return _(
                "muggins on {what}: called {called}, {missed} missed (the count holds {reasons})"
            ).format(what=what, called=number, missed=missed, reasons=reasons(event.items))
        return _("muggins on {what}: called {called}, but nothing was missed").format(
            what=what, called=number
        )
    caller = event.note.rpartition(" by ")[2]
    return _("for {name}'s false muggins call on {what}").format(name=caller, what=what)
