"""Events: the engine's account of everything that happens in a game, in order.

Every event is public except those with ``private_to`` set (a seat's dealt hand, its discard), which a
seat's view shows in full only to that seat and to others with the cards removed (see `redact`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from .cards import Card
from .scoring import ScoreItem

__all__ = ["Event", "UnguardedEvent", "lazy_field", "lazy_items", "make_event", "redact"]


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened.

    Kinds the engine emits, with ``seat`` meaning:

    - ``cut``: ``seat`` cut ``cards[0]`` for the first deal (one event per seat and round);
    - ``deal``: a deal begins; ``seat`` is the dealer (public, no cards);
    - ``dealt``: ``seat``'s hand as dealt (private to ``seat``);
    - ``discard``: ``seat`` laid ``cards`` away to the crib (private to ``seat``);
    - ``starter``: the starter is turned up (``seat`` is the dealer);
    - ``heels``: the dealer scores for the starter;
    - ``play``: ``seat`` laid ``cards[0]``, taking the count to ``count``, scoring ``items``;
    - ``says-go``: ``seat`` cannot lay a card on ``count``;
    - ``go``: ``seat`` scores the point for the go (``note`` ``"go"``) or for the last card of the play
      (``note`` ``"last card"``); none is scored when the count reaches 31;
    - ``reset``: the count turns over (``seat`` laid its last card);
    - ``hand`` and ``crib``: the show of ``seat``'s hand or the dealer's crib, ``cards`` without the starter;
    - ``win``: the game is over; ``side`` has won (``seat`` scored last, which under some variants is
      not the winner).

    Plugins may add kinds, such as ``compensation``. ``scored`` marks events that award points (a hand
    counted for 0 included); ``scores`` are the totals per side after the event.
    """

    kind: str
    deal: int
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    points: int = 0
    items: tuple[ScoreItem, ...] = ()
    scores: tuple[int, ...] = ()
    count: int | None = None
    scored: bool = False
    private_to: int | None = None
    note: str = ""
    side: int | None = None

    def to_json(self) -> dict[str, object]:
        """The event as JSON data, as a record holds it (empty fields left out)."""
        data: dict[str, object] = {"deal": self.deal, "kind": self.kind, "player": self.seat}
        if self.cards:
            data["cards"] = [str(c) for c in self.cards]
        if self.count is not None:
            data["count"] = self.count
        data["points"] = self.points
        if self.items:
            data["items"] = [item.to_json() for item in self.items]
        data["scores"] = list(self.scores)
        if self.note:
            data["note"] = self.note
        if self.side is not None:
            data["side"] = self.side
        return data


_new = object.__new__


def unguarded(cls: type) -> Any:
    """A class with exactly ``cls``'s slots, in the same order, and no frozen ``__setattr__``: an object
    made as one, its fields set by plain assignment, then given ``cls`` as its class (``obj.__class__ =
    cls``, allowed because the two lay out their slots alike) is a ``cls`` like any other, built in a
    fraction of the time of ``cls(...)`` or of one slot setter call per field. For the frozen slotted
    dataclasses the engine makes by the hundred a game."""
    slots = tuple(getattr(cls, "__slots__", ()))
    if not slots or "__dict__" in slots:
        raise TypeError(f"{cls.__name__} does not keep its fields in slots")
    return type(f"_Unguarded{cls.__name__}", (), {"__slots__": slots})


UnguardedEvent = unguarded(Event)
UnguardedEvent.__doc__ = "An `Event` under construction, without its frozen guard (see `unguarded`)."
"""`Event`'s slots without its frozen guard: what `make_event` fills, then makes an `Event` by setting
the class."""


def lazy_field(cls: type, name: str, doc: str) -> None:
    """Make the slot field ``name`` of the frozen dataclass ``cls`` read through a property that works
    out a stored `functools.partial` on the first read and keeps the result, so every reader (equality,
    hashing, repr, `to_json`, `dataclasses.replace`, pickling) sees the value itself. For fields the
    engine fills by the hundred a game and rarely reads (an event's items, a view's event log)."""
    slot = vars(cls)[name]
    get, put = slot.__get__, slot.__set__

    def read(obj: Any) -> Any:
        value = get(obj, cls)
        if type(value) is partial:
            value = value()
            put(obj, value)
        return value

    setattr(cls, name, property(read, put, doc=doc))


lazy_field(Event, "items", "The scoring items (worked out when read).")


def lazy_items(compute: Callable[..., tuple[ScoreItem, ...]], *args: Any, **kwargs: Any) -> Any:
    """Items for `make_event` that are worked out by ``compute(*args, **kwargs)`` only when the event's
    ``items`` are first read: for the engine's show events, whose points it knows from a faster count
    (the caller guarantees the points equal the items' sum). Once read they are a plain tuple.

    Typed `Any`, not as the tuple it stands for: it is a `functools.partial` until read, and a compiled
    engine (docs/speed.md) checks a value's declared type where it receives it."""
    return partial(compute, *args, **kwargs)


def make_event(
    kind: str,
    deal: int,
    seat: int | None = None,
    cards: tuple[Card, ...] = (),
    points: int = 0,
    items: tuple[ScoreItem, ...] = (),
    scores: tuple[int, ...] = (),
    count: int | None = None,
    scored: bool = False,
    private_to: int | None = None,
    note: str = "",
    side: int | None = None,
) -> Event:
    """``Event(...)`` with the same fields, built in about a sixth of the time: the engine makes a few
    hundred a game, and a frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``
    (see `unguarded`)."""
    event = _new(UnguardedEvent)
    event.kind = kind
    event.deal = deal
    event.seat = seat
    event.cards = cards
    event.points = points
    event.items = items  # the slot itself: lazy items stay unworked out (see `lazy_field`)
    event.scores = scores
    event.count = count
    event.scored = scored
    event.private_to = private_to
    event.note = note
    event.side = side
    event.__class__ = Event
    # Typed by assignment, not `typing.cast`: a cast is a Python call, and this runs hundreds of times
    # a game.
    built: Event = event
    return built


def redact(event: Event, seat: int) -> Event:
    """The event as ``seat`` may see it: a private event of another seat loses its cards."""
    if event.private_to is None or event.private_to == seat:
        return event
    e = event
    # Built field by field: `dataclasses.replace` costs more than the event itself.
    return make_event(
        e.kind, e.deal, e.seat, (), e.points, (), e.scores, e.count, e.scored, e.private_to, e.note, e.side
    )
