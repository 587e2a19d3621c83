"""Events: the engine's account of everything that happens in a game, in order.

Every event is public except those with ``private_to`` set (a seat's dealt hand, its discard), which a
seat's view shows in full only to that seat and to others with the cards removed (see `redact`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .cards import Card
from .scoring import ScoreItem

__all__ = ["Event", "redact"]


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened.

    Kinds the engine emits: ``cut`` (a card cut for deal), ``dealer`` (who deals), ``deal`` (a seat's
    hand, private), ``discard`` (private cards), ``starter``, ``heels``, ``play`` (a card laid, with its
    points), ``says-go`` (a seat cannot lay a card), ``go`` (the go or last-card point), ``reset`` (the
    count turns over), ``hand`` and ``crib`` (the show), ``win``; plugins may add kinds such as
    ``compensation``. ``scored`` marks events that award points (a hand counted for 0 included);
    ``scores`` are the totals per side after the event.
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

    def to_json(self) -> dict[str, object]:
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
        return data


def redact(event: Event, seat: int) -> Event:
    """The event as ``seat`` may see it: a private event of another seat loses its cards."""
    if event.private_to is None or event.private_to == seat:
        return event
    return replace(event, cards=(), items=())
