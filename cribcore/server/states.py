"""The ``state`` messages a WebSocket connection is sent, written as JSON text.

A state is whole (``room``, ``view`` and the events from ``events_start`` on), or, for a connection that
asked for it in its ``hello`` (``"changes": true``), after its first whole state, only what changed
since the previous one: ``"changes": true``, the keys of ``room`` and ``view`` whose values changed, and
the new events (``docs/server.md``). Either is the data `Room.state` gives; it is written from parts
kept between messages (each event's text, the rules, the fields of the last view sent), since the
server sends every seat a state after every move.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from ..rules import RuleSet
from .jsontext import compact
from .wire import VIEW_FIELDS

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


def _whole_view(fields: tuple[Any, ...]) -> dict[str, Any]:
    return {
        key: _rules_json(value) if key == "rules" else write(value)
        for (key, _, write), value in zip(VIEW_FIELDS, fields, strict=True)
    }


def _view_changes(before: tuple[Any, ...], after: tuple[Any, ...]) -> dict[str, Any]:
    # A key is written again only when its field changed: the engine shares what did not.
    return {
        key: write(new)
        for (key, _, write), new, old in zip(VIEW_FIELDS, after, before, strict=True)
        if new is not old and new != old
    }


def state_text(room: Room, seat: int, start: int, lang: str, sent: Sent | None = None) -> tuple[str, int]:
    """The ``state`` message for ``seat`` with the events from ``start`` on, as JSON text, and how many
    events it carries.

    With ``sent`` (a connection that takes changes), a state after the first whole one, unless
    ``start`` is 0, carries only what changed since the last one; ``sent`` is then updated."""
    view = room.game.view(seat)
    fields = _FIELDS(view)
    room_data = room.room_json_kept(seat)
    texts = room.event_texts(view.events[start:], lang)
    if sent is not None and start != 0 and sent.fields is not None and sent.room is not None:
        before = sent.room
        message = {
            "type": "state",
            "changes": True,
            "room": (
                {}
                if before is room_data
                else {key: value for key, value in room_data.items() if before.get(key, _MISSING) != value}
            ),
            "view": _view_changes(sent.fields, fields),
            "events_start": start,
        }
    else:
        message = {"type": "state", "room": room_data, "view": _whole_view(fields), "events_start": start}
    if sent is not None:
        sent.fields, sent.room = fields, room_data
    head = _compact(message)
    return f'{head[:-1]},"events":[{",".join(texts)}]}}', len(texts)
