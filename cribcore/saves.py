"""Saved games: a game in progress kept on disk so that it can be resumed exactly where it stopped.

A save is a small JSON envelope around a game record (`cribcore.records`)::

    {"format": "cribbage-save", "version": 1, "mode": "computer", "saved_at": "2025-01-31T20:15:00Z",
     "seats": [{"kind": "human", "name": "Ann"}, {"kind": "computer", "name": "Computer"}],
     "level": "computer", "profile": "standard", "match": null, "scores": [45, 52],
     "game": {<the game record>}, "checksum": "sha256:…"}

The game is always rebuilt by replaying its record (`cribcore.records.replay` with the seed dealing the
cards to come), so a resumed game is the same game, card for card, and every rule the engine knows is
checked again on the way. There is one save slot per mode (`MODES`), under the user's data directory
(`data_dir`).

Contracts: `write_save` is atomic (the file is the old save or the whole new one, never half of one).
`read_save` never changes the file and refuses, with a `SaveError` whose message says what is wrong, a
save that is truncated, not JSON, of a newer format version, shaped wrongly, impossible to replay
(a card dealt twice, a card played that was not held), inconsistent (a score at or above the
target in a game not over, scores that the cards do not give) or edited by hand (the checksum does not match).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .datadir import DATA_DIR_ENV, data_dir  # kept importable from here
from .engine import Game, Phase
from .files import FileTooLarge, NotAFile, atomic_write_text, read_bounded, remove_stale_temps
from .nesting import DataTooLarge, parse_json
from .players import COMPUTER_KINDS
from .records import MAX_RECORD_BYTES, MAX_SEED, RecordError, game_record, replay
from .validation import first_problem, one_line

__all__ = [
    "DATA_DIR_ENV",
    "FORMAT",
    "HUMAN",
    "MODES",
    "MODE_WORDS",
    "VERSION",
    "GameResult",
    "MatchState",
    "NoSave",
    "SaveConflict",
    "SaveEnvelope",
    "SaveError",
    "SaveSlot",
    "SavedGame",
    "SavesFolderUnusable",
    "SeatSpec",
    "build_envelope",
    "checksum",
    "data_dir",
    "folder_problem",
    "mode_for",
    "read_save",
    "save_path",
]

FORMAT = "cribbage-save"
VERSION = 1
MODES = ("computer", "same-device")
"""The save slots: a game with one human (against the computer) and one with several humans sharing
this device. A game with no human is never saved."""
HUMAN = "human"
MAX_SAVE_BYTES = MAX_RECORD_BYTES + 2**20
"""The largest save file read: one record and its envelope (a larger one is refused unread)."""

Mode = Literal["computer", "same-device"]
MODE_WORDS = {"computer": "against the computer", "same-device": "on this device"}
"""Each save slot in words: "a game against the computer", "a game on this device"."""


class SaveError(ValueError):
    """A save that cannot be used; the message says which file and why. The file is left as it was.
    The message is always one printable line (see `cribcore.validation.one_line`)."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


class NoSave(SaveError):
    """There is no save in this slot."""


class SavesFolderUnusable(SaveError):
    """No save can be kept where saves go: a file stands where a folder must be. Deleting a save
    cannot help; the message says what to move."""


class SaveConflict(SaveError):
    """The save file changed under a running game (another program or window wrote it)."""


# ----------------------------------------------------------------------------------------- where


def save_path(mode: str, directory: Path | None = None) -> Path:
    """The file of ``mode``'s save slot."""
    if mode not in MODES:
        raise ValueError(f"unknown save mode {mode!r}: use {' or '.join(MODES)}")
    return (directory if directory is not None else data_dir()) / "saves" / f"{mode}.json"


def folder_problem(path: Path) -> str | None:
    """Why the save ``path`` cannot be kept: a file (not a folder) at one of its parent folders, with
    what to do about it; ``None`` when nothing stands in the way."""
    for folder in reversed(path.parents):
        if folder.exists() and not folder.is_dir():
            return (
                f"cannot keep saves in {path.parent}: {folder} is a file, not a folder "
                f"(move it away, or set {DATA_DIR_ENV} to a folder)"
            )
    return None


def mode_for(kinds: Sequence[str]) -> str | None:
    """The save slot of a game seating ``kinds``: ``computer`` for one human, ``same-device`` for
    several, ``None`` (not saved) for none."""
    humans = sum(1 for kind in kinds if kind == HUMAN)
    if humans == 0:
        return None
    return "computer" if humans == 1 else "same-device"


# ----------------------------------------------------------------------------------------- shape


class SeatSpec(BaseModel):
    """Who sits in one seat: ``human`` or a computer kind (see `cribcore.players.COMPUTER_KINDS`)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    kind: str = Field(min_length=1, max_length=32)
    name: str = Field(min_length=1, max_length=64)


class GameResult(BaseModel):
    """A finished game of a match: its seed, final scores, winning side and game points won."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    seed: int | None = Field(default=None, ge=0, lt=MAX_SEED)
    scores: list[int]
    winner: int = Field(ge=0)
    game_points: int = Field(ge=1, le=10)


class MatchState(BaseModel):
    """A match of ``games`` games: game ``k`` (from 0) is dealt from ``seed + k``; ``results`` holds the
    games already finished, so the saved game is number ``len(results)``."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    games: int = Field(ge=1, le=999)
    seed: int = Field(ge=0, lt=MAX_SEED)
    results: list[GameResult] = Field(default_factory=list)

    def seed_of(self, number: int) -> int:
        return self.seed + number


class SaveEnvelope(BaseModel):
    """The validated shape of a save file (the game record inside is checked by replaying it)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    format: Literal["cribbage-save"]
    version: int
    mode: Mode
    saved_at: str
    seats: list[SeatSpec] = Field(min_length=2, max_length=4)
    level: str = Field(min_length=1, max_length=32)
    """The computer kind that seats of kind ``computer`` play as."""
    profile: str = Field(min_length=1)
    """The profile as it was named when the game began (a built-in name or a file's path), for
    showing; the game record carries the whole profile that the game is replayed with."""
    match: MatchState | None = None
    lang: Literal["en", "es"] | None = None
    """The language the game was played in (a resumed game speaks it unless ``--lang`` says otherwise);
    ``None`` in a save written before saves kept it."""
    record: str | None = Field(default=None, min_length=1, max_length=4096)
    """Where ``--record`` writes the game record (an absolute path), so that a resumed game completes
    it; ``None`` when the game is not recorded."""
    scores: list[int]
    game: dict[str, Any]
    checksum: str


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A save read back: its envelope and the game rebuilt from it, ready to go on."""

    path: Path
    envelope: SaveEnvelope
    game: Game
    raw: bytes
    """The file's content as read (so that the game's slot knows the file is still its own)."""

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(seat.kind for seat in self.envelope.seats)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.envelope.seats)


def checksum(data: Mapping[str, Any]) -> str:
    """The checksum of a save's data (every key but ``checksum``, as canonical JSON)."""
    body = {key: value for key, value in data.items() if key != "checksum"}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def build_envelope(
    *,
    mode: str,
    seats: Sequence[tuple[str, str]],
    level: str,
    profile: str,
    game: Game,
    match: MatchState | None = None,
    now: _dt.datetime | None = None,
    lang: str | None = None,
    record: Path | None = None,
) -> dict[str, Any]:
    """The JSON-ready save of ``game`` as it stands, with its checksum. ``seats`` are ``(kind, name)``
    pairs in seat order; ``lang`` is the language it is played in and ``record`` the ``--record`` file
    (kept as an absolute path, since a game may be resumed from another folder)."""
    moment = (now or _dt.datetime.now(_dt.UTC)).astimezone(_dt.UTC).replace(microsecond=0)
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "mode": mode,
        "saved_at": moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "seats": [{"kind": kind, "name": name} for kind, name in seats],
        "level": level,
        "profile": profile,
        "match": match.model_dump() if match is not None else None,
        "scores": list(game.scores),
        "game": game_record(game),
    }
    if lang is not None:
        data["lang"] = lang
    if record is not None:
        data["record"] = str(record.absolute())
    data["checksum"] = checksum(data)
    return data


# ----------------------------------------------------------------------------------------- reading


def _parse(text: str, where: str) -> dict[str, Any]:
    if not text.strip():
        raise SaveError(f"{where}: the file is empty (truncated)")
    try:
        data = parse_json(text)
    except json.JSONDecodeError as exc:
        if exc.pos >= len(text.rstrip()):
            raise SaveError(f"{where}: the file ends too soon (truncated)") from None
        raise SaveError(f"{where}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except DataTooLarge as exc:
        raise SaveError(f"{where}: not a cribcore save ({exc})") from None
    if not isinstance(data, dict):
        raise SaveError(f"{where}: not a cribcore save (a save is a JSON object)")
    return data


def _envelope(data: dict[str, Any], where: str) -> SaveEnvelope:
    if data.get("format") != FORMAT:
        raise SaveError(f"{where}: not a cribcore save (format {data.get('format')!r})")
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise SaveError(
            f"{where}: saved by a newer cribcore (save format version {version}; this one reads "
            f"version {VERSION}): update cribcore to resume it"
        )
    try:
        envelope = SaveEnvelope.model_validate(data)
    except ValidationError as exc:
        key, message = first_problem(exc, whole="save")
        raise SaveError(f"{where}: {key}: {message}") from None
    if envelope.version != VERSION:
        raise SaveError(f"{where}: version: must be {VERSION}, not {envelope.version}")
    return envelope


def _check_seats(envelope: SaveEnvelope, where: str) -> None:
    kinds = [seat.kind for seat in envelope.seats]
    for number, kind in enumerate(kinds):
        if kind != HUMAN and kind not in COMPUTER_KINDS:
            raise SaveError(f"{where}: seats.{number}: computer kind {kind!r} is not available here")
    if envelope.level not in COMPUTER_KINDS:
        raise SaveError(f"{where}: level: computer level {envelope.level!r} is not available here")
    if mode_for(kinds) != envelope.mode:
        raise SaveError(f"{where}: mode: {envelope.mode!r} does not fit seats {', '.join(kinds)}")


def _rebuild(envelope: SaveEnvelope, where: str) -> Game:
    try:
        game = replay(envelope.game, continue_dealing=True)
    except RecordError as exc:
        raise SaveError(f"{where}: the saved game cannot be replayed: {exc}") from None
    names = [seat.name for seat in envelope.seats]
    if list(game.players) != names:
        raise SaveError(f"{where}: seats: the names {names} are not the game's players {list(game.players)}")
    if not game.is_over:
        for side, points in enumerate(envelope.scores):
            target = game.rules.target_of(side) if side < game.rules.sides else game.rules.target
            if points >= target:
                raise SaveError(
                    f"{where}: scores: {points} for side {side} is at or above the target {target}, "
                    "yet the game is not over"
                )
    if envelope.scores != list(game.scores):
        raise SaveError(
            f"{where}: scores: the save says {envelope.scores} but its cards give {list(game.scores)}"
        )
    if not game.is_over and game.phase is Phase.WAITING:
        raise SaveError(f"{where}: game: the record has no seed to deal the cards to come")
    return game


def _check_match(envelope: SaveEnvelope, game: Game, where: str) -> None:
    match = envelope.match
    if match is None:
        return
    sides = game.rules.sides
    for number, result in enumerate(match.results):
        here = f"{where}: match.results.{number}"
        if result.winner >= sides or len(result.scores) != sides:
            raise SaveError(f"{here}: does not fit a game of {sides} sides")
        if any(points < 0 for points in result.scores):
            raise SaveError(f"{here}: a score is below 0")
    if len(match.results) >= match.games:
        raise SaveError(f"{where}: match: all {match.games} games are already played")
    expected = match.seed_of(len(match.results))
    if game.seed != expected:
        raise SaveError(f"{where}: match: game {len(match.results) + 1} should have seed {expected}")


def read_save(path: Path, mode: str | None = None) -> SavedGame:
    """Read, check and rebuild the save at ``path`` without changing it. With ``mode``, the save must
    be of that slot's kind (a save copied into the other slot is refused, not resumed and then saved
    in the wrong place).

    The checksum is checked before the game is replayed: a file edited by hand is refused without
    anything in it being acted on. Raises `NoSave` when there is no file, `SavesFolderUnusable` when
    a file stands where a folder must be, and `SaveError` naming the file and the fault otherwise.
    """
    where = str(path)
    try:
        raw = read_bounded(path, MAX_SAVE_BYTES)
    except FileNotFoundError:
        raise NoSave(f"{where}: no saved game") from None
    except NotADirectoryError:
        raise SavesFolderUnusable(folder_problem(path) or f"{where}: cannot read: not a folder") from None
    except IsADirectoryError:
        raise SaveError(f"{where}: is a folder, not a save") from None
    except NotAFile:
        raise SaveError(f"{where}: not an ordinary file (a device, pipe or socket)") from None
    except FileTooLarge:
        raise SaveError(f"{where}: too large to be a save (over {MAX_SAVE_BYTES // 2**20} MB)") from None
    except OSError as exc:
        raise SaveError(f"{where}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(f"{where}: not a cribcore save (not UTF-8 text)") from None
    data = _parse(text, where)
    envelope = _envelope(data, where)
    if data.get("checksum") != checksum(data):
        raise SaveError(
            f"{where}: the save was changed after cribcore wrote it (its checksum does not match)"
        )
    _check_seats(envelope, where)
    if mode is not None and envelope.mode != mode:
        raise SaveError(
            f"{where}: mode: a save of a game {MODE_WORDS[envelope.mode]}, in the slot for games "
            f"{MODE_WORDS[mode]}"
        )
    game = _rebuild(envelope, where)
    _check_match(envelope, game, where)
    return SavedGame(path, envelope, game, raw)


# ----------------------------------------------------------------------------------------- writing


class SaveSlot:
    """One save file, owned by one running game.

    `write` replaces the file atomically, but only when the file is still what this slot last wrote
    (or absent, for a slot claimed empty): a save that changed underneath (edited, or written by
    another window) is never overwritten; `write` raises `SaveConflict` instead. `clear` removes the
    slot's file under the same condition.
    """

    def __init__(self, path: Path, *, current: bytes | None = None) -> None:
        """``current`` is the file's content when the game was loaded from it (``None``: no file)."""
        self.path = path
        self._last = current

    @classmethod
    def claim(cls, path: Path) -> SaveSlot:
        """The slot at ``path`` as it is now (empty or holding a save that the caller loaded)."""
        try:
            current: bytes | None = path.read_bytes()
        except FileNotFoundError:
            current = None
        return cls(path, current=current)

    def _unchanged(self) -> bool:
        try:
            now: bytes | None = self.path.read_bytes()
        except FileNotFoundError:
            now = None
        return now == self._last

    def write(self, data: Mapping[str, Any]) -> None:
        """Write the save ``data`` (from `build_envelope`) atomically; see the class contract."""
        if not self._unchanged():
            raise SaveConflict(f"{self.path}: the save file was changed by something else")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temps(self.path)
        atomic_write_text(self.path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        # Read back rather than encode: the bytes on disk are what the next write compares with.
        self._last = self.path.read_bytes()

    def clear(self) -> None:
        """Remove the save (a finished game); a file changed by something else is left alone."""
        if self._last is not None and self._unchanged():
            self.path.unlink(missing_ok=True)
            self._last = None
