"""Announcing a game as it happens: each engine `Event` becomes a line (or, for the show, a block) on
the console, in the words a cribbage table uses.

The narrator only ever shows cards that its audience may see: a private event (a dealt hand, a discard)
is shown with its cards only when it belongs to the addressed seat (`Voice.you`); for anyone else it
says what happened without the cards, whatever the event holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from ..cards import Card
from ..events import Event, redact
from ..i18n import _, ngettext
from ..phases import name_seats
from ..rules import RuleSet
from .board import PegKeeper, board_lines
from .describe import Voice, number_words, reasons, spoken_play, spoken_show, spoken_starter
from .render import Painter, fill, is_unicode, items_lines

__all__ = ["Narrator", "winning_side"]

_SHOW_KINDS = ("hand", "crib")
_MUGGINS_KINDS = ("count", "muggins", "penalty", "missed")


class Narrator:
    """Prints events in order, and keeps the pegging board up to date from them.

    ``pause`` is called before every deal after the first, so that a human can read the show before
    the next deal scrolls it away; pass ``None`` for an unattended game. The board is drawn when a
    deal is over (before the pause) and when the game is. Everything printed is also kept in
    `transcript` (it holds nothing private to a seat other than ``voice.you``), and every event taken
    in is kept in `events`, so that a screen that was cleared can be told again (`retold`).
    """

    def __init__(
        self,
        console: Console,
        painter: Painter,
        voice: Voice,
        *,
        rules: RuleSet,
        pause: Callable[[], None] | None = None,
    ) -> None:
        self._rules = rules
        self._discards = rules.discards
        self._crib_from_pack = rules.crib_from_pack
        self._targets = tuple(rules.target_of(side) for side in range(rules.sides))
        self._console = console
        self._painter = painter
        self._voice = voice
        self._pause = pause
        self._dealer: int | None = None
        self._starter: Card | None = None
        self._cuts: list[Event] = []
        self.keeper = PegKeeper(rules.sides)
        self.transcript: list[RenderableType] = []
        self.events: list[Event] = []
        """Every event absorbed or told, in order."""
        self.told_from = 0
        """Where the told events start in `events` (after those a resumed game absorbed)."""
        self._silent = False

    def tell(self, events: Sequence[Event], *, pause: bool = True) -> None:
        """Announce ``events`` (the next ones in the game's order); ``pause`` false skips the pause
        before a new deal (a resumed game starts with one)."""
        self.events.extend(events)
        for i, event in enumerate(events):
            if event.kind != "cut" and self._cuts:
                self._tell_cuts()
            following = events[i + 1] if i + 1 < len(events) else None
            self._tell_one(event, following, pause=pause)
        if self._cuts:
            self._tell_cuts()

    def absorb(self, events: Sequence[Event]) -> None:
        """Take in ``events`` without announcing them (the earlier deals of a resumed game)."""
        self.events.extend(events)
        self.told_from = len(self.events)
        self.keeper.feed(events)
        for event in events:
            if event.kind == "deal":
                self._dealer, self._starter = event.seat, None
            elif event.kind == "starter" and event.cards:
                self._starter = event.cards[0]

    def retold(self, seat: int, start: int) -> list[RenderableType]:
        """The lines for ``events[start:]`` told again to ``seat`` (a player taking a shared device):
        that seat is addressed as "you" ("You lay away two cards…"), and no private card is shown,
        not even that seat's own, since the recap is on the screen while the device changes hands.
        Nothing is printed."""
        again = Narrator(self._console, self._painter, replace(self._voice, you=seat), rules=self._rules)
        again._silent = True
        again.absorb(self.events[:start])
        # No seat is -1: every private event loses its cards.
        again.tell([redact(event, -1) for event in self.events[start:]])
        return again.transcript

    def board(self, indent: int = 0) -> list[Text]:
        """The pegging board as it stands, fitted to the console's width with its lines indented by
        ``indent`` columns (so that an indented board never wraps its hole numbers)."""
        self.keeper.mark_drawn()
        lines = board_lines(
            self._voice.side_names,
            self.keeper.pegs,
            self._targets,
            width=self._console.width - indent,
            ascii_only=not is_unicode(self._console),
        )
        for line in lines:
            line.pad_left(indent)
        return lines

    # ------------------------------------------------------------------ one event

    def _tell_one(self, event: Event, following: Event | None, *, pause: bool) -> None:
        voice = self._voice
        seat = event.seat
        kind = event.kind
        self.keeper.feed((event,))
        if kind == "cut":
            self._cuts.append(event)
        elif kind == "deal":
            self._tell_deal(event, pause=pause)
        elif kind == "dealt":
            pass  # a human's own hand is on their table; nobody else's is ever shown
        elif kind == "discard" and seat is not None:
            self._tell_discard(event, seat)
        elif kind == "starter" and event.cards:
            self._starter = event.cards[0]
            self._say(fill(_("The starter is {card}."), card=self._painter.card(event.cards[0])))
        elif kind == "play" and seat is not None and event.cards:
            self._tell_play(event, seat)
        elif kind == "says-go":
            self._say(Text(voice.tell(seat, _("You say go."), _("{name} says go."))))
        elif kind == "go":
            if event.note == "last card":
                line = voice.tell(
                    seat, _("You get 1 for the last card."), _("{name} gets 1 for the last card.")
                )
            else:
                line = voice.tell(seat, _("You get 1 for the go."), _("{name} gets 1 for the go."))
            self._say(self._scored(Text(line), event))
        elif kind == "reset":
            if following is None or following.kind not in (*_SHOW_KINDS, "win"):
                self._say(Text(_("The count starts again at 0."), style="dim"))
        elif kind in _SHOW_KINDS and seat is not None:
            self._tell_show(event, seat)
        elif kind == "win":
            self._tell_win(event)
        elif kind in _MUGGINS_KINDS:
            self._tell_muggins(event)
        elif kind == "compensation":
            line = voice.tell(
                seat,
                _("You score {points} for last (not dealing first)."),
                _("{name} scores {points} for last (not dealing first)."),
                points=event.points,
            )
            self._say(self._scored(Text(line), event))
        elif kind == "heels":
            line = voice.tell(
                seat,
                _("You score {points} for {what}."),
                _("{name} scores {points} for {what}."),
                points=event.points,
                what=spoken_starter(event.items),
            )
            self._say(self._scored(Text(line), event))
        else:
            self._tell_other(event)

    def _tell_cuts(self) -> None:
        rounds: list[list[Event]] = [[]]
        for event in self._cuts:
            if any(e.seat == event.seat for e in rounds[-1]):
                rounds.append([])
            rounds[-1].append(event)
        self._cuts = []
        text = Text(_("Cut for deal: "))
        for n, round_ in enumerate(rounds):
            if n:
                text.append(_("; equal ranks, so cut again: "))
            for k, event in enumerate(round_):
                if k:
                    text.append(", ")
                text.append_text(
                    fill(
                        _("{name} {card}"),
                        name=self._cut_name(event.seat),
                        card=self._painter.card(event.cards[0]),
                    )
                )
        low = min(rounds[-1], key=lambda event: event.cards[0].rank)
        first = self._voice.tell(
            low.seat, _("You deal first, with the lower card."), _("{name} deals first, with the lower card.")
        )
        self._say(text.append(f". {first}"))

    def _tell_deal(self, event: Event, *, pause: bool) -> None:
        if event.deal > 0 and self.keeper.moved_since_drawn:
            self._draw_board()  # where the last deal left the pegs
        if event.deal > 0 and self._pause is not None and pause:
            self._pause()
        self._dealer = event.seat
        self._starter = None
        self._print(Text())
        heading = self._voice.tell(
            event.seat,
            _("Deal {number} · You deal"),
            _("Deal {number} · {name} deals"),
            number=event.deal + 1,
        )
        self._print(Rule(Text(heading, style="bold"), align="left"))
        if self._crib_from_pack:
            # Three players: the crib is made up to four from the pack, face down, as it is dealt.
            from_pack = ngettext(
                "{number} card from the pack goes face down to the crib.",
                "{number} cards from the pack go face down to the crib.",
                self._crib_from_pack,
            ).format(number=number_words(self._crib_from_pack).capitalize())
            self._say(Text(from_pack))

    def _tell_discard(self, event: Event, seat: int) -> None:
        voice = self._voice
        cards: Text | str
        if self._may_show(event):
            cards = self._painter.cards(event.cards)
        else:
            # Another seat's discard reaches us without its cards; the rules say how many it was.
            cards = ngettext("{count} card", "{count} cards", self._discards).format(
                count=number_words(self._discards)
            )
        if self._dealer is None:
            template = voice.pick(
                seat, _("You lay away {cards} to the crib."), _("{name} lays away {cards} to the crib.")
            )
        elif seat == self._dealer:
            template = voice.pick(
                seat,
                _("You lay away {cards} to your own crib."),
                _("{name} lays away {cards} to their own crib."),
            )
        elif self._dealer == voice.you:
            template = voice.pick(
                seat, _("You lay away {cards} to your crib."), _("{name} lays away {cards} to your crib.")
            )
        else:
            template = voice.pick(
                seat,
                _("You lay away {cards} to {dealer}'s crib."),
                _("{name} lays away {cards} to {dealer}'s crib."),
            )
        self._say(
            fill(template, cards=cards, dealer=voice.names[self._dealer] if self._dealer is not None else "")
        )

    def _tell_play(self, event: Event, seat: int) -> None:
        count = event.count if event.count is not None else 0
        template = self._voice.pick(seat, _("You play {card} — {count}"), _("{name} plays {card} — {count}"))
        text = fill(template, card=self._painter.card(event.cards[0]), count=count)
        if not event.scored:
            self._say(text)
            return
        text.append(_(" for {points}").format(points=event.points), style="bold")
        text.append(f": {spoken_play(count, event.items)}")
        self._say(self._scored(text, event))
        # One item is said in full by the words; several are also listed with their cards.
        if len(event.items) > 1:
            for line in items_lines(event.items, self._painter, indent=6):
                self._print(line)

    def _tell_show(self, event: Event, seat: int) -> None:
        painter = self._painter
        if event.kind == "crib":
            heading = self._voice.tell(seat, _("Your crib"), _("{name}'s crib"))
        else:
            heading = self._voice.tell(seat, _("Your hand"), _("{name}'s hand"))
        title = Text(f"{heading}  ", style="bold")
        title.append_text(painter.cards(event.cards))
        if self._starter is not None:
            title.append(_("  + starter ")).append_text(painter.card(self._starter))
        self._print(Text())
        self._print(title)
        if event.note == "to count":  # muggins: the owner declares the count next
            return
        for line in items_lines(event.items, painter, indent=4):
            self._print(line)
        spoken = Text(f"  {event.points}", style="bold").append(": ")
        self._say(self._scored(self._phrases(spoken, spoken_show(event.items)), event))

    def _tell_win(self, event: Event) -> None:
        voice = self._voice
        side = winning_side(event, voice.sides_of)
        scores = event.scores
        self._draw_board()
        # Lowball's loser reaches the target too: only a winner past its own game hole pegged out there.
        target = (
            self._targets[side] if side < len(self._targets) and scores[side] >= self._targets[side] else None
        )
        result = voice.result(side, scores, target)
        self._print(Text(_("Game over: {result}.").format(result=result), style="bold"))
        self._print(Text(_("Final scores: {scores}").format(scores=voice.scores(scores))))

    def _tell_muggins(self, event: Event) -> None:
        """The muggins variant: declared counts, calls, false-call penalties, points left unclaimed."""
        voice = self._voice
        seat = event.seat
        if event.kind == "count":
            corrected = ", corrected to " in event.note
            declared = event.note.removeprefix("declared ").split(",")[0]
            if event.points == 0 and not corrected:
                if len(event.cards) == 1:
                    return  # a card in the play that scored nothing: silence says so, as at a table
                text = Text(voice.tell(seat, _("You count nothing."), _("{name} counts nothing.")))
            elif corrected:
                text = Text(
                    voice.tell(
                        seat,
                        _("You count {declared}, corrected to {points}."),
                        _("{name} counts {declared}, corrected to {points}."),
                        declared=declared,
                        points=event.points,
                    )
                )
            else:
                text = Text(
                    voice.tell(
                        seat, _("You count {declared}."), _("{name} counts {declared}."), declared=declared
                    )
                )
            self._say(self._scored(text, event))
        elif event.kind == "muggins":
            called = event.note.removeprefix("called ").split(";")[0]
            if event.points:
                text = Text(
                    voice.tell(
                        seat,
                        ngettext(
                            "Muggins! You take {points} missed point (called {called}).",
                            "Muggins! You take {points} missed points (called {called}).",
                            event.points,
                        ),
                        ngettext(
                            "Muggins! {name} takes {points} missed point (called {called}).",
                            "Muggins! {name} takes {points} missed points (called {called}).",
                            event.points,
                        ),
                        points=event.points,
                        called=called,
                    )
                )
            else:
                text = Text(
                    voice.tell(
                        seat,
                        _("You call muggins for {called}, but nothing was missed."),
                        _("{name} calls muggins for {called}, but nothing was missed."),
                        called=called,
                    )
                )
            self._say(self._scored(text, event))
            if event.points:
                for line in items_lines(event.items, self._painter, indent=4):
                    self._print(line)
        elif event.kind == "penalty":
            text = Text(
                voice.tell(
                    seat,
                    _("You score {points} for the false call."),
                    _("{name} scores {points} for the false call."),
                    points=event.points,
                )
            )
            self._say(self._scored(text, event))
        else:
            missed = event.note.split()[0]
            self._say(
                Text(
                    ngettext(
                        "Nobody called muggins: {missed} point was missed.",
                        "Nobody called muggins: {missed} points were missed.",
                        int(missed) if missed.isdigit() else 2,
                    ).format(missed=missed),
                    style="dim",
                )
            )
            for line in items_lines(event.items, self._painter, indent=4):
                self._print(line)

    def _tell_other(self, event: Event) -> None:
        """Any other kind (a variant's): a plain line saying who, what, and any points, so that a new
        kind of event never stops the game."""
        voice = self._voice
        words = event.kind.replace("-", " ").replace("_", " ")
        if event.kind == "phase":  # a plugin's phase opens before a deal (its name is the note)
            line = voice.tell(
                event.seat,
                _("Before deal {number}: the {phase}. You first."),
                _("Before deal {number}: the {phase}. {name} first."),
                number=event.deal + 1,
                phase=event.note,
            )
            self._say(Text(line))
            return
        if event.scored and event.points < 0:  # a price paid in a plugin's phase
            text = Text(
                voice.tell(
                    event.seat,
                    _("You pay {points} ({what}"),
                    _("{name} pays {points} ({what}"),
                    points=-event.points,
                    what=words,
                )
            )
            text.append(f": {name_seats(event.note, voice.names)})." if event.note else ").")
            self._say(self._scored(text, event))
            return
        if event.scored:
            what = reasons(event.items) or words
            text = Text(
                voice.tell(
                    event.seat,
                    _("You score {points} for {what}."),
                    _("{name} scores {points} for {what}."),
                    points=event.points,
                    what=what,
                )
            )
            self._say(self._scored(text, event))
            return
        text = Text(f"{voice.subject(event.seat)}: {words}")
        if event.cards and self._may_show(event):
            text.append(" ").append_text(self._painter.cards(event.cards))
        if event.count is not None:
            text.append(_(" (count {count})").format(count=event.count))
        if event.note:
            text.append(f" — {name_seats(event.note, voice.names)}")
        self._say(text.append("."))

    # ------------------------------------------------------------------ helpers

    def _phrases(self, head: Text, words: str) -> Text:
        """``head`` followed by ``words`` (a count said aloud), broken only between its phrases (after
        a comma) when the console is too narrow, so that "fifteen two" never falls apart."""
        width = self._console.width
        # Piped output keeps lines whole; a terminal would break a long line anywhere, even mid-word.
        if not self._console.is_terminal or head.cell_len + len(words) <= width:
            return head.append(words)
        parts = words.split(", ")
        line = head.cell_len
        for i, part in enumerate(parts):
            piece = part + ("," if i < len(parts) - 1 else "")
            if i and line + 1 + len(piece) > width:
                head.append("\n    ")
                line = 4
            elif i:
                head.append(" ")
                line += 1
            head.append(piece)
            line += len(piece)
        return head

    def _cut_name(self, seat: int | None) -> str:
        """Who cut, by name even for the addressed seat (``--name Ann`` cuts as Ann; unnamed, the
        name is "You")."""
        return self._voice.subject(seat) if seat is None else self._voice.names[seat]

    def _may_show(self, event: Event) -> bool:
        """Whether the event's cards may be printed: public ones, or the addressed seat's own."""
        return bool(event.cards) and event.private_to in (None, self._voice.you)

    def _draw_board(self) -> None:
        self._print(Text())
        for line in self.board():
            self._print(line)

    def _scored(self, text: Text, event: Event) -> Text:
        if not event.scores:
            return text
        scores = f"({self._voice.scores(event.scores)})"
        console = self._console
        last_line = text.plain.rsplit("\n", 1)[-1]
        if console.is_terminal and cell_len(last_line) + 3 + len(scores) > console.width:
            # The line would wrap: the scores go whole onto a line of their own.
            return text.append(f"\n    {scores}", style="dim")
        return text.append(f"   {scores}", style="dim")

    def _say(self, text: Text) -> None:
        self._print(text)

    def _print(self, renderable: RenderableType) -> None:
        if not self._silent:
            self._console.print(renderable)
        self.transcript.append(renderable)


def winning_side(event: Event, sides_of: Sequence[int]) -> int:
    """The side a ``win`` event names (under lowball it is not the scorer's side)."""
    if event.side is not None:
        return event.side
    return sides_of[event.seat] if event.seat is not None else 0
