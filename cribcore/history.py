"""Your games: every finished game with a human seat, kept in the data directory, and what the coach
says about them over time.

**Keeping** (`keep_game`): when a game at the terminal ends (`cribcore.cli.session`), its record
(`cribcore.records.game_record`) is written to ``DATA/games/`` (``DATA`` is `cribcore.datadir.data_dir`),
one file a game named by when it ended and the record's hash, with one more key the record format
ignores, ``kept``: the human seats, each computer seat's level, and when the game ended. So each file
is a record that ``cribbage replay`` and ``cribbage review`` read as they are. Writing it is all the
table waits for: the coach's reviews are computed later, on demand (`History.reviews`).

**Reviews** (`review_of`): the review of the (first) human seat, the numbers of ``cribbage review
--json`` exactly (`cribcore.review.review_game`), cached in ``DATA/reviews/`` by the record's hash, the
seat and the language of the reasons, so each game is judged once.

**The history** (`summarize`): games and wins by the level played against and the profile, the points
lost per deal in the discard and in the play (each game's review's figures; over many games, the
totals divided by the deals), the trend over the last games, and the costliest decisions of all.

``cribbage history --clear`` removes the kept games and their cached reviews (`clear`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .datadir import data_dir
from .files import atomic_write_text

__all__ = [
    "GAMES_DIR",
    "REVIEWS_DIR",
    "TREND_GAMES",
    "KeptGame",
    "clear",
    "games_dir",
    "keep_game",
    "kept_games",
    "record_hash",
    "review_of",
    "summarize",
]

GAMES_DIR = "games"
"""The kept games' folder in the data directory."""

REVIEWS_DIR = "reviews"
"""The cached reviews' folder in the data directory."""

REVIEW_CACHE_VERSION = 1
"""Part of a cached review's name: a new review (other numbers) is computed again, not read."""

TREND_GAMES = 20
"""How many of the last games the trend shows."""

COSTLIEST = 5
"""How many of the costliest decisions of all the history lists."""

PEOPLE = "people"
"""The level of a game with no computer seat (people at one device)."""


def _data_dir() -> Path:
    return data_dir()


def games_dir() -> Path:
    """Where finished games are kept."""
    return _data_dir() / GAMES_DIR


def reviews_dir() -> Path:
    """Where their reviews are cached."""
    return _data_dir() / REVIEWS_DIR


def record_hash(record: Mapping[str, Any]) -> str:
    """The record's hash (SHA-256 of its canonical JSON, without the ``kept`` key): the same game,
    the same hash."""
    plain = {k: v for k, v in record.items() if k != "kept"}
    return hashlib.sha256(json.dumps(plain, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def keep_game(
    record: Mapping[str, Any],
    kinds: Sequence[str],
    level: str,
    *,
    sides: Sequence[int] | None = None,
    now: datetime | None = None,
    folder: Path | None = None,
) -> Path | None:
    """Keep a finished game's ``record`` if a seat of ``kinds`` is ``human``; return the file written
    (``None``: not kept, as when no one human played or the game is not over). ``level`` is the level
    plain ``computer`` seats play as; ``sides`` the side of each seat (default: each its own). Raises
    `OSError` when the data directory cannot be written."""
    humans = [seat for seat, kind in enumerate(kinds) if kind == "human"]
    if not humans or record.get("result") is None:
        return None
    when = (now or datetime.now(UTC)).astimezone(UTC)
    levels = {
        str(seat): (level if kind == "computer" else kind)
        for seat, kind in enumerate(kinds)
        if kind != "human"
    }
    kept = dict(record)
    kept["kept"] = {
        "finished": when.isoformat(timespec="seconds"),
        "humans": humans,
        "levels": levels,
        "sides": list(sides) if sides is not None else list(range(len(kinds))),
    }
    where = folder or games_dir()
    where.mkdir(parents=True, exist_ok=True)
    path = where / f"{when.strftime('%Y%m%dT%H%M%SZ')}-{record_hash(record)[:12]}.json"
    atomic_write_text(path, json.dumps(kept) + "\n")
    return path


@dataclass(frozen=True, slots=True)
class KeptGame:
    """A kept game as the history reads it."""

    path: Path
    record: Mapping[str, Any]
    finished: str
    seat: int
    """The human seat reviewed (the first)."""
    level: str
    """The level played against (the computer seats' levels, ``people`` when there were none)."""
    profile: str
    won: bool
    """Whether the reviewed seat's side won."""

    @property
    def hash(self) -> str:
        return record_hash(self.record)


def _kept(path: Path) -> KeptGame | None:
    """The game kept at ``path``, ``None`` for a file that is not one (left as it is, skipped)."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        kept = record["kept"]
        humans = kept["humans"]
        seat = int(humans[0])
        levels = sorted({str(v) for v in kept.get("levels", {}).values()})
        profile = record["profile"]
        name = profile if isinstance(profile, str) else str(profile["name"])
        result = record["result"]
        sides = kept.get("sides") or list(range(len(record["players"])))
        won = int(result["winner"]) == int(sides[seat])
        return KeptGame(
            path=path,
            record=record,
            finished=str(kept["finished"]),
            seat=seat,
            level="+".join(levels) if levels else PEOPLE,
            profile=name,
            won=won,
        )
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


def kept_games(folder: Path | None = None) -> list[KeptGame]:
    """Every kept game, oldest first (files that are not kept games are skipped)."""
    where = folder or games_dir()
    try:
        paths = sorted(p for p in where.iterdir() if p.suffix == ".json")
    except FileNotFoundError:
        return []
    games = [_kept(p) for p in paths]
    return sorted((g for g in games if g is not None), key=lambda g: (g.finished, g.path.name))


def _cache_path(game: KeptGame, lang: str, folder: Path | None) -> Path:
    where = folder or reviews_dir()
    return where / f"{game.hash}-s{game.seat}-{lang}-v{REVIEW_CACHE_VERSION}.json"


def cached_review(game: KeptGame, lang: str, folder: Path | None = None) -> dict[str, Any] | None:
    """The cached review of ``game`` in ``lang``, ``None`` when there is none (or it cannot be read)."""
    try:
        data = json.loads(_cache_path(game, lang, folder).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and "summary" in data else None


def review_of(game: KeptGame, lang: str, folder: Path | None = None) -> dict[str, Any]:
    """``game``'s review (``cribbage review --json``'s object for its human seat, reasons in
    ``lang``), from the cache or computed and cached. Raises `ValueError` for a record the coach
    cannot judge."""
    cached = cached_review(game, lang, folder)
    if cached is not None:
        return cached
    from .review import review_game  # the expert loads only when a review is computed

    review = review_game(game.record, game.seat, lang=lang).to_json()
    path = _cache_path(game, lang, folder)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(review) + "\n")
    except OSError:
        pass  # a read-only data directory: computed again next time
    return review


def clear(games: Path | None = None, reviews: Path | None = None) -> int:
    """Remove the kept games and the cached reviews; return how many games were removed."""
    removed = 0
    for folder, counting in ((games or games_dir(), True), (reviews or reviews_dir(), False)):
        try:
            files = [p for p in folder.iterdir() if p.suffix == ".json"]
        except FileNotFoundError:
            continue
        for path in files:
            path.unlink(missing_ok=True)
            removed += int(counting)
    return removed


# ----------------------------------------------------------------------------- the summary


def _loss_key(decision: Mapping[str, Any]) -> tuple[float, float]:
    return (float(decision.get("win_lost") or 0.0), float(decision.get("points_lost") or 0.0))


def _shows(decision: Mapping[str, Any]) -> bool:
    """Whether the review shows the loss (the same rule as `cribcore.review.ReviewedDecision.even`)."""
    from .review import SHOWN_POINTS, SHOWN_WIN

    if decision["chosen"] == decision["best"]:
        return False
    win = decision.get("win_lost")
    return float(decision["points_lost"]) >= SHOWN_POINTS or (win is not None and float(win) >= SHOWN_WIN)


def summarize(
    games: Sequence[KeptGame],
    reviews: Sequence[Mapping[str, Any] | None],
) -> dict[str, Any]:
    """The history's figures (the JSON of ``cribbage history --json``) from ``games`` and their
    reviews (``None`` for a game the coach could not judge)."""
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    per_game = []
    deals = discard = play = 0.0
    costly: list[tuple[tuple[float, float], dict[str, Any]]] = []
    for game, review in zip(games, reviews, strict=True):
        group = groups.setdefault(
            (game.level, game.profile), {"level": game.level, "profile": game.profile, "games": 0, "wins": 0}
        )
        group["games"] += 1
        group["wins"] += int(game.won)
        entry: dict[str, Any] = {
            "file": str(game.path),
            "finished": game.finished,
            "level": game.level,
            "profile": game.profile,
            "seat": game.seat,
            "won": game.won,
            "deals": None,
            "discard_lost_per_deal": None,
            "play_lost_per_deal": None,
        }
        if review is not None:
            summary = review["summary"]
            n = int(summary["deals"])
            entry["deals"] = n
            entry["discard_lost_per_deal"] = summary["discard_lost_per_deal"]
            entry["play_lost_per_deal"] = summary["play_lost_per_deal"]
            deals += n
            discard += float(summary["discard_lost_per_deal"]) * n
            play += float(summary["play_lost_per_deal"]) * n
            for decision in review["decisions"]:
                if _shows(decision) and (
                    float(decision["points_lost"]) > 0 or (decision.get("win_lost") or 0) > 0
                ):
                    costly.append(
                        (
                            _loss_key(decision),
                            {
                                **decision,
                                "file": str(game.path),
                                "seat": game.seat,
                                "finished": game.finished,
                                "replay": f"cribbage review {game.path} --seat {game.seat + 1}",
                            },
                        )
                    )
        per_game.append(entry)
    costly.sort(key=lambda c: (-c[0][0], -c[0][1]))
    return {
        "games": len(games),
        "wins": sum(int(g.won) for g in games),
        "by_level": sorted(groups.values(), key=lambda g: (g["level"], g["profile"])),
        "deals": int(deals),
        "discard_lost_per_deal": round(discard / deals, 3) if deals else None,
        "play_lost_per_deal": round(play / deals, 3) if deals else None,
        "trend": [
            {
                "finished": e["finished"],
                "won": e["won"],
                "lost_per_deal": None
                if e["deals"] is None
                else round(e["discard_lost_per_deal"] + e["play_lost_per_deal"], 3),
            }
            for e in per_game[-TREND_GAMES:]
        ],
        "costliest": [c for _, c in costly[:COSTLIEST]],
        "per_game": per_game,
    }


def reviews_for(
    games: Iterable[KeptGame],
    lang: str,
    *,
    progress: Callable[[int, int], None] | None = None,
    folder: Path | None = None,
) -> list[dict[str, Any] | None]:
    """Each game's review (cached or computed; ``None`` where the coach cannot judge it), calling
    ``progress(done, to_compute)`` after each one computed."""
    listed = list(games)
    missing = {g.path for g in listed if cached_review(g, lang, folder) is None}
    done = 0
    reviews: list[dict[str, Any] | None] = []
    for game in listed:
        fresh = game.path in missing
        try:
            reviews.append(review_of(game, lang, folder))
        except ValueError:
            reviews.append(None)
        if fresh:
            done += 1
            if progress is not None:
                progress(done, len(missing))
    return reviews
