"""Bringing a room held in memory up to a later stored version of it, by its new actions only.

A process sharing a store with others keeps the rooms it has read; when another process has moved a
room on, the stored row is a later version of the same room (writes only ever go over the version they
read, so a room's versions form one line). Rebuilding it with `Room.from_json` replays the whole
record, so the cost of a move would grow with the game; `catch_up` instead applies to the game in
memory only the record's actions it has not had, and takes the room's other fields from the row.

Anything it does not recognise as a plain continuation (another game, a plugin's phase before a deal,
a deal that differs from the one in memory) is declined with ``None``: the caller then rebuilds the
room from the row as before. After a refusal the room in memory may be half-advanced and must be
dropped.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from ..actions import Discard, Play, parse_action
from ..cards import parse_card
from ..engine import DealLog, Game, Phase
from ..records import DealRecord, deal_record
from .rooms import HISTORY_KEPT, Room, Seat, StoredRoom, hash_secret

__all__ = ["catch_up", "extend_game"]


def catch_up(room: Room, data: str | bytes) -> int | None:
    """Make ``room`` the stored room ``data`` (a later version of it); returns how many actions were
    applied to its game, or ``None`` when ``data`` is not a continuation of it (rebuild it then)."""
    try:
        row = StoredRoom.model_validate_json(data)
    except ValidationError:
        return None
    seats = len(row.seats)
    if (
        row.id != room.id
        or row.number != room.number
        or row.seed != room.seed
        or seats != len(room.seats)
        or any(s.kind != old.kind for s, old in zip(row.seats, room.seats, strict=True))
        or any(i >= seats for i in (*row.ready, *row.agreed, row.proposed_by or 0))
    ):
        return None
    applied = extend_game(room.game, row.record)
    if applied is None:
        return None
    room.seats = [Seat(s.name, s.kind, s.key_hash, s.sealed_invite) for s in row.seats]
    invite_hash = row.invite_hash or (hash_secret(row.invite) if row.invite else None)
    if invite_hash != room.invite_hash:  # another invitation (or none): opened again from a seat's key
        room.invite, room.invite_hash = row.invite, invite_hash
    room.last_active = row.last_active
    room.between_hands = row.between_hands
    room.ready = set(row.ready)
    room.proposed_by = row.proposed_by
    room.agreed = set(row.agreed)
    room.history = [h.model_dump() for h in row.history][-HISTORY_KEPT:]
    return applied


def extend_game(game: Game, record: dict[str, Any]) -> int | None:
    """Apply to ``game`` the actions of ``record`` (a record of the same game, further on) that it has
    not had; how many, or ``None`` when the record does not continue it (``game`` is then unusable)."""
    try:
        return _extend(game, record)
    except Exception:  # whatever a record that does not fit breaks: the caller replays it whole
        return None


def _extend(game: Game, record: dict[str, Any]) -> int | None:
    players = record.get("players")
    raw = record.get("deals")
    profile = record.get("profile")
    name = profile.get("name") if isinstance(profile, dict) else profile
    if (
        record.get("seed") != game.seed
        or name != game.profile.name
        or not isinstance(players, list)
        or len(players) != len(game.players)
        or not isinstance(raw, list)
        or game.phase is Phase.PLUGIN
    ):
        return None
    logs = game.deal_logs()
    start = max(len(logs) - 1, 0)
    if len(raw) < len(logs):
        return None
    deals = [DealRecord.model_validate(d) for d in raw[start:]]
    if any(d.phase_actions for d in deals):
        return None  # a plugin's phase before a deal: its actions are matched by the whole replay
    game.players = tuple(str(p) for p in players)  # a seat taken since renames its player
    applied = 0
    for offset, deal in enumerate(deals):
        done = logs[start] if offset == 0 and logs else None
        if done is not None and not _continues(done, deal):
            return None
        if game.is_over:
            break
        if game.deal_number != start + offset or game.dealer != deal.dealer:
            return None
        applied += _apply_deal(game, deal, done)
    # What the game now is must be exactly what was stored (the deals from the first one changed).
    after = game.deal_logs()
    if len(after) != len(raw) or any(deal_record(after[i]) != raw[i] for i in range(start, len(raw))):
        return None
    result = record.get("result")
    if (result is not None) != game.is_over:
        return None
    if result is not None and (
        result.get("scores") != list(game.scores) or result.get("winner") != game.winner
    ):
        return None
    return applied


def _continues(done: DealLog, deal: DealRecord) -> bool:
    """Whether ``deal`` is the deal ``done`` with nothing taken back (only more actions)."""
    return (
        done.dealer == deal.dealer
        and [[str(c) for c in hand] for hand in done.hands] == deal.hands
        and [str(c) for c in done.crib_cards] == deal.crib_cards
        and str(done.starter) == deal.starter
        and [str(c) for c in done.plays] == deal.plays[: len(done.plays)]
        and list(done.claims) == deal.claims[: len(done.claims)]
        and all(
            mine is None
            or [str(c) for c in mine] == (deal.discards[seat] if seat < len(deal.discards) else [])
            for seat, mine in enumerate(done.discards)
        )
    )


def _apply_deal(game: Game, deal: DealRecord, done: DealLog | None) -> int:
    """Apply what ``deal`` has beyond ``done`` (the same deal as played so far, or none of it): the
    discards not yet made, in the order they were made, then the cards and claims in turn."""
    applied = 0
    index = game.deal_number
    seats = range(len(deal.discards))
    order = [*deal.discard_order, *(s for s in seats if s not in deal.discard_order)]
    for seat in order:
        if not deal.discards[seat] or (done is not None and done.discards[seat] is not None):
            continue
        game.apply(seat, Discard(tuple(parse_card(t) for t in deal.discards[seat])))
        applied += 1
        if game.is_over:
            return applied
    plays = iter(deal.plays[len(done.plays) if done else 0 :])
    claims = iter(deal.claims[len(done.claims) if done else 0 :])
    while not game.is_over and game.deal_number == index:
        if game.claim_stage is not None:
            claim = next(claims, None)
            if claim is None:
                break
            game.apply(game.to_act[0], parse_action(claim))
        else:
            card = next(plays, None)
            if card is None:
                break
            game.apply(game.to_act[0], Play(parse_card(card)))
        applied += 1
    return applied
