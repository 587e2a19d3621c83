"""Rooms: a table of seats around one game at a time, with everything the server adds to the engine.

A `Room` is pure state and rules, with no I/O: the seats (human or a computer level, each human seat
proved by the hash of its secret key), the game on the engine, the pause between hands, a proposed new
game, the games already played, and when the room was last active. Every change goes through a method
that either succeeds or raises `RoomError` and leaves the room as it was. The server stores a room as
`Room.to_json` (the game as its record) after every change and rebuilds it with `Room.from_json`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import operator
import random
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..actions import Action, ActionParseError, IllegalAction, parse_action
from ..engine import DealLog, Game
from ..events import Event
from ..players.base import Player
from ..players.expert import ExpertPlayer
from ..players.hints import hint
from ..players.registry import make_player
from ..profiles import Profile
from ..records import deal_record, game_record, replay
from ..validation import first_problem
from ..views import SeatView
from .jsontext import compact
from .messages import MAX_NAME, Mode
from .wire import event_text, event_to_json, view_to_json

__all__ = [
    "EXPIRY_SECONDS",
    "Room",
    "RoomError",
    "Seat",
    "hash_secret",
    "new_secret",
    "seal_invite",
    "split_secret",
    "unseal_invite",
]

EXPIRY_SECONDS = 7 * 24 * 3600
"""A room with no accepted request or message for this long is expired."""

ROOM_FORMAT = 1

HISTORY_KEPT = 20
"""How many finished or abandoned games a room remembers (the most recent): a room's state and its
stored row stay small however many new games are started."""

CHOSEN_SEEDS = 2**32
"""Seeds below this are chosen ones (a test's known deals; `CreateRoom` bounds them) and keep their
32-bit games; a room's own secret seed is at least this and at most 256 bits."""


class RoomError(ValueError):
    """A request the room refuses; ``code`` is the protocol's error code (see ``docs/server.md``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def new_secret(room_id: str) -> str:
    """A new unguessable secret for ``room_id``: the room's id, a dot, and 32 random bytes."""
    return f"{room_id}.{secrets.token_urlsafe(32)}"


def split_secret(secret: str) -> str:
    """The room id a seat key or invitation names (the part before the dot)."""
    room_id, dot, rest = secret.partition(".")
    if not dot or not room_id or not rest:
        raise RoomError("bad-key", "that is not a seat key or invitation")
    return room_id


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _invite_pad(key: str, invite_hash: str) -> bytes:
    """The 32 bytes a seat's ``key`` seals one invitation (named by its hash) with."""
    return hmac.new(key.encode(), f"cribcore-invite/{invite_hash}".encode(), hashlib.sha256).digest()


def seal_invite(invite: str, key: str, invite_hash: str) -> str | None:
    """``invite`` sealed with a seat's ``key``: what the room stores so that the seat's holder, and
    nobody who reads only the database, can be shown the invitation again (hex; ``None`` for an
    invitation not of `new_secret`'s form, which is then not sealed)."""
    token = invite.partition(".")[2]
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except ValueError:
        return None
    if len(raw) != 32 or base64.urlsafe_b64encode(raw).rstrip(b"=").decode() != token:
        return None
    return bytes(a ^ b for a, b in zip(raw, _invite_pad(key, invite_hash), strict=True)).hex()


def unseal_invite(room_id: str, sealed: str, key: str, invite_hash: str) -> str | None:
    """The invitation `seal_invite` sealed with ``key``, or ``None`` when it does not open to the
    invitation whose hash is ``invite_hash``."""
    raw = bytes(a ^ b for a, b in zip(bytes.fromhex(sealed), _invite_pad(key, invite_hash), strict=True))
    invite = f"{room_id}.{base64.urlsafe_b64encode(raw).rstrip(b'=').decode()}"
    return invite if hmac.compare_digest(hash_secret(invite), invite_hash) else None


@dataclass(slots=True)
class Seat:
    """One seat: a human (``kind`` ``"human"``, joined once ``key_hash`` is set) or a computer level."""

    name: str
    kind: str
    key_hash: str | None = None
    sealed_invite: str | None = None
    """The room's invitation sealed with this seat's key (`seal_invite`), while there is one."""

    @property
    def human(self) -> bool:
        return self.kind == "human"

    @property
    def joined(self) -> bool:
        return not self.human or self.key_hash is not None


def _secret_room_seed() -> int:
    """A room's secret seed: 256 random bits (at least `CHOSEN_SEEDS`), so no seat can search for it
    from the cards it sees."""
    return CHOSEN_SEEDS + secrets.randbelow(2**256 - CHOSEN_SEEDS)


_ACTIONS: dict[str, Action] = {}
"""Each action text a seat has sent, parsed (actions are values: one may stand for every use of its
text; a game's few hundred texts repeat across games)."""
_ACTIONS_KEPT = 4096


def _game_seed(room_seed: int, number: int) -> int:
    """Game ``number``'s shuffle seed, fixed by the room's seed so a seeded room is reproducible.

    A chosen (test) seed keeps the 32-bit games it has always given; a secret room seed gives a 256-bit
    game seed (a hash of it), so the cards a seat sees never narrow it down to a searchable set.
    """
    if room_seed < CHOSEN_SEEDS:
        return random.Random(f"{room_seed}:{number}").randrange(2**32)
    return int.from_bytes(hashlib.sha256(f"cribcore-room/{room_seed}/{number}".encode()).digest())


def name_key(name: str) -> str:
    """What two names are compared by: NFKC, case-folded, without whitespace."""
    return "".join(unicodedata.normalize("NFKC", name).casefold().split())


def _check_distinct(names: list[str]) -> None:
    seen: set[str] = set()
    for name in names:
        if name_key(name) in seen:
            raise RoomError("malformed", f"name: {name!r} is already at this table: choose another")
        seen.add(name_key(name))


@dataclass
class Room:
    """One room. Build new rooms with `Room.create`; ``clock`` gives the time in seconds (injected by
    tests to move seven days on)."""

    id: str
    mode: Mode
    profile: Profile
    seats: list[Seat]
    seed: int
    game: Game
    number: int = 1
    invite: str | None = None
    """The invitation code while a seat is free (friend rooms), when this process knows it: it is never
    stored. The room stores its hash (`invite_hash`), as it does seat keys', and each seated player's
    copy sealed with that player's key (`Seat.sealed_invite`); a seat's key presented here opens it
    (`remember_key`), so that it is shown again to the seated players."""
    invite_hash: str | None = None
    """The hash of the invitation (`hash_secret`), while there is one: what a join is checked against."""
    last_active: float = 0.0
    between_hands: int | None = None
    ready: set[int] = field(default_factory=set)
    proposed_by: int | None = None
    agreed: set[int] = field(default_factory=set)
    history: list[dict[str, Any]] = field(default_factory=list)
    connected: set[int] = field(default_factory=set)
    """Seats with an open connection (kept by the server, not stored)."""
    defer_computers: bool = False
    """Whether the computer seats' moves wait for the caller (`computer_turn`, `computer_move`) instead
    of being made within each change (not stored): the server sets it, to decide off its event loop."""
    _players: dict[int, Player] = field(default_factory=dict)
    _record: _RecordText = field(default_factory=lambda: _RecordText())
    """The stored text of the game's record, kept between saves (`to_text`)."""
    _event_json: dict[tuple[int, str], tuple[Event, str]] = field(default_factory=dict)
    """Each event of the game as sent, per language, by the event's identity (the entry keeps the
    event, so its id is not reused): its JSON text. Both seats are sent the same public events, and
    each seat's log is kept by the engine, so an event is worded once."""
    _expires: tuple[float, str] = (math.nan, "")
    """`expires_at` as the text a state carries, for the whole second it shows (`_expires_text`)."""
    _room_data: dict[int, tuple[tuple[Any, ...], dict[str, Any]]] = field(default_factory=dict)
    """Each seat's last `room_json`, with what it was written from (`room_json_kept`)."""
    _head: tuple[tuple[Any, ...] | None, str] = (None, "")
    _keys: dict[int, str] = field(default_factory=dict, repr=False)
    """The seat keys presented to this process (not stored): they seal a new invitation for their
    seats."""
    """`to_text`'s text of the room's fields but ``last_active`` and the record, with what it was
    written from."""

    # ----------------------------------------------------------------- creating and storing

    @classmethod
    def create(
        cls,
        *,
        mode: Mode,
        profile: Profile,
        names: list[str],
        level: str,
        seed: int | None,
        now: float,
        defer_computers: bool = False,
    ) -> tuple[Room, list[tuple[int, str]], str | None]:
        """A new room, the seat keys its creator holds (``(seat, key)`` pairs) and the invitation code
        (friend rooms only). Raises `RoomError` when the names do not fit the mode and profile.
        ``defer_computers``: see `Room.defer_computers` (the computers' first moves are the caller's)."""
        seats_wanted = profile.rules.seats
        if mode == "same-device":
            if len(names) != seats_wanted:
                raise RoomError(
                    "malformed",
                    f"names: {profile.name} seats {seats_wanted} players, so give {seats_wanted} names",
                )
        elif len(names) != 1:
            raise RoomError("malformed", "names: give only your own name (the other seats are filled in)")
        room_id = secrets.token_urlsafe(9)
        seats: list[Seat] = []
        for index in range(seats_wanted):
            if mode == "same-device" or index == 0:
                seats.append(Seat(names[index], "human"))
            elif mode == "computer":
                seats.append(Seat(f"Computer ({level})" if seats_wanted == 2 else f"Computer {index}", level))
            else:
                seats.append(Seat(f"Seat {index + 1}", "human"))
        keys: list[tuple[int, str]] = []
        for index, seat in enumerate(seats):
            if seat.human and (mode == "same-device" or index == 0):
                key = new_secret(room_id)
                seat.key_hash = hash_secret(key)
                keys.append((index, key))
        invite = new_secret(room_id) if mode == "friend" else None
        invite_hash = hash_secret(invite) if invite is not None else None
        if invite is not None and invite_hash is not None:
            for index, key in keys:
                seats[index].sealed_invite = seal_invite(invite, key, invite_hash)
        if mode == "same-device":
            _check_distinct(names)
        room_seed = seed if seed is not None else _secret_room_seed()
        game = Game(profile, seed=_game_seed(room_seed, 1), players=[seat.name for seat in seats])
        room = cls(
            id=room_id,
            mode=mode,
            profile=profile,
            seats=seats,
            seed=room_seed,
            game=game,
            invite=invite,
            invite_hash=invite_hash,
            last_active=now,
            defer_computers=defer_computers,
            _keys=dict(keys),
        )
        room._run_computers()
        return room, keys, invite

    def to_json(self) -> dict[str, Any]:
        """Everything needed to rebuild the room (connections aside); the game travels as its record."""
        return {**self.to_json_without_record(), "record": game_record(self.game)}

    def to_json_without_record(self) -> dict[str, Any]:
        """`to_json` but the record."""
        return {
            "format": ROOM_FORMAT,
            "id": self.id,
            "mode": self.mode,
            "seats": [
                {"name": s.name, "kind": s.kind, "key_hash": s.key_hash, "sealed_invite": s.sealed_invite}
                for s in self.seats
            ],
            "seed": self.seed,
            "number": self.number,
            "invite_hash": self.invite_hash,
            "last_active": self.last_active,
            "between_hands": self.between_hands,
            "ready": sorted(self.ready),
            "proposed_by": self.proposed_by,
            "agreed": sorted(self.agreed),
            "history": self.history,
        }

    def to_text(self) -> str:
        """`to_json` as compact JSON text (how a room is stored). Written from parts kept between
        saves (the room is saved after every move): the room's fields but the time it was last active
        while they stay the same, and the record's finished deals (only the deal in play is new)."""
        made_from = (
            self.number,
            self.invite_hash,
            self.between_hands,
            tuple(sorted(self.ready)),
            self.proposed_by,
            tuple(sorted(self.agreed)),
            tuple([(s.name, s.kind, s.key_hash, s.sealed_invite) for s in self.seats]),
            list(self.history),  # its entries are added and dropped, never changed
        )
        kept_from, head = self._head
        if kept_from != made_from:
            data = self.to_json_without_record()
            del data["last_active"]
            # The seed (256 bits) is written apart: orjson refuses integers beyond 64 bits, and the
            # whole room would otherwise be written by `json`. An integer's JSON is its decimal digits.
            seed = int(data.pop("seed"))
            head = f'{_compact(data)[:-1]},"seed":{seed}'
            self._head = (made_from, head)
        # A float's JSON is its shortest round-trip text (`repr`), as `json` writes it; never NaN or
        # infinite (a clock's reading).
        return f'{head},"last_active":{float(self.last_active)!r},"record":{self._record.text(self.game)}}}'

    @classmethod
    def from_json(cls, data: str | bytes | dict[str, Any]) -> Room:
        """The room `to_json` stored (as JSON text or data), every field checked; raises `RoomError`
        (code ``no-room``) with one line naming the first field that cannot be rebuilt."""
        try:
            if isinstance(data, dict):
                row = StoredRoom.model_validate(data)
            else:
                row = StoredRoom.model_validate_json(data)
        except ValidationError as exc:
            if exc.errors()[0]["type"] == "json_invalid":
                raise RoomError("no-room", "this room's stored game cannot be read back (not JSON)") from None
            where, reason = first_problem(exc, whole="room")
            raise RoomError(
                "no-room", f"this room's stored game cannot be read back ({where}: {reason})"
            ) from None
        try:
            game = replay(row.record, continue_dealing=True)
        except Exception as exc:  # whatever a damaged record breaks, it is this room's row only
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise RoomError("no-room", f"this room's stored game cannot be read back ({reason})") from None
        seats = len(row.seats)
        if game.profile.rules.seats != seats or len(game.players) != seats:
            raise RoomError("no-room", "this room's stored game cannot be read back (seats: not the game's)")
        if any(i >= seats for i in (*row.ready, *row.agreed, row.proposed_by or 0)):
            raise RoomError("no-room", "this room's stored game cannot be read back (ready: no such seat)")
        return cls(
            id=row.id,
            mode=row.mode,
            profile=game.profile,
            seats=[Seat(s.name, s.kind, s.key_hash, s.sealed_invite) for s in row.seats],
            seed=row.seed,
            game=game,
            number=row.number,
            # A room stored before invitations were hashed has its invitation in clear: it is known
            # here, and stored hashed from the next save on (each seat's sealed copy as it connects).
            invite=row.invite,
            invite_hash=row.invite_hash or (hash_secret(row.invite) if row.invite else None),
            last_active=row.last_active,
            between_hands=row.between_hands,
            ready=set(row.ready),
            proposed_by=row.proposed_by,
            agreed=set(row.agreed),
            history=[h.model_dump() for h in row.history][-HISTORY_KEPT:],
        )

    # ----------------------------------------------------------------- who is who

    def expires_at(self) -> float:
        return self.last_active + EXPIRY_SECONDS

    def expired(self, now: float) -> bool:
        return now >= self.expires_at()

    def seat_of(self, key: str) -> int:
        """The seat ``key`` holds; raises `RoomError` (``bad-key``) when it holds none."""
        digest = hash_secret(key)
        for index, seat in enumerate(self.seats):
            if seat.key_hash is not None and hmac.compare_digest(seat.key_hash, digest):
                return index
        raise RoomError("bad-key", "that is not a seat key of this room")

    def join(self, invite: str, name: str, now: float) -> tuple[int, str]:
        """Seat the holder of ``invite`` at the next free seat under ``name``; returns the seat and its
        new key. Raises `RoomError` for a wrong invitation (``bad-key``) or a full room (``full``)."""
        if self.invite_hash is None or not hmac.compare_digest(self.invite_hash, hash_secret(invite)):
            raise RoomError("bad-key", "that invitation is not valid (ask for a new link)")
        free = self.free_seats()
        if not free:
            raise RoomError("full", "this room is full: every seat is taken")
        index = free[0]
        _check_distinct([*(s.name for i, s in enumerate(self.seats) if s.joined and i != index), name])
        key = new_secret(self.id)
        self.seats[index] = Seat(name, "human", hash_secret(key))
        self.game.players = tuple(seat.name for seat in self.seats)
        self.last_active = now
        self.invite = invite  # known here now: sealed for the new seat, and shown to the others
        self.remember_key(index, key)
        return index, key

    def reopen(self, by: int, seat: int, now: float) -> str:
        """``by`` (a seated player) reopens ``seat`` for a friend who lost its key: the seat's key is
        revoked and a fresh invitation (replacing any other) takes the seat back; returns it. Only an
        absent human seat of a friend room can be reopened, and never by itself."""
        if self.mode != "friend":
            raise RoomError("illegal", "only a friend room's seats can be reopened")
        if not 0 <= seat < len(self.seats) or seat == by:
            raise RoomError("illegal", "seat: reopen another player's seat")
        target = self.seats[seat]
        if not target.human or not target.joined:
            raise RoomError("illegal", "seat: that seat is not held by a player")
        if seat in self.connected:
            raise RoomError("illegal", f"{target.name} is connected: only an absent seat can be reopened")
        target.key_hash = None
        self._keys.pop(seat, None)
        invite = self.invite = new_secret(self.id)
        self.invite_hash = hash_secret(invite)
        for index, other in enumerate(self.seats):
            other.sealed_invite = None
            key = self._keys.get(index)
            if key is not None and other.key_hash == hash_secret(key):
                other.sealed_invite = seal_invite(invite, key, self.invite_hash)
        self.last_active = now
        return invite

    def remember_key(self, seat: int, key: str) -> None:
        """``seat``'s holder presented ``key`` here (its hello, a read of its state): the invitation is
        opened from the seat's sealed copy when this process does not know it, or sealed for the seat
        when it knows it and the seat has no copy yet."""
        self._keys[seat] = key
        invite_hash = self.invite_hash
        if invite_hash is None:
            return
        holder = self.seats[seat]
        if self.invite is None:
            if holder.sealed_invite is not None:
                self.invite = unseal_invite(self.id, holder.sealed_invite, key, invite_hash)
        elif holder.sealed_invite is None:
            holder.sealed_invite = seal_invite(self.invite, key, invite_hash)

    def free_seats(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if not seat.joined]

    def waiting_for(self) -> list[str]:
        """The human seats the play waits for: not joined yet, or with no open connection."""
        return [
            seat.name
            for index, seat in enumerate(self.seats)
            if seat.human and (not seat.joined or index not in self.connected)
        ]

    # ----------------------------------------------------------------- what the seats do

    def act(self, seat: int, text: str, now: float) -> None:
        """Apply ``seat``'s action (text form), then every computer seat's moves that follow."""
        self._check_can_act()
        action = _ACTIONS.get(text)
        if action is None:
            try:
                action = parse_action(text)
            except ActionParseError as exc:
                raise RoomError("malformed", f"action: {exc}") from None
            if len(_ACTIONS) >= _ACTIONS_KEPT:
                _ACTIONS.clear()
            _ACTIONS[text] = action
        try:
            self._apply(seat, action)
        except IllegalAction as exc:
            raise RoomError("illegal", str(exc)) from None
        self.last_active = now
        self._run_computers()

    def next_hand(self, seat: int, now: float) -> None:
        """``seat`` has read the show; the hand starts once every human seat has said so."""
        if self.between_hands is None:
            raise RoomError("illegal", "there is no hand to move on from: play goes on")
        self.ready.add(seat)
        self.last_active = now
        if all(i in self.ready for i, s in enumerate(self.seats) if s.human):
            self.between_hands = None
            self.ready = set()
            self._run_computers()

    def new_game(self, seat: int, now: float, replacing: int | None = None) -> bool:
        """Propose (or agree to) a new game; returns whether it started. After a game is over it starts
        at once; during one, only when every human seat has agreed. ``replacing`` (the game the seat
        saw) refuses a request that arrives after that game was already replaced."""
        if replacing is not None and replacing != self.number:
            raise RoomError(
                "illegal", f"game {replacing} has already been replaced: this is game {self.number}"
            )
        self.last_active = now
        if not self.game.is_over:
            if self.proposed_by is None:
                self.proposed_by = seat
            self.agreed.add(seat)
            if not all(i in self.agreed for i, s in enumerate(self.seats) if s.human):
                return False
        self._start_next_game()
        return True

    def decline(self, seat: int, now: float) -> None:
        """Decline or withdraw the proposed new game."""
        if self.proposed_by is None:
            raise RoomError("illegal", "no new game has been proposed")
        self.proposed_by = None
        self.agreed = set()
        self.last_active = now

    def hint(self, seat: int, lang: str | None = None) -> dict[str, Any]:
        """A ``hint`` message for ``seat``: the expert's choice from its view, with the reason (in
        ``lang``). Only where no other person plays (against the computer, or on one device): a hint in
        a game with a friend would be a computer playing for one side."""
        if self.mode == "friend":
            raise RoomError("illegal", "hints are for games against the computer or on one device")
        self._check_can_act()
        view = self.game.view(seat)
        if not view.legal_actions:
            raise RoomError("illegal", "it is not your turn: there is nothing to hint")
        suggestion = hint(view, lang)
        return {"type": "hint", "seat": seat, "action": str(suggestion.action), "reason": suggestion.reason}

    def review(self, seat: int, lang: str | None = None) -> dict[str, Any]:
        """A ``review`` message for ``seat``: the coach's review of its decisions in the finished game
        (`cribcore.review`, the numbers of ``cribbage review --json``), reasons in ``lang``. Only once
        the game is over: each decision is judged from the seat's own view, so nothing hidden is told."""
        if not self.game.is_over:
            raise RoomError("illegal", "the review comes when the game is over")
        from ..review import review_game  # the coach loads only when a review is asked for

        try:
            review = review_game(game_record(self.game), seat, lang=lang)
        except ValueError as exc:  # a game the coach cannot judge (a pack with jokers): said in one line
            raise RoomError("illegal", f"no review: {exc}") from None
        return {"type": "review", "seat": seat, "review": review.to_json()}

    def touch(self, now: float) -> None:
        self.last_active = now

    # ----------------------------------------------------------------- what the seats see

    def room_json(self, seat: int) -> dict[str, Any]:
        """The ``room`` object of a state message for the holder of ``seat``."""
        connected = self.connected
        seats = []
        waiting = []
        free = False
        # Sent after every move to every seat: the seats' properties are read directly.
        for index, s in enumerate(self.seats):
            human = s.kind == "human"
            joined = not human or s.key_hash is not None
            here = not human or index in connected
            seats.append({"seat": index, "name": s.name, "kind": s.kind, "joined": joined, "connected": here})
            if not here or not joined:
                waiting.append(s.name)
            free = free or not joined
        return {
            "id": self.id,
            "mode": self.mode,
            "profile": {"name": self.profile.name, "description": self.profile.description},
            "game": self.number,
            "seats": seats,
            "you": seat,
            "waiting_for": waiting,
            "between_hands": (
                {"deal": self.between_hands, "ready": sorted(self.ready)}
                if self.between_hands is not None
                else None
            ),
            "new_game": (
                {"proposed_by": self.proposed_by, "agreed": sorted(self.agreed)}
                if self.proposed_by is not None
                else None
            ),
            # Every seated player may pass the invitation on (the creator may be the one away).
            "invite": self.invite if free and self.seats[seat].human else None,
            "expires": self._expires_text(),
            # A copy: a connection's last state is kept to send only what changed since.
            "history": list(self.history),
        }

    def room_json_kept(self, seat: int, made_from: tuple[Any, ...] | None = None) -> dict[str, Any]:
        """`room_json`, the very same object as last time while nothing it is written from changed (a
        state is sent to every seat after every move, and the room rarely changes): never to be
        changed by the caller. ``made_from`` is `room_json_source` as it is now, when the caller has
        it (one for every seat sent a state at once)."""
        if made_from is None:
            made_from = self.room_json_source()
        kept = self._room_data.get(seat)
        if kept is not None and kept[0] == made_from:
            return kept[1]
        data = self.room_json(seat)
        self._room_data[seat] = (made_from, data)
        return data

    def room_json_source(self) -> tuple[Any, ...]:
        """Everything `room_json` is written from, for any seat (equal while it writes the same)."""
        return (
            self.number,
            self.between_hands,
            tuple(sorted(self.ready)),
            self.proposed_by,
            tuple(sorted(self.agreed)),
            self.invite,
            self._expires_text(),
            tuple(sorted(self.connected)),
            tuple([(s.name, s.kind, s.key_hash) for s in self.seats]),
            list(self.history),  # its entries are added and dropped, never changed
        )

    def state(self, seat: int, events_start: int = 0, lang: str = "en") -> dict[str, Any]:
        """A ``state`` message for ``seat`` carrying the events from ``events_start`` on, their words
        (item names, reasons, spoken counts) in ``lang``."""
        view = self.game.view(seat)
        return {
            "type": "state",
            "room": self.room_json(seat),
            "view": view_to_json(view),
            "events_start": events_start,
            "events": [self._event(event, lang) for event in view.events[events_start:]],
        }

    def _event(self, event: Event, lang: str) -> dict[str, Any]:
        return event_to_json(event, lang=lang)

    def event_texts(self, events: Sequence[Event], lang: str) -> list[str]:
        """``events`` (of this game's views) as the JSON texts a state message carries, in ``lang``."""
        worded = self._event_json
        # Events are values (frozen): the same one is worded once per language, not once per message.
        return [
            found[1] if (found := worded.get((id(event), lang))) is not None else self._word(event, lang)
            for event in events
        ]

    def _word(self, event: Event, lang: str) -> str:
        text = event_text(event, lang=lang)
        self._event_json[id(event), lang] = (event, text)
        return text

    def _expires_text(self) -> str:
        # The text shows whole seconds, and every move moves `last_active` on by a fraction of one: it
        # is kept by the second it shows, except within a microsecond of the next one, where the
        # rounding to microseconds before the seconds are cut off could show the next second.
        at, text = self._expires
        expires = self.expires_at()
        second = math.floor(expires)
        if at != second:
            text = datetime.fromtimestamp(expires, UTC).isoformat(timespec="seconds")
            self._expires = (second if expires - second < 0.999999 else math.nan, text)
        return text

    # ----------------------------------------------------------------- inside

    def _check_can_act(self) -> None:
        missing = self.waiting_for()
        if missing:
            who = " and ".join(missing)
            everyone = "both players" if len(self.seats) == 2 else "every player"
            raise RoomError("waiting", f"waiting for {who} to connect: {everyone} must be connected")
        if self.between_hands is not None:
            raise RoomError("between-hands", "the next hand starts when every player has pressed Next hand")

    def _apply(self, seat: int, action: Action) -> None:
        deal = self.game.deal_number
        self.game.apply(seat, action)
        if not self.game.is_over and self.game.deal_number != deal and any(s.human for s in self.seats):
            self.between_hands = deal
            self.ready = set()

    def _player(self, seat: int) -> Player:
        player = self._players.get(seat)
        if player is None:
            player = make_player(self.seats[seat].kind, seed=_game_seed(self.seed, 1000 * self.number + seat))
            if isinstance(player, ExpertPlayer):
                # A computer seat's move holds its room (and, in a process without the server's
                # deferral, everything): a house rule's first win table (a minute of self-play) would
                # stop the table that long, so without one at hand it plays for points.
                player.compute_tables = False
            self._players[seat] = player
        return player

    def computer_turn(self) -> tuple[int, Player, SeatView] | None:
        """The computer seat to move now, its player and its seat's view (all its decision may see), or
        None when no computer seat is to move. The move is made with `computer_move`."""
        if self.game.is_over or self.between_hands is not None:
            return None
        for seat in self.game.to_act:
            if not self.seats[seat].human:
                return seat, self._player(seat), self.game.view(seat)
        return None

    def computer_move(self, seat: int, action: Action) -> None:
        """Make the move the player of `computer_turn` chose for ``seat``."""
        self._apply(seat, action)

    def _run_computers(self) -> None:
        if self.defer_computers:
            return
        while (turn := self.computer_turn()) is not None:
            seat, player, view = turn
            self.computer_move(seat, player.choose(view))

    def _start_next_game(self) -> None:
        game = self.game
        self.history.append(
            {
                "game": self.number,
                "scores": list(game.scores),
                "winner": game.winner,
                "finished": game.is_over,
            }
        )
        del self.history[:-HISTORY_KEPT]
        self.number += 1
        self.game = Game(self.profile, seed=_game_seed(self.seed, self.number), players=game.players)
        self.between_hands = None
        self.ready = set()
        self.proposed_by = None
        self.agreed = set()
        self._players = {}
        self._event_json = {}
        self._run_computers()


_compact = compact


@dataclass
class _RecordText:
    """The JSON text of one game's record, as `cribcore.records.game_record` gives it, built from parts
    kept between calls: the header (profile, players, seed) while the game and its names stay, the
    finished deals' text (a finished deal never changes), and the deal in play's text but its plays
    while its cards, discards and claims stay, so a save writes only the cards played."""

    game: Game | None = None
    players: tuple[str, ...] = ()
    head: str = ""
    deals: list[DealLog] = field(default_factory=list)
    """The finished deals written, as the engine keeps them (the same objects while they stand)."""
    finished: str = ""
    """Their texts, each followed by a comma."""
    current: tuple[tuple[Any, ...] | None, str, str] = (None, "", "")
    """The deal in play's fields but its plays, and the text before and after its plays."""

    over: tuple[Game | None, tuple[str, ...], str] = (None, (), "")
    """A finished game, its players' names and its whole record's text (it changes no more)."""

    def text(self, game: Game) -> str:
        players = tuple(game.players)
        if game.is_over:  # once a game, with its result: the whole record, written once
            if self.over[0] is not game or self.over[1] != players:
                self.over = (game, players, _compact(game_record(game)))
            return self.over[2]
        if self.game is not game or self.players != players:  # a seat taken renames its player
            record = game_record(game)
            del record["deals"]
            self.game, self.players, self.head = game, players, _compact(record)[:-1]
            self.deals, self.finished = [], ""
        logs = game.deal_logs()
        *done, playing = logs if logs else (None,)
        kept = self.deals
        # The engine keeps each finished deal's log as the same object, and only adds to them: the
        # deals finished since the last call are written (the first time or after a change, all).
        if len(kept) != len(done) or (kept and kept[-1] is not done[-1]):
            known = len(kept) if len(kept) <= len(done) and all(map(operator.is_, kept, done)) else 0
            if not known:
                self.finished = ""
            self.finished += "".join(f"{_compact(deal_record(log))}," for log in done[known:])
            self.deals = done
        if playing is None:
            return f'{self.head},"deals":[{self.finished[:-1]}]}}'
        return f'{self.head},"deals":[{self.finished}{self._playing(playing)}]}}'

    def _playing(self, log: DealLog) -> str:
        made_from = (
            log.dealer,
            log.hands,
            log.crib_cards,
            log.starter,
            log.discards,
            log.claims,
            log.discard_order,
            log.phase_actions,
        )
        kept_from, before, after = self.current
        if kept_from != made_from:
            # `deal_record` with its plays cut out: the text on either side of them.
            whole = _compact({**deal_record(log), "plays": [_PLAYS_MARK]})
            before, _, after = whole.partition(f'["{_PLAYS_MARK}"]')
            self.current = (made_from, before, after)
        plays = ",".join([f'"{card.text}"' for card in log.plays])
        return f"{before}[{plays}]{after}"


_PLAYS_MARK = "plays-go-here"
"""Written where a deal's plays go, to cut its text there (no card's text looks like it)."""


# ----------------------------------------------------------------------------- the stored shape

_ROW = ConfigDict(extra="forbid", strict=True)
_Index = Annotated[int, Field(ge=0, le=3)]


class _StoredSeat(BaseModel):
    model_config = _ROW
    name: str = Field(min_length=1, max_length=MAX_NAME)
    kind: Literal["human", "easy", "medium", "hard", "expert"]
    key_hash: str | None = Field(pattern=r"^[0-9a-f]{64}$")
    sealed_invite: str | None = Field(None, pattern=r"^[0-9a-f]{64}$")


class _StoredGame(BaseModel):
    model_config = _ROW
    game: int = Field(ge=1)
    scores: list[int] = Field(max_length=4)
    winner: _Index | None
    finished: bool


class StoredRoom(BaseModel):
    """A stored room as `Room.to_json` writes it; every field is checked before a room is rebuilt."""

    model_config = _ROW
    format: Literal[1]
    id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    mode: Mode
    seats: list[_StoredSeat] = Field(min_length=2, max_length=4)
    seed: int = Field(ge=0, lt=2**256)
    number: int = Field(ge=1)
    invite: str | None = Field(None, max_length=200)
    """An invitation in clear, as rooms stored it before they hashed it (read, never written)."""
    invite_hash: str | None = Field(None, pattern=r"^[0-9a-f]{64}$")
    last_active: float = Field(allow_inf_nan=False)
    between_hands: int | None = Field(ge=0)
    ready: list[_Index] = Field(max_length=4)
    proposed_by: _Index | None
    agreed: list[_Index] = Field(max_length=4)
    history: list[_StoredGame]
    record: dict[str, Any]
