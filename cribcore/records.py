"""Game records: the JSON form of a game, for replays, tests, bug reports and saves.

Shape (version 2)::

    {"format": "cribbage-record", "version": 2,
     "profile": {"name": "standard", "description": "…", "plugins": ["standard"],
                 "rules": {"seats": 2, "cards_dealt": 6, …}, "options": {}},
     "players": ["Ann", "Computer"], "seed": 7,
     "deals": [{"dealer": 0, "hands": [[six cards], [six cards]], "crib_cards": [],
                "discards": [["QS", "JC"], [two cards]], "starter": "5S", "plays": ["4H", "TS", …],
                "claims": []}],
     "result": {"scores": [121, 98], "winner": 0, "game_points": 1},
     "plugin_versions": {"toss-fives": "1.0.0"}}

``profile`` is the whole resolved profile (its plugins must be installed to replay it); a bare name,
as version 1 records have, means a built-in profile. ``hands`` are as dealt, seat by seat; ``plays`` are
the cards in the order laid (who laid each follows from the hands; goes are implied); ``claims``, under
muggins, are the declared counts, calls and passes in order (``"count 6"``, ``"muggins 2"``, ``"pass"``;
who acts follows from the game); ``phase_actions``, when a plugin opens a phase before the deal (an
auction), are the texts of its actions in order (``"bid 2"``, ``"pass"``), taken before the deal's
cards. ``plugin_versions`` are the installed distribution versions of the profile's third-party
plugins when the game was played (absent when there are none); replaying under another version warns
(`PluginVersionWarning`) and goes on. ``seed``, ``claims``, ``phase_actions``, ``result`` and
``plugin_versions`` are optional; unknown keys are ignored. A record may stop mid-deal (where the game
was won, or where an unfinished game stopped).

Cards are written in their text form; a profile whose plugin adds cards to the pack (jokers) writes
them as the plugin names them (``"X1"``), and a replay accepts only cards of the profile's pack.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .actions import Action, ActionParseError, Discard, IllegalAction, Play, parse_action
from .cards import Card, CardParseError, format_cards, parse_card
from .deals import DealCards, RecordedDeals, SeededDeals
from .engine import DealLog, Game, Phase
from .files import FileTooLarge, NotAFile, atomic_write_text, read_bounded
from .nesting import DataTooLarge, check_depth, parse_json
from .pluginmanager import plugin_versions
from .problems import PluginVersionWarning
from .profiles import ProfileError, builtin_profile, resolved_profile
from .rulebook import rulebook_for
from .validation import first_problem, one_line

__all__ = [
    "FORMAT",
    "MAX_DEALS",
    "MAX_RECORD_BYTES",
    "MAX_SEED",
    "VERSION",
    "GameRecord",
    "PluginVersionWarning",
    "RecordError",
    "deal_record",
    "game_record",
    "parse_record",
    "read_record",
    "replay",
    "write_record",
]

FORMAT = "cribbage-record"
"""The ``format`` field of every game record."""
VERSION = 2
"""The version of the record format this cribcore writes (and the newest it reads)."""
MAX_SEED = 2**256
"""Seeds are whole numbers from 0 up to (not including) this."""
MAX_RECORD_BYTES = 16 * 1024 * 1024
"""The largest record file read (a game to the highest target, 10,000 points, writes well under 1 MB)."""
MAX_DEALS = 20_000
"""The most deals a record may hold; counted before anything else in it is checked, so that a record
made huge on purpose is refused at once (a game to 10,000 points takes about a thousand deals)."""


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says which deal and card, and why.
    The message is always one printable line (see `cribcore.validation.one_line`)."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


class DealRecord(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)

    dealer: int = Field(ge=0)
    hands: list[list[str]]
    crib_cards: list[str] = Field(default_factory=list)
    discards: list[list[str]] = Field(default_factory=list)
    starter: str
    plays: list[str] = Field(default_factory=list)
    claims: list[str] = Field(default_factory=list)
    discard_order: list[int] = Field(default_factory=list)
    phase_actions: list[str] = Field(default_factory=list)


class ResultRecord(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)

    scores: list[int]
    winner: int | None = None
    game_points: int | None = None


class GameRecord(BaseModel):
    """The validated shape of a record; card texts are checked when it is replayed. Types are strict
    (a seed of ``7.0`` or ``true`` is refused, not read as ``7`` or ``1``)."""

    model_config = ConfigDict(extra="ignore", strict=True)

    format: Literal["cribbage-record"]
    version: int
    profile: str | dict[str, Any] = "standard"
    players: list[str]
    seed: int | None = Field(default=None, ge=0, lt=MAX_SEED)
    deals: list[DealRecord] = Field(default_factory=list)
    result: ResultRecord | None = None
    plugin_versions: dict[str, str] | None = None

    @field_validator("players")
    @classmethod
    def _distinct(cls, players: list[str]) -> list[str]:
        for seat, name in enumerate(players):
            if not name.strip():
                raise ValueError("a name must not be empty")
            if name in players[:seat]:
                raise ValueError(f"two seats are both called {name!r}")
        return players


def game_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` as it stands (finished or not), as JSON-ready data."""
    deals = [deal_record(log) for log in game.deal_logs()]
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "profile": game.profile.model_dump(mode="json", exclude={"locked"}),
        "players": list(game.players),
        "seed": game.seed,
        "deals": deals,
    }
    versions = plugin_versions(game.profile.plugins)
    if versions:
        record["plugin_versions"] = versions
    if game.seed is None:
        del record["seed"]
    if game.is_over:
        record["result"] = {
            "scores": list(game.scores),
            "winner": game.winner,
            "game_points": game.game_points,
        }
    return record


def deal_record(log: DealLog) -> dict[str, Any]:
    """One deal of `game_record` (one of `cribcore.engine.Game.deal_logs`), as JSON-ready data."""
    deal: dict[str, Any] = {
        "dealer": log.dealer,
        "hands": [[str(c) for c in hand] for hand in log.hands],
        "crib_cards": [str(c) for c in log.crib_cards],
        "discards": [[str(c) for c in d] if d is not None else [] for d in log.discards],
        "starter": str(log.starter),
        "plays": [str(c) for c in log.plays],
    }
    if log.claims:
        deal["claims"] = list(log.claims)
    if log.phase_actions:
        deal["phase_actions"] = list(log.phase_actions)
    if list(log.discard_order) != sorted(log.discard_order):
        deal["discard_order"] = list(log.discard_order)
    return deal


def write_record(path: str | Path, record: Mapping[str, Any]) -> None:
    """Write ``record`` to ``path`` atomically: the file is either the old one or the whole new one."""
    atomic_write_text(path, json.dumps(record, indent=1, ensure_ascii=False) + "\n")


def parse_record(text: str, source: str = "record") -> dict[str, Any]:
    """Parse a record's JSON text; raise `RecordError` naming ``source`` when it is not a JSON object."""
    try:
        data = parse_json(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{source}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except DataTooLarge as exc:
        raise RecordError(f"{source}: not a record: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{source}: a record is a JSON object")
    return data


def read_record(path: str | Path) -> dict[str, Any]:
    """Read a record file's JSON; raise `RecordError` naming the file when it is not a JSON object."""
    try:
        raw = read_bounded(path, MAX_RECORD_BYTES)
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{path}: is a folder, not a file") from None
    except NotAFile:
        raise RecordError(f"{path}: not an ordinary file (a device, pipe or socket)") from None
    except FileTooLarge:
        raise RecordError(f"{path}: too large to be a record (over {MAX_RECORD_BYTES // 2**20} MB)") from None
    except OSError as exc:
        raise RecordError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{path}: cannot read: {exc}") from None
    return parse_record(text, str(path))


def _validate(data: Mapping[str, Any] | GameRecord) -> GameRecord:
    if isinstance(data, GameRecord):
        return data
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object")
    try:
        check_depth(data)
    except DataTooLarge as exc:
        raise RecordError(f"not a record: {exc}") from None
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise RecordError(f"record version {version} is newer than this cribcore reads ({VERSION})")
    deals = data.get("deals")
    if isinstance(deals, list) and len(deals) > MAX_DEALS:
        raise RecordError(f"deals: {len(deals)} deals, more than a game can have (at most {MAX_DEALS})")
    try:
        record = GameRecord.model_validate(data)
    except ValidationError as exc:
        where, message = first_problem(exc, whole="record")
        raise RecordError(f"{where}: {message}") from None
    if not 1 <= record.version <= VERSION:
        raise RecordError(f"version: must be 1 to {VERSION}, not {record.version}")
    return record


def _card(text: str, where: str) -> Card:
    try:
        return parse_card(text)
    except CardParseError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _deal_cards(
    number: int, deal: DealRecord, game_seats: int, dealt: int, from_pack: int, pack: frozenset[Card]
) -> DealCards:
    where = f"deal {number}"
    if len(deal.hands) != game_seats:
        raise RecordError(f"{where}: {len(deal.hands)} hands for {game_seats} seats")
    hands = []
    for seat, texts in enumerate(deal.hands):
        hand = tuple(_card(t, f"{where}, seat {seat} hand") for t in texts)
        if len(hand) != dealt:
            raise RecordError(f"{where}: seat {seat} was dealt {len(hand)} cards, not {dealt}")
        hands.append(hand)
    crib = tuple(_card(t, f"{where}, crib_cards") for t in deal.crib_cards)
    if len(crib) != from_pack:
        raise RecordError(f"{where}: {len(crib)} crib_cards, the rules deal {from_pack}")
    starter = _card(deal.starter, f"{where}, starter")
    seen: set[Card] = set()
    for card in (*(c for hand in hands for c in hand), *crib, starter):
        if card in seen:
            raise RecordError(f"{where}: {card} is dealt twice")
        if card not in pack:
            raise RecordError(f"{where}: {card} is not in this profile's pack")
        seen.add(card)
    return DealCards(tuple(hands), crib, starter)


Watcher = Callable[[Game, int, Action], object]
"""Told of each recorded action just before the replay applies it: the game as it stands, the seat and
the action (the coach reads each decision's view there)."""


def _apply(game: Game, seat: int, action: Action, watcher: Watcher | None) -> None:
    """Apply a recorded action, telling ``watcher`` (if any) first."""
    if watcher is not None:
        watcher(game, seat, action)
    game.apply(seat, action)


def replay(
    data: Mapping[str, Any] | GameRecord, *, continue_dealing: bool = False, before: Watcher | None = None
) -> Game:
    """Re-play a record through the engine and return the game as the record leaves it.

    With ``continue_dealing`` and a seed, deals after the recorded ones come from the seed (resuming a
    saved game); otherwise the game stops in `Phase.WAITING` after the last recorded deal. ``before``
    (see `Watcher`) is called before each recorded action is applied.
    Raises `RecordError` saying which deal and card is illegal or inconsistent.
    """
    record = _validate(data)
    try:
        if isinstance(record.profile, str):
            # A name, never a path: a record must not make its reader open files of its choosing.
            profile = builtin_profile(record.profile)
        else:
            profile = resolved_profile(record.profile, "profile")  # its errors begin "profile: "
    except ProfileError as exc:
        message = str(exc)
        raise RecordError(message if message.startswith("profile: ") else f"profile: {message}") from None
    _warn_on_versions(record.plugin_versions or {})
    rules = profile.rules
    pack = rulebook_for(profile).pack
    deals = [
        _deal_cards(i + 1, deal, rules.seats, rules.cards_dealt, rules.crib_from_pack, frozenset(pack))
        for i, deal in enumerate(record.deals)
    ]
    for i, deal in enumerate(record.deals):
        if deal.dealer >= rules.seats:
            raise RecordError(f"deal {i + 1}: dealer {deal.dealer} is not a seat")
    seeded = SeededDeals(record.seed, pack) if record.seed is not None else None
    fallback = seeded if continue_dealing else None
    source = RecordedDeals([d.dealer for d in record.deals], deals, fallback, seeded)
    try:
        game = Game(profile, seed=record.seed, players=record.players, deals=source)
    except ValueError as exc:
        raise RecordError(f"players: {exc}") from None
    last = len(record.deals) - 1
    for i, deal in enumerate(record.deals):
        _replay_deal(game, i, deal, deals[i], before, is_last=i == last)
    if record.result is not None and record.result.scores != list(game.scores):
        raise RecordError(
            f"result: the record says scores {record.result.scores} but the replay gives {list(game.scores)}"
        )
    if record.result is not None and record.result.winner != game.winner:
        raise RecordError(
            f"result: the record says winner {record.result.winner} but the replay gives {game.winner}"
        )
    if (
        record.result is not None
        and record.result.game_points is not None
        and record.result.game_points != game.game_points
    ):
        raise RecordError(
            f"result: the record says game_points {record.result.game_points} but the replay gives "
            f"{game.game_points}"
        )
    return game


def _warn_on_versions(recorded: Mapping[str, str]) -> None:
    installed = plugin_versions(tuple(recorded))
    changed = [
        f"{name} {version} (installed: {installed.get(name, 'unknown')})"
        for name, version in recorded.items()
        if installed.get(name) != version
    ]
    if changed:
        warnings.warn(
            f"the record was played with other plugin versions: {', '.join(changed)}; replaying anyway",
            PluginVersionWarning,
            stacklevel=3,
        )


def _replay_claim(game: Game, where: str, number: int, text: str, watcher: Watcher | None) -> None:
    here = f"{where}, claim {number} ({text})"
    try:
        action = parse_action(text)
    except ActionParseError as exc:
        raise RecordError(f"{here}: {exc}") from None
    try:
        _apply(game, game.to_act[0], action, watcher)
    except IllegalAction as exc:
        raise RecordError(f"{here}: {exc}") from None


def _discard_order(deal: DealRecord, where: str) -> list[int]:
    """The seats in the order they discarded: ``discard_order`` when the record gives it (every seat
    that discarded, once each), else seat order."""
    seats = list(range(len(deal.discards)))
    if not deal.discard_order:
        return seats
    discarded = [seat for seat in seats if deal.discards[seat]]
    if sorted(deal.discard_order) != discarded:
        raise RecordError(
            f"{where}: discard_order {deal.discard_order} should name each seat that discarded once, "
            f"{discarded}"
        )
    return [*deal.discard_order, *(seat for seat in seats if seat not in deal.discard_order)]


def _replay_phases(game: Game, where: str, texts: list[str], watcher: Watcher | None) -> None:
    """The plugin-phase actions before a deal, each matched to a legal action by its text."""
    for number, text in enumerate(texts, start=1):
        here = f"{where}, phase action {number} ({text})"
        if game.phase is not Phase.PLUGIN:
            raise RecordError(f"{here}: no plugin phase is waiting for an action")
        seat = game.to_act[0]
        action = next((a for a in game.legal_actions(seat) if str(a) == text), None)
        if action is None:
            raise RecordError(f"{here}: not a legal action for seat {seat} now")
        try:
            _apply(game, seat, action, watcher)
        except IllegalAction as exc:  # pragma: no cover - a listed action is legal
            raise RecordError(f"{here}: {exc}") from None
        if game.is_over:
            return
    if game.phase is Phase.PLUGIN:
        raise RecordError(f"{where}: the plugin phase before the deal is not finished")


def _replay_deal(
    game: Game, index: int, deal: DealRecord, cards: DealCards, watcher: Watcher | None, *, is_last: bool
) -> None:
    where = f"deal {index + 1}"
    if game.phase is Phase.OVER:
        raise RecordError(f"{where}: the game was already won in the deal before")
    if deal.phase_actions or game.phase is Phase.PLUGIN:
        _replay_phases(game, where, deal.phase_actions, watcher)
    if game.deal_number != index:
        raise RecordError(f"{where}: the deal before it did not finish")
    if game.dealer != deal.dealer:
        raise RecordError(f"{where}: dealer should be seat {game.dealer}, the record says {deal.dealer}")
    if len(deal.discards) > game.rules.seats:
        raise RecordError(f"{where}: {len(deal.discards)} discards for {game.rules.seats} seats")
    partial = False
    for seat in _discard_order(deal, where):
        texts = deal.discards[seat]
        if not texts and game.rules.discards:
            partial = True
            continue
        discard = tuple(_card(t, f"{where}, seat {seat} discard") for t in texts)
        try:
            _apply(game, seat, Discard(discard), watcher)
        except IllegalAction as exc:
            raise RecordError(f"{where}, seat {seat} discard {format_cards(discard)}: {exc}") from None
        if game.is_over:
            break
    if (partial or len(deal.discards) < game.rules.seats) and deal.plays:
        raise RecordError(f"{where}: cards are played before every seat has discarded")
    plays = iter(enumerate(deal.plays, start=1))
    claims = iter(enumerate(deal.claims, start=1))
    while not game.is_over and game.deal_number == index:
        if game.claim_stage is not None:
            step = next(claims, None)
            if step is None:
                break
            _replay_claim(game, where, *step, watcher)
            continue
        step = next(plays, None)
        if step is None:
            break
        number, text = step
        card = _card(text, f"{where}, play {number}")
        here = f"{where}, card {number} ({card})"
        if game.phase is not Phase.PLAY:
            raise RecordError(f"{here}: the play is already over")
        holder = next((s for s, hand in enumerate(cards.hands) if card in hand), None)
        if holder is None:
            raise RecordError(f"{here}: no seat was dealt this card")
        turn = game.to_act[0]
        if holder != turn:
            raise RecordError(f"{here}: it is seat {turn}'s turn, but seat {holder} holds this card")
        try:
            _apply(game, holder, Play(card), watcher)
        except IllegalAction as exc:
            raise RecordError(f"{here}: {exc}") from None
    left_play = next(plays, None)
    if left_play is not None:
        number, text = left_play
        raise RecordError(f"{where}, card {number} ({text}): the play is already over")
    left_claim = next(claims, None)
    if left_claim is not None:
        number, text = left_claim
        raise RecordError(f"{where}, claim {number} ({text}): no count is waiting to be settled")
    between = game.phase is Phase.PLUGIN  # the deal is over and a plugin's phase opened before the next
    if not is_last and not game.is_over and game.deal_number == index and not between:
        raise RecordError(f"{where}: the record stops before the deal is over")
