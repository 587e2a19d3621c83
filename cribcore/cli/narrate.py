"""Announcing a game as it happens: each engine `Event` becomes a line (or, for the show, a block) on
the console, in the words a cribbage table uses.

The narrator only ever shows cards that its audience may see: a private event (a dealt hand, a discard)
is shown with its cards only when it belongs to the addressed seat (`Voice.you`); for anyone else it
says what happened without the cards, whatever the event holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ..cards import Card
from ..events import Event
from ..scoring import THIRTY_ONE
from .describe import Voice, number_words, reasons, spoken_show
from .render import Painter, items_lines

__all__ = ["Narrator", "winning_side"]

_SHOW_KINDS = ("hand", "crib")


class Narrator:
    """Prints events in order. ``discards`` is how many cards each seat lays away (the rules say).
    ``pause`` is called before every deal after the first, so that a human can read the show before
    the next deal scrolls it away; pass ``None`` for an unattended game."""

    def __init__(
        self,
        console: Console,
        painter: Painter,
        voice: Voice,
        *,
        discards: int = 2,
        pause: Callable[[], None] | None = None,
    ) -> None:
        self._discards = discards
        self._console = console
        self._painter = painter
        self._voice = voice
        self._pause = pause
        self._dealer: int | None = None
        self._starter: Card | None = None
        self._cuts: list[Event] = []

    def tell(self, events: Sequence[Event]) -> None:
        """Announce ``events`` (the next ones in the game's order)."""
        for i, event in enumerate(events):
            if event.kind != "cut" and self._cuts:
                self._tell_cuts()
            following = events[i + 1] if i + 1 < len(events) else None
            self._tell_one(event, following)
        if self._cuts:
            self._tell_cuts()

    # ------------------------------------------------------------------ one event

    def _tell_one(self, event: Event, following: Event | None) -> None:
        voice = self._voice
        seat = event.seat
        kind = event.kind
        if kind == "cut":
            self._cuts.append(event)
        elif kind == "deal":
            self._tell_deal(event)
        elif kind == "dealt":
            pass  # a human's own hand is on their table; nobody else's is ever shown
        elif kind == "discard" and seat is not None:
            self._tell_discard(event, seat)
        elif kind == "starter" and event.cards:
            self._starter = event.cards[0]
            starter = Text("The starter is ").append_text(self._painter.card(event.cards[0]))
            self._say(starter.append("."))
        elif kind == "play" and seat is not None and event.cards:
            self._tell_play(event, seat)
        elif kind == "says-go":
            self._say(Text(f"{voice.does(seat, 'say')} go."))
        elif kind == "go":
            what = "the last card" if event.note == "last card" else "the go"
            self._say(self._scored(Text(f"{voice.does(seat, 'get')} 1 for {what}."), event))
        elif kind == "reset":
            if following is None or following.kind not in (*_SHOW_KINDS, "win"):
                self._say(Text("The count starts again at 0.", style="dim"))
        elif kind in _SHOW_KINDS and seat is not None:
            self._tell_show(event, seat)
        elif kind == "win":
            self._tell_win(event)
        elif kind == "heels":
            line = Text(f"{voice.does(seat, 'score')} {event.points} for his heels (a jack turned up).")
            self._say(self._scored(line, event))
        elif event.scored:
            what = reasons(event.items) or kind.replace("-", " ")
            line = Text(f"{voice.does(seat, 'score')} {event.points} for {what}.")
            self._say(self._scored(line, event))

    def _tell_cuts(self) -> None:
        rounds: list[list[Event]] = [[]]
        for event in self._cuts:
            if any(e.seat == event.seat for e in rounds[-1]):
                rounds.append([])
            rounds[-1].append(event)
        self._cuts = []
        text = Text("Cut for deal: ")
        for n, round_ in enumerate(rounds):
            if n:
                text.append("; equal ranks, so cut again: ")
            for k, event in enumerate(round_):
                if k:
                    text.append(", ")
                text.append(f"{self._voice.subject(event.seat)} ")
                text.append_text(self._painter.card(event.cards[0]))
        low = min(rounds[-1], key=lambda event: event.cards[0].rank)
        self._say(text.append(f". {self._voice.does(low.seat, 'deal')} first, with the lower card."))

    def _tell_deal(self, event: Event) -> None:
        if event.deal > 0 and self._pause is not None:
            self._pause()
        self._dealer = event.seat
        self._starter = None
        self._console.print()
        heading = f"Deal {event.deal + 1} · {self._voice.does(event.seat, 'deal')}"
        self._console.print(Rule(Text(heading, style="bold"), align="left"))

    def _tell_discard(self, event: Event, seat: int) -> None:
        voice = self._voice
        if self._dealer is None:
            crib = "the crib"
        elif seat == self._dealer:
            crib = "your own crib" if seat == voice.you else "their own crib"
        else:
            crib = f"{voice.owner(self._dealer)} crib"
        text = Text(f"{voice.does(seat, 'lay')} away ")
        if event.private_to in (None, voice.you) and event.cards:
            text.append_text(self._painter.cards(event.cards))
        else:
            # Another seat's discard reaches us without its cards; the rules say how many it was.
            text.append(f"{number_words(self._discards)} card{'s' * (self._discards != 1)}")
        self._say(text.append(f" to {crib}."))

    def _tell_play(self, event: Event, seat: int) -> None:
        text = Text(f"{self._voice.does(seat, 'play')} ")
        text.append_text(self._painter.card(event.cards[0]))
        count = event.count if event.count is not None else 0
        text.append(f" — {count}")
        if event.scored:
            text.append(f" for {event.points}", style="bold")
            # A count of 31 is already in the words: "31 for 2 (thirty-one 2)" says it twice.
            if not (len(event.items) == 1 and event.items[0].kind == THIRTY_ONE):
                text.append(f" ({reasons(event.items)})")
        self._say(self._scored(text, event) if event.scored else text)

    def _tell_show(self, event: Event, seat: int) -> None:
        painter = self._painter
        owner = self._voice.owner(seat)
        title = Text(f"{owner[0].upper()}{owner[1:]} {event.kind}  ", style="bold")
        title.append_text(painter.cards(event.cards))
        if self._starter is not None:
            title.append("  + starter ").append_text(painter.card(self._starter))
        self._console.print()
        self._console.print(title)
        for line in items_lines(event.items, painter, indent=4):
            self._console.print(line)
        spoken = Text(f"  {event.points}", style="bold").append(f": {spoken_show(event.items)}")
        self._say(self._scored(spoken, event))

    def _tell_win(self, event: Event) -> None:
        voice = self._voice
        side = winning_side(event, voice.sides_of)
        scores = event.scores
        self._console.print()
        self._console.print(Text(f"Game over: {voice.result(side, scores)}.", style="bold"))
        self._console.print(Text(f"Final scores: {voice.scores(scores)}"))

    # ------------------------------------------------------------------ helpers

    def _scored(self, text: Text, event: Event) -> Text:
        return text.append(f"   ({self._voice.scores(event.scores)})", style="dim")

    def _say(self, text: Text) -> None:
        self._console.print(text)


def winning_side(event: Event, sides_of: Sequence[int]) -> int:
    """The side a ``win`` event names (under lowball it is not the scorer's side)."""
    if event.side is not None:
        return event.side
    return sides_of[event.seat] if event.seat is not None else 0
