"""Load run of the game server: many friend rooms played to the end at once over WebSockets, on loopback.

Starts ``cribbage serve`` as a subprocess (``--port 0``, a fresh SQLite database), creates ``--rooms``
friend rooms over HTTP (``POST /api/rooms``, then ``POST /api/join`` for the second seat), opens both
seats of every room from this one asyncio process (the ``websockets`` client) and, once every seat is
connected, lets a computer player (`cribcore.players.registry.make_player`) drive each seat from the
views it is sent: the seat keeps its event log by ``events_start`` (a ``sync`` when a message does not
follow on), rebuilds its `SeatView` with `cribcore.server.wire`, acts when the view offers it actions,
and sends ``next`` between hands. A seat has one move in flight at a time, and keeps under the server's
per-connection limit with a bucket of its own (18 messages a second, bursts of 20). With no ``--think``
time the seats move as soon as they are answered: the server is kept saturated.

Counted: every message sent and received, every ``error`` message (there must be none), and the latency
of each move, from sending it to receiving the state that shows it (for an action, the first state whose
log holds the seat's next discard or play; for ``next``, the first that shows the seat ready or the hand
begun). One more connection pings the server: on the idle server before the load, then every 0.1 s.

Nothing may be lost: at the end every game must be over, both seats must agree on the scores and the
winner, ``GET /api/rooms/ROOM/state`` must give each seat exactly the view and the event log it built
from its messages, and, once the server has stopped, its database must hold every room with a finished
record whose replay (`cribcore.records.replay`) gives each seat the events it was sent.

The reference, measured in the same run: the same games (the same room and player seeds) played in this
process on `cribcore.server.rooms.Room`, the server's own room logic, with no network, JSON, SQLite or
asyncio. They must be the very same games (the records are compared deal by deal); the ratio of their
actions per second to the server's is what serving costs. The ping on the idle server is the reference
for the latencies.

Several processes: ``--workers N`` starts N ``cribbage serve`` processes (each on its own port) over one
``--db postgresql://…``, and connects the seats of each room to different processes (room i's seat s
to process (i + s) mod N), so every move reaches the other seat through PostgreSQL's NOTIFY. The
records are then read from PostgreSQL (the rooms of the run only).

Run: ``python benchmarks/bench_server.py [--rooms 200] [--players medium] [--think 0] [--workers 1]
[--db postgresql://…] [--json]``. Exits 1
on any error, difference or lost game. ``tests/test_server_load.py`` plays a small run and checks the
same things (never the timings).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from cribcore.events import Event
from cribcore.players import COMPUTER_KINDS
from cribcore.players.base import Player
from cribcore.players.registry import make_player
from cribcore.profiles import load_profile
from cribcore.records import RecordError, game_record, replay
from cribcore.server.rooms import Room
from cribcore.server.store import is_postgres
from cribcore.server.wire import WireError, event_from_json, event_to_json, view_from_json
from cribcore.views import SeatView

ROOT = Path(__file__).resolve().parent.parent
PROFILE = "standard"
NAMES = ("North", "South")
SEND_RATE = 18.0
"""Messages a second one connection sends at most (the server allows 20, with bursts of 40)."""
SEND_BURST = 20
ACTION_EVENTS = frozenset({"discard", "play"})
"""The events a seat's own action puts in its log (the standard profile has no claims)."""
IDLE_PINGS = 15
PING_EVERY = 0.1
CONNECT_AT_ONCE = 50
"""WebSocket handshakes in flight at once while the seats connect."""
ASK_FOR_CHANGES = True
"""Whether the seats ask for states of changes only (``hello``'s ``changes``); off for a server that
does not know them (an older build, see ``compare_server.py``)."""


# ----------------------------------------------------------------------------- the server


class ServerProcess:
    """``cribbage serve`` on a free loopback port, its database ``db``; its stderr goes to a file."""

    def __init__(self, db: Path | str, rooms_per_minute: int, log: Path | None = None) -> None:
        self.db = db
        self.log = log if log is not None else Path(db).with_suffix(".log")
        self._log_file = self.log.open("w")
        # Seeded rooms, so that the same games can be played in process as the reference.
        # -P: the server imports the installed cribcore, not a cribcore/ folder in its working directory.
        command = [
            sys.executable,
            "-P",
            "-m",
            "cribcore.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--allow-seeds",
        ]
        command += ["--db", str(db), "--rooms-per-minute", str(rooms_per_minute)]
        env = {**os.environ, "COLUMNS": "1000", "NO_COLOR": "1"}
        self.proc = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=self._log_file, text=True
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()  # "Serving cribbage on http://127.0.0.1:PORT/ …"
        found = re.search(r"http://([\w.]+):(\d+)/", line)
        if found is None:
            self.stop()
            raise RuntimeError(f"the server did not start: {line.strip()!r} {self.log_text().strip()}")
        self.base = f"http://{found[1]}:{found[2]}"
        self.ws_url = f"ws://{found[1]}:{found[2]}/ws"

    def cpu_seconds(self) -> float | None:
        """The server's user and system CPU time so far (from Linux's ``/proc``; None elsewhere)."""
        try:
            text = Path(f"/proc/{self.proc.pid}/stat").read_text()
        except OSError:
            return None
        fields = text.rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> int:
        """Stop the server as Ctrl-C does (it closes its database) and return its exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self._log_file.close()
        return self.proc.returncode

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


class Servers:
    """``count`` server processes over one database (one for SQLite); the first takes the HTTP calls."""

    def __init__(self, db: Path | str, count: int, rooms_per_minute: int, directory: Path) -> None:
        self.db = db
        self.all: list[ServerProcess] = []
        try:
            for index in range(count):
                self.all.append(ServerProcess(db, rooms_per_minute, directory / f"server-{index}.log"))
        except BaseException:
            self.stop()
            raise
        self.base = self.all[0].base
        self.ws_url = self.all[0].ws_url

    def seat_url(self, room_index: int, seat: int) -> str:
        """Where room ``room_index``'s ``seat`` connects: each seat of a room to another process."""
        return self.all[(room_index + seat) % len(self.all)].ws_url

    def cpu_seconds(self) -> float | None:
        times = [server.cpu_seconds() for server in self.all]
        return None if any(t is None for t in times) else sum(t or 0.0 for t in times)

    def stop(self) -> int:
        return max((server.stop() for server in self.all), default=0)

    def log_text(self) -> str:
        return "".join(server.log_text() for server in self.all)


_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _http(url: str, body: dict[str, Any] | None, key: str | None) -> dict[str, Any]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method="POST" if body is not None else "GET")
    request.add_header("Content-Type", "application/json")
    if key is not None:
        request.add_header("X-Seat-Key", key)
    try:
        with _OPENER.open(request, timeout=120) as response:
            answer: dict[str, Any] = json.loads(response.read())
    except urllib.error.HTTPError as exc:
        raise RuntimeError(f"{url}: HTTP {exc.code}: {exc.read().decode(errors='replace')}") from None
    return answer


async def http(url: str, body: dict[str, Any] | None = None, key: str | None = None) -> dict[str, Any]:
    """One JSON request (a POST when there is a body); raises `RuntimeError` on any status but 2xx."""
    return await asyncio.to_thread(_http, url, body, key)


# ----------------------------------------------------------------------------- counting


@dataclass
class Tally:
    """Everything the run counts, over every connection."""

    sent: int = 0
    received: int = 0
    actions: int = 0
    nexts: int = 0
    syncs: int = 0
    throttled: int = 0
    """Moves the client's own rate limit held back."""
    errors: list[str] = field(default_factory=list)
    action_latency: list[float] = field(default_factory=list)
    next_latency: list[float] = field(default_factory=list)


class Limiter:
    """A token bucket for one connection, below the server's (see `SEND_RATE`)."""

    def __init__(self, rate: float = SEND_RATE, burst: int = SEND_BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    async def take(self) -> bool:
        """Wait for a token; returns whether it had to wait."""
        waited = False
        while True:
            now = time.monotonic()
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now
            if self.tokens >= 1:
                self.tokens -= 1
                return waited
            waited = True
            await asyncio.sleep((1 - self.tokens) / self.rate)


def percentiles(seconds: Sequence[float]) -> dict[str, float]:
    """p50, p90, p95, p99 (nearest rank) and the max of ``seconds``, in milliseconds (zeros for none)."""
    ordered = sorted(seconds)
    if not ordered:
        return {"p50": 0.0, "p90": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0}

    def rank(p: float) -> float:
        return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)] * 1000

    return {"p50": rank(50), "p90": rank(90), "p95": rank(95), "p99": rank(99), "max": ordered[-1] * 1000}


# ----------------------------------------------------------------------------- a seat


class SeatBot:
    """One WebSocket connection holding one seat, driven by a computer player (``None``: it only pings)."""

    def __init__(
        self, url: str, room: str, seat: int, key: str, player: Player | None, tally: Tally, think: float = 0
    ) -> None:
        self.url = url
        self.room = room
        self.seat = seat
        self.key = key
        self.player = player
        self.tally = tally
        self.think = think
        self.rng = random.Random(key)
        self.limiter = Limiter()
        self.ws: ClientConnection | None = None
        self.raw_events: list[dict[str, Any]] = []
        """The seat's event log as it was sent."""
        self.events: list[Event] = []
        self.mine = 0
        """How many events of the log are this seat's own discards and plays."""
        self.state: dict[str, Any] = {}
        """The last state message that followed on from the log (whole, changes applied)."""
        self.latest: tuple[dict[str, Any], dict[str, Any]] = ({}, {})
        """The room and view objects of the last state message, as they stand."""
        self.view: SeatView | None = None
        self.pending: tuple[str, float, int] | None = None
        """The move in flight: ``"action"`` or ``"next"``, when it was sent, and `mine` then."""
        self.syncing = False
        self.over = False
        self.first_move_at: float | None = None

    def fail(self, problem: str) -> None:
        self.tally.errors.append(f"room {self.room} seat {self.seat}: {problem}")

    async def send(self, message: dict[str, Any]) -> float:
        """Send ``message`` when the rate allows; returns when it was sent (`time.perf_counter`)."""
        assert self.ws is not None
        self.tally.throttled += await self.limiter.take()
        self.tally.sent += 1
        sent_at = time.perf_counter()
        await self.ws.send(json.dumps(message, separators=(",", ":")))
        return sent_at

    async def connect(self) -> None:
        """Open the connection, say hello and read the first (full) state."""
        self.ws = await connect(self.url, proxy=None, open_timeout=120, max_size=2**20)
        hello: dict[str, Any] = {"type": "hello", "key": self.key}
        if ASK_FOR_CHANGES:
            hello["changes"] = True
        await self.send(hello)
        await self.take(await self.ws.recv())
        if not self.state:
            raise RuntimeError(f"room {self.room} seat {self.seat}: hello was not answered with a state")

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(WebSocketException, OSError):
                await self.ws.close()

    async def play(self) -> None:
        """Play until the game is over; a connection that fails is counted as an error."""
        assert self.ws is not None
        try:
            await self.act()
            while not self.over:
                await self.take(await self.ws.recv())
                await self.act()
        except ConnectionClosed as exc:
            self.fail(f"the connection closed during the game ({exc})")
        except (WireError, KeyError, TypeError, ValueError) as exc:
            self.fail(f"a message that is not the protocol's: {exc}")

    async def take(self, raw: str | bytes) -> None:
        """Read one server message into the log and the view, and settle the move in flight."""
        received_at = time.perf_counter()
        self.tally.received += 1
        message = json.loads(raw)
        kind = message.get("type")
        if kind == "error":
            self.fail(f"error {message.get('code')}: {message.get('message')}")
            self.pending = None
            return
        if kind != "state":
            self.fail(f"an unexpected message: {str(message)[:200]}")
            return
        if message.get("changes") is True:  # only what changed since the previous state
            room, view = self.latest
            message = {**message, "room": {**room, **message["room"]}, "view": {**view, **message["view"]}}
        self.latest = (message["room"], message["view"])
        start = message["events_start"]
        if start == 0:  # a full state (hello, sync)
            self.raw_events, self.events, self.mine, self.syncing = [], [], 0, False
        if start != len(self.raw_events):
            if not self.syncing:
                self.syncing = True
                self.tally.syncs += 1
                await self.send({"type": "sync"})
            return
        for data in message["events"]:
            event = event_from_json(data)
            self.raw_events.append(data)
            self.events.append(event)
            self.mine += event.seat == self.seat and event.kind in ACTION_EVENTS
        self.state = message
        self.view = view_from_json(message["view"], self.events)
        self.over = self.view.phase == "over"
        if self.pending is not None:
            what, sent_at, mine = self.pending
            between = message["room"]["between_hands"]
            if what == "action" and self.mine > mine:
                self.tally.action_latency.append(received_at - sent_at)
                self.pending = None
            elif what == "next" and (between is None or self.seat in between["ready"]):
                self.tally.next_latency.append(received_at - sent_at)
                self.pending = None

    async def act(self) -> None:
        """Make this seat's move, if it has one and has none in flight."""
        view = self.view
        if self.pending is not None or self.syncing or self.over or view is None or self.player is None:
            return
        room = self.state["room"]
        if room["waiting_for"]:
            return
        between = room["between_hands"]
        if between is not None:
            if self.seat not in between["ready"]:
                await self.move("next", {"type": "next"})
        elif view.legal_actions:
            await self.move("action", {"type": "action", "action": str(self.player.choose(view))})

    async def move(self, what: str, message: dict[str, Any]) -> None:
        if self.think:
            await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
        mine = self.mine
        sent_at = await self.send(message)
        self.pending = (what, sent_at, mine)
        if self.first_move_at is None:
            self.first_move_at = sent_at
        if what == "action":
            self.tally.actions += 1
        else:
            self.tally.nexts += 1

    async def ping(self) -> float:
        """The round trip of one ``ping`` (on a connection whose room sends it nothing else)."""
        assert self.ws is not None
        sent_at = await self.send({"type": "ping"})
        answer = json.loads(await self.ws.recv())
        elapsed = time.perf_counter() - sent_at
        self.tally.received += 1
        if answer.get("type") != "pong":
            self.fail(f"a ping was answered with {str(answer)[:200]}")
        return elapsed


# ----------------------------------------------------------------------------- a room


def player_seed(room_seed: int, seat: int) -> int:
    return random.Random(f"player:{room_seed}:{seat}").randrange(2**32)


@dataclass
class RoomRun:
    """One room of the run and everything it ended with."""

    id: str
    seed: int
    keys: list[str]
    bots: list[SeatBot] = field(default_factory=list)
    finished_at: float | None = None
    server_states: list[dict[str, Any]] = field(default_factory=list)
    """``GET /api/rooms/ROOM/state`` for each seat, once the game was over."""
    record: dict[str, Any] | None = None
    """The game's record in the server's database, read once the server had stopped."""
    reference: dict[str, Any] | None = None
    """The record of the same game played in this process on `Room`."""

    def first_move_at(self) -> float | None:
        return min((bot.first_move_at for bot in self.bots if bot.first_move_at is not None), default=None)

    def problems(self) -> list[str]:
        """Everything that is lost or disagrees, in words (none when all is well)."""
        if not self.bots or not all(bot.over for bot in self.bots):
            return ["the game did not finish"]
        finals = [bot.state["view"] for bot in self.bots]
        found = []
        if len({(tuple(view["scores"]), view["winner"]) for view in finals}) != 1:
            found.append(f"the seats disagree: {[(view['scores'], view['winner']) for view in finals]}")
        if len(self.server_states) != len(self.bots):
            found.append("the server's state was not read for every seat")
        for bot, state in zip(self.bots, self.server_states, strict=False):
            if state.get("view") != bot.state["view"]:
                found.append(f"seat {bot.seat}: the server's view is not the last one the seat was sent")
            if state.get("events") != bot.raw_events or state.get("events_start") != 0:
                found.append(f"seat {bot.seat}: the server's log is not the one built from the messages")
            if state.get("room", {}).get("game") != 1:
                found.append(f"seat {bot.seat}: the room is not on its first game")
        found += self.record_problems(finals[0])
        if self.reference is not None and self.record is not None:
            if same_cards(self.reference) != same_cards(self.record):
                found.append("the stored game is not the one played in process (deals differ)")
            if self.reference.get("result") != self.record.get("result"):
                found.append("the stored game is not the one played in process (result differ)")
        return found

    def record_problems(self, final: dict[str, Any]) -> list[str]:
        if self.record is None:
            return ["the database has no such room"]
        if self.record.get("result") is None:
            return ["the stored record is not finished"]
        try:
            game = replay(self.record)
        except RecordError as exc:
            return [f"the stored record does not replay: {exc}"]
        found = []
        if list(game.scores) != final["scores"] or game.winner != final["winner"]:
            found.append(
                f"the stored record replays to {list(game.scores)}; the seats have {final['scores']}"
            )
        for bot in self.bots:
            stored = [event_to_json(event) for event in game.view(bot.seat).events]
            if stored != bot.raw_events:
                found.append(f"seat {bot.seat}: the stored record's events are not the ones it was sent")
        return found


def same_cards(record: dict[str, Any]) -> list[dict[str, Any]]:
    """A record's deals without the order the seats discarded in (over the network the seats discard
    at the same time, in either order; in process one after the other): the cards and plays alone."""
    return [{k: v for k, v in deal.items() if k != "discard_order"} for deal in record.get("deals", [])]


async def create_room(server: Servers, seed: int) -> tuple[str, list[str]]:
    """A friend room with both seats taken: its id and the two seat keys."""
    body = {"mode": "friend", "profile": PROFILE, "names": [NAMES[0]], "seed": seed}
    created = await http(f"{server.base}/api/rooms", body)
    joined = await http(f"{server.base}/api/join", {"invite": created["invite"], "name": NAMES[1]})
    if joined["seat"] != 1:
        raise RuntimeError(f"room {created['room']}: the friend took seat {joined['seat']}")
    return created["room"], [created["keys"][0]["key"], joined["key"]]


async def play_room(run: RoomRun, server: Servers, start: asyncio.Event) -> None:
    """Play the room's game once ``start`` is set, then read each seat's state over HTTP and hang up."""
    await start.wait()
    await asyncio.gather(*(bot.play() for bot in run.bots))
    run.finished_at = time.perf_counter()
    for bot in run.bots:
        base = bot.url.replace("ws://", "http://").removesuffix("/ws")  # the seat's own process
        run.server_states.append(await http(f"{base}/api/rooms/{run.id}/state", key=bot.key))
    for bot in run.bots:
        await bot.close()


def peak_concurrency(spans: Sequence[tuple[float | None, float | None]]) -> int:
    """The most rooms in play at one moment, each from its first move to the end of its game."""
    edges = sorted(
        (moment, step)
        for first, last in spans
        if first is not None and last is not None
        for moment, step in ((first, 1), (last, -1))
    )
    peak = playing = 0
    for _, step in edges:
        playing += step
        peak = max(peak, playing)
    return peak


def read_records(db: Path | str, ids: Sequence[str] = ()) -> dict[str, dict[str, Any]]:
    """Every stored room's game record by room id (of ``ids`` only, from PostgreSQL), read from the
    database file (read-only) or PostgreSQL."""
    if is_postgres(db):
        import psycopg

        with psycopg.connect(str(db)) as pg:
            rows = pg.execute("SELECT id, data FROM rooms WHERE id = ANY(%s)", (list(ids),)).fetchall()
    else:
        connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            rows = connection.execute("SELECT id, data FROM rooms").fetchall()
        finally:
            connection.close()
    records = {}
    for room_id, data in rows:
        record = json.loads(data).get("record")
        if isinstance(record, dict):
            records[str(room_id)] = record
    return records


# ----------------------------------------------------------------------------- the run


@dataclass
class LoadRun:
    """A whole run: its rooms, what was counted, and the times (seconds)."""

    rooms: list[RoomRun]
    kind: str
    seed: int
    think: float
    tally: Tally
    setup_seconds: float
    play_seconds: float
    play_messages: int
    play_actions: int
    peak_rooms: int
    timed_out: int
    server_cpu: float | None
    client_cpu: float
    server_exit: int
    server_log: str
    ping_idle: list[float]
    ping_load: list[float]
    load_average: float | None
    load_average_after: float | None = None
    """The one-minute load average when the play ended (the machine may be shared)."""
    reference_seconds: float = 0.0
    reference_actions: int = 0

    @property
    def finished(self) -> int:
        return sum(bool(run.bots) and all(bot.over for bot in run.bots) for run in self.rooms)

    def problems(self) -> dict[str, list[str]]:
        """The problems of each room that has any."""
        found = {run.id: run.problems() for run in self.rooms}
        return {room: problems for room, problems in found.items() if problems}

    def ok(self) -> bool:
        return (
            not self.tally.errors
            and not self.problems()
            and self.server_exit == 0
            and not self.server_log.strip()
            and self.reference_actions in (0, self.tally.actions)
        )

    def report(self) -> dict[str, Any]:
        play = self.play_seconds or 1e-9
        action_rate = self.play_actions / play
        reference_rate = self.reference_actions / self.reference_seconds if self.reference_seconds else 0.0
        latency = percentiles(self.tally.action_latency)
        idle = percentiles(self.ping_idle)
        problems = self.problems()
        return {
            "rooms": len(self.rooms),
            "seats": sum(len(run.bots) for run in self.rooms),
            "players": self.kind,
            "seed": self.seed,
            "think_seconds": self.think,
            "peak_concurrent_rooms": self.peak_rooms,
            "games_finished": self.finished,
            "rooms_with_problems": len(problems),
            "problems": dict(list(problems.items())[:20]),
            "timed_out_rooms": self.timed_out,
            "errors": len(self.tally.errors),
            "error_messages": self.tally.errors[:20],
            "syncs": self.tally.syncs,
            "server_exit": self.server_exit,
            "server_log": self.server_log.strip().splitlines()[-20:],
            "messages_sent": self.tally.sent,
            "messages_received": self.tally.received,
            "play_messages": self.play_messages,
            "messages_per_second": self.play_messages / play,
            "actions": self.tally.actions,
            "actions_per_second": action_rate,
            "nexts": self.tally.nexts,
            "throttled_moves": self.tally.throttled,
            "action_latency_ms": latency,
            "next_latency_ms": percentiles(self.tally.next_latency),
            "ping_idle_ms": idle,
            "ping_under_load_ms": percentiles(self.ping_load),
            "setup_seconds": self.setup_seconds,
            "play_seconds": self.play_seconds,
            "server_cpu_seconds": self.server_cpu,
            "client_cpu_seconds": self.client_cpu,
            "load_average_before": self.load_average,
            "load_average_after": self.load_average_after,
            "reference": {
                "what": "the same games in process on cribcore.server.rooms.Room: no network, JSON, SQLite",
                "seconds": self.reference_seconds,
                "actions": self.reference_actions,
                "actions_per_second": reference_rate,
            },
            "ratio_reference_to_served_actions_per_second": reference_rate / action_rate
            if action_rate
            else 0,
            "ratio_action_p50_to_idle_ping_p50": latency["p50"] / idle["p50"] if idle["p50"] else 0,
            "ok": self.ok(),
        }


async def run_load(
    rooms: int,
    kind: str = "medium",
    seed: int = 1,
    *,
    think: float = 0.0,
    timeout: float = 900.0,
    directory: Path | None = None,
    workers: int = 1,
    db: str | None = None,
) -> LoadRun:
    """Serve, create ``rooms`` friend rooms, play them all at once, stop the server, read its database.

    ``directory`` holds the database and the server's log (a temporary directory by default); ``think``
    is each seat's mean pause before a move; rooms still playing after ``timeout`` seconds are given up.
    ``workers`` server processes share ``db`` (a PostgreSQL URL; a fresh SQLite file by default).
    """
    load_average = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    with contextlib.ExitStack() as stack:
        if directory is None:
            directory = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-server-")))
        store: Path | str = db if db is not None else directory / "server.sqlite3"
        server = Servers(store, workers, rooms + 10, directory)
        stack.callback(server.stop)
        tally = Tally()
        setup_start = time.perf_counter()

        probe_room, probe_keys = await create_room(server, 0)
        probe = SeatBot(server.ws_url, probe_room, 0, probe_keys[0], None, tally)
        await probe.connect()
        ping_idle = [await probe.ping() for _ in range(IDLE_PINGS)]

        seeds = [seed + index for index in range(rooms)]
        created = await asyncio.gather(*(create_room(server, s) for s in seeds))
        runs = [RoomRun(room, s, keys) for (room, keys), s in zip(created, seeds, strict=True)]
        for run in runs:
            run.bots = [
                SeatBot(
                    server.seat_url(runs.index(run), seat),
                    run.id,
                    seat,
                    key,
                    make_player(kind, player_seed(run.seed, seat)),
                    tally,
                    think,
                )
                for seat, key in enumerate(run.keys)
            ]
        gate = asyncio.Semaphore(CONNECT_AT_ONCE)

        async def connect_seat(bot: SeatBot) -> None:
            async with gate:
                await bot.connect()

        await asyncio.gather(*(connect_seat(bot) for run in runs for bot in run.bots))
        setup_seconds = time.perf_counter() - setup_start

        start, stop = asyncio.Event(), asyncio.Event()
        tasks = [asyncio.create_task(play_room(run, server, start)) for run in runs]
        ping_load: list[float] = []

        async def ping_under_load() -> None:
            while not stop.is_set():
                try:
                    ping_load.append(await probe.ping())
                except ConnectionClosed as exc:
                    probe.fail(f"the ping connection closed ({exc})")
                    return
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), PING_EVERY)

        pinging = asyncio.create_task(ping_under_load())
        server_before, client_before = server.cpu_seconds(), time.process_time()
        messages_before, actions_before = tally.sent + tally.received, tally.actions
        play_start = time.perf_counter()
        start.set()
        _, late = await asyncio.wait(tasks, timeout=timeout)
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)
        play_seconds = time.perf_counter() - play_start
        load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
        server_after, client_cpu = server.cpu_seconds(), time.process_time() - client_before
        play_messages = tally.sent + tally.received - messages_before
        play_actions = tally.actions - actions_before
        stop.set()
        await pinging
        await probe.close()
        for task in tasks:
            if not task.cancelled() and task.exception() is not None:
                tally.errors.append(f"a room failed: {task.exception()!r}")
        await asyncio.gather(*(bot.close() for run in runs for bot in run.bots))

        server_exit = server.stop()
        server_cpu = None
        if server_before is not None and server_after is not None:
            server_cpu = server_after - server_before
        records = read_records(server.db, [run.id for run in runs])
        for run in runs:
            run.record = records.get(run.id)
        return LoadRun(
            rooms=runs,
            kind=kind,
            seed=seed,
            think=think,
            tally=tally,
            setup_seconds=setup_seconds,
            play_seconds=play_seconds,
            play_messages=play_messages,
            play_actions=play_actions,
            peak_rooms=peak_concurrency([(run.first_move_at(), run.finished_at) for run in runs]),
            timed_out=len(late),
            server_cpu=server_cpu,
            client_cpu=client_cpu,
            server_exit=server_exit,
            server_log=server.log_text(),
            ping_idle=ping_idle,
            ping_load=ping_load,
            load_average=load_average,
            load_average_after=load_after,
        )
    raise AssertionError("unreachable")  # for mypy: an ExitStack may swallow exceptions


# ----------------------------------------------------------------------------- the reference


def play_in_process(runs: Sequence[RoomRun], kind: str) -> tuple[float, int]:
    """Play every room's game again in this process on `Room`, with the same room and player seeds;
    keep each game's record in ``run.reference``. Returns the seconds it took and the actions played."""
    profile = load_profile(PROFILE)
    actions = 0
    elapsed = 0.0
    for run in runs:
        start = time.perf_counter()
        room, _, invite = Room.create(
            mode="friend", profile=profile, names=[NAMES[0]], level="medium", seed=run.seed, now=0.0
        )
        assert invite is not None
        room.join(invite, NAMES[1], 0.0)
        room.connected.update({0, 1})
        players = [make_player(kind, player_seed(run.seed, seat)) for seat in (0, 1)]
        while not room.game.is_over:
            if room.between_hands is not None:
                for seat in (0, 1):
                    room.next_hand(seat, 0.0)
                continue
            seat = room.game.to_act[0]
            room.act(seat, str(players[seat].choose(room.game.view(seat))), 0.0)
            actions += 1
        elapsed += time.perf_counter() - start
        run.reference = game_record(room.game)
    return elapsed, actions


# ----------------------------------------------------------------------------- output


def _ms(figures: dict[str, float]) -> str:
    return "  ".join(f"{name} {value:.1f}" for name, value in figures.items()) + " ms"


def text_lines(report: dict[str, Any]) -> Iterator[str]:
    """The report for people."""
    play = report["play_seconds"]
    kind = report["players"]
    think = f", {report['think_seconds']} s mean think time" if report["think_seconds"] else ""
    yield (
        f"rooms: {report['rooms']} friend rooms ({PROFILE}, {kind} vs {kind}{think}), "
        f"{report['seats']} WebSocket seats; {report['peak_concurrent_rooms']} rooms in play at once"
    )
    yield (
        f"games finished: {report['games_finished']} of {report['rooms']}   errors: {report['errors']}   "
        f"rooms with anything lost or different: {report['rooms_with_problems']}   syncs: {report['syncs']}"
    )
    yield (
        f"play: {play:.1f} s; {report['play_messages']} messages = {report['messages_per_second']:.0f}/s; "
        f"{report['actions']} actions = {report['actions_per_second']:.0f}/s (and {report['nexts']} next)"
    )
    yield (
        f"  messages in all: {report['messages_sent']} sent, {report['messages_received']} received; "
        f"moves held back by the client's rate limit: {report['throttled_moves']}"
    )
    yield f"action latency (sent → the state that shows it): {_ms(report['action_latency_ms'])}"
    yield f"next latency:                                     {_ms(report['next_latency_ms'])}"
    yield f"ping round trip, idle server (reference):         {_ms(report['ping_idle_ms'])}"
    yield f"ping round trip, under load:                      {_ms(report['ping_under_load_ms'])}"
    server = report["server_cpu_seconds"]
    client = report["client_cpu_seconds"]
    shown = f"{server:.1f} s ({server / play:.0%} of one core)" if server is not None else "unknown"
    load_shown = " / ".join(
        f"{load:.1f}" if load is not None else "unknown"
        for load in (report["load_average_before"], report["load_average_after"])
    )
    yield (
        f"CPU during the play: server {shown}, this client {client:.1f} s ({client / play:.0%}); "
        f"setup {report['setup_seconds']:.1f} s; load average before / after {load_shown}"
    )
    reference = report["reference"]
    yield (
        f"reference, the same games in process on Room (no network, JSON, SQLite): "
        f"{reference['seconds']:.1f} s = {reference['actions_per_second']:.0f} actions/s on one core"
    )
    yield (
        f"ratio reference/served actions per second: "
        f"{report['ratio_reference_to_served_actions_per_second']:.1f}x;  "
        f"action p50 / idle ping p50: {report['ratio_action_p50_to_idle_ping_p50']:.0f}x"
    )
    for room, problems in report["problems"].items():
        yield f"  room {room}: {'; '.join(problems)}"
    for message in report["error_messages"]:
        yield f"  {message}"
    if report["server_exit"] != 0 or report["server_log"]:
        yield f"  the server exited with status {report['server_exit']}; its log ends:"
        yield from (f"    {line}" for line in report["server_log"])
    yield "OK" if report["ok"] else "FAILED"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rooms", type=int, default=200, help="rooms played at once (default 200)")
    parser.add_argument(
        "--players", default="medium", choices=sorted(COMPUTER_KINDS), help="computer kind (default medium)"
    )
    parser.add_argument("--seed", type=int, default=1, help="room i is seeded seed + i (default 1)")
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a seat waits before a move (default 0)"
    )
    parser.add_argument("--timeout", type=float, default=900.0, help="most seconds of play (default 900)")
    parser.add_argument(
        "--workers", type=int, default=1, help="server processes, each seat of a room on another (default 1)"
    )
    parser.add_argument(
        "--db", default=None, help="the database (postgresql://…; default a fresh SQLite file)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.workers < 1 or (args.workers > 1 and not is_postgres(args.db or "")):
        parser.error("--workers: 1, or more with a PostgreSQL --db")
    if args.rooms < 1:
        parser.error("--rooms: at least 1")
    if not 0 <= args.seed < 2**32 - args.rooms:
        parser.error("--seed: 0 or more, and seed + rooms below 2**32")
    try:
        run = asyncio.run(
            run_load(
                args.rooms,
                args.players,
                args.seed,
                think=args.think,
                timeout=args.timeout,
                workers=args.workers,
                db=args.db,
            )
        )
    except (RuntimeError, OSError, WebSocketException) as exc:
        print(f"bench_server: {exc}", file=sys.stderr)
        return 1
    run.reference_seconds, run.reference_actions = play_in_process(run.rooms, args.players)
    report = run.report()
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print("\n".join(text_lines(report)))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
