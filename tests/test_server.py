"""The server's HTTP API and WebSocket channel (docs/server.md), driven through Starlette's test client.

Each test builds its own application over its own database; the clock is injected so that seven days
can pass in a test. Computer-driven seats are the project's own players acting on the views the
server sends.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cribcore.engine import Game
from cribcore.players.registry import make_player
from cribcore.profiles import load_profile
from cribcore.records import replay
from cribcore.server.app import Limits, create_app
from cribcore.server.rooms import EXPIRY_SECONDS, Room, RoomError
from cribcore.server.store import RoomStore
from cribcore.speech import item_name, reasons, spoken_play, spoken_show
from cribcore.views import SeatView

from .server_client import SeatClient, connect

FAST = Limits(messages_per_second=1e6, burst=10**6, rooms_per_minute=10**6, friend_seeds=True)
CARD = re.compile(r"\b(?:[2-9TJQKA])[SHDC]\b")
DAY = 24 * 3600.0


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "rooms.sqlite3"


@pytest.fixture
def client(db: Path, clock: Clock) -> Iterator[TestClient]:
    with TestClient(create_app(db, clock=clock, limits=FAST)) as test_client:
        yield test_client


def create(client: TestClient, mode: str = "friend", **body: Any) -> dict[str, Any]:
    body.setdefault("names", ["Ann"])
    response = client.post("/api/rooms", json={"mode": mode, **body})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def join(client: TestClient, invite: str, name: str = "Bob") -> dict[str, Any]:
    response = client.post("/api/join", json={"invite": invite, "name": name})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def friend_room(client: TestClient, seed: int = 5, **body: Any) -> tuple[dict[str, Any], list[str]]:
    """A friend room with every seat joined; returns the creation answer and each seat's key."""
    room = create(client, seed=seed, **body)
    keys = [room["keys"][0]["key"]]
    state = client.get(f"/api/rooms/{room['room']}/state", headers={"x-seat-key": keys[0]}).json()
    for seat in range(1, len(state["room"]["seats"])):
        keys.append(join(client, room["invite"], f"Friend {seat}")["key"])
    return room, keys


def room_of(client: TestClient, room_id: str) -> Room:
    """The server's own room (to compare what clients were sent with the truth)."""
    server = client.app.state.server  # type: ignore[attr-defined]
    assert client.portal is not None
    room: Room = client.portal.call(server.store.get, room_id, server.clock())
    return room


def drain(seats: list[SeatClient]) -> None:
    """Receive the state every seat is sent after a change."""
    for seat in seats:
        message = seat.receive()
        assert message["type"] == "state", message


def hidden_cards(game: Game, seat: int) -> set[str]:
    """The cards of the current deal that ``seat`` may not know yet: the other seats' and the pack's
    cards that no public event of this deal has shown (the starter until it is turned)."""
    logs = game.deal_logs()
    if not logs:
        return set()
    log = logs[-1]
    dealt = {c for other, hand in enumerate(log.hands) if other != seat for c in hand}
    dealt |= set(log.crib_cards) | {log.starter}
    shown = {
        c for e in game.events if e.deal == game.deal_number and e.private_to is None for c in e.cards
    } | {
        c
        for e in game.events
        if e.deal == game.deal_number and e.private_to is None
        for i in e.items
        for c in i.cards
    }
    if game.starter is not None:
        shown.add(game.starter)
    return {str(c) for c in dealt - shown}


def check_secrecy(message: dict[str, Any], game: Game, seat: int) -> None:
    """No card ``seat`` may not know appears in what it was sent about the current deal."""
    current = [e for e in message["events"] if e["deal"] == game.deal_number]
    sent = json.dumps([message["view"], current])
    leaked = set(CARD.findall(sent)) & hidden_cards(game, seat)
    assert not leaked, f"seat {seat} was sent {sorted(leaked)}"


def with_true_claim(view: SeatView, game: Game) -> SeatView:
    """``view`` with the true points of the count being settled, which the server never sends: the
    test's computer players read them from the server's game, as the server's own computers do."""
    if view.claim_stage is None:
        return view
    return dataclasses.replace(view, claim_points=game.view(view.seat).claim_points)


def play_out(
    client: TestClient, room_id: str, seats: list[SeatClient], *, kind: str = "easy", max_steps: int = 5000
) -> int:
    """Drive every seat with a computer player until the game is over, checking secrecy on every
    message; returns the number of messages the clients sent."""
    players = [make_player(kind, seed=i) for i in range(len(seats))]
    for sent in range(max_steps):
        game = room_of(client, room_id).game
        if game.is_over:
            return sent
        room = seats[0].room
        if room["between_hands"] is not None:
            mover = next(s for s in seats if s.room["you"] not in room["between_hands"]["ready"])
            mover.send(type="next")
        else:
            mover = next(s for s in seats if s.view.legal_actions)
            view = with_true_claim(mover.view, game)
            mover.send(type="action", action=str(players[view.seat].choose(view)))
        game = room_of(client, room_id).game
        for seat in seats:
            message = seat.receive()
            assert message["type"] == "state", message
            check_secrecy(message, game, seat.room["you"])
    raise AssertionError("the game did not finish")


# ----------------------------------------------------------------------------- HTTP


class TestCreateAndJoin:
    def test_profiles_are_listed_with_levels(self, client: TestClient) -> None:
        data = client.get("/api/profiles").json()
        names = [p["name"] for p in data["profiles"]]
        assert names[0] == "standard" and "five-card" in names and "four-players" in names
        assert data["levels"] == ["easy", "medium", "hard", "expert"]

    def test_friend_room_gives_one_key_and_an_invitation(self, client: TestClient) -> None:
        room = create(client)
        assert [k["seat"] for k in room["keys"]] == [0]
        assert room["invite"] and room["link"].endswith("/#join=" + room["invite"])
        assert room["keys"][0]["key"] != room["invite"]

    def test_same_device_room_gives_every_key(self, client: TestClient) -> None:
        room = create(client, "same-device", names=["Ann", "Bob"])
        assert [k["seat"] for k in room["keys"]] == [0, 1] and room["invite"] is None

    def test_computer_room_deals_and_the_computer_discards(self, client: TestClient) -> None:
        room = create(client, "computer", level="hard", seed=3)
        state = client.get(
            f"/api/rooms/{room['room']}/state", headers={"x-seat-key": room["keys"][0]["key"]}
        ).json()
        assert state["room"]["seats"][1]["kind"] == "hard"
        assert state["view"]["to_act"] == [0] and len(state["view"]["hand"]) == 6
        assert state["view"]["held"] == [6, 4]

    def test_join_takes_the_free_seat_then_the_room_is_full(self, client: TestClient) -> None:
        room = create(client)
        joined = join(client, room["invite"], "  Bob  ")
        assert joined["seat"] == 1 and joined["room"] == room["room"]
        state = client.get(f"/api/rooms/{room['room']}/state", headers={"x-seat-key": joined["key"]}).json()
        assert state["room"]["seats"][1]["name"] == "Bob" and state["view"]["players"] == ["Ann", "Bob"]
        assert state["room"]["invite"] is None
        again = client.post("/api/join", json={"invite": room["invite"], "name": "Cy"})
        assert again.status_code == 409 and "full" in again.json()["error"]

    def test_three_friends_share_one_invitation(self, client: TestClient) -> None:
        room = create(client, profile="three-players")
        assert [join(client, room["invite"], n)["seat"] for n in ("Bob", "Cy")] == [1, 2]

    @pytest.mark.parametrize(
        ("body", "status", "message"),
        [
            ({"mode": "party", "names": ["Ann"]}, 400, "mode"),
            ({"mode": "friend"}, 400, "names: Field required"),
            ({"mode": "friend", "names": ["Ann"], "colour": "red"}, 400, "colour: Extra inputs"),
            ({"mode": "friend", "names": [""]}, 400, "a name must not be empty"),
            ({"mode": "friend", "names": ["A" * 25]}, 400, "at most 24 characters"),
            ({"mode": "friend", "names": ["\x1b[2JAnn"]}, 400, "printable"),
            ({"mode": "friend", "names": ["Ann"], "profile": "../../etc/passwd"}, 400, "unknown profile"),
            ({"mode": "friend", "names": ["Ann"], "level": "grandmaster"}, 400, "level"),
            ({"mode": "friend", "names": ["Ann", "Bob"]}, 400, "only your own name"),
            ({"mode": "same-device", "names": ["Ann"]}, 400, "give 2 names"),
            ({"mode": "friend", "names": ["Ann"], "seed": -1}, 400, "seed"),
        ],
    )
    def test_bad_bodies_are_refused_in_one_line(
        self, client: TestClient, db: Path, body: dict[str, Any], status: int, message: str
    ) -> None:
        response = client.post("/api/rooms", json=body)
        assert response.status_code == status
        error = response.json()["error"]
        assert message in error and "\n" not in error
        assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM rooms").fetchone()[0] == 0

    def test_not_json_and_too_large(self, client: TestClient) -> None:
        response = client.post("/api/rooms", content=b"{nope")
        assert response.status_code == 400 and "JSON" in response.json()["error"]
        big = client.post("/api/rooms", json={"mode": "friend", "names": ["A"], "pad": "x" * 5000})
        assert big.status_code == 413

    def test_bad_invitations(self, client: TestClient) -> None:
        room = create(client)
        for invite in ("nonsense", room["invite"] + "x", "nosuchroom.abc"):
            response = client.post("/api/join", json={"invite": invite, "name": "Bob"})
            assert response.status_code == 404, invite
            assert response.json()["error"] == "there is no such invitation (it may have expired)"

    def test_state_needs_the_seat_key(self, client: TestClient) -> None:
        room = create(client)
        url = f"/api/rooms/{room['room']}/state"
        assert client.get(url).status_code == 403
        assert client.get(url, headers={"x-seat-key": room["invite"]}).status_code == 403
        assert client.get("/api/rooms/nope/state", headers={"x-seat-key": "nope.x"}).status_code == 404

    def test_a_friend_rooms_seed_is_refused_unless_the_server_allows_it(self, db: Path, clock: Clock) -> None:
        with TestClient(create_app(db, clock=clock)) as client:
            friend = client.post("/api/rooms", json={"mode": "friend", "names": ["A"], "seed": 3})
            assert friend.status_code == 400 and friend.json()["error"].startswith(
                "seed: a friend room's cards"
            )
            alone = client.post("/api/rooms", json={"mode": "computer", "names": ["A"], "seed": 3})
            assert alone.status_code == 201  # only the player's own game

    def test_rooms_per_address_are_limited(self, db: Path, clock: Clock) -> None:
        with TestClient(create_app(db, clock=clock, limits=Limits(rooms_per_minute=3))) as client:
            codes = [
                client.post("/api/rooms", json={"mode": "friend", "names": ["A"]}).status_code
                for _ in range(4)
            ]
        assert codes == [201, 201, 201, 429]

    def test_reads_of_a_rooms_state_per_address_are_limited(self, db: Path, clock: Clock) -> None:
        limits = Limits(state_reads_per_minute=3, friend_seeds=True)
        with TestClient(create_app(db, clock=clock, limits=limits)) as client:
            room, keys = friend_room(client)  # one read
            url = f"/api/rooms/{room['room']}/state"
            codes = [client.get(url, headers={"x-seat-key": keys[0]}).status_code for _ in range(2)]
            refused = client.get(url, headers={"x-seat-key": keys[0]})
            spanish = client.get(url, headers={"x-seat-key": keys[0], "accept-language": "es"})
        assert codes == [200, 200] and refused.status_code == spanish.status_code == 429
        assert refused.json() == {
            "error": "too many reads of a room's state from this address: slow down",
            "code": "rate",
        }
        assert spanish.json()["error"] == (
            "demasiadas lecturas del estado de una sala desde esta dirección: ve más despacio"
        )

    def test_pages_are_served_with_a_strict_policy(self, client: TestClient) -> None:
        response = client.get("/api/profiles")
        assert "default-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["x-content-type-options"] == "nosniff"


# ----------------------------------------------------------------------------- playing


class TestPlay:
    def test_friends_play_a_whole_game(self, client: TestClient, db: Path) -> None:
        room, keys = friend_room(client)
        with connect(client, keys[0]) as ann, connect(client, keys[1]) as bob:
            drain([ann])  # Bob's arrival
            play_out(client, room["room"], [ann, bob])
            final = room_of(client, room["room"]).game
            for seat in (ann, bob):
                assert seat.view.phase == "over" and list(seat.view.scores) == list(final.scores)
                assert seat.view.events == final.view(seat.room["you"]).events
        stored = json.loads(sqlite3.connect(db).execute("SELECT data FROM rooms").fetchone()[0])
        assert replay(stored["record"]).scores == final.scores

    @pytest.mark.parametrize("profile", ["muggins", "three-players", "five-card"])
    def test_variants_over_the_wire(self, client: TestClient, profile: str) -> None:
        room, keys = friend_room(client, profile=profile, seed=11)
        seats: list[SeatClient] = []
        with connect(client, keys[0]) as s0, connect(client, keys[1]) as s1:
            seats = [s0, s1]
            drain([s0])
            if len(keys) == 3:
                with connect(client, keys[2]) as s2:
                    drain([s0, s1])
                    play_out(client, room["room"], [s0, s1, s2])
            else:
                play_out(client, room["room"], seats)
        assert room_of(client, room["room"]).game.is_over

    def test_against_the_computer(self, client: TestClient) -> None:
        room = create(client, "computer", level="easy", seed=9)
        with connect(client, room["keys"][0]["key"]) as ann:
            assert ann.room["waiting_for"] == []
            play_out(client, room["room"], [ann])
            assert ann.view.phase == "over"
            kinds = {e.kind for e in ann.log if e.seat == 1}
            assert {"play", "hand"} <= kinds

    def test_events_carry_the_words_the_terminal_says(self, client: TestClient) -> None:
        room = create(client, "computer", level="easy", seed=4)
        with connect(client, room["keys"][0]["key"]) as ann:
            play_out(client, room["room"], [ann])
            sent = [e for m in ann.received if m["type"] == "state" for e in m["events"]]
        for data, event in zip(sent, ann.log, strict=True):
            assert data["reasons"] == reasons(event.items)
            assert [i["name"] for i in data["items"]] == [item_name(i) for i in event.items]
            if event.kind == "play":
                assert data["spoken"] == spoken_play(event.count or 0, event.items)
            elif event.kind in ("hand", "crib"):
                assert data["spoken"] == spoken_show(event.items)
            else:
                assert data["spoken"] is None
        assert any("fifteen two" in (e["spoken"] or "") for e in sent)

    def test_hints_against_the_computer_but_not_against_a_friend(self, client: TestClient) -> None:
        room = create(client, "computer", level="easy", seed=4)
        with connect(client, room["keys"][0]["key"]) as ann:
            ann.send(type="hint")
            hint = ann.receive()
            assert hint["type"] == "hint" and hint["seat"] == 0 and hint["reason"]
            assert hint["action"] in ann.state["view"]["legal"] and hint["action"].startswith("discard ")
            assert ann.act(hint["action"])["type"] == "state"
        _, keys = friend_room(client)
        with connect(client, keys[0]) as bob, connect(client, keys[1]) as cy:
            drain([bob])
            bob.send(type="hint")
            error = bob.receive()
            assert (
                error["code"] == "illegal" and "hints are for games against the computer" in error["message"]
            )
            del cy

    def test_same_device_holds_both_seats(self, client: TestClient) -> None:
        room = create(client, "same-device", names=["Ann", "Bob"], seed=2)
        keys = [k["key"] for k in room["keys"]]
        with connect(client, keys[0]) as ann:
            assert ann.room["waiting_for"] == ["Bob"]
            with connect(client, keys[1]) as bob:
                drain([ann])
                assert ann.room["waiting_for"] == []
                play_out(client, room["room"], [ann, bob], kind="random")

    def test_between_hands_everyone_presses_next(self, client: TestClient) -> None:
        _room, keys = friend_room(client, seed=4)
        with connect(client, keys[0]) as ann, connect(client, keys[1]) as bob:
            drain([ann])
            players = [make_player("easy", 0), make_player("easy", 1)]
            while ann.room["between_hands"] is None:
                mover = ann if ann.view.legal_actions else bob
                mover.send(type="action", action=str(players[mover.view.seat].choose(mover.view)))
                drain([ann, bob])
            assert ann.room["between_hands"] == {"deal": 0, "ready": []}
            assert ann.view.deal == 1 and ann.view.scores == bob.view.scores
            shown = [e.kind for e in ann.log if e.deal == 0]
            assert "crib" in shown
            error = ann.act("discard " + " ".join(str(c) for c in ann.view.hand[:2]))
            assert error["code"] == "between-hands"
            ann.send(type="next")
            drain([ann, bob])
            assert ann.room["between_hands"] == {"deal": 0, "ready": [0]}
            bob.send(type="next")
            drain([ann, bob])
            assert ann.room["between_hands"] is None and ann.view.legal_actions
            assert bob.act("discard " + " ".join(str(c) for c in bob.view.hand[:2]))["type"] == "state"


class TestConnections:
    def test_play_waits_for_a_disconnected_seat_and_a_reconnect_gets_the_full_view(
        self, client: TestClient
    ) -> None:
        _room, keys = friend_room(client)
        with connect(client, keys[0]) as ann:
            assert ann.room["waiting_for"] == ["Friend 1"]
            discard = "discard " + " ".join(str(c) for c in ann.view.hand[:2])
            error = ann.act(discard)
            assert error["type"] == "error" and error["code"] == "waiting"
            assert error["message"] == "waiting for Friend 1 to connect: both players must be connected"
            with connect(client, keys[1]) as bob:
                drain([ann])
                assert ann.room["waiting_for"] == [] and all(s["connected"] for s in ann.room["seats"])
                assert ann.act(discard)["type"] == "state"
                drain([bob])
                bob_view = bob.view
            drain([ann])  # Bob has gone
            assert ann.room["waiting_for"] == ["Friend 1"]
            assert not ann.room["seats"][1]["connected"]
            with connect(client, keys[1]) as again:
                assert again.state["events_start"] == 0
                assert again.view == bob_view
                drain([ann])
                assert ann.room["waiting_for"] == []

    def test_the_same_key_twice_closes_the_older_connection(self, client: TestClient) -> None:
        _room, keys = friend_room(client)
        with client.websocket_connect("/ws") as first:
            first.send_json({"type": "hello", "key": keys[0]})
            assert first.receive_json()["type"] == "state"
            with connect(client, keys[0]) as second:
                message = first.receive_json()
                assert message == {
                    "type": "error",
                    "code": "replaced",
                    "message": "this seat was opened elsewhere",
                }
                assert second.room["you"] == 0

    def test_sync_sends_everything_again(self, client: TestClient) -> None:
        _room, keys = friend_room(client)
        with connect(client, keys[0]) as ann:
            ann.send(type="sync")
            assert ann.receive()["events_start"] == 0
            ann.send(type="ping")
            assert ann.receive() == {"type": "pong"}


class TestRestart:
    def test_a_restarted_server_continues_every_room(self, db: Path, clock: Clock) -> None:
        with TestClient(create_app(db, clock=clock, limits=FAST)) as client:
            room, keys = friend_room(client, seed=8)
            computer = create(client, "computer", level="medium", seed=8)
            with connect(client, keys[0]) as ann, connect(client, keys[1]) as bob:
                drain([ann])
                players = [make_player("easy", 0), make_player("easy", 1)]
                for _ in range(5):  # both discard and three cards are played
                    mover = ann if ann.view.legal_actions else bob
                    mover.send(type="action", action=str(players[mover.view.seat].choose(mover.view)))
                    drain([ann, bob])
                before = [ann.view, bob.view]
            with connect(client, computer["keys"][0]["key"]) as solo:
                hand = solo.view.hand
                solo.act("discard " + " ".join(str(c) for c in hand[:2]))
                solo_before = solo.view
        with TestClient(create_app(db, clock=clock, limits=FAST)) as client:
            with connect(client, keys[0]) as ann, connect(client, keys[1]) as bob:
                drain([ann])
                assert [ann.view, bob.view] == before  # the same log, down to the cut and the discards' order
                assert before[0].phase == "play" and len(before[0].pile) == 3
                play_out(client, room["room"], [ann, bob])
            with connect(client, computer["keys"][0]["key"]) as solo:
                assert solo.view == solo_before
                play_out(client, computer["room"], [solo])


class TestStore:
    def test_idle_rooms_leave_memory_and_come_back_from_the_database(self, db: Path, clock: Clock) -> None:
        store = RoomStore(db, cached=2)
        rooms = [
            Room.create(
                mode="friend", profile=load_profile(), names=["Ann"], level="easy", seed=i, now=clock()
            )[0]
            for i in range(3)
        ]
        rooms[2].connected.add(0)

        async def scenario() -> None:
            for room in rooms:
                await store.add(room)
            assert await store.get(rooms[2].id, clock()) is rooms[2]  # connected: kept
            back = await store.get(rooms[0].id, clock())
            assert back is not rooms[0] and back.to_json() == rooms[0].to_json()
            await store.aclose()

        asyncio.run(scenario())


class TestDamagedDatabase:
    @pytest.mark.parametrize(
        "data", ["{not json", '{"id": "x"}', '{"id": "x", "record": {"format": "nope"}}']
    )
    def test_a_damaged_room_is_refused_in_one_line_and_others_play_on(
        self, client: TestClient, db: Path, data: str
    ) -> None:
        damaged, keys = friend_room(client)
        healthy, _ = friend_room(client)
        client.app.state.server.store._rooms.clear()  # type: ignore[attr-defined]
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE rooms SET data = ? WHERE id = ?", (data, damaged["room"]))
        response = client.get(f"/api/rooms/{damaged['room']}/state", headers={"x-seat-key": keys[0]})
        assert response.status_code == 404
        assert response.json()["error"].startswith("this room's stored game cannot be read back")
        assert room_of(client, healthy["room"]).game.deal_number == 0


class TestExpiry:
    def test_a_room_expires_after_seven_days_without_play(
        self, client: TestClient, clock: Clock, db: Path
    ) -> None:
        room, keys = friend_room(client)
        url = f"/api/rooms/{room['room']}/state"
        clock.now += 6 * DAY
        assert client.get(url, headers={"x-seat-key": keys[0]}).status_code == 200  # activity
        clock.now += EXPIRY_SECONDS - 1
        assert client.get(url, headers={"x-seat-key": keys[1]}).status_code == 200
        clock.now += EXPIRY_SECONDS
        response = client.get(url, headers={"x-seat-key": keys[0]})
        assert response.status_code == 410
        assert response.json()["error"] == "this room expired after 7 days without play"
        assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM rooms").fetchone()[0] == 0
        # Issue 13 item 20: the room's tombstone keeps answering 410 (this asserted 404 before).
        assert client.get(url, headers={"x-seat-key": keys[0]}).status_code == 410

    def test_websocket_and_invitation_refuse_an_expired_room(self, client: TestClient, clock: Clock) -> None:
        room = create(client)
        other = create(client)
        clock.now += EXPIRY_SECONDS
        response = client.post("/api/join", json={"invite": room["invite"], "name": "Bob"})
        assert response.status_code == 410
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "key": other["keys"][0]["key"]})
            assert ws.receive_json() == {
                "type": "error",
                "code": "expired",
                "message": "this room expired after 7 days without play",
            }
            assert ws.receive()["code"] == 4410

    def test_expired_rooms_are_swept_when_a_room_is_created(
        self, client: TestClient, clock: Clock, db: Path
    ) -> None:
        for _ in range(3):
            create(client)
        clock.now += EXPIRY_SECONDS
        create(client)
        assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM rooms").fetchone()[0] == 1


class TestNewGame:
    def test_mid_hand_a_new_game_needs_every_seat(self, client: TestClient) -> None:
        _room, keys = friend_room(client)
        with connect(client, keys[0]) as ann, connect(client, keys[1]) as bob:
            drain([ann])
            ann.act("discard " + " ".join(str(c) for c in ann.view.hand[:2]))
            drain([bob])
            hand = bob.view.hand
            ann.send(type="new_game")
            drain([ann, bob])
            assert bob.room["new_game"] == {"proposed_by": 0, "agreed": [0]} and bob.room["game"] == 1
            bob.send(type="decline")
            drain([ann, bob])
            assert ann.room["new_game"] is None and ann.view.hand == ann.view.hand and bob.view.hand == hand
            assert ann.room["game"] == 1 and len(ann.view.discarded) == 2
            bob.send(type="new_game")
            drain([ann, bob])
            ann.send(type="new_game")
            drain([ann, bob])
            assert ann.room["game"] == 2 and ann.state["events_start"] == 0
            assert ann.room["history"] == [{"game": 1, "scores": [0, 0], "winner": None, "finished": False}]
            fresh = ann.view
            assert fresh.discarded == () and len(fresh.hand) == 6 and ann.room["new_game"] is None

    def test_after_a_game_one_seat_starts_the_next(self, client: TestClient) -> None:
        room, keys = friend_room(client, seed=6)
        with connect(client, keys[0]) as ann, connect(client, keys[1]) as bob:
            drain([ann])
            play_out(client, room["room"], [ann, bob])
            scores = list(ann.view.scores)
            bob.send(type="new_game")
            drain([ann, bob])
            assert ann.room["game"] == 2 and ann.view.scores == (0, 0)
            assert ann.room["history"][0]["scores"] == scores and ann.room["history"][0]["finished"]

    def test_a_late_request_does_not_propose_replacing_the_next_game(self, client: TestClient) -> None:
        room, keys = friend_room(client, seed=6)
        with connect(client, keys[0]) as ann, connect(client, keys[1]) as bob:
            drain([ann])
            play_out(client, room["room"], [ann, bob])
            bob.send(type="new_game", game=1)
            drain([ann, bob])
            ann.send(type="new_game", game=1)
            error = ann.receive()
            assert error["code"] == "illegal" and "game 1 has already been replaced" in error["message"]
            assert room_of(client, room["room"]).proposed_by is None and ann.room["game"] == 2

    def test_alone_against_the_computer_a_new_game_starts_at_once(self, client: TestClient) -> None:
        room = create(client, "computer", seed=1)
        with connect(client, room["keys"][0]["key"]) as ann:
            ann.send(type="new_game")
            assert ann.receive()["room"]["game"] == 2


class TestBadMessages:
    @pytest.mark.parametrize(
        ("text", "code", "message"),
        [
            ("not json", "malformed", "the message is not JSON"),
            ("[1, 2]", "malformed", "message: Input should be an object"),
            ('{"kind": "action"}', "malformed", "type: every message needs a type"),
            ('{"type": "shout"}', "malformed", "type: not a message type"),
            ('{"type": "action"}', "malformed", "action: Field required"),
            ('{"type": "action", "action": 7}', "malformed", "action: Input should be a valid string"),
            ('{"type": "ping", "extra": 1}', "malformed", "extra: Extra inputs are not permitted"),
            ('{"type": "action", "action": "fold"}', "malformed", "action: unknown action 'fold'"),
            ('{"type": "action", "action": "play ZZ"}', "malformed", "action:"),
            ('{"type": "hello", "key": "x.y"}', "malformed", "this connection already holds a seat"),
            ('{"type": "next"}', "illegal", "no hand to move on from"),
            ('{"type": "decline"}', "illegal", "no new game has been proposed"),
            ('{"type": "action", "action": "' + "x" * 3000 + '"}', "too-large", "at most 2048 bytes"),
        ],
    )
    def test_each_is_refused_and_changes_nothing(
        self, client: TestClient, text: str, code: str, message: str
    ) -> None:
        room, keys = friend_room(client)
        with connect(client, keys[0]) as ann, connect(client, keys[1]) as bob:
            drain([ann])
            before = room_of(client, room["room"]).to_json()
            ann.ws.send_text(text)
            error = ann.receive()
            assert error["type"] == "error" and error["code"] == code, error
            assert message in error["message"] and "\n" not in error["message"]
            assert room_of(client, room["room"]).to_json() == before
            del bob

    def test_illegal_actions_are_refused_and_change_nothing(self, client: TestClient) -> None:
        room, keys = friend_room(client, seed=12)
        with connect(client, keys[0]) as ann, connect(client, keys[1]) as bob:
            drain([ann])
            server_room = room_of(client, room["room"])
            bobs_cards = [str(c) for c in server_room.game.view(1).hand]
            own = [str(c) for c in ann.view.hand]
            cases = [
                ("play " + own[0], "discard"),  # a play in the discard phase
                ("discard " + own[0], "2 cards"),  # one card only
                ("discard " + " ".join(bobs_cards[:2]), "not"),  # the other seat's cards
                ("discard " + own[0] + " " + own[0], ""),  # one card twice
                ("count 5", ""),  # no muggins here
            ]
            for action, words in cases:
                before = server_room.to_json()
                error = ann.act(action)
                assert error["type"] == "error" and error["code"] in ("illegal", "malformed"), (action, error)
                assert words in error["message"], (action, error)
                assert server_room.to_json() == before
            ann.act("discard " + " ".join(own[:2]))
            drain([bob])
            bob.act("discard " + " ".join(bobs_cards[:2]))
            drain([ann])
            leader, other = (ann, bob) if ann.view.legal_actions else (bob, ann)
            before = server_room.to_json()
            error = other.act("play " + str(other.view.hand[0]))  # out of turn
            assert error["code"] == "illegal" and server_room.to_json() == before
            assert leader.view.legal_actions

    def test_binary_frames_and_a_missing_hello(self, client: TestClient) -> None:
        _room, keys = friend_room(client)
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "ping"})
            error = ws.receive_json()
            assert error["code"] == "malformed" and "hello" in error["message"]
            assert ws.receive()["code"] == 4400
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "key": keys[0] + "x"})
            assert ws.receive_json()["code"] == "bad-key"
            assert ws.receive()["code"] == 4403
        with connect(client, keys[0]) as ann:
            ann.ws.send_bytes(b'{"type": "ping"}')
            assert ann.receive()["message"] == "messages are JSON text, not binary"

    def test_a_connection_that_does_not_keep_up_is_closed(self, db: Path, clock: Clock) -> None:
        # With no room in the outbox, the very first message finds the connection stalled.
        with TestClient(create_app(db, clock=clock, limits=dataclasses.replace(FAST, outbox=0))) as client:
            room, keys = friend_room(client)
            with client.websocket_connect("/ws") as ws:
                ws.send_json({"type": "hello", "key": keys[0]})
                assert ws.receive()["code"] == 1013
            assert not room_of(client, room["room"]).connected  # the seat is free to reconnect

    def test_rate_is_bounded_and_a_flood_is_cut_off(self, db: Path, clock: Clock) -> None:
        limits = Limits(messages_per_second=0.001, burst=5, rate_strikes=3, friend_seeds=True)
        with TestClient(create_app(db, clock=clock, limits=limits)) as client:
            _, keys = friend_room(client)
            with client.websocket_connect("/ws") as ws:
                seat = SeatClient(ws, keys[0])
                seat.hello()
                for _ in range(5):
                    seat.send(type="ping")
                    assert seat.receive() == {"type": "pong"}
                seat.send(type="ping")
                assert seat.receive()["code"] == "rate"
                seat.send(type="ping")
                assert seat.receive()["code"] == "rate"
                seat.send(type="ping")
                assert seat.receive()["message"] == "too many messages: the connection is closed"
                assert ws.receive()["code"] == 1008


class TestSecrecy:
    """Every message sent during many games is checked: no seat is sent a card it may not know."""

    @pytest.mark.parametrize("seed", range(6))
    def test_no_message_carries_another_seats_hidden_cards(self, client: TestClient, seed: int) -> None:
        room, keys = friend_room(
            client, seed=100 + seed, profile=["standard", "muggins", "five-card"][seed % 3]
        )
        with connect(client, keys[0]) as ann, connect(client, keys[1]) as bob:
            drain([ann])
            game = room_of(client, room["room"]).game
            for seat in (ann, bob):
                for message in seat.received:
                    if message["type"] == "state":
                        check_secrecy(message, game, seat.room["you"])
            play_out(client, room["room"], [ann, bob], kind="medium")
            assert all(m["type"] == "state" for s in (ann, bob) for m in s.received)

    def test_the_true_points_of_a_count_are_never_sent(self, client: TestClient) -> None:
        room, keys = friend_room(client, profile="muggins", seed=3)
        with connect(client, keys[0]) as ann, connect(client, keys[1]) as bob:
            drain([ann])
            play_out(client, room["room"], [ann, bob])
            assert not any("claim_points" in json.dumps(m) for s in (ann, bob) for m in s.received)

    def test_a_name_is_sent_as_text(self, client: TestClient) -> None:
        room = create(client, names=["<img src=x onerror=1>"])
        key = room["keys"][0]["key"]
        state = client.get(f"/api/rooms/{room['room']}/state", headers={"x-seat-key": key}).json()
        assert state["room"]["seats"][0]["name"] == "<img src=x onerror=1>"


# ----------------------------------------------------------------------------- hardening (issue 13)


def bucket(db: Path, clock: Clock, burst: int) -> TestClient:
    """An application whose connections get ``burst`` tokens and (in a test's time) no more."""
    limits = Limits(messages_per_second=0.001, burst=burst, rate_strikes=10**6, friend_seeds=True)
    return TestClient(create_app(db, clock=clock, limits=limits))


class TestHardening:
    def test_a_rooms_shuffles_come_from_a_secret_no_seat_can_search(self, client: TestClient) -> None:
        for mode in ("computer", "friend"):
            room = create(client, mode)
            truth = room_of(client, room["room"])
            # 32 bits can be searched from a seat's first view; 128 cannot.
            assert truth.game.seed is not None and truth.game.seed >= 2**128 and truth.seed >= 2**128
            key = room["keys"][0]["key"]
            with connect(client, key) as ann:
                sent = (
                    json.dumps(ann.received)
                    + client.get(f"/api/rooms/{room['room']}/state", headers={"x-seat-key": key}).text
                )
            assert str(truth.game.seed) not in sent and str(truth.seed) not in sent
            assert '"seed"' not in sent

    def test_new_games_do_not_grow_the_room_without_bound(self, client: TestClient, db: Path) -> None:
        room = create(client, "computer")
        with connect(client, room["keys"][0]["key"]) as ann:
            for _ in range(60):
                ann.send(type="new_game")
                ann.receive()
            assert ann.room["game"] == 61
            assert [h["game"] for h in ann.room["history"]] == list(range(41, 61))
        row = sqlite3.connect(db).execute("SELECT data FROM rooms").fetchone()[0]
        assert len(json.loads(row)["history"]) == 20

    @pytest.mark.parametrize(
        ("field", "value", "reason"),
        [
            ("last_active", "yesterday", "last_active"),
            ("seats", [{"name": "Ann", "kind": "grandmaster", "key_hash": None}] * 2, "seats.0.kind"),
            ("ready", [7], "ready.0"),
            ("number", 0, "number"),
            ("history", [{"game": 1}], "history.0"),
        ],
    )
    def test_a_bad_stored_field_is_refused_for_that_room_only(
        self, client: TestClient, db: Path, clock: Clock, field: str, value: Any, reason: str
    ) -> None:
        damaged, keys = friend_room(client)
        client.app.state.server.store._rooms.clear()  # type: ignore[attr-defined]
        with sqlite3.connect(db) as conn:
            data = json.loads(conn.execute("SELECT data FROM rooms").fetchone()[0])
            data[field] = value
            conn.execute("UPDATE rooms SET data = ? WHERE id = ?", (json.dumps(data), damaged["room"]))
        for _ in range(2):
            response = client.get(f"/api/rooms/{damaged['room']}/state", headers={"x-seat-key": keys[0]})
            assert response.status_code == 404
            error = response.json()["error"]
            assert error.startswith("this room's stored game cannot be read back") and "\n" not in error
            assert reason in error
        create(client)  # creating rooms never reads another room's contents
        clock.now += EXPIRY_SECONDS
        create(client)  # nor does the sweep of expired rooms

    def test_a_change_is_applied_only_over_the_version_it_was_read_at(self, db: Path, clock: Clock) -> None:
        room = Room.create(
            mode="computer", profile=load_profile(), names=["Ann"], level="easy", seed=1, now=0
        )[0]
        first, second = RoomStore(db), RoomStore(db)

        async def scenario() -> None:
            await first.add(room)
            mine, theirs = await first.get(room.id, 0), await second.get(room.id, 0)
            mine.connected.add(0)
            theirs.connected.add(0)
            hand = [str(c) for c in mine.game.view(0).hand]
            mine.act(0, f"discard {hand[0]} {hand[1]}", 1)
            await first.save(mine)
            theirs.act(0, f"discard {hand[2]} {hand[3]}", 1)  # the same seat's other discard, elsewhere
            with pytest.raises(RoomError) as refused:
                await second.save(theirs)
            assert refused.value.code == "conflict"
            assert (await second.get(room.id, 2)).game.view(0).discarded == mine.game.view(0).discarded
            await first.aclose()
            await second.aclose()

        asyncio.run(scenario())

    def test_a_full_sync_costs_more_than_a_ping(self, db: Path, clock: Clock) -> None:
        with bucket(db, clock, burst=40) as client:
            _, keys = friend_room(client)
            with connect(client, keys[0]) as ann:
                answers = []
                for _ in range(6):
                    ann.send(type="sync")
                    answers.append(ann.receive().get("code"))
        assert answers == [None] * 5 + ["rate"]

    @pytest.mark.parametrize("frame", ["binary", "empty", "oversize"])
    def test_every_frame_counts_against_the_rate(self, db: Path, clock: Clock, frame: str) -> None:
        with bucket(db, clock, burst=5) as client:
            _, keys = friend_room(client)
            with connect(client, keys[0]) as ann:
                codes = []
                for _ in range(6):
                    if frame == "binary":
                        ann.ws.send_bytes(b"{}")
                    else:
                        ann.ws.send_text("" if frame == "empty" else "x" * 5000)
                    codes.append(ann.receive()["code"])
        assert codes[-1] == "rate" and "rate" not in codes[:-1]

    def test_an_absent_friends_seat_can_be_reopened(self, client: TestClient) -> None:
        _room, keys = friend_room(client)
        with connect(client, keys[0]) as ann:
            assert not ann.room.get("invite")
            ann.send(type="reopen", seat=0)
            assert ann.receive()["code"] == "illegal"  # not one's own seat
            ann.send(type="reopen", seat=1)
            assert ann.receive()["type"] == "state"
            invite = ann.room["invite"]
            assert (
                invite and not ann.room["seats"][1]["joined"] and ann.room["seats"][1]["name"] == "Friend 1"
            )
        with client.websocket_connect("/ws") as ws:  # the lost key no longer holds the seat
            ws.send_json({"type": "hello", "key": keys[1]})
            assert ws.receive_json()["code"] == "bad-key"
        again = join(client, invite, "Friend 1")
        assert again["seat"] == 1
        with connect(client, keys[0]) as ann, connect(client, again["key"]) as bob:
            drain([ann])  # Bob's arrival
            assert bob.room["you"] == 1 and ann.room["seats"][1]["joined"]
            ann.send(type="reopen", seat=1)  # a connected seat is not reopened
            assert ann.receive()["code"] == "illegal"

    def test_every_seated_friend_is_shown_the_invitation(self, client: TestClient) -> None:
        room = create(client, profile="three-players")
        bob = join(client, room["invite"], "Bob")
        state = client.get(f"/api/rooms/{room['room']}/state", headers={"x-seat-key": bob["key"]}).json()
        assert state["room"]["invite"] == room["invite"]

    def test_an_expired_room_is_answered_410_until_its_tombstone_goes(
        self, client: TestClient, clock: Clock, db: Path
    ) -> None:
        room, keys = friend_room(client)
        url = f"/api/rooms/{room['room']}/state"
        clock.now += EXPIRY_SECONDS
        create(client)  # the sweep deletes the room first
        assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM rooms").fetchone()[0] == 1
        assert client.get(url, headers={"x-seat-key": keys[0]}).status_code == 410
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "key": keys[1]})
            assert ws.receive_json()["code"] == "expired"
            assert ws.receive()["code"] == 4410
        clock.now += 31 * DAY
        create(client)
        assert client.get(url, headers={"x-seat-key": keys[0]}).status_code == 404

    def test_answers_that_carry_keys_are_never_stored(self, client: TestClient) -> None:
        created = client.post("/api/rooms", json={"mode": "friend", "names": ["Ann"]})
        joined = client.post("/api/join", json={"invite": created.json()["invite"], "name": "Bob"})
        state = client.get(
            f"/api/rooms/{created.json()['room']}/state", headers={"x-seat-key": joined.json()["key"]}
        )
        refused = client.get(f"/api/rooms/{created.json()['room']}/state")
        for response in (created, joined, state, refused):
            assert response.headers["cache-control"] == "no-store"

    def test_only_json_from_this_servers_own_pages_creates_rooms(self, client: TestClient, db: Path) -> None:
        body = json.dumps({"mode": "friend", "names": ["Ann"]})
        form = client.post("/api/rooms", content=body, headers={"content-type": "text/plain"})
        assert form.status_code == 400 and "application/json" in form.json()["error"]
        json_type = {"content-type": "application/json"}
        other = client.post(
            "/api/rooms", content=body, headers={**json_type, "origin": "https://evil.example"}
        )
        assert other.status_code == 403 and other.json()["code"] == "cross-site"
        join_other = client.post(
            "/api/join", json={"invite": "x.y", "name": "B"}, headers={"origin": "https://evil.example"}
        )
        assert join_other.status_code == 403
        assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM rooms").fetchone()[0] == 0
        own = client.post("/api/rooms", content=body, headers={**json_type, "origin": "http://testserver"})
        assert own.status_code == 201
        key = own.json()["keys"][0]["key"]
        with client.websocket_connect("/ws", headers={"origin": "https://evil.example"}) as ws:
            ws.send_json({"type": "hello", "key": key})
            assert ws.receive_json()["code"] == "cross-site"
        with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
            ws.send_json({"type": "hello", "key": key})
            assert ws.receive_json()["type"] == "state"

    @pytest.mark.parametrize(
        ("names", "message"),
        [
            (["Computer (hard)"], "computer seat"),
            (["ＣＯＭＰＵＴＥＲ"], "computer seat"),
            (["A" + "\u0301" * 4], "accents"),
            (["Ann", " ann "], "already at this table"),
            (["Ann", "A n n"], "already at this table"),
            (["Ｂob", "bob"], "already at this table"),
        ],
    )
    def test_names_that_impersonate_are_refused(
        self, client: TestClient, names: list[str], message: str
    ) -> None:
        mode = "same-device" if len(names) == 2 else "computer"
        response = client.post("/api/rooms", json={"mode": mode, "names": names})
        assert response.status_code == 400 and message in response.json()["error"]

    def test_a_joining_name_may_not_copy_a_seated_one(self, client: TestClient) -> None:
        room = create(client, profile="three-players")
        join(client, room["invite"], "Bob")
        for name in ("ANN", "bob", "Computer 1"):
            response = client.post("/api/join", json={"invite": room["invite"], "name": name})
            assert response.status_code == 400, name
        assert join(client, room["invite"], "Cy")["seat"] == 2
        assert create(client, names=["Ä" + "\u0301" * 2])["room"]  # a few accents are fine

    def test_a_move_over_a_room_changed_elsewhere_is_refused_and_play_goes_on(
        self, client: TestClient, db: Path
    ) -> None:
        room = create(client, "computer", seed=2)
        with connect(client, room["keys"][0]["key"]) as ann:
            with sqlite3.connect(db) as conn:  # another server wrote the room meanwhile
                conn.execute("UPDATE rooms SET version = version + 1")
            hand = [str(c) for c in ann.view.hand]
            assert ann.act(f"discard {hand[0]} {hand[1]}")["code"] == "conflict"
            assert ann.act(f"discard {hand[0]} {hand[1]}")["type"] == "state"  # read afresh: applied once
            assert ann.room["waiting_for"] == [] and len(ann.view.discarded) == 2
