"""The shapes of everything a client may send the server, validated before anything acts on it.

HTTP bodies (`CreateRoom`, `JoinRoom`) and WebSocket messages (`ClientMessage`, one model per ``type``)
are strict pydantic models: an unknown field, a wrong type or a name that is not plain text is refused
with one line naming the field (`problem`). See ``docs/server.md``.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..players.registry import DEFAULT_LEVEL
from ..validation import first_problem

__all__ = [
    "CLOSE_CODES",
    "HTTP_STATUS",
    "MAX_NAME",
    "MESSAGE_BURST",
    "MESSAGE_COSTS",
    "MESSAGE_RATE",
    "ActionMessage",
    "ClientMessage",
    "CreateRoom",
    "Hello",
    "HintMessage",
    "JoinRoom",
    "Lang",
    "LangMessage",
    "Mode",
    "NewGameMessage",
    "ReopenMessage",
    "SimpleMessage",
    "clean_name",
    "parse_client_message",
    "problem",
]

MAX_NAME = 24
"""The longest player name, in characters."""

MESSAGE_RATE = 20.0
"""Messages a second one connection may send (by default), in bursts of up to `MESSAGE_BURST`."""

MESSAGE_BURST = 40

MESSAGE_COSTS = {"sync": 8, "hint": 4, "lang": 8, "review": 20}
"""What a message takes from its connection's allowance, in ordinary messages: a full state is many
times the work of a ping. Every other frame, even one refused unread, costs one."""

MAX_MARKS = 3
"""The most combining marks one character of a name may carry (stacked marks draw over other text)."""

HTTP_STATUS = {
    "malformed": 400,
    "illegal": 400,
    # Before the codes sharing their statuses: a client reading a status back takes the later code.
    "cross-site": 403,
    "conflict": 409,
    "bad-key": 403,
    "no-room": 404,
    "full": 409,
    "expired": 410,
    "too-large": 413,
    "rate": 429,
    "failed": 500,
    "reconnecting": 503,
}
"""The HTTP status the server answers each error code with (``docs/server.md``)."""

CLOSE_CODES = {"malformed": 4400, "bad-key": 4403, "no-room": 4404, "replaced": 4409, "expired": 4410}
"""The WebSocket close code for each error that ends a connection for good: connecting again with the
same key cannot help. A flood of messages closes with 1008, a client that stops reading with 1013."""

Mode = Literal["computer", "friend", "same-device"]
Lang = Literal["en", "es"]
"""The languages a seat may be spoken to in (its events' item names, reasons and spoken counts)."""
Level = Literal["easy", "medium", "hard", "expert"]

_STRICT = ConfigDict(extra="forbid", strict=True, frozen=True)


def clean_name(text: str) -> str:
    """``text`` trimmed, if it is 1 to `MAX_NAME` printable characters; raises `ValueError` otherwise.

    Names are shown as text (never markup) by every client; refusing control and formatting characters
    keeps them from rewriting a terminal or hiding in a browser.
    """
    name = " ".join(text.split())
    if not name:
        raise ValueError("a name must not be empty")
    if len(name) > MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ValueError("a name must be printable text (no control characters)")
    marks = 0
    for ch in name:
        marks = marks + 1 if unicodedata.category(ch).startswith("M") else 0
        if marks > MAX_MARKS:
            raise ValueError(f"a name has at most {MAX_MARKS} accents on one letter")
    folded = unicodedata.normalize("NFKC", name).casefold()
    if folded.startswith("computer"):
        raise ValueError("a name must not look like a computer seat's")
    if _EMPTY_SEAT.fullmatch(folded):
        raise ValueError("a name must not look like an empty seat's")
    return name


_EMPTY_SEAT = re.compile(r"(seat|puesto)\s*\d+")
"""What a board calls a seat nobody has taken ("Seat 2", in Spanish "Puesto 2"), folded: a player so
named would pass for an empty seat."""


Name = Annotated[str, AfterValidator(clean_name)]


class CreateRoom(BaseModel):
    """``POST /api/rooms``."""

    model_config = _STRICT
    mode: Mode
    profile: str = Field("standard", min_length=1, max_length=64)
    names: list[Name] = Field(min_length=1, max_length=4)
    level: Level = DEFAULT_LEVEL  # type: ignore[assignment]
    seed: int | None = Field(None, ge=0, lt=2**32)


class JoinRoom(BaseModel):
    """``POST /api/join``."""

    model_config = _STRICT
    invite: str = Field(min_length=1, max_length=200)
    name: Name


class Hello(BaseModel):
    """The first message on a WebSocket: which seat this connection holds."""

    model_config = _STRICT
    type: Literal["hello"]
    key: str = Field(min_length=1, max_length=200)
    lang: Lang = "en"
    changes: bool = False
    """Whether the states after the first may carry only what changed (``docs/server.md``)."""


class LangMessage(BaseModel):
    """The language this connection's seat is spoken to in from now on; answered with a full state."""

    model_config = _STRICT
    type: Literal["lang"]
    lang: Lang


class ActionMessage(BaseModel):
    """An action in its text form (``play 7S``)."""

    model_config = _STRICT
    type: Literal["action"]
    action: str = Field(min_length=1, max_length=200)


class NewGameMessage(BaseModel):
    """Propose or agree to a new game; ``game``, when given, is the room's game it would replace."""

    model_config = _STRICT
    type: Literal["new_game"]
    game: int | None = None


class ReopenMessage(BaseModel):
    """Reopen an absent friend's seat (``docs/server.md``): its key is revoked, a new invitation made."""

    model_config = _STRICT
    type: Literal["reopen"]
    seat: int = Field(ge=0, le=3)


class SimpleMessage(BaseModel):
    """A message that is only its type."""

    model_config = _STRICT
    type: Literal["next", "decline", "sync", "ping", "review"]


class HintMessage(BaseModel):
    """What the expert would do for this seat now; its reason in ``lang`` (by default the connection's)."""

    model_config = _STRICT
    type: Literal["hint"]
    lang: Lang | None = None


AnyMessage = (
    Hello | ActionMessage | NewGameMessage | ReopenMessage | LangMessage | HintMessage | SimpleMessage
)

ClientMessage = Annotated[AnyMessage, Field(discriminator="type")]

MESSAGE_TYPES = (
    "hello",
    "action",
    "next",
    "new_game",
    "decline",
    "sync",
    "ping",
    "hint",
    "review",
    "reopen",
    "lang",
)

_CLIENT_MESSAGE: TypeAdapter[AnyMessage] = TypeAdapter(ClientMessage)


def problem(exc: ValidationError) -> str:
    """A validation error as one line: ``field: reason``."""
    key, reason = first_problem(exc, whole="message")
    return f"{key}: {reason}"


def parse_client_message(text: str) -> AnyMessage:
    """One WebSocket message; raises `ValueError` with one line when it is not JSON or not a message."""
    try:
        return _CLIENT_MESSAGE.validate_json(text)
    except ValidationError as exc:
        if exc.errors()[0]["type"] == "json_invalid":
            raise ValueError("the message is not JSON") from None
        if exc.errors()[0]["type"] == "union_tag_invalid":
            raise ValueError(f"type: not a message type ({', '.join(MESSAGE_TYPES)})") from None
        if exc.errors()[0]["type"] == "union_tag_not_found":
            raise ValueError("type: every message needs a type") from None
        first = exc.errors()[0]
        # The first part of the location is the message type (the union's tag); the field follows it.
        key = ".".join(str(part) for part in first["loc"][1:]) or "message"
        raise ValueError(f"{key}: {first['msg']}") from None
