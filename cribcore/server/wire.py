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

from collections.abc import Callable, Mapping, Sequence
from json.encoder import encode_basestring_ascii
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError

from ..actions import CLAIM_LIMIT, Action, Count, Muggins, Pass, parse_action
from ..cards import Card, parse_card
from ..events import Event
from ..i18n import check_language
from ..rules import RuleSet
from ..scoring import ScoreItem
from ..speech import is_silent, item_name, reasons, spoken_play, spoken_show, spoken_starter
from ..validation import first_problem
from ..views import SeatView
from .jsontext import FAST, compact

__all__ = [
    "VIEW_FIELDS",
    "SeatLog",
    "WireError",
    "event_from_json",
    "event_text",
    "event_to_json",
    "view_from_json",
    "view_to_json",
]


class WireError(ValueError):
    """A message from the other end that does not have the protocol's shape."""


def _cards(cards: Sequence[Card]) -> list[str]:
    return [card.text for card in cards]


def _item_to_json(item: ScoreItem, lang: str) -> dict[str, Any]:
    name = item_name(item, lang=lang)
    data = {"kind": item.kind, "name": name, "cards": _cards(item.cards), "points": item.points}
    # Only when there is something to say, so that every other item keeps its shape.
    if item.wild:
        data["wild"] = {card.text: stood.text for card, stood in item.wild}
    if is_silent(item):
        data["silent"] = True
    return data


def _spoken(event: Event, items: Sequence[ScoreItem], lang: str) -> str | None:
    if event.kind == "play":
        return spoken_play(event.count or 0, items, lang=lang)
    if event.kind in ("hand", "crib") and event.note != "to count":
        return spoken_show(items, lang=lang)
    if event.kind == "heels":
        return spoken_starter(items, lang=lang)
    return None


_PLAIN_WORDS: dict[tuple[str, int | None, str | None, str], tuple[str, str | None]] = {}
"""The ``reasons`` and ``spoken`` of an event that scores no items, by what they depend on then (its
kind, count and note, and the language): most events score nothing, and their words repeat."""
_PLAIN_WORDS_KEPT = 4096


def _plain_words(event: Event, lang: str) -> tuple[str, str | None]:
    key = (event.kind, event.count, event.note, lang)
    found = _PLAIN_WORDS.get(key)
    if found is None:
        check_language(lang)  # no items, no reasons (in any language); refused as `reasons` would
        if len(_PLAIN_WORDS) >= _PLAIN_WORDS_KEPT:
            _PLAIN_WORDS.clear()
        found = _PLAIN_WORDS[key] = ("", _spoken(event, (), lang))
    return found


def event_to_json(event: Event, lang: str = "en") -> dict[str, Any]:
    """One event of a seat's view (already redacted by the engine) as a JSON object.

    Besides the engine's fields it carries the words the terminal would say (`cribcore.speech`), in
    ``lang`` (the seat's language): each item's ``name``, the event's ``reasons`` ("fifteen 2, pair 2")
    and, for a card laid or a hand or crib shown, ``spoken`` ("fifteen two and a pair is four"), so
    every client says the same thing.
    """
    items = event.items
    if items:
        said, spoken = reasons(items, lang=lang), _spoken(event, items, lang)
    else:
        said, spoken = _plain_words(event, lang)
    return {
        "deal": event.deal,
        "kind": event.kind,
        "seat": event.seat,
        "cards": [card.text for card in event.cards],
        "points": event.points,
        "items": [_item_to_json(item, lang) for item in items] if items else [],
        "scores": list(event.scores),
        "count": event.count,
        "scored": event.scored,
        "private": event.private_to is not None,
        "note": event.note,
        "side": event.side,
        "reasons": said,
        "spoken": spoken,
    }


def _is_number(value: object) -> bool:
    return type(value) is int


def _number_text(value: object) -> str | None:
    """An integer or ``None`` as JSON text; ``None`` for anything else."""
    if value is None:
        return "null"
    return str(value) if type(value) is int else None


def _item_text(item: ScoreItem, lang: str) -> str | None:
    """`_item_to_json` as JSON text; ``None`` for an item with a value of a type the engine does not
    give."""
    kind, points = item.kind, item.points
    if type(kind) is not str or type(points) is not int or item.wild or is_silent(item):
        return None
    name = encode_basestring_ascii(item_name(item, lang=lang))
    cards = ",".join([f'"{card.text}"' for card in item.cards])  # a card's text needs no escapes
    return f'{{"kind":{encode_basestring_ascii(kind)},"name":{name},"cards":[{cards}],"points":{points}}}'


def event_text(event: Event, lang: str = "en") -> str:
    """`event_to_json` as compact JSON text (the same data as ``compact(event_to_json(event, lang))``).

    Written field by field, which costs about two thirds of building the object and writing it with
    `json` (the server words every event it sends). An event with a value of a type the engine does
    not give (a plugin's own event, say) goes the general way, as does every event where orjson
    writes (``jsontext.FAST``): it writes the object faster still."""
    if FAST:
        return compact(event_to_json(event, lang))
    seat, count, side = _number_text(event.seat), _number_text(event.count), _number_text(event.side)
    scores = event.scores
    if (
        seat is None
        or count is None
        or side is None
        or not (_is_number(event.deal) and _is_number(event.points) and type(event.scored) is bool)
        or not all(map(_is_number, scores))
        or not (type(event.kind) is str and type(event.note) is str)
    ):
        return compact(event_to_json(event, lang))
    items = event.items
    if items:
        texts = [_item_text(item, lang) for item in items]
        if None in texts:
            return compact(event_to_json(event, lang))
        said, spoken = reasons(items, lang=lang), _spoken(event, items, lang)
        items_text = ",".join(texts)  # type: ignore[arg-type]  # no None among them
    else:
        (said, spoken), items_text = _plain_words(event, lang), ""
    cards = ",".join([f'"{card.text}"' for card in event.cards])  # a card's text needs no escapes
    return (
        f'{{"deal":{event.deal},"kind":{encode_basestring_ascii(event.kind)},"seat":{seat},'
        f'"cards":[{cards}],"points":{event.points},"items":[{items_text}],'
        f'"scores":[{",".join(map(str, scores))}],"count":{count},'
        f'"scored":{"true" if event.scored else "false"},'
        f'"private":{"false" if event.private_to is None else "true"},'
        f'"note":{encode_basestring_ascii(event.note)},"side":{side},'
        f'"reasons":{encode_basestring_ascii(said)},'
        f'"spoken":{"null" if spoken is None else encode_basestring_ascii(spoken)}}}'
    )


_CLAIMS = (Count, Muggins)
"""The actions the legal list leaves out: a count or call is a number in a range, given in ``claim``."""


def _claim_json(actions: Sequence[Action]) -> dict[str, Any] | None:
    counts = [a.points for a in actions if isinstance(a, Count)]
    if counts:
        return {"kind": "count", "min": min(counts), "max": max(counts)}
    calls = [a.points for a in actions if isinstance(a, Muggins)]
    if calls or any(isinstance(a, Pass) for a in actions):
        return {"kind": "call", "min": min(calls, default=1), "max": max(calls, default=0)}
    return None


_ACTION_TEXTS: dict[int, tuple[Action, str, str]] = {}
"""Each legal action's text and that text as a JSON string, by the action's identity (the engine
shares its actions between views and games; each entry keeps its action, so the id is not reused)."""
_ACTION_TEXTS_KEPT = 20_000


def _action_texts(action: Action) -> tuple[Action, str, str]:
    found = _ACTION_TEXTS.get(id(action))
    if found is None:
        if len(_ACTION_TEXTS) >= _ACTION_TEXTS_KEPT:
            _ACTION_TEXTS.clear()
        text = str(action)
        found = _ACTION_TEXTS[id(action)] = (action, text, encode_basestring_ascii(text))
    return found


def action_text(action: Action) -> str:
    """``str(action)``, kept per action: a view lists the same shared actions move after move."""
    return _action_texts(action)[1]


def action_json(action: Action) -> str:
    """`action_text` written as a JSON string, kept likewise (for the states written as text)."""
    return _action_texts(action)[2]


def _legal_json(actions: Sequence[Action]) -> list[str]:
    return [action_text(a) for a in actions if not isinstance(a, _CLAIMS)]


def legal_text(actions: Sequence[Action]) -> str:
    """`_legal_json`'s list written as JSON text: the texts of the actions but counts and calls."""
    return "[" + ",".join([action_json(a) for a in actions if not isinstance(a, _CLAIMS)]) + "]"


def _starter_json(card: Card | None) -> str | None:
    return card.text if card is not None else None


def _pile_json(pile: Sequence[tuple[int, Card]]) -> list[list[Any]]:
    return [[seat, card.text] for seat, card in pile]


def _laid_json(laid: Sequence[Sequence[Card]]) -> list[list[str]]:
    return [_cards(cards) for cards in laid]


def _rules_json(rules: RuleSet) -> dict[str, Any]:
    return rules.model_dump()


def _same(value: Any) -> Any:
    return value


VIEW_FIELDS: tuple[tuple[str, str, Callable[[Any], Any]], ...] = (
    ("seat", "seat", _same),
    ("players", "players", list),
    ("profile", "profile", _same),
    ("rules", "rules", _rules_json),
    ("phase", "phase", _same),
    ("deal", "deal", _same),
    ("dealer", "dealer", _same),
    ("scores", "scores", list),
    ("winner", "winner", _same),
    ("hand", "hand", _cards),
    ("kept", "kept", _cards),
    ("discarded", "discarded", _cards),
    ("held", "held", list),
    ("crib_size", "crib_size", _same),
    ("starter", "starter", _starter_json),
    ("count", "count", _same),
    ("pile", "pile", _pile_json),
    ("laid", "laid", _laid_json),
    ("to_act", "to_act", list),
    ("claim_stage", "claim_stage", _same),
    ("counting", "counting", _same),
    ("target_wins", "target_wins", _same),
    ("play_continues", "play_continues", _same),
    ("legal", "legal_actions", _legal_json),
    ("claim", "legal_actions", _claim_json),
)
"""Each key of the ``view`` object, in order: the `SeatView` field it is written from and how. A value
depends on its field alone, so equal fields write equal values (`cribcore.server.states` sends a key
again only when its field changed)."""


def view_to_json(view: SeatView) -> dict[str, Any]:
    """The ``view`` object of a ``state`` message: everything in ``view`` but its events.

    ``legal`` lists the text form of each legal discard, play and ``pass``; a declared count or a muggins
    call is a number in a range, given once in ``claim`` rather than as a hundred actions.
    """
    return {key: write(getattr(view, name)) for key, name, write in VIEW_FIELDS}


# ----------------------------------------------------------------------------- reading back

_STRICT = ConfigDict(extra="forbid", strict=True, frozen=True)


class _ItemModel(BaseModel):
    model_config = _STRICT
    kind: str = Field(max_length=40)
    name: str = Field("", max_length=80)
    cards: list[str] = Field(max_length=12)
    points: int
    wild: dict[str, str] = Field(default_factory=dict, max_length=12)
    silent: bool = False


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
            items=tuple(
                ScoreItem(
                    i.kind,
                    _parse_cards(i.cards),
                    i.points,
                    tuple((parse_card(card), parse_card(stood)) for card, stood in i.wild.items()),
                )
                for i in model.items
            ),
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
    same game of the room. A state of changes only (``"changes": true``, sent to a connection that asked
    for them in its ``hello``) updates the ``room`` and ``view`` objects held, key by key: `room` and
    `view_data` are always the whole objects as they now stand.
    """

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.game: object = None
        self.room: dict[str, Any] | None = None
        """The ``room`` object as it now stands (``None`` before the first state)."""
        self.view_data: dict[str, Any] | None = None
        """The ``view`` object as it now stands."""

    def accept(self, message: Mapping[str, Any]) -> SeatView | None:
        """The seat's view after a ``state`` message, or ``None`` when the message does not follow on
        from the log held (the client should then send ``sync``). Raises `WireError` on a malformed
        message, leaving the log as it was."""
        room, start, raw = message.get("room"), message.get("events_start"), message.get("events")
        view_data = message.get("view") or {}
        if not isinstance(room, Mapping) or not isinstance(start, int) or not isinstance(raw, list):
            raise WireError("state: a state needs its room, events_start and events")
        if not isinstance(view_data, Mapping):
            raise WireError("state: its view is not an object")
        if message.get("changes") is True:
            if self.room is None or self.view_data is None:
                return None  # changes to a state this client never had: only a full state helps
            room, view_data = {**self.room, **room}, {**self.view_data, **view_data}
        game = room.get("game")
        if start != 0 and (game != self.game or start != len(self.events)):
            # The changes still apply (they follow on from the previous message, whatever its events).
            self.room, self.view_data = dict(room), dict(view_data)
            return None
        added = [event_from_json(event) for event in raw]
        events = [*self.events[:start], *added]
        view = view_from_json(view_data, events)
        self.events, self.game = events, game
        self.room, self.view_data = dict(room), dict(view_data)
        return view
