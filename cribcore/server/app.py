"""The ASGI application: the browser board, the HTTP API and the WebSocket play channel.

`create_app` builds a Starlette application around a `RoomStore`. The server is authoritative: clients
send actions, a `Room` checks them with the engine, and after every change each connected seat is sent
its own view only (the events it has not seen yet). Messages and bodies are validated by
`cribcore.server.messages`, bounded in size, and rate-limited per connection and per address. The
protocol is ``docs/server.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import anyio
from pydantic import BaseModel, ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..i18n import gettext
from ..players.registry import DEFAULT_LEVEL, LEVELS
from ..players.tables import prepare as prepare_tables
from ..profiles import Profile, builtin_names, load_profile
from ..rulebook import Rulebook
from ..speech_messages import say
from .catalog import LANGS, board_messages
from .eager import start_now
from .jsontext import compact
from .messages import (
    CLOSE_CODES,
    HTTP_STATUS,
    MESSAGE_BURST,
    MESSAGE_COSTS,
    MESSAGE_RATE,
    ActionMessage,
    CreateRoom,
    Hello,
    HintMessage,
    JoinRoom,
    LangMessage,
    NewGameMessage,
    ReopenMessage,
    SimpleMessage,
    parse_client_message,
    problem,
)
from .practice import practice_discards
from .rooms import EXPIRY_SECONDS, Room, RoomError, split_secret
from .states import Sent, state_text
from .store import Store
from .stores import open_store

__all__ = ["Limits", "create_app"]

STATIC = Path(str(resources.files("cribcore.server") / "static"))
_log = logging.getLogger("cribcore.server")


_SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


_Body = TypeVar("_Body", bound=BaseModel)
_T = TypeVar("_T")

REVIEWS_KEPT = 256
"""How many reviews a server process keeps to answer again."""

CONFLICT_RETRIES = 5
"""How often a change over a shared store is tried when other processes keep changing the room."""

GONE: tuple[type[BaseException], ...] = (
    WebSocketDisconnect,
    RuntimeError,
    OSError,
    anyio.ClosedResourceError,
    anyio.BrokenResourceError,
)
"""What writing to a client that has gone away raises: Starlette's disconnect, a socket closed under
the server (uvicorn's ``ClientDisconnected`` is an `OSError`), a stream that anyio closed (servers and
the test transport built on anyio's memory streams)."""

INLINE_LEVELS = frozenset({"easy", "medium", "hard"})
"""The computer levels whose seats decide on the event loop (`_Server.run_computers`). Measured on the
2-core development machine over whole games (standard rules): a decision's median and 99th percentile
were easy 0.03 and 1.9 ms, medium 0.06 and 4.2 ms, hard 0.5 and 4.9 ms, the expert 51 and 316 ms."""


@dataclass(frozen=True)
class Limits:
    """What one client may send. The defaults suit a public server; tests and load runs raise them."""

    message_bytes: int = 2048
    body_bytes: int = 4096
    messages_per_second: float = MESSAGE_RATE
    burst: int = MESSAGE_BURST
    rate_strikes: int = 20
    """Refused messages in a row (over the rate) before the connection is closed."""
    rooms_per_minute: int = 30
    """Rooms one address may create in a minute."""
    reviews_per_minute: int = 6
    """Reviews one address may have worked out in a minute (one asked for again is answered from
    those already worked out, and not counted): each is a whole game judged by the coach."""
    state_reads_per_minute: int = 600
    """Reads of a room's state over HTTP (``GET /api/rooms/ROOM/state``) one address may make in a
    minute: each one marks its seat used in the store, so an unlimited loop would be a write loop."""
    hello_seconds: float = 10.0
    idle_seconds: float = 300.0
    """A connection that sends nothing for this long is closed (1001), its seat freed: a client that
    is still there connects again (the board pings every 25 seconds, `cribbage join` when idle too)."""
    outbox: int = 256
    """Messages waiting to be written to one connection before it counts as stalled and is closed
    (the client reconnects and is sent everything again)."""
    friend_seeds: bool = False
    """Whether a friend room's creator may choose its shuffle seed. Off on a real server: with the seed,
    the creator could work out every hand in advance. Tests turn it on to play known deals."""


class _Outbox:
    """The messages waiting to be written to one connection, for its one writer task: a first-in
    first-out queue like `asyncio.Queue`, without its bookkeeping for many readers and a bound (a
    state goes through one after every move)."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[tuple[str | None, int | None]] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def qsize(self) -> int:
        return len(self._items)

    def idle(self) -> bool:
        """Whether the writer is waiting for a message with nothing queued or in hand (so a message
        written now, past the queue, still goes out in order)."""
        return self._waiter is not None and not self._items

    def put_nowait(self, item: tuple[str | None, int | None]) -> None:
        self._items.append(item)
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> tuple[str | None, int | None]:
        while not self._items:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                if self._waiter is waiter:
                    self._waiter = None
        return self._items.popleft()


@dataclass(eq=False)
class _Connection:
    """One open WebSocket holding one seat, and what it has been sent.

    Messages go through ``outbox`` to one writer task, so a room never waits for a slow client while
    it holds the room's lock; an item is a text to send and then, when given, a close code.
    """

    ws: WebSocket
    room_id: str
    seat: int
    key: str = field(default="", repr=False)
    """The seat's key, as its hello gave it (it opens the room's invitation here: `Room.remember_key`)."""
    game: int = 0
    events: int = 0
    tokens: float = 0.0
    stamp: float = field(default_factory=time.monotonic)
    strikes: int = 0
    outbox: _Outbox = field(default_factory=lambda: _Outbox())
    writer: asyncio.Task[None] | None = None
    pending: asyncio.Task[None] | None = None
    """A message written straight to the socket (`_Server.deliver`) that had to wait: the writer
    waits for it before writing the next."""
    closing: bool = False
    lang: str = "en"
    """The language the seat's events are worded in (its ``hello``, then its ``lang`` messages)."""
    sent: Sent | None = None
    """What the connection was last sent, when its ``hello`` asked for states of changes only."""
    room_lock: asyncio.Lock | None = None
    """The room's lock, held here so that it lives as long as the connection (the room's locks are
    kept only while someone holds them: without this one, each message would make it afresh)."""

    def allow(self, limits: Limits, cost: int = 1) -> bool:
        """Take ``cost`` tokens from the connection's bucket (refilled at the message rate)."""
        now = time.monotonic()
        self.tokens = min(limits.burst, self.tokens + (now - self.stamp) * limits.messages_per_second)
        self.stamp = now
        if self.tokens >= cost:
            self.tokens -= cost
            self.strikes = 0
            return True
        self.strikes += 1
        return False


class _Closed(Exception):
    """The connection is finished (closed by us after an error, or by the client)."""


class _Server:
    """The state behind the routes: the store, the open connections, one lock per room."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float],
        limits: Limits,
        profiles: Mapping[str, Profile],
        public_url: str | None = None,
    ) -> None:
        self.public_url = public_url.rstrip("/") if public_url else None
        """The address invitation links start with (``https://cribbage.example.org``), when set."""
        self.store = store
        self.clock = clock
        self.limits = limits
        self.profiles = dict(profiles)
        self.connections: dict[str, dict[int, _Connection]] = {}
        # A room's lock lives while someone holds or waits for it.
        self.locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self.reviews: OrderedDict[tuple[str, int, int, int, str], dict[str, Any]] = OrderedDict()
        """Reviews answered, by room, game, seat, events in the game and language: a finished game's
        review is the same each time it is asked for (the most recent `REVIEWS_KEPT`)."""
        self.tables_ready: set[tuple[str, str]] = set()
        """The (profile fingerprint, level) pairs whose tables are in memory (`have_tables`)."""
        self.table_locks: dict[tuple[str, str], asyncio.Lock] = {}
        """One lock per such pair: the rooms that ask meanwhile wait for the one worker thread."""
        self.reviewing = asyncio.Semaphore(1)
        """One review is worked out at a time: the others wait, and take no more of the processor."""
        self.tasks: set[asyncio.Task[Any]] = set()
        """Every task the server has started and that is not finished: the connections' writers and
        their direct writes, the seats being let go of, the listener. `stop` ends them all before the
        store closes, so that none outlives it (one that did would use the store after its close)."""
        self.leaving: set[asyncio.Task[None]] = set()
        """The seats being let go of (`leave`), which `stop` lets finish rather than cancels."""

    def spawn(self, coro: Coroutine[Any, Any, _T]) -> asyncio.Task[_T]:
        """Run ``coro`` as a task of the server's own (see `tasks`)."""
        return self.adopt(asyncio.ensure_future(coro))

    def adopt(self, task: asyncio.Task[_T]) -> asyncio.Task[_T]:
        """Count ``task`` among the server's own (see `tasks`) until it finishes."""
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def stop(self) -> None:
        """Before the store closes: let the seats being let go of finish (they write to the store and
        tell the other seats), then cancel every other task the server started (writers waiting for
        their next message, say) and wait until each has ended."""
        while self.leaving:
            await asyncio.gather(*self.leaving, return_exceptions=True)
        while self.tasks:
            tasks = list(self.tasks)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def fetch(self, room_id: str, now: float) -> Room:
        """The room from the store, knowing which of its seats are connected: here, and (from a shared
        store) to any other process (a room read back from the database, after a refused write say,
        does not know the connections of this process)."""
        room = await self.store.get(room_id, now)
        room.defer_computers = True  # `run_computers` moves them, the slow ones off the event loop
        seats = self.connections.get(room_id, {})
        here = set(seats)
        room.connected = here | room.connected if self.store.shared else here
        if room.invite_hash is not None:
            # The keys held here open the invitation of a room read back (it is never stored), and
            # seal it for their seats (`Room.remember_key`).
            for seat, conn in seats.items():
                room.remember_key(seat, conn.key)
        return room

    async def commit(self, room_id: str, now: float, change: Callable[[Room], _T]) -> tuple[Room, _T]:
        """Fetch the room, make ``change`` and save it: over a shared store, where another process may
        write the room between the read and the write, a refused write (``conflict``) is tried again
        from a fresh read, where ``change`` is checked again. Returns the room and what ``change`` did."""
        attempts = CONFLICT_RETRIES if self.store.shared else 1
        for attempt in range(attempts):
            remembered = self.store.fresh(room_id)
            room = await self.fetch(room_id, now)
            try:
                result = change(room)
            except RoomError:
                if remembered and attempt < attempts - 1:
                    self.store.stale(room_id)  # refused as remembered: refused only as read afresh
                    continue
                raise
            except Exception:
                self.store.forget(room_id)  # perhaps half changed: read back as saved next time
                raise
            try:
                await self.store.save(room)
            except RoomError as exc:
                if exc.code == "conflict" and attempt < attempts - 1:
                    continue
                raise
            return room, result
        raise AssertionError("unreachable")

    # ------------------------------------------------------------- other processes (shared store)

    async def changed(self, room_id: str) -> None:
        """Another process changed ``room_id``: send its state to the seats connected here."""
        # A seat whose hello is under way (it holds the room's lock, its read of the room perhaps
        # older than this change) is not connected yet, but must be sent this change once it is.
        if room_id not in self.connections and room_id not in self.locks:
            return
        async with self.lock(room_id):
            # The room as announced (the writer sent its row along) needs no read of the database.
            room = self.store.told(room_id)
            if room is not None:
                room.connected |= set(self.connections.get(room_id, {}))
            else:
                try:
                    room = await self.fetch(room_id, self.clock())
                except RoomError:
                    return
                self.replaced_elsewhere(room_id)
            await self.broadcast(room)

    def replaced_elsewhere(self, room_id: str) -> None:
        """Close the connections here whose seats a connection to another process has opened since,
        as a second connection here would (``replaced``)."""
        seats = self.connections.get(room_id, {})
        for seat in self.store.taken(room_id):
            conn = seats.get(seat)
            if conn is not None:
                self.shut(
                    conn, RoomError("replaced", "this seat was opened elsewhere"), CLOSE_CODES["replaced"]
                )

    async def lost(self) -> None:
        """The database went away: tell every seat connected here that the server is reconnecting."""
        problem = RoomError("reconnecting", "the server lost its room database: reconnecting…")
        for seats in list(self.connections.values()):
            for conn in list(seats.values()):
                await self.error(conn, problem)

    async def back(self) -> None:
        """The database is back: send every seat its full state (changes made meanwhile were not
        announced). The store's reconnection holds this process's seats again, except those a
        connection to another process opened meanwhile: those connections here are replaced."""
        for room_id in list(self.connections):
            async with self.lock(room_id):
                for attempt in range(2):  # the first may only find the old connection dead
                    try:
                        room = await self.fetch(room_id, self.clock())
                    except RoomError:
                        if attempt:
                            break
                        continue
                    self.replaced_elsewhere(room_id)
                    for conn in list(self.connections.get(room_id, {}).values()):
                        await self.send_state(conn, room, full=True)
                    break

    async def run_computers(self, room: Room) -> None:
        """Make the computer seats' moves that are due, in the order the room gives them, each decided
        from its seat's view only. A level whose decisions are quick (`INLINE_LEVELS`: at most a few
        milliseconds, most well under one) decides right here, on the event loop, as a hop to a thread
        would cost more than the decision, once its tables are at hand (`have_tables`); the expert (tens
        to hundreds of milliseconds) decides in a worker thread, which holds its own room, whose lock
        the caller has, but not the event loop."""
        while (turn := room.computer_turn()) is not None:
            seat, player, view = turn
            kind = room.seats[seat].kind
            if kind in INLINE_LEVELS:
                await self.have_tables(room.game.rulebook, kind)
                room.computer_move(seat, player.choose(view))
            else:
                room.computer_move(seat, await asyncio.to_thread(player.choose, view))

    async def have_tables(self, book: Rulebook, level: str) -> None:
        """Have in memory every table ``level`` decides with under ``book``'s profile before it decides
        on the event loop. A house rule's own tables are read from the data directory or, the first
        time, built (`cribcore.players.tables.prepare`: the hard level's pegging table under a new
        play rule is about a minute of CPU): in a worker thread, once for every room that asks meanwhile,
        while the event loop serves the other rooms. Only the rooms that need them wait."""
        key = (book.fingerprint, level)
        if key in self.tables_ready:
            return
        lock = self.table_locks.setdefault(key, asyncio.Lock())
        async with lock:
            if key not in self.tables_ready:
                await asyncio.to_thread(prepare_tables, book, (level,))
                self.tables_ready.add(key)

    def lock(self, room_id: str) -> asyncio.Lock:
        lock = self.locks.get(room_id)
        if lock is None:
            lock = self.locks[room_id] = asyncio.Lock()
        return lock

    # ------------------------------------------------------------- sending

    async def send(self, conn: _Connection, data: dict[str, Any]) -> None:
        """Send ``data`` to ``conn`` (see `deliver`)."""
        await self.deliver(conn, compact(data))

    async def deliver(self, conn: _Connection, text: str) -> None:
        """Write the message ``text`` to ``conn`` now when its writer has nothing queued or in hand,
        else queue it (`send_text`). A room's lock is held meanwhile, so the write is a task of its own
        (`eager.start_now`; where Python starts tasks eagerly, a write the socket takes is done before
        this returns): a write that has to wait for a slow client goes on by itself, and the writer
        waits for it before the next message, which is queued."""
        pending = conn.pending
        if pending is not None and pending.done():
            conn.pending = pending = None
        if (
            self.limits.outbox > 0
            and pending is None
            and not conn.closing
            and conn.outbox.idle()
            and conn.ws.application_state is WebSocketState.CONNECTED
        ):
            task = start_now(self._write_now(conn, text))
            if not task.done():
                conn.pending = self.adopt(task)
            return
        self.send_text(conn, text)

    @staticmethod
    async def _write_now(conn: _Connection, text: str) -> None:
        """Write ``text`` to ``conn`` past its queue (see `deliver`)."""
        try:
            await conn.ws.send_text(text)
        except GONE:
            # As in the writer: the client is gone, which its own receive loop notices (nothing
            # more is written to it).
            if conn.writer is not None:
                conn.writer.cancel()

    def send_text(self, conn: _Connection, text: str) -> None:
        """Queue the message ``text`` for ``conn`` (see `send`)."""
        if conn.closing:
            return
        if conn.outbox.qsize() >= self.limits.outbox:
            conn.closing = True
            if conn.writer is not None:
                conn.writer.cancel()
            # Its writer is stuck on a client that does not read: close without waiting for it.
            conn.writer = self.spawn(self._close_now(conn.ws, 1013))
            return
        conn.outbox.put_nowait((text, None))

    def shut(self, conn: _Connection, exc: RoomError, code: int) -> None:
        """Send ``conn`` the error, after what is already queued, then close it with ``code``."""
        if conn.closing:
            return
        conn.closing = True
        message = {"type": "error", "code": exc.code, "message": say(str(exc), conn.lang)}
        conn.outbox.put_nowait((json.dumps(message), code))

    @staticmethod
    async def _close_now(ws: WebSocket, code: int) -> None:
        with contextlib.suppress(*GONE):
            await ws.close(code)

    @staticmethod
    async def write(conn: _Connection) -> None:
        """The connection's writer: its messages in order, until a close or the end of the queue."""
        while True:
            text, code = await conn.outbox.get()
            if conn.pending is not None:
                try:
                    await conn.pending
                except GONE:
                    return
                finally:
                    conn.pending = None
            if conn.ws.application_state is not WebSocketState.CONNECTED:
                return
            # A client that has gone away is noticed (and unregistered) by its own receive loop.
            try:
                if text is not None:
                    await conn.ws.send_text(text)
                if code is not None:
                    await conn.ws.close(code)
                    return
            except GONE:
                return
            if text is None:
                return

    async def send_state(
        self, conn: _Connection, room: Room, *, full: bool = False, source: tuple[Any, ...] | None = None
    ) -> None:
        """Send ``conn`` its seat's state: everything, or only the events it has not been sent.
        ``source`` is the room's `Room.room_json_source` now, when the caller has it."""
        start = 0 if full or conn.game != room.number else conn.events
        text, count = state_text(room, conn.seat, start, conn.lang, conn.sent, source)
        conn.game = room.number
        conn.events = start + count
        await self.deliver(conn, text)

    async def broadcast(self, room: Room) -> None:
        source = room.room_json_source()  # the same for every seat (sending a state changes no room)
        for conn in list(self.connections.get(room.id, {}).values()):
            await self.send_state(conn, room, source=source)

    async def error(self, conn: _Connection | WebSocket, exc: RoomError) -> None:
        lang = conn.lang if isinstance(conn, _Connection) else "en"
        message = {"type": "error", "code": exc.code, "message": say(str(exc), lang)}
        if isinstance(conn, _Connection):
            await self.send(conn, message)
        else:
            with contextlib.suppress(*GONE):
                await conn.send_text(json.dumps(message))

    # ------------------------------------------------------------- HTTP

    async def body(self, request: Request) -> bytes:
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.limits.body_bytes:
            raise RoomError("too-large", f"the request body is over {self.limits.body_bytes} bytes")
        data = b""
        async for chunk in request.stream():
            data += chunk
            if len(data) > self.limits.body_bytes:
                raise RoomError("too-large", f"the request body is over {self.limits.body_bytes} bytes")
        return data

    async def check_creation_rate(self, address: str) -> None:
        if not await self.store.count_use("room", address, self.clock(), self.limits.rooms_per_minute):
            raise RoomError("rate", "too many rooms created from this address: wait a minute")

    async def parsed(self, request: Request, model: type[_Body]) -> _Body:
        """The request's body as ``model``; a body that is not one is refused naming the field.

        Only a JSON body from this server's own pages (or from no page at all) is read: another web
        site's page could otherwise make its visitors' browsers create rooms and join them.
        """
        _check_origin(request.headers.get("origin"), request.headers.get("host", ""))
        kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
        if kind != "application/json":
            raise RoomError("malformed", "Content-Type: the body must be JSON (application/json)")
        body = await self.body(request)
        try:
            return model.model_validate_json(body or b"{}")
        except ValidationError as exc:
            raise RoomError("malformed", problem(exc)) from None

    async def create_room(self, request: Request) -> Response:
        spec = await self.parsed(request, CreateRoom)
        if spec.seed is not None and spec.mode == "friend" and not self.limits.friend_seeds:
            raise RoomError(
                "malformed", "seed: a friend room's cards cannot be chosen (only a test server allows it)"
            )
        profile = self.profiles.get(spec.profile)
        if profile is None:
            raise RoomError(
                "malformed", f"profile: unknown profile {spec.profile!r} (use {', '.join(self.profiles)})"
            )
        await self.check_creation_rate(request.client.host if request.client else "")
        now = self.clock()
        await self.store.sweep(now, EXPIRY_SECONDS)
        room, keys, invite = Room.create(
            mode=spec.mode,
            profile=profile,
            names=spec.names,
            level=spec.level,
            seed=spec.seed,
            now=now,
            defer_computers=True,
        )
        await self.run_computers(room)  # no one else sees the room before it is added
        await self.store.add(room)
        base = self.public_url or _own_address(request)
        return JSONResponse(
            {
                "room": room.id,
                "mode": room.mode,
                "profile": profile.name,
                "keys": [{"seat": seat, "key": key} for seat, key in keys],
                "invite": invite,
                "link": f"{base}/#join={invite}" if invite else None,
            },
            status_code=201,
        )

    async def join_room(self, request: Request) -> Response:
        spec = await self.parsed(request, JoinRoom)
        try:
            room_id = split_secret(spec.invite)
        except RoomError:
            raise RoomError("no-room", "there is no such invitation (it may have expired)") from None
        async with self.lock(room_id):
            now = self.clock()
            try:
                room, (seat, key) = await self.commit(
                    room_id, now, lambda r: r.join(spec.invite, spec.name, now)
                )
            except RoomError as exc:
                if exc.code in ("bad-key", "no-room"):
                    raise RoomError("no-room", "there is no such invitation (it may have expired)") from None
                raise
            await self.broadcast(room)
        return JSONResponse({"room": room.id, "seat": seat, "key": key, "profile": room.profile.name})

    async def allow_state_read(self, address: str, now: float) -> bool:
        """Count one read of state from ``address`` (a room's, or the discard trainer's answer) against
        the per-address limit kept in the store; whether it is allowed. ``now`` is unused: the store
        counts by the server's clock."""
        del now
        return await self.store.count_use("state", address, self.clock(), self.limits.state_reads_per_minute)

    async def room_state(self, request: Request) -> Response:
        address = request.client.host if request.client else ""
        if not await self.allow_state_read(address, self.clock()):
            raise RoomError("rate", "too many reads of a room's state from this address: slow down")
        room_id = request.path_params["room"]
        key = request.headers.get("x-seat-key", "")
        async with self.lock(room_id):
            now = self.clock()
            room, seat = await self.commit(room_id, now, lambda r: _seat_touched(r, key, now))
            text, _ = state_text(room, seat, 0, "en")
            return Response(text, media_type="application/json")

    async def list_profiles(self, request: Request) -> Response:
        del request
        return JSONResponse(
            {
                "profiles": [
                    {
                        "name": name,
                        "description": p.description,
                        # The board shows the one in its language (a profile file's own words otherwise).
                        "descriptions": {
                            lang: gettext(p.description, lang) if p.description else "" for lang in LANGS
                        },
                        "seats": p.rules.seats,
                    }
                    for name, p in self.profiles.items()
                ],
                "levels": list(LEVELS),
                "default_level": DEFAULT_LEVEL,
            }
        )

    async def board_catalog(self, request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in LANGS:
            raise RoomError("no-room", f"no board messages in {lang!r} (there are: {', '.join(LANGS)})")
        return JSONResponse({"lang": lang, "messages": board_messages(lang)})

    # ------------------------------------------------------------- WebSocket

    async def play(self, ws: WebSocket) -> None:
        await ws.accept()
        try:
            conn = await self.hello(ws)
        except _Closed:
            return
        try:
            while True:
                text = await self.receive(conn)
                await self.handle(conn, text)
        except _Closed:
            pass
        finally:
            # Even when this task is cancelled (its client went away), the seat is let go of and the
            # others told, in a task of the server's own that `stop` waits for: the store's calls in
            # between wait on the database, where a cancellation would stop them half done.
            leaving = self.spawn(self.leave(conn))
            self.leaving.add(leaving)
            leaving.add_done_callback(self.leaving.discard)
            await asyncio.shield(leaving)
            # What is queued (an error and its close code, say) is written before the socket ends,
            # unless the writer was ended first (by the server's shutdown, `stop`).
            if conn.writer is not None:
                try:
                    await asyncio.wait({conn.writer}, timeout=self.limits.hello_seconds)
                finally:
                    conn.writer.cancel()

    async def receive(self, conn: _Connection) -> str | None:
        """The next frame's text (``None`` for a binary frame). A connection silent for
        `Limits.idle_seconds` is closed."""
        try:
            message = await asyncio.wait_for(conn.ws.receive(), self.limits.idle_seconds)
        except TimeoutError:
            self.shut(
                conn, RoomError("idle", "nothing was sent for a long time: the connection is closed"), 1001
            )
            raise _Closed from None
        if message["type"] == "websocket.disconnect":
            raise _Closed
        text = message.get("text")
        return None if text is None else str(text)

    async def hello(self, ws: WebSocket) -> _Connection:
        try:
            message = await asyncio.wait_for(ws.receive(), self.limits.hello_seconds)
        except TimeoutError:
            await self.close(ws, RoomError("malformed", "say hello with your seat key first"))
            raise _Closed from None
        if message["type"] == "websocket.disconnect":
            raise _Closed
        text = message.get("text") or ""
        try:
            _check_origin(ws.headers.get("origin"), ws.headers.get("host", ""))
            if len(text.encode()) > self.limits.message_bytes:
                raise RoomError("too-large", f"a message is at most {self.limits.message_bytes} bytes")
            try:
                hello = parse_client_message(text)
            except ValueError as exc:
                raise RoomError("malformed", str(exc)) from None
            if not isinstance(hello, Hello):
                raise RoomError("malformed", "the first message must be hello with your seat key")
            room_id = split_secret(hello.key)
            room_lock = self.lock(room_id)
            async with room_lock:
                now = self.clock()
                # Written first: a refused write (another server changed the room) registers nothing.
                room, seat = await self.commit(room_id, now, lambda r: _seat_touched(r, hello.key, now))
                seats = self.connections.setdefault(room_id, {})
                older = seats.get(seat)
                conn = _Connection(
                    ws,
                    room_id,
                    seat,
                    key=hello.key,
                    tokens=float(self.limits.burst),
                    lang=hello.lang,
                    room_lock=room_lock,
                )
                if hello.changes:
                    conn.sent = Sent()
                conn.writer = self.spawn(self.write(conn))
                seats[seat] = conn
                room.connected.add(seat)
                with contextlib.suppress(RoomError):  # the database is back later: `back` holds it then
                    await self.store.hold(room_id, seat)
                if older is not None:
                    self.shut(
                        older,
                        RoomError("replaced", "this seat was opened elsewhere"),
                        CLOSE_CODES["replaced"],
                    )
                await self.send_state(conn, room, full=True)
                for other in list(seats.values()):
                    if other is not conn:
                        await self.send_state(other, room)
                return conn
        except RoomError as exc:
            # Reconnecting to the database: the client connects again shortly (1013: try again later).
            await self.close(ws, exc, 1013 if exc.code == "reconnecting" else None)
            raise _Closed from None

    async def close(self, ws: WebSocket, exc: RoomError, code: int | None = None) -> None:
        await self.error(ws, exc)
        with contextlib.suppress(*GONE):
            await ws.close(code if code is not None else CLOSE_CODES.get(exc.code, 4400))

    async def leave(self, conn: _Connection) -> None:
        if not conn.closing:
            conn.outbox.put_nowait((None, None))  # the writer ends after what is queued
        async with self.lock(conn.room_id):
            seats = self.connections.get(conn.room_id, {})
            if seats.get(conn.seat) is not conn:
                return  # Replaced by a newer connection for the same seat.
            del seats[conn.seat]
            if not seats:
                self.connections.pop(conn.room_id, None)
            try:
                await self.store.release(conn.room_id, conn.seat)
                room = await self.fetch(conn.room_id, self.clock())
            except RoomError:
                return
            room.connected.discard(conn.seat)
            await self.broadcast(room)

    async def charge(self, conn: _Connection, cost: int) -> bool:
        """Take ``cost`` from the connection's allowance; past it, refuse (and after many refusals in
        a row, close the connection)."""
        if conn.allow(self.limits, cost):
            return True
        if conn.strikes >= self.limits.rate_strikes:
            self.shut(conn, RoomError("rate", "too many messages: the connection is closed"), 1008)
            raise _Closed
        await self.error(conn, RoomError("rate", "too many messages: slow down"))
        return False

    async def handle(self, conn: _Connection, text: str | None) -> None:
        # Every frame counts, before it is read: an empty, binary or oversize one too.
        if not await self.charge(conn, 1):
            return
        if text is None:
            await self.error(conn, RoomError("malformed", "messages are JSON text, not binary"))
            return
        if len(text.encode()) > self.limits.message_bytes:
            await self.error(
                conn, RoomError("too-large", f"a message is at most {self.limits.message_bytes} bytes")
            )
            return
        try:
            message = parse_client_message(text)
        except ValueError as exc:
            await self.error(conn, RoomError("malformed", str(exc)))
            return
        extra = MESSAGE_COSTS.get(message.type, 1) - 1
        if extra and not await self.charge(conn, extra):
            return
        if isinstance(message, Hello):
            await self.error(conn, RoomError("malformed", "this connection already holds a seat"))
            return
        if message.type == "ping":
            await self.send(conn, {"type": "pong"})
            return
        if isinstance(message, LangMessage):
            conn.lang = message.lang
        async with conn.room_lock or self.lock(conn.room_id):
            now = self.clock()
            remembered = self.store.fresh(conn.room_id)
            try:
                room = await self.fetch(conn.room_id, now)
            except RoomError as exc:
                if exc.code == "reconnecting":  # not this room's fault: the seat keeps its connection
                    await self.error(conn, exc)
                    return
                self.shut(conn, exc, CLOSE_CODES.get(exc.code, 4400))
                raise _Closed from None
            if message.type in ("sync", "lang"):
                room.touch(now)
                await self.send_state(conn, room, full=True)
                return
            if isinstance(message, HintMessage):
                lang = message.lang or conn.lang
                try:  # the expert's choice: off the event loop, as a computer seat's move
                    await self.send(conn, await asyncio.to_thread(room.hint, conn.seat, lang))
                except RoomError as exc:
                    await self.error(conn, exc)
                except Exception as exc:  # a rule's plugin failed: this answer only
                    await self.error(conn, _failed(exc))
                return
            if message.type == "review":
                try:
                    await self.send(conn, await self.review(conn, room))
                except RoomError as exc:
                    await self.error(conn, exc)
                except Exception as exc:
                    await self.error(conn, _failed(exc))
                return
            # A shared store's room may be changed by another process between our read and write
            # (the other seat's move, say): the message is then tried again over the fresh room,
            # where it is checked again (a move that is no longer legal is refused as such).
            attempts = CONFLICT_RETRIES if self.store.shared else 1
            for attempt in range(attempts):
                try:
                    if attempt:
                        room = await self.fetch(conn.room_id, now)
                    self.apply(room, conn.seat, message, now)
                    await self.run_computers(room)
                    await self.store.save(room)
                    break
                except RoomError as exc:
                    if exc.code == "conflict" and attempt < attempts - 1:
                        continue
                    if remembered and attempt < attempts - 1:
                        # Refused by the room as remembered: a change made elsewhere a moment ago
                        # (not announced here yet) may allow it. Refused again only as read afresh.
                        remembered = False
                        self.store.stale(conn.room_id)
                        continue
                    await self.error(conn, exc)
                    return
                except Exception as exc:
                    # Anything else (a rule's plugin that raised mid-move) may have left the room in
                    # memory half changed: it is dropped, and read back as last saved when next asked.
                    self.store.forget(conn.room_id)
                    await self.error(conn, _failed(exc))
                    return
            await self.broadcast(room)

    async def review(self, conn: _Connection, room: Room) -> dict[str, Any]:
        """The review message for ``conn``'s seat: from the reviews answered before when the game has
        not changed since, else worked out (off the event loop, one at a time, so other tables go on
        meanwhile) within the per-address limit on reviews."""
        key = (room.id, room.number, conn.seat, len(room.game.events), conn.lang)
        kept = self.reviews.get(key)
        if kept is not None:
            self.reviews.move_to_end(key)
            return kept
        if not room.game.is_over:
            raise RoomError("illegal", "the review comes when the game is over")
        address = conn.ws.client.host if conn.ws.client else ""
        if not await self.store.count_use("review", address, self.clock(), self.limits.reviews_per_minute):
            raise RoomError("rate", "too many reviews asked for from this address: wait a minute")
        async with self.reviewing:
            answer = await asyncio.to_thread(room.review, conn.seat, conn.lang)
        self.reviews[key] = answer
        while len(self.reviews) > REVIEWS_KEPT:
            self.reviews.popitem(last=False)
        return answer

    @staticmethod
    def apply(
        room: Room,
        seat: int,
        message: ActionMessage | NewGameMessage | ReopenMessage | LangMessage | SimpleMessage,
        now: float,
    ) -> None:
        if isinstance(message, ReopenMessage):
            room.reopen(seat, message.seat, now)
        elif isinstance(message, ActionMessage):
            room.act(seat, message.action, now)
        elif isinstance(message, NewGameMessage):
            room.new_game(seat, now, message.game)
        elif message.type == "next":
            room.next_hand(seat, now)
        elif message.type == "decline":
            room.decline(seat, now)


FROM_PROXY = "cribcore.from_proxy"
"""The scope key `_Forwarded` sets: whether the request came through a trusted proxy."""


def _own_address(request: Request) -> str:
    """The server's address for invitation links, when none is configured: the ``Host`` header only
    from a trusted proxy (`_Forwarded`), which is asked for the public address; from anyone else, the
    address the connection was made to (a ``Host`` a client chose never goes into a link)."""
    scheme = request.url.scheme
    if request.scope.get(FROM_PROXY):
        host = request.headers.get("host", "")
        if host:
            return f"{scheme}://{host}"
    server = request.scope.get("server")
    if not server:
        return f"{scheme}://localhost"
    host, port = str(server[0]), server[1]
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{host}" if port in (None, default) else f"{scheme}://{host}:{port}"


class _Forwarded:
    """A proxy's ``X-Forwarded-Proto`` and ``X-Forwarded-For``, and its ``Host``, believed only from
    the ``trusted`` addresses (``FORWARDED_ALLOW_IPS``, as uvicorn reads it: by default 127.0.0.1 and
    ::1, a proxy on the same host), which uvicorn's own handling of them would not tell the application."""

    def __init__(self, app: ASGIApp, trusted: str) -> None:
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        self.app = ProxyHeadersMiddleware(app, trusted_hosts=trusted)  # type: ignore[arg-type]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            scope[FROM_PROXY] = client is not None and client[0] in self.app.trusted_hosts
        await self.app(scope, receive, send)  # type: ignore[arg-type]


def _failed(exc: Exception) -> RoomError:
    """The one error a seat is answered with when its message failed for a reason not its own."""
    _log.error("a request failed: %s", exc, exc_info=exc)  # for whoever runs the server
    reason = " ".join(str(exc).split()) or type(exc).__name__
    return RoomError("failed", f"the server could not do that, and nothing changed: {reason}")


def _seat_touched(room: Room, key: str, now: float) -> int:
    """The seat ``key`` holds in ``room``, which it has just used (and which opens or seals the room's
    invitation for it: `Room.remember_key`)."""
    seat = room.seat_of(key)
    room.touch(now)
    room.remember_key(seat, key)
    return seat


def _check_origin(origin: str | None, host: str) -> None:
    """Refuse a request a page of another site made (its ``Origin`` is not this server); a request
    with no ``Origin`` comes from no web page (a terminal, a script) and is let through."""
    if origin is None:
        return
    if urlsplit(origin).netloc.lower() != host.lower() or not host:
        raise RoomError("cross-site", "this server answers only its own pages (the Origin is another site)")


def _accepted_language(request: Request) -> str:
    """The language an HTTP error is said in: the first of ``Accept-Language`` that the server
    speaks (the board sends the one chosen on it), else English."""
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";", 1)[0].strip().split("-", 1)[0].lower()
        if code in LANGS:
            return code
    return "en"


def _json_errors(
    handler: Callable[[Request], Awaitable[Response]],
) -> Callable[[Request], Awaitable[Response]]:
    """One line for a refused request; no API answer is ever cached (several carry seat keys)."""

    async def wrapped(request: Request) -> Response:
        try:
            response = await handler(request)
        except Exception as exc:
            refused = exc if isinstance(exc, RoomError) else _failed(exc)
            text = say(str(refused), _accepted_language(request))
            response = JSONResponse(
                {"error": text, "code": refused.code}, status_code=HTTP_STATUS.get(refused.code, 400)
            )
        response.headers["cache-control"] = "no-store"
        return response

    return wrapped


def _route_path(scope: Scope) -> str:
    """The request's path below the application's root path (as Starlette's router matches it)."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root + "/") else path


class _SecurityHeaders:
    """Adds a strict content security policy and friends to every HTTP response, and hands the play
    channel's WebSocket straight to ``play``.

    Starlette's layers do nothing for a WebSocket on a known path but pass every frame through a
    few wrappers (its error handlers catch only HTTP and Starlette's own WebSocket exceptions, which
    ``play`` never raises), and a move is one frame in and two out: the shortcut saves them.
    Every other WebSocket path still goes through Starlette (which refuses it).
    """

    def __init__(self, app: ASGIApp, play: Callable[[WebSocket], Awaitable[None]] | None = None) -> None:
        self.app = app
        self.play = play

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            if self.play is not None and scope["type"] == "websocket" and _route_path(scope) == "/ws":
                await self.play(WebSocket(scope, receive, send))
                return
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


def default_profiles(extra: tuple[str | Path, ...] = ()) -> dict[str, Profile]:
    """The built-in profiles by name, then the profile files in ``extra`` (a file's name wins)."""
    profiles = {name: load_profile(name) for name in builtin_names()}
    for path in extra:
        profile = load_profile(path)
        profiles[profile.name] = profile
    return profiles


def create_app(
    db: str | Path = ":memory:",
    *,
    clock: Callable[[], float] = time.time,
    limits: Limits | None = None,
    profiles: Mapping[str, Profile] | None = None,
    public_url: str | None = None,
) -> Starlette:
    """The application over the rooms in ``db``: a SQLite file (``":memory:"`` keeps nothing) or a
    PostgreSQL URL (``postgresql://…``; then any number of processes may serve the same rooms).

    ``clock`` gives the time in seconds since the epoch (rooms expire seven days after their last
    activity); ``profiles`` are the profiles a room may be created with (every built-in one by default);
    ``public_url`` is the address invitation links start with (by default the ``Host`` a trusted proxy
    passes on, else the address the connection was made to).

    The application reads a proxy's forwarded headers itself, only from the addresses in the environment
    variable ``FORWARDED_ALLOW_IPS`` (127.0.0.1 and ::1 by default): run it with uvicorn's
    ``proxy_headers`` off.
    """
    store = open_store(db)
    server = _Server(
        store,
        clock,
        limits or Limits(),
        profiles if profiles is not None else default_profiles(),
        public_url,
    )

    async def index(request: Request) -> Response:
        del request
        return FileResponse(STATIC / "index.html")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        del app
        await store.open()
        await store.sweep(clock(), EXPIRY_SECONDS)
        listener: asyncio.Task[None] | None = None
        if store.shared:
            from .store_pg import PostgresStore, listen

            assert isinstance(store, PostgresStore)
            listener = server.spawn(listen(store, server.changed, server.lost, server.back))
        yield
        if listener is not None:  # first, so that no other process's change is sent meanwhile
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
        await server.stop()
        await store.aclose()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/api/profiles", _json_errors(server.list_profiles)),
            Route("/api/i18n/{lang}", _json_errors(server.board_catalog)),
            Route("/api/rooms", _json_errors(server.create_room), methods=["POST"]),
            Route("/api/join", _json_errors(server.join_room), methods=["POST"]),
            Route("/api/rooms/{room}/state", _json_errors(server.room_state)),
            Route(
                "/api/practice/discards",
                _json_errors(practice_discards(server.parsed, server.allow_state_read)),
                methods=["POST"],
            ),
            WebSocketRoute("/ws", server.play),
            Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
        ],
        lifespan=lifespan,
    )
    app.add_middleware(_SecurityHeaders, play=server.play)
    app.add_middleware(
        _Forwarded, trusted=os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
    )  # outermost
    app.state.server = server
    return app
