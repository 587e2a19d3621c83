"""A client of the cribbage server's protocol (``docs/server.md``): links, joining a room by invitation,
and one WebSocket connection holding one seat.

`parse_link` reads a link: ``http://HOST:PORT/#join=CODE`` (an invitation) or ``http://HOST:PORT/#key=KEY``
(a seat already held, to rejoin it). `join` takes a seat with an invitation (``POST /api/join``, with
the standard library's ``urllib``). `SeatClient` holds a seat over ``/ws`` (the ``websockets`` package's
synchronous client): it says hello with the seat key, keeps the seat's event log from the ``state``
messages (asking for a full ``sync`` when a message does not follow on from the log it has), and rebuilds
the seat's `SeatView` from each one with `cribcore.server.wire.view_from_json`, which validates every
field. The terminal client (``cribbage join``) and test players both act on those views.

Every failure is a `NetError` (a `ValueError`) with a one-line message: a link that is not one
(`LinkError`), a server that cannot be reached (`Unreachable`), a refusal (`Refused`, with the protocol's
error code) and a connection that ended (`Dropped`). Text from the server is folded to one printable
line before it goes into a message.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import time
import unicodedata
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from .actions import Action
from .events import Event
from .i18n import current_language
from .nesting import DataTooLarge, parse_json
from .server.messages import CLOSE_CODES, HTTP_STATUS, MESSAGE_BURST, MESSAGE_COSTS, MESSAGE_RATE
from .server.wire import SeatLog, WireError
from .views import SeatView

__all__ = [
    "HTTP_CODES",
    "PERMANENT_CLOSES",
    "Dropped",
    "Joined",
    "LinkError",
    "NetError",
    "Refusal",
    "Refused",
    "SeatClient",
    "State",
    "Unreachable",
    "join",
    "parse_link",
    "post_json",
    "printable",
]

TIMEOUT = 10.0
"""Seconds to wait for the server to answer a request or open a connection."""

SEND_RATE = MESSAGE_RATE * 0.9
SEND_BURST = MESSAGE_BURST * 0.8
"""The client's own pace, below the server's allowance: a scripted player (answers piped in, a test)
waits a moment rather than have its moves refused as a flood."""

MAX_BODY = 1 << 20
"""The most of an HTTP answer that is read."""

HTTP_CODES = {status: code for code, status in HTTP_STATUS.items() if code != "illegal"}
"""The protocol's error code for each HTTP status the server answers with."""

KEEPALIVE = 25.0
"""Seconds without a message sent after which `SeatClient.receive` sends a ping: the server closes a
connection that sends nothing for minutes (the board pings as often)."""

PERMANENT_CLOSES = {close: code for code, close in CLOSE_CODES.items()}
"""Close codes after which connecting again with the same key cannot help (the seat was opened
elsewhere, or the key, the room or the hello is no good)."""

_SECRET = re.compile(r"[A-Za-z0-9_.\-~]{1,200}")
_ONE_LINE = 300


class NetError(ValueError):
    """Anything that went wrong talking to a server; the message is one line."""


class LinkError(NetError):
    """Text that is not a link to a seat or an invitation."""


class Unreachable(NetError):
    """The server could not be reached (refused, unknown host, timed out) or did not speak the protocol."""


class Refused(NetError):
    """The server refused the request: ``code`` is the protocol's error code (``no-room``, ``full``,
    ``expired``, ``bad-key``, ``malformed``, …), ``status`` the HTTP status when there was one."""

    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


class Dropped(NetError):
    """The connection ended. ``code`` is the close code (``None`` when the connection was lost without
    one); ``permanent`` says whether connecting again with the same key cannot help."""

    def __init__(self, message: str, code: int | None = None, reason: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason

    @property
    def permanent(self) -> bool:
        return self.code in PERMANENT_CLOSES


def printable(text: object, limit: int = _ONE_LINE) -> str:
    """``text`` from the other end as one printable line: whitespace folded, control and format
    characters (a terminal's escape sequences) replaced by ``?``, cut to ``limit`` characters."""
    line = " ".join(str(text).split())
    line = "".join("?" if unicodedata.category(ch).startswith("C") else ch for ch in line)
    return line if len(line) <= limit else line[: limit - 1] + "…"


# ----------------------------------------------------------------------------- links


@dataclass(frozen=True, slots=True)
class Link:
    """Where the server is (``base``: scheme, host, port and any path prefix, without a trailing slash)
    and what the link holds: an invitation code or a seat key (exactly one of them)."""

    base: str
    invite: str | None = None
    key: str | None = None

    def url(self, path: str) -> str:
        """The URL of ``path`` (``/api/join``) on this server."""
        return self.base + path

    @property
    def ws_url(self) -> str:
        scheme, rest = self.base.split("://", 1)
        return f"{'wss' if scheme == 'https' else 'ws'}://{rest}/ws"

    def rejoin(self, key: str) -> str:
        """The link that rejoins the seat ``key`` holds."""
        return f"{self.base}/#key={key}"


def parse_link(text: str) -> Link:
    """Read ``http(s)://HOST[:PORT][/PATH]/#join=CODE`` or ``…/#key=KEY``; raise `LinkError` otherwise.

    The base is normalized (lower-case host, the port always written) so that the same server written
    two ways is one server.
    """
    shown = printable(text, 120)
    expected = "expected http://HOST:PORT/#join=CODE (an invitation) or http://HOST:PORT/#key=KEY (your seat)"
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError as exc:
        raise LinkError(f"not a server link: {shown!r} ({printable(exc)}); {expected}") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        raise LinkError(f"not a server link: {shown!r}; {expected}")
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    port = port if port is not None else (443 if scheme == "https" else 80)
    base = f"{scheme}://{host}:{port}{parts.path.rstrip('/')}"
    fields = parse_qs(parts.fragment, keep_blank_values=True)
    invites = fields.pop("join", [])
    keys = fields.pop("key", [])
    if len(invites) + len(keys) != 1:
        what = "both an invitation and a key" if invites and keys else "no invitation (#join=CODE)"
        raise LinkError(f"the link {shown!r} has {what}; {expected}")
    secret = (invites or keys)[0]
    if not _SECRET.fullmatch(secret):
        raise LinkError(f"the {'invitation' if invites else 'key'} in {shown!r} is not one; {expected}")
    return Link(base, invite=secret if invites else None, key=secret if keys else None)


# ----------------------------------------------------------------------------- HTTP


def post_json(url: str, body: Mapping[str, Any], *, timeout: float = TIMEOUT) -> tuple[int, dict[str, Any]]:
    """POST ``body`` as JSON to ``url``; return the status and the JSON object answered.

    Raises `Unreachable` when there is no answer or the answer is not a JSON object. An error status is
    returned, not raised: the caller knows what each means.
    """
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )
    where = _server_of(url)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            status, raw = answer.status, answer.read(MAX_BODY)
    except urllib.error.HTTPError as exc:
        status, raw = exc.code, exc.read(MAX_BODY)
        exc.close()
    except urllib.error.URLError as exc:
        raise Unreachable(f"cannot reach the server at {where}: {_reason(exc.reason)}") from None
    except (OSError, ValueError) as exc:  # a timeout while reading, a reset connection, a bad URL
        raise Unreachable(f"cannot reach the server at {where}: {_reason(exc)}") from None
    try:
        data = parse_json(raw)
    except ValueError:  # not JSON, or nested or numbered past what any answer of a server holds
        data = None
    if not isinstance(data, dict):
        raise Unreachable(f"{where} did not answer as a cribbage server does (HTTP {status})")
    return status, data


def _server_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _reason(reason: object) -> str:
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused (is 'cribbage serve' running there?)"
    if isinstance(reason, TimeoutError | socket.timeout):
        return "no answer in time"
    if isinstance(reason, socket.gaierror):
        return "unknown host"
    if isinstance(reason, OSError) and reason.strerror:
        return printable(reason.strerror.lower())
    return printable(reason) or type(reason).__name__


def _refusal(status: int, data: Mapping[str, Any]) -> Refused:
    """The `Refused` an HTTP error answer means."""
    code = HTTP_CODES.get(status, "error")
    message = printable(data.get("error") or f"HTTP {status}")
    return Refused(code, message, status)


@dataclass(frozen=True, slots=True)
class Joined:
    """A seat taken with an invitation: the room, the seat number, its key (secret) and the profile."""

    room: str
    seat: int
    key: str
    profile: str


def join(link: Link, name: str, *, timeout: float = TIMEOUT) -> Joined:
    """Take the next free seat of ``link``'s invitation under ``name``. Raises `Refused` (``no-room``
    for no such invitation, ``full``, ``expired``, ``malformed`` for a name the server refuses) or
    `Unreachable`."""
    if link.invite is None:
        raise LinkError("this link holds no invitation to join with")
    status, data = post_json(link.url("/api/join"), {"invite": link.invite, "name": name}, timeout=timeout)
    if status != 200:
        raise _refusal(status, data)
    room, seat, key, profile = (data.get(k) for k in ("room", "seat", "key", "profile"))
    if not (
        isinstance(room, str) and isinstance(seat, int) and isinstance(key, str) and isinstance(profile, str)
    ):
        raise Unreachable(f"{_server_of(link.base)} answered the join without a room, seat and key")
    return Joined(room, seat, key, profile)


# ----------------------------------------------------------------------------- the WebSocket


@dataclass(frozen=True, slots=True)
class State:
    """One ``state`` message, read: the room (as it stands, with the changes a state of changes sent
    applied), the seat's view (with the whole event log of the game so far), and the events this
    message added to the log (all of them after a full state)."""

    room: Mapping[str, Any]
    view: SeatView
    added: tuple[Event, ...]
    full: bool

    @property
    def game(self) -> int:
        number = self.room.get("game")
        return number if isinstance(number, int) else 0

    @property
    def waiting_for(self) -> tuple[str, ...]:
        return tuple(printable(name, 40) for name in self.room.get("waiting_for") or ())

    @property
    def between_hands(self) -> Mapping[str, Any] | None:
        value = self.room.get("between_hands")
        return value if isinstance(value, Mapping) else None

    @property
    def ready(self) -> tuple[int, ...]:
        """The seats that are ready for the next hand (between hands)."""
        between = self.between_hands
        return tuple(between.get("ready") or ()) if between is not None else ()

    @property
    def new_game(self) -> Mapping[str, Any] | None:
        value = self.room.get("new_game")
        return value if isinstance(value, Mapping) else None

    @property
    def agreed(self) -> tuple[int, ...]:
        """The seats that agreed to the proposed new game."""
        proposal = self.new_game
        return tuple(proposal.get("agreed") or ()) if proposal is not None else ()

    @property
    def invite(self) -> str | None:
        value = self.room.get("invite")
        return value if isinstance(value, str) and _SECRET.fullmatch(value) else None


@dataclass(frozen=True, slots=True)
class HintAnswer:
    """A ``hint`` message: the action the server's expert would take for this seat (its text form)
    and why, in the connection's language."""

    action: str
    reason: str


@dataclass(frozen=True, slots=True)
class Refusal:
    """An ``error`` message: the server refused what this connection sent, and nothing changed."""

    code: str
    message: str


@dataclass
class SeatClient:
    """One seat held over the server's WebSocket.

    `connect` opens the connection, says hello with ``key`` and returns the first (full) `State`.
    `receive` returns the next `State` or `Refusal` (``None`` when ``timeout`` passes first); it keeps the
    seat's event log of the current game in `log`, and when a message does not follow on from it
    (another game, a message missed) it asks for a full state instead. `reconnect` connects again, a few
    times, after a connection was lost. Not for use from several threads at once.
    """

    link: Link
    key: str = field(repr=False)
    open_timeout: float = TIMEOUT
    log: SeatLog = field(default_factory=SeatLog, repr=False)
    state: State | None = field(default=None, repr=False)
    changes: bool = True
    """Whether the hello asks for states of changes only; turned off for a server from before them,
    which refuses the hello's ``changes`` field (it then sends whole states, which the log takes too)."""
    _ws: ClientConnection | None = None
    _tokens: float = field(default=SEND_BURST, repr=False)
    _stamp: float = field(default_factory=time.monotonic, repr=False)
    _sent_at: float = field(default_factory=time.monotonic, repr=False)
    _held_back: list[State | Refusal] = field(default_factory=list, repr=False)
    """What arrived while `hint` waited for its answer, for the next `receive`."""

    # ------------------------------------------------------------------ connecting

    def connect(self) -> State:
        """Open the connection and say hello; return the seat's full state. Raises `Refused` (the key,
        the room or the hello refused: ``bad-key``, ``no-room``, ``expired``), `Unreachable` or `Dropped`."""
        self.close()
        self._held_back.clear()  # (of the connection before: the full state says it all)
        where = _server_of(self.link.base)
        try:
            # Entered as a context manager (websockets' way for a connection held open), left in `close`.
            ws = contextlib.ExitStack().enter_context(
                connect(
                    self.link.ws_url,
                    open_timeout=self.open_timeout,
                    close_timeout=2,
                    max_queue=None,  # never stop reading (and answering pings) while a person thinks
                    max_size=4 << 20,
                )
            )
        except InvalidURI as exc:
            raise LinkError(f"cannot connect to {where}: {printable(exc)}") from None
        except InvalidHandshake as exc:
            raise Unreachable(f"{where} did not open a game connection ({printable(exc)})") from None
        except (OSError, TimeoutError) as exc:
            raise Unreachable(f"cannot reach the server at {where}: {_reason(exc)}") from None
        self._ws = ws
        # States after the first carry only what changed (the log applies them).
        hello: dict[str, Any] = {"type": "hello", "key": self.key}
        if self.changes:
            hello["changes"] = True
        self.send(hello)
        deadline = time.monotonic() + self.open_timeout
        while True:
            left = deadline - time.monotonic()
            try:
                got = self.receive(timeout=max(left, 0.01))
            except Dropped as exc:
                raise Unreachable(f"{where} closed the connection at hello ({exc})") from None
            if isinstance(got, State):
                if got.full:
                    return got
                continue
            if isinstance(got, Refusal):
                self.close()
                if self.changes and got.code == "malformed" and got.message.startswith("changes:"):
                    # A server from before states of changes refuses the field: hello again without it.
                    self.changes = False
                    return self.connect()
                raise Refused(got.code, got.message)
            if time.monotonic() >= deadline:
                self.close()
                raise Unreachable(f"{where} did not answer the hello in time")

    def reconnect(self, attempts: int = 5, delays: Sequence[float] = (0.3, 1, 2, 4, 8)) -> State:
        """Connect again after a connection was lost: up to ``attempts`` times, waiting ``delays``
        seconds before each. Returns the full state; raises the last failure. A refusal (`Refused`)
        ends the attempts at once: connecting again cannot change it."""
        failure: NetError = Unreachable("no attempt was made to connect")
        for attempt in range(attempts):
            time.sleep(delays[min(attempt, len(delays) - 1)])
            try:
                return self.connect()
            except Refused:
                raise
            except (Unreachable, Dropped) as exc:
                failure = exc
        raise failure

    def close(self) -> None:
        """Close the connection (if open); the seat stays the key holder's."""
        ws, self._ws = self._ws, None
        if ws is not None:
            with contextlib.suppress(OSError, ConnectionClosed, RuntimeError):
                ws.close()

    @property
    def connected(self) -> bool:
        return self._ws is not None

    # ------------------------------------------------------------------ sending

    def send(self, message: Mapping[str, Any]) -> None:
        """Send one message; raises `Dropped` when the connection is gone."""
        ws = self._ws
        if ws is None:
            raise Dropped("not connected")
        if message.get("type") != "hello":  # a hello is not counted
            self._pace(MESSAGE_COSTS.get(str(message.get("type")), 1))
        try:
            ws.send(json.dumps(message))
        except ConnectionClosed as exc:
            raise self._dropped(exc) from None
        except OSError as exc:
            self._ws = None
            raise Dropped(f"the connection was lost ({_reason(exc)})") from None
        self._sent_at = time.monotonic()

    def _pace(self, cost: int) -> None:
        """Wait, if need be, until ``cost`` fits the client's own allowance; then take it."""
        now = time.monotonic()
        self._tokens = min(SEND_BURST, self._tokens + (now - self._stamp) * SEND_RATE)
        self._stamp = now
        if self._tokens < cost:
            time.sleep((cost - self._tokens) / SEND_RATE)
            self._tokens = float(cost)
            self._stamp = time.monotonic()
        self._tokens -= cost

    def act(self, action: Action | str) -> None:
        """Send an action in its text form (``play 7S``)."""
        self.send({"type": "action", "action": str(action)})

    def ready(self) -> None:
        """Ready for the next hand."""
        self.send({"type": "next"})

    def propose_new_game(self) -> None:
        """Propose (or agree to) a new game; after a game is over it starts at once."""
        # Naming the game it replaces keeps a late request from proposing to replace the next one.
        self.send({"type": "new_game", "game": self.state.game if self.state is not None else None})

    def decline(self) -> None:
        """Decline or withdraw a proposed new game."""
        self.send({"type": "decline"})

    def sync(self) -> None:
        """Ask for a full state."""
        self.send({"type": "sync"})

    # ------------------------------------------------------------------ receiving

    def receive(self, timeout: float | None = None) -> State | Refusal | None:
        """The next `State` or `Refusal`, or ``None`` when ``timeout`` seconds pass first (``None``
        waits for ever). Raises `Dropped` when the connection ends, `NetError` for a message that is
        not the protocol's."""
        if self._held_back:
            return self._held_back.pop(0)
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            got = self._next(deadline)
            if got is None:
                return None
            if not isinstance(got, HintAnswer):  # (a hint answered too late for `hint`)
                return got

    def hint(self, timeout: float = TIMEOUT) -> HintAnswer:
        """Ask the server what its expert would do for this seat now, as the board asks: the answer
        follows the server's own rules (its house-rule profile, the true count). Raises `NetError`
        with the server's reason when it refuses (a friend room, not this seat's turn), or when no
        answer comes within ``timeout`` seconds; `Dropped` when the connection ends. What else
        arrives meanwhile is kept for `receive`."""
        asked: dict[str, Any] = {"type": "hint", "lang": current_language()}
        self.send(asked)
        deadline = time.monotonic() + timeout
        while True:
            got = self._next(deadline)
            if got is None:
                raise NetError("the server did not answer the hint in time")
            if isinstance(got, HintAnswer):
                return got
            if isinstance(got, Refusal):
                if "lang" in asked and got.code == "malformed" and got.message.startswith("lang:"):
                    # A server from before a hint's language: asked again in the connection's.
                    del asked["lang"]
                    self.send(asked)
                    continue
                raise NetError(got.message)
            self._held_back.append(got)

    def _next(self, deadline: float | None) -> State | Refusal | HintAnswer | None:
        """The next message this client acts on, ``None`` once ``deadline`` passes (never, without)."""
        while True:
            ws = self._ws
            if ws is None:
                raise Dropped("not connected")
            if time.monotonic() - self._sent_at >= KEEPALIVE:
                self.send({"type": "ping"})  # answered with a pong, which is read past below
            left = None if deadline is None else max(deadline - time.monotonic(), 0.0)
            if deadline is None:
                left = KEEPALIVE  # waits in turns, pinging between them
            try:
                raw = ws.recv(timeout=left)
            except TimeoutError:
                if deadline is None:
                    continue
                return None
            except ConnectionClosed as exc:
                raise self._dropped(exc) from None
            except OSError as exc:
                self._ws = None
                raise Dropped(f"the connection was lost ({_reason(exc)})") from None
            got = self._read(raw)
            if got is not None:
                return got
            if deadline is not None and time.monotonic() >= deadline:
                return None

    def _dropped(self, exc: ConnectionClosed) -> Dropped:
        self._ws = None
        frame = exc.rcvd
        if frame is None:
            return Dropped("the connection was lost")
        reason = printable(frame.reason)
        return Dropped(reason or f"the server closed the connection (code {frame.code})", frame.code, reason)

    def _read(self, raw: str | bytes) -> State | Refusal | HintAnswer | None:
        try:
            message = parse_json(raw)
        except DataTooLarge as exc:
            raise NetError(
                f"the server sent a message that is not JSON as cribbage writes it ({exc})"
            ) from None
        except ValueError:
            raise NetError("the server sent a message that is not JSON") from None
        if not isinstance(message, dict):
            raise NetError("the server sent a message that is not a JSON object")
        kind = message.get("type")
        if kind == "error":
            return Refusal(printable(message.get("code"), 40), printable(message.get("message")))
        if kind == "hint":
            return HintAnswer(printable(message.get("action"), 80), printable(message.get("reason")))
        if kind != "state":
            return None  # pong, or a message type this client does not know yet
        return self._state(message)

    def _state(self, message: Mapping[str, Any]) -> State | None:
        before = len(self.log.events)
        try:
            view = self.log.accept(message)
        except (WireError, TypeError) as exc:
            raise NetError(f"the server sent an unreadable state ({printable(exc)})") from None
        if view is None:
            self.sync()  # this message does not follow on from the log held: ask for everything
            return None
        start = message["events_start"]
        added = tuple(self.log.events[start:] if start == 0 else self.log.events[before:])
        self.state = State(self.log.room or {}, view, added, full=start == 0)
        return self.state
