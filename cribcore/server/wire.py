"""Views and events as JSON: what the server sends each seat, and how a client reads it back.

`view_to_json` turns a `SeatView` into the ``view`` object of a ``state`` message (without its events,
which travel separately so that a message carries only the events a client has not seen yet);
`event_to_json` turns one event. `view_from_json` rebuilds the `SeatView` on the client side (the
terminal client and the load run's computer players act on it), validating every field, so a client
never trusts a malformed message. See ``docs/server.md`` for the protocol.

The true points of a count being settled under muggins (`SeatView.claim_points`) are never sent: a
browser's developer tools would show them to a human before they count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError

from ..actions import CLAIM_LIMIT, Action, Count, Muggins, Pass, parse_action
from ..cards import Card, parse_card
from ..events import Event
from ..rules import RuleSet
from ..scoring import ScoreItem
from ..speech import item_name, reasons, spoken_play, spoken_show, spoken_starter
from ..validation import first_problem
from ..views import SeatView

__all__ = ["SeatLog", "WireError", "event_from_json", "event_to_json", "view_from_json", "view_to_json"]


class WireError(ValueError):
    """A message from the other end that does not have the protocol's shape."""


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def _item_to_json(item: ScoreItem, lang: str) -> dict[str, Any]:
    name = item_name(item, lang=lang)
    return {"kind": item.kind, "name": name, "cards": _cards(item.cards), "points": item.points}


def _spoken(event: Event, lang: str) -> str | None:
    if event.kind == "play":
        return spoken_play(event.count or 0, event.items, lang=lang)
    if event.kind in ("hand", "crib") and event.note != "to count":
        return spoken_show(event.items, lang=lang)
    if event.kind == "heels":
        return spoken_starter(event.items, lang=lang)
    return None


def event_to_json(event: Event, lang: str = "en") -> dict[str, Any]:
    """One event of a seat's view (already redacted by the engine) as a JSON object.

    Besides the engine's fields it carries the words the terminal would say (`cribcore.speech`), in
    ``lang`` (the seat's language): each item's ``name``, the event's ``reasons`` ("fifteen 2, pair 2")
    and, for a card laid or a hand or crib shown, ``spoken`` ("fifteen two and a pair is four"), so
    every client says the same thing.
    """
    return {
        "deal": event.deal,
        "kind": event.kind,
        "seat": event.seat,
        "cards": _cards(event.cards),
        "points": event.points,
        "items": [_item_to_json(item, lang) for item in event.items],
        "scores": list(event.scores),
        "count": event.count,
        "scored": event.scored,
        "private": event.private_to is not None,
        "note": event.note,
        "side": event.side,
        "reasons": reasons(event.items, lang=lang),
        "spoken": _spoken(event, lang),
    }


def _claim_json(actions: Sequence[Action]) -> dict[str, Any] | None:
    counts = [a.points for a in actions if isinstance(a, Count)]
    if counts:
        return {"kind": "count", "min": min(counts), "max": max(counts)}
    calls = [a.points for a in actions if isinstance(a, Muggins)]
    if calls or any(isinstance(a, Pass) for a in actions):
        return {"kind": "call", "min": min(calls, default=1), "max": max(calls, default=0)}
    return None


def view_to_json(view: SeatView) -> dict[str, Any]:
    """The ``view`` object of a ``state`` message: everything in ``view`` but its events.

    ``legal`` lists the text form of each legal discard, play and ``pass``; a declared count or a muggins
    call is a number in a range, given once in ``claim`` rather than as a hundred actions.
    """
    return {
        "seat": view.seat,
        "players": list(view.players),
        "profile": view.profile,
        "rules": view.rules.model_dump(),
        "phase": view.phase,
        "deal": view.deal,
        "dealer": view.dealer,
        "scores": list(view.scores),
        "winner": view.winner,
        "hand": _cards(view.hand),
        "kept": _cards(view.kept),
        "discarded": _cards(view.discarded),
        "held": list(view.held),
        "crib_size": view.crib_size,
        "starter": str(view.starter) if view.starter is not None else None,
        "count": view.count,
        "pile": [[seat, str(card)] for seat, card in view.pile],
        "laid": [_cards(cards) for cards in view.laid],
        "to_act": list(view.to_act),
        "claim_stage": view.claim_stage,
        "counting": view.counting,
        "target_wins": view.target_wins,
        "play_continues": view.play_continues,
        "legal": [str(a) for a in view.legal_actions if not isinstance(a, Count | Muggins)],
        "claim": _claim_json(view.legal_actions),
    }


# ----------------------------------------------------------------------------- reading back

_STRICT = ConfigDict(extra="forbid", strict=True, frozen=True)


class _ItemModel(BaseModel):
    model_config = _STRICT
    kind: str = Field(max_length=40)
    name: str = Field("", max_length=80)
    cards: list[str] = Field(max_length=12)
    points: int


class _EventModel(BaseModel):
    model_config = _STRICT
    deal: int
    kind: str = Field(max_length=40)
    seat: int | None
    cards: list[str] = Field(max_length=12)
    points: int
    items: list[_ItemModel] = Field(max_length=64)
    scores: list[int] = Field(max_length=4)
    count: int | None
    scored: bool
    private: bool
    note: str = Field(max_length=200)
    side: int | None
    reasons: str = Field("", max_length=2000)
    spoken: str | None = Field(None, max_length=2000)


class _ClaimModel(BaseModel):
    model_config = _STRICT
    kind: Literal["count", "call"]
    min: int = Field(ge=0, le=CLAIM_LIMIT)
    max: int = Field(ge=0, le=CLAIM_LIMIT)


class _ViewModel(BaseModel):
    model_config = _STRICT
    seat: int = Field(ge=0, le=3)
    players: list[str] = Field(min_length=2, max_length=4)
    profile: str
    rules: dict[str, Any]
    phase: Literal["discard", "play", "show", "waiting", "over"]
    deal: int
    dealer: int
    scores: list[int] = Field(max_length=4)
    winner: int | None
    hand: list[str] = Field(max_length=12)
    kept: list[str] = Field(max_length=12)
    discarded: list[str] = Field(max_length=12)
    held: list[int] = Field(max_length=4)
    crib_size: int
    starter: str | None
    count: int
    pile: list[Annotated[tuple[int, str], Strict(False)]] = Field(max_length=52)  # JSON has no tuples
    laid: list[list[str]] = Field(max_length=4)
    to_act: list[int] = Field(max_length=4)
    claim_stage: Literal["count", "call"] | None
    counting: int | None
    target_wins: bool
    play_continues: bool
    legal: list[str] = Field(max_length=1000)
    claim: _ClaimModel | None


def _parse_cards(texts: Sequence[str]) -> tuple[Card, ...]:
    return tuple(parse_card(text) for text in texts)


def event_from_json(data: Mapping[str, Any]) -> Event:
    """An event read back from `event_to_json`'s shape; raises `WireError` on any other shape."""
    try:
        model = _EventModel.model_validate(data)
        return Event(
            kind=model.kind,
            deal=model.deal,
            seat=model.seat,
            cards=_parse_cards(model.cards),
            points=model.points,
            items=tuple(ScoreItem(i.kind, _parse_cards(i.cards), i.points) for i in model.items),
            scores=tuple(model.scores),
            count=model.count,
            scored=model.scored,
            # The seat a private event belongs to is the seat it is about (a dealt hand, a discard).
            private_to=model.seat if model.private else None,
            note=model.note,
            side=model.side,
        )
    except ValidationError as exc:
        raise WireError("event: {}: {}".format(*first_problem(exc))) from None
    except ValueError as exc:
        raise WireError(f"event: {exc}") from None


def _legal_actions(model: _ViewModel) -> tuple[Action, ...]:
    actions = [parse_action(text) for text in model.legal]
    claim = model.claim
    if claim is not None:
        kind = Count if claim.kind == "count" else Muggins
        actions.extend(kind(n) for n in range(claim.min, claim.max + 1))
    return tuple(actions)


def view_from_json(data: Mapping[str, Any], events: Sequence[Event] = ()) -> SeatView:
    """The `SeatView` a ``view`` object describes, with ``events`` (the seat's whole event log so far).

    Raises `WireError` naming the first field that is not what the protocol sends.
    """
    try:
        model = _ViewModel.model_validate(data)
        return SeatView(
            seat=model.seat,
            players=tuple(model.players),
            rules=RuleSet.model_validate(model.rules),
            profile=model.profile,
            phase=model.phase,
            deal=model.deal,
            dealer=model.dealer,
            scores=tuple(model.scores),
            winner=model.winner,
            hand=_parse_cards(model.hand),
            kept=_parse_cards(model.kept),
            discarded=_parse_cards(model.discarded),
            held=tuple(model.held),
            crib_size=model.crib_size,
            starter=parse_card(model.starter) if model.starter is not None else None,
            count=model.count,
            pile=tuple((seat, parse_card(card)) for seat, card in model.pile),
            laid=tuple(_parse_cards(cards) for cards in model.laid),
            to_act=tuple(model.to_act),
            claim_stage=model.claim_stage,
            counting=model.counting,
            target_wins=model.target_wins,
            play_continues=model.play_continues,
            claim_points=None,
            legal_actions=_legal_actions(model),
            events=tuple(events),
        )
    except ValidationError as exc:
        raise WireError("view: {}: {}".format(*first_problem(exc))) from None
    except ValueError as exc:
        raise WireError(f"view: {exc}") from None


class SeatLog:
    """A client's copy of one seat's event log, kept from the ``state`` messages it is sent.

    A full state (``events_start`` 0) replaces the log; any other must follow on from it exactly, in the
    same game of the room.
    """

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.game: object = None

    def accept(self, message: Mapping[str, Any]) -> SeatView | None:
        """The seat's view after a ``state`` message, or ``None`` when the message does not follow on
        from the log held (the client should then send ``sync``). Raises `WireError` on a malformed
        message, leaving the log as it was."""
        room, start, raw = message.get("room"), message.get("events_start"), message.get("events")
        if not isinstance(room, Mapping) or not isinstance(start, int) or not isinstance(raw, list):
            raise WireError("state: a state needs its room, events_start and events")
        game = room.get("game")
        if start != 0 and (game != self.game or start != len(self.events)):
            return None
        added = [event_from_json(event) for event in raw]
        events = [*self.events[:start], *added]
        view = view_from_json(message.get("view") or {}, events)
        self.events, self.game = events, game
        return view
