"""The ``state`` messages a WebSocket connection is sent, written as JSON text.

A state is whole (``room``, ``view`` and the events from ``events_start`` on), or, for a connection that
asked for it in its ``hello`` (``"changes": true``), after its first whole state, only what changed
since the previous one: ``"changes": true``, the keys of ``room`` and ``view`` whose values changed, and
the new events (``docs/server.md``). Either is the data `Room.state` gives; it is written from parts
kept between messages (each event's text, the rules, the fields of the last view sent), since the
server sends every seat a state after every move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from json.encoder import encode_basestring_ascii
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from ..actions import Discard, Play
from ..rules import RuleSet
from .jsontext import compact
from .wire import VIEW_FIELDS, _claim_json, _same, legal_text

if TYPE_CHECKING:
    from .rooms import Room

__all__ = ["Sent", "state_text"]

_RULES_KEPT = 64
_MISSING = object()
_compact = compact
_FIELDS = attrgetter(*(name for _, name, _ in VIEW_FIELDS))
"""A view's fields in `VIEW_FIELDS` order, as one tuple."""


@dataclass(slots=True)
class Sent:
    """What one connection was last sent a state of: its view's fields (in `VIEW_FIELDS` order) and
    its ``room`` object (``None`` before its first state)."""

    fields: tuple[Any, ...] | None = None
    room: dict[str, Any] | None = None


_rules_data: dict[int, tuple[RuleSet, dict[str, Any]]] = {}
"""A view's ``rules`` as data, by the rules' identity (each entry keeps its rules alive, so the id is not
reused): a game's views all share its rules. Only ever read (written into messages), never changed."""


def _rules_json(rules: RuleSet) -> dict[str, Any]:
    found = _rules_data.get(id(rules))
    if found is None:
        if len(_rules_data) >= _RULES_KEPT:
            _rules_data.clear()
        found = _rules_data[id(rules)] = (rules, rules.model_dump())
    return found[1]


def _value_text(value: Any) -> str:
    """A plain value (an integer, a text, ``None`` or a truth value) as JSON text."""
    kind = type(value)
    if kind is int:
        return str(value)
    if value is None:
        return "null"
    if kind is str:
        return encode_basestring_ascii(value)
    return _compact(value)


def _numbers_text(values: Any) -> str:
    if all(type(value) is int for value in values):
        return "[" + ",".join(map(str, values)) + "]"
    return _compact(list(values))


def _card_list(cards: Any) -> str:
    return ",".join(['"' + card.text + '"' for card in cards])  # a card's text needs no escapes


def _cards_text(cards: Any) -> str:
    return "[" + _card_list(cards) + "]"


def _starter_text(card: Any) -> str:
    return "null" if card is None else '"' + card.text + '"'


def _pile_text(pile: Any) -> str:
    return "[" + ",".join(["[" + _value_text(seat) + ',"' + card.text + '"]' for seat, card in pile]) + "]"


def _laid_text(laid: Any) -> str:
    return "[" + ",".join(map(_cards_text, laid)) + "]"


def _claim_text(actions: Any) -> str:
    # Plays and discards alone (nearly every view) have no ``claim``: `_claim_json` gives None.
    for action in actions:
        if type(action) is not Play and type(action) is not Discard:
            return _compact(_claim_json(actions))
    return "null"


def _kept_by_value(write: Callable[[Any], str]) -> Callable[[Any], str]:
    """``write``, giving again the text it wrote last while the value it is given is equal to that
    one: after a move both seats are sent the public fields that changed (equal, built per view)."""
    last: list[Any] = [_MISSING, ""]

    def text(value: Any) -> str:
        if value == last[0]:
            kept: str = last[1]
            return kept
        written = write(value)
        last[0], last[1] = value, written
        return written

    return text


_TEXT_WRITERS: dict[str, Callable[[Any], str]] = {
    "seat": _value_text,
    "players": lambda players: _compact(list(players)),
    "profile": _value_text,
    "rules": lambda rules: _compact(_rules_json(rules)),
    # Tuples of integers, of cards, of seats and cards: equal tuples of equal values write the same.
    "scores": _kept_by_value(_numbers_text),
    "hand": _cards_text,
    "kept": _cards_text,
    "discarded": _cards_text,
    "held": _kept_by_value(_numbers_text),
    "starter": _starter_text,
    "pile": _kept_by_value(_pile_text),
    "laid": _kept_by_value(_laid_text),
    "to_act": _kept_by_value(_numbers_text),
    "legal": legal_text,
    "claim": _claim_text,
}
"""How each key of `VIEW_FIELDS` is written as JSON text straight from its field (without building its
value and writing that): the same data as ``compact(write(field))``. The other keys are plain values,
or (``claim``) written the general way."""


def _general(write: Callable[[Any], Any]) -> Callable[[Any], str]:
    if write is _same:
        return _value_text
    return lambda value: _compact(write(value))


_VIEW_TEXTS: tuple[tuple[str, Callable[[Any], str]], ...] = tuple(
    (f"{encode_basestring_ascii(key)}:", _TEXT_WRITERS.get(key) or _general(write))
    for key, _, write in VIEW_FIELDS
)
"""Each key of the ``view`` object as text, and how its field is written as JSON text."""


def _whole_view(fields: tuple[Any, ...]) -> str:
    written = [key + text(value) for (key, text), value in zip(_VIEW_TEXTS, fields, strict=True)]
    return "{" + ",".join(written) + "}"


def _view_changes(before: tuple[Any, ...], after: tuple[Any, ...]) -> str:
    # A key is written again only when its field changed: the engine shares what did not.
    changed = [
        key + text(new)
        for (key, text), new, old in zip(_VIEW_TEXTS, after, before, strict=True)
        if new is not old and new != old
    ]
    return "{" + ",".join(changed) + "}"


def state_text(
    room: Room,
    seat: int,
    start: int,
    lang: str,
    sent: Sent | None = None,
    source: tuple[Any, ...] | None = None,
) -> tuple[str, int]:
    """The ``state`` message for ``seat`` with the events from ``start`` on, as JSON text, and how many
    events it carries.

    With ``sent`` (a connection that takes changes), a state after the first whole one, unless
    ``start`` is 0, carries only what changed since the last one; ``sent`` is then updated. ``source``
    is the room's `Room.room_json_source` now, when the caller has it."""
    view = room.game.view(seat)
    fields = _FIELDS(view)
    room_data = room.room_json_kept(seat, source)
    texts = room.event_texts(view.events[start:], lang)
    if sent is not None and start != 0 and sent.fields is not None and sent.room is not None:
        before = sent.room
        room_text = "{}"
        if before is not room_data:
            changed = {key: value for key, value in room_data.items() if before.get(key, _MISSING) != value}
            room_text = _compact(changed)
        head = f'"changes":true,"room":{room_text},"view":{_view_changes(sent.fields, fields)}'
    else:
        head = f'"room":{_compact(room_data)},"view":{_whole_view(fields)}'
    if sent is not None:
        sent.fields, sent.room = fields, room_data
    return f'{{"type":"state",{head},"events_start":{start},"events":[{",".join(texts)}]}}', len(texts)
