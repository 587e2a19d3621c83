"""``cribbage join``: a terminal at a server's table, against a player on another connection.

A real server holds friend rooms: the ``cribbage serve`` command in a child process, shared by the
module, or, for a test that moves the server's clock seven days on or restarts it, its application on
uvicorn in a thread. Seat 0 is played by a small bot over its own WebSocket (`cribcore.netclient` and a
computer player acting on the rebuilt views); seat 1 is taken by ``cribbage join LINK`` in a
pseudo-terminal, answered by the test from what the terminal shows. Nothing waits on a timer: every
step waits for what the terminal prints or for a state the bot's seat receives.
"""

from __future__ import annotations

import io
import json
import queue
import re
import socket
import stat
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest
import uvicorn
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cribcore.cards import Card, parse_card
from cribcore.cli.join_table import SeatBook, seats_path
from cribcore.events import Event
from cribcore.netclient import Dropped, NetError, Refusal, SeatClient, State, parse_link, post_json
from cribcore.players.registry import make_player
from cribcore.server.app import Limits, create_app

from .serving import live_server
from .terminal import cribbage_pty, run_cribbage

DISCARD = r"Choose (\d) cards? for \S+ crib: "
PLAY = r"Play a card \(count (\d+)\): "
NEXT = r"Press Enter for the next hand"
OVER = r"Press Enter for a new game \(q to quit\) "
CONFIRM = r"Quit this game\? \[y/N\] "
KEPT = "Your seat is kept. Rejoin with: cribbage join "
HAND = re.compile(r"Your hand  ((?:\s+\d\) \S+)+)")
DAY = 24 * 3600


# ----------------------------------------------------------------------------- the server


class Clock:
    """The server's time: the real time, moved on by `advance`."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


class Served:
    """A running server at ``base`` (no trailing slash)."""

    def __init__(self, base: str) -> None:
        self.base = base

    def room(self, seed: int, name: str = "Ann") -> tuple[str, str]:
        """A new friend room: the creator's seat key and the invitation link."""
        status, data = post_json(
            f"{self.base}/api/rooms", {"mode": "friend", "profile": "standard", "names": [name], "seed": seed}
        )
        assert status == 201, data
        return data["keys"][0]["key"], data["link"]


class Server(Served):
    """The server's application on uvicorn in a thread, with a clock the test moves; `restart` stops
    it and serves the same database on the same port again."""

    def __init__(self, db: Path, wrap: Callable[[ASGIApp], ASGIApp] | None = None) -> None:
        super().__init__("")
        self.db = db
        self.wrap = wrap
        """Wraps the application (to play an older server, say)."""
        self.clock = Clock()
        self.port = 0
        self._uvicorn: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None

    def start(self) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", self.port))
        sock.listen(64)
        self.port = sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        app: ASGIApp = create_app(self.db, clock=self.clock, limits=Limits(friend_seeds=True))
        config = uvicorn.Config(
            self.wrap(app) if self.wrap is not None else app,
            log_level="warning",
            access_log=False,
            lifespan="on",
        )
        server = uvicorn.Server(config)
        self._uvicorn, self._socket = server, sock
        self._thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        if self._uvicorn is not None and self._thread is not None and self._socket is not None:
            self._uvicorn.should_exit = True
            self._thread.join(10)
            self._socket.close()
        self._uvicorn = self._thread = self._socket = None

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The real ``cribbage serve`` in a child process, for the whole module."""
    with live_server(tmp_path_factory.mktemp("server") / "rooms.sqlite3") as base:
        yield Served(base)


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server for one test, in this process: its clock is moved on, or it is restarted."""
    running = Server(tmp_path / "rooms.sqlite3")
    running.start()
    yield running
    running.stop()


# ----------------------------------------------------------------------------- the other seat


class Bot(threading.Thread):
    """Plays a seat over its own connection with a computer player acting on the views the server
    sends: readies for each hand, never proposes a new game. While `hold` is clear it does nothing
    (but reads on). Connects again when the server goes away."""

    def __init__(self, link: str, key: str, level: str = "easy") -> None:
        super().__init__(daemon=True)
        self.client = SeatClient(parse_link(link), key)
        self.player = make_player(level, seed=1)
        self.hold = threading.Event()
        self.hold.set()
        self.stopped = threading.Event()
        self.changed = threading.Condition()
        self.failure: BaseException | None = None
        self.logs: dict[int, list[Event]] = {}
        """Each game's whole event log as this seat saw it."""
        self.requests: queue.Queue[Callable[[SeatClient], None]] = queue.Queue()
        """Messages the test asks this seat to send (a proposal, a decline), sent from its thread."""
        self._sent: tuple[Any, ...] | None = None
        self.connections = 1
        """How many times the seat has been connected (reconnections included)."""

    def run(self) -> None:
        try:
            self._note(self.client.connect())
            while not self.stopped.is_set():
                state = self.client.state
                assert state is not None
                try:
                    while not self.requests.empty():
                        self.requests.get()(self.client)
                    if self.hold.is_set():
                        self._act(state)
                    got = self.client.receive(timeout=0.05)
                except Dropped:
                    got = self.client.reconnect(attempts=8, delays=(0.2, 0.5, 1))
                    self.connections += 1
                    self._sent = None
                if isinstance(got, State):
                    self._note(got)
                elif got is not None:
                    self._sent = None  # refused (Bob had gone, say): try again on the next state
        except BaseException as exc:  # reported by the test that started it
            self.failure = exc
        finally:
            self.client.close()

    def _note(self, state: State) -> None:
        with self.changed:
            self.logs[state.game] = list(state.view.events)
            self.changed.notify_all()

    def _act(self, state: State) -> None:
        view = state.view
        me = view.seat
        if state.waiting_for or view.phase == "over":
            return
        if state.between_hands is not None:
            key: tuple[Any, ...] = ("next", state.game, state.between_hands.get("deal"))
            if me not in state.ready and self._sent != key:
                self._sent = key
                self.client.ready()
            return
        key = ("act", state.game, view.deal, view.legal_actions, view.hand)
        if view.my_turn and self._sent != key:
            self._sent = key
            self.client.act(self.player.choose(view))

    def wait_for(self, check: Callable[[State], bool]) -> State:
        """The first state (from now on, or the latest) for which ``check`` holds. The deadline is only
        a safety net for a broken server: the test's steps wait on states, never on time."""
        deadline = time.monotonic() + 120
        with self.changed:
            while True:
                state = self.client.state
                if state is not None and check(state):
                    return state
                assert self.failure is None, self.failure
                left = deadline - time.monotonic()
                assert left > 0, "the bot's seat never saw the state waited for"
                self.changed.wait(left)

    def finish(self) -> None:
        self.stopped.set()
        self.join(10)
        assert self.failure is None, repr(self.failure)


def dealt(log: list[Event], seat: int) -> dict[int, tuple[Card, ...]]:
    """The cards ``seat`` was dealt in each deal (numbered from 1), from its own log."""
    return {e.deal + 1: e.cards for e in log if e.kind == "dealt" and e.seat == seat}


# ----------------------------------------------------------------------------- the terminal


def join_pty(data: Path, link: str, *argv: str) -> Any:
    return cribbage_pty(data, "join", link, "--ascii", *argv)


def hand_shown(before: str) -> list[Card]:
    """The hand in the last seat table printed before a prompt."""
    found = HAND.findall(before)
    assert found, before[-500:]
    return [parse_card(token) for token in re.findall(r"\d\) (\S+)", found[-1])]


def answer_play(child: pexpect.spawn) -> None:
    """At the play prompt: the first card of the hand shown that fits under 31."""
    count = int(child.match.group(1))
    hand = hand_shown(child.before)
    position = next(i for i, card in enumerate(hand, start=1) if count + card.value <= 31)
    child.sendline(str(position))


def play_game(child: pexpect.spawn) -> int:
    """Answer every prompt until the game is over; return how many hands were started."""
    hands = 0
    while True:
        which = child.expect([DISCARD, PLAY, NEXT, OVER])
        if which == 0:
            hands += 1
            child.sendline("1 2")
        elif which == 1:
            answer_play(child)
        elif which == 2:
            child.sendline("")
        else:
            return hands


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus is not None
    return int(child.exitstatus)


def plain(log: io.StringIO) -> str:
    return log.getvalue().replace("\r\n", "\n")


def check_privacy(output: str, bot_hands: dict[int, tuple[Card, ...]]) -> int:
    """In each deal, before its show, a card of Ann's appears only once Ann has played it; return how
    many deals were checked."""
    deals = re.split(r"\nDeal (\d+) \| ", output)
    checked = 0
    for number, text in zip(deals[1::2], deals[2::2], strict=True):
        cards = bot_hands[int(number)]
        shown = re.search(r"^(Ann's|Your) (hand|crib)  .*\+ starter|^Game over: ", text, re.M)
        before_show = text[: shown.start()] if shown else text
        played: set[Card] = set()
        for line in before_show.splitlines():
            laid = re.match(r"Ann plays (\S+) ", line)
            if laid:
                played.add(parse_card(laid.group(1)))
            for card in cards:
                if card not in played and re.search(rf"(?<![\w]){card}(?![\w])", line):
                    raise AssertionError(f"deal {number}: Ann's {card} shown before it was played: {line!r}")
        checked += 1
    return checked


# ----------------------------------------------------------------------------- the tests


def test_join_by_link_and_play_a_whole_game(server: Served, tmp_path: Path) -> None:
    key, link = server.room(seed=5)
    bot = Bot(link, key)
    bot.start()
    with join_pty(tmp_path, link, "--name", "Bob") as (child, log):
        child.expect_exact("Ann vs Bob, first to 121.")
        child.expect_exact(f"Seated at {server.base} as Bob.")
        hands = play_game(child)
        out = plain(log)
        final = re.findall(r"Final scores: Ann (\d+) \| Bob (\d+)", out)
        state = bot.wait_for(lambda s: s.view.phase == "over")
        assert final and (int(final[-1][0]), int(final[-1][1])) == state.view.scores
        # Enter starts the next game at the same table; then leave mid-hand with q.
        child.sendline("")
        child.expect_exact("A new game: game 2 at this table.")
        child.expect(DISCARD)
        child.sendline("q")
        child.expect_exact(KEPT)
        assert finish(child) == 0
    bot.finish()
    assert hands >= 3
    first_game = plain(log).split("A new game: game 2")[0]
    assert check_privacy(first_game, dealt(bot.logs[1], 0)) == hands
    assert "Cut for deal: " in first_game and "Game over: " in first_game


def test_leave_and_rejoin_the_same_seat_with_the_same_command(server: Served, tmp_path: Path) -> None:
    key, link = server.room(seed=11)
    bot = Bot(link, key)
    bot.start()
    with join_pty(tmp_path, link, "--name", "Bob") as (child, _):
        child.expect(DISCARD)
        hand = hand_shown(child.before)
        child.sendline("quit")
        child.expect(r"You left the table in deal 1: Ann 0 \| Bob 0\.")
        child.expect_exact(KEPT)
        assert finish(child) == 0
    book = seats_path(tmp_path)
    assert stat.S_IMODE(book.stat().st_mode) == 0o600  # the key is the proof of the seat
    invite = parse_link(link).invite
    assert [(s["invite"], s["seat"], s["name"]) for s in json.loads(book.read_text())["seats"]] == [
        (invite, 1, "Bob")
    ]
    bot.wait_for(lambda s: s.waiting_for == ("Bob",))  # the seat is kept: play waits for Bob

    # The same command, no name given: the same seat and the same cards. Ann now takes her time.
    bot.hold.clear()
    with join_pty(tmp_path, link) as (child, _):
        child.expect_exact(f"Back at {server.base} as Bob.")
        child.expect(DISCARD)
        assert hand_shown(child.before) == hand
        child.sendline("help")  # the help says how to take the seat elsewhere: its own link
        child.expect_exact(f"{server.base}/#key=")
        # ... and offers no hint, which a game between friends refuses (issue 35, item 16)
        assert "No hints in a game with a friend" in child.before and "hint or ?" not in child.before
        child.expect(DISCARD)
        child.sendline("x")  # bad input is explained and asked again
        child.expect_exact("'x' is not a card")
        child.expect(DISCARD)
        child.sendline("hint")  # the computer does not play for one side of a game between friends
        child.expect_exact("No hints in a game with a friend")
        child.expect(DISCARD)
        stranger = next(
            c for c in map(parse_card, ("AS", "2S", "3S", "4S", "5S", "6S", "7S")) if c not in hand
        )
        child.sendline(f"{stranger} {hand[0]}")  # the server refuses it, with the engine's reason
        child.expect_exact(f"The server says: You do not hold {stranger}")
        child.expect(DISCARD)
        child.sendline("1 2")
        while child.expect([PLAY, r"Waiting for Ann to (play|lay away 2 cards)\."]) == 0:
            answer_play(child)
        child.sendline("1")  # typed while it is Ann's turn: said to wait, never sent
        child.expect_exact("It is not your turn. Waiting for Ann to")
        child.sendintr()  # Ctrl-C while waiting: leave at once
        child.expect_exact(KEPT)
        assert finish(child) == 130

    # Once more, leaving with Ctrl-D at a prompt.
    bot.hold.set()
    with join_pty(tmp_path, link) as (child, _):
        child.expect_exact(f"Back at {server.base} as Bob.")
        child.expect([PLAY, NEXT])
        child.sendeof()
        child.expect(CONFIRM)
        child.sendline("y")
        child.expect_exact(KEPT)
        assert finish(child) == 0
    bot.finish()
    assert bot.client.state is not None and bot.client.state.game == 1


def test_new_game_proposals_both_ways(server: Served, tmp_path: Path) -> None:
    key, link = server.room(seed=6)
    bot = Bot(link, key)
    bot.hold.clear()  # Ann only does what the test asks
    bot.start()
    with join_pty(tmp_path, link) as (child, _):
        child.expect_exact("Your name at the table: ")  # no --name: asked, and checked
        child.sendline("B" * 25)
        child.expect_exact("A name has at most 24 characters.")
        child.sendline("  Bob ")
        child.expect(DISCARD)
        child.sendline("1 2")
        child.expect_exact("Waiting for Ann to lay away 2 cards.")
        # Ann proposes; Bob declines, and the game goes on. She proposes again; Bob agrees.
        bot.requests.put(SeatClient.propose_new_game)
        child.expect_exact("Ann proposes a new game: this game and its score would be dropped. Agree? [y/N] ")
        # Ann's seat must see her proposal before Bob declines: then the next state without one is the
        # decline itself, and her second proposal is sent only once the server has taken the decline
        # (sent sooner, a busy server could take it first and the decline would drop it).
        bot.wait_for(lambda s: s.new_game is not None)
        child.sendline("n")
        child.expect_exact("You declined: this game goes on.")
        bot.wait_for(lambda s: s.new_game is None)
        bot.requests.put(SeatClient.propose_new_game)
        child.expect_exact("Agree? [y/N] ")
        child.sendline("y")
        child.expect_exact("A new game: game 2 at this table.")
        # Bob proposes (new, at the prompt, confirmed); Ann declines.
        child.expect(DISCARD)
        child.sendline("new")
        child.expect_exact(
            "Propose a new game? If everyone agrees, this game and its score are dropped. [y/N] "
        )
        child.sendline("y")
        child.expect(DISCARD)
        bot.wait_for(lambda s: s.new_game is not None and s.agreed == (1,))
        child.sendline("1 2")
        child.expect_exact("New game proposed: waiting for Ann to agree.")
        bot.requests.put(SeatClient.decline)
        child.expect_exact("No new game: this game goes on.")
        child.sendline("q")
        child.expect_exact(KEPT)
        assert finish(child) == 0
    bot.finish()
    state = bot.client.state
    assert state is not None and state.game == 2 and [h["game"] for h in state.room["history"]] == [1]


def test_the_connection_is_made_again_when_the_server_restarts(own_server: Server, tmp_path: Path) -> None:
    key, link = own_server.room(seed=4)
    bot = Bot(link, key)
    bot.start()
    with join_pty(tmp_path, link, "--name", "Bob") as (child, _):
        child.expect(DISCARD)
        own_server.restart()  # the connection drops while Bob thinks
        bot.wait_for(lambda s: bot.connections == 2)
        child.sendline("1 2")
        child.expect_exact("Lost the connection to the server")
        child.expect_exact("Connected again.")
        # The discard was sent on the new connection; the hand goes on.
        child.expect([PLAY, r"Waiting for Ann to play\."])
        bot.wait_for(lambda s: s.view.held[1] == 4)
        child.sendline("q")  # at the prompt or while waiting: either way, leave
        child.expect_exact(KEPT)
        assert finish(child) == 0
    bot.finish()


def test_a_seat_link_holds_the_seat_it_names(server: Served, tmp_path: Path) -> None:
    key, link = server.room(seed=8)
    with join_pty(tmp_path, f"{server.base}/#key={key}") as (child, _):
        child.expect_exact(f"Back at {server.base} as Ann.")
        child.expect_exact(f"Invite a friend to the free seat: {link}")
        child.expect_exact("Waiting for Seat 2 to join.")
        child.sendline("q")
        child.expect_exact(f"{KEPT}{server.base}/#key={key}")
        assert finish(child) == 0
    assert not seats_path(tmp_path).exists()  # a seat link is its own key: nothing to keep


def test_links_that_do_not_work_are_one_line(server: Served, tmp_path: Path) -> None:
    _, full_link = server.room(seed=1)
    status, _ = post_json(f"{server.base}/api/join", {"invite": parse_link(full_link).invite, "name": "Cy"})
    assert status == 200
    down = socket.socket()
    down.bind(("127.0.0.1", 0))
    closed_port = down.getsockname()[1]
    down.close()
    cases = [
        (["not-a-link"], "not a server link: 'not-a-link'"),
        ([f"{server.base}/"], "has no invitation (#join=CODE)"),
        ([f"{server.base}/#join=nosuch.room", "--name", "Bob"], "refused the invitation: there is no such"),
        ([f"{server.base}/#key=nosuch.key"], "refused the seat link: there is no such room"),
        ([f"{server.base}/#join=nosuch.room"], "input ended before the game did: no name was given"),
        ([full_link, "--name", "Bob"], "is full"),
        ([f"http://127.0.0.1:{closed_port}/#join=a.b", "--name", "Bob"], "cannot reach the server"),
    ]
    for argv, said in cases:
        one_line_error(run_cribbage("join", *argv, data=tmp_path), said)


def test_an_expired_room_is_one_line(own_server: Server, tmp_path: Path) -> None:
    _, joined = own_server.room(seed=2)
    _, unused = own_server.room(seed=3)
    with join_pty(tmp_path, joined, "--name", "Bob") as (child, _):
        child.expect_exact("Waiting for Ann to connect.")  # nobody holds Ann's seat: play waits
        child.sendline("q")  # typed while waiting
        child.expect_exact(KEPT)
        assert finish(child) == 0
    own_server.clock.advance(8 * DAY)
    one_line_error(run_cribbage("join", unused, "--name", "Cy", data=tmp_path), "has expired")  # HTTP 410
    one_line_error(run_cribbage("join", joined, data=tmp_path), "has expired")  # the kept key: code 4410


def one_line_error(result: subprocess.CompletedProcess[str], said: str) -> None:
    assert result.returncode == 1, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cribbage: error: "), result.stderr
    assert said in lines[0], lines[0]


# ----------------------------------------------------------------------------- the parts, alone


@pytest.mark.parametrize(
    ("text", "base", "invite", "key"),
    [
        ("http://127.0.0.1:8000/#join=ab.cd", "http://127.0.0.1:8000", "ab.cd", None),
        ("  HTTP://Example.ORG/#join=ab.cd ", "http://example.org:80", "ab.cd", None),
        ("https://example.org/crib/#key=r00m.s3cr-t_", "https://example.org:443/crib", None, "r00m.s3cr-t_"),
        ("http://[::1]:9/#join=x.y", "http://[::1]:9", "x.y", None),
    ],
)
def test_links_are_read_and_normalized(text: str, base: str, invite: str | None, key: str | None) -> None:
    link = parse_link(text)
    assert (link.base, link.invite, link.key) == (base, invite, key)
    assert link.ws_url.startswith("wss://" if base.startswith("https") else "ws://")
    assert link.ws_url.endswith("/ws")


@pytest.mark.parametrize(
    "text",
    [
        "ftp://host/#join=a.b",
        "http:///#join=a.b",
        "http://host:99999/#join=a.b",
        "http://host/#join=",
        "http://host/#join=a.b&key=c.d",
        "http://host/#join=a b",
        "http://host/#join=\x1b[2Jx",
    ],
)
def test_what_is_not_a_link_is_refused_in_one_printable_line(text: str) -> None:
    with pytest.raises(NetError) as refused:
        parse_link(text)
    message = str(refused.value)
    assert "\n" not in message and "\x1b" not in message


def test_a_seats_file_that_is_not_one_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = seats_path(tmp_path)
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="is not a file of seat keys"):
        SeatBook.load(path)
    assert path.read_text(encoding="utf-8") == "{not json"


def test_a_scripted_client_keeps_under_the_servers_rate(server: Served) -> None:
    """Moves piped in as fast as they come (as in these tests) are paced by the client, not refused by
    the server as a flood: past its allowance the client waits a moment."""
    key, link = server.room(seed=3)
    client = SeatClient(parse_link(link), key)
    client.connect()
    try:
        for _ in range(36):
            client.send({"type": "ping"})
        client.sync()  # 36 pings and a full state: more than the server's burst of 40
        while True:
            got = client.receive(timeout=None)
            assert not isinstance(got, Refusal), got
            if isinstance(got, State) and got.full:
                break
    finally:
        client.close()


def older_server(app: ASGIApp) -> ASGIApp:
    """``app`` as a server from before states of changes answers: a hello naming ``changes`` is
    refused with ``malformed`` naming the field, and the connection closed with 4400."""

    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await app(scope, receive, send)
            return

        async def received() -> Message:
            message = await receive()
            text = message.get("text") or ""
            if message["type"] == "websocket.receive" and "changes" in json.loads(text or "{}"):
                error = {
                    "type": "error",
                    "code": "malformed",
                    "message": "changes: Extra inputs are not permitted",
                }
                await send({"type": "websocket.send", "text": json.dumps(error)})
                await send({"type": "websocket.close", "code": 4400})
                return {"type": "websocket.disconnect", "code": 4400}
            return message

        await app(scope, received, send)

    return wrapped


def test_a_server_from_before_states_of_changes_is_played_with_whole_states(tmp_path: Path) -> None:
    running = Server(tmp_path / "rooms.sqlite3", wrap=older_server)
    running.start()
    try:
        key, link = running.room(seed=7)
        invite = parse_link(link).invite
        status, joined = post_json(f"{running.base}/api/join", {"invite": invite, "name": "Bob"})
        assert status == 200, joined
        ann, bob = Bot(link, key), Bot(link, joined["key"])
        ann.start()
        bob.start()
        over = [bot.wait_for(lambda s: s.view.phase == "over") for bot in (ann, bob)]
        ann.finish()
        bob.finish()
    finally:
        running.stop()
    assert not ann.client.changes and not bob.client.changes
    assert over[0].view.scores == over[1].view.scores and max(over[0].view.scores) >= 121
    assert list(over[0].view.events) == ann.logs[1] and list(over[1].view.events) == bob.logs[1]
