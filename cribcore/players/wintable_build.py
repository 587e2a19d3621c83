"""Building the expert's win table by self-play, and the table a game uses (built on first use).

`cribcore.players.wintable` holds the table itself: its model, how it is solved, read and kept. This
module plays the games it is measured from: first deals of self-play (`play_first_deal`, `deal_chunk`),
by default between hard players, in this process, in local processes or on Dask (`compute_table`). A
profile of two seats other than the standard one gets its table on first use (`win_table_for`, with a
notice and a progress bar) or ahead of play (`build_win_table`, for ``cribbage tables build``).

It sits above the hard level, whose self-play measures a new profile's table, and below the expert,
which asks it for its table: each seat's player comes from the ``make`` a caller passes (hard players for
a profile's first table; `benchmarks/make_win_table.py` seats experts that judge by a given table).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..engine import Game
from ..i18n import _
from ..profiles import Profile
from ..rulebook import Rulebook
from ..seeds import game_seed, player_seed
from . import wintable
from .base import Player
from .hard import HardPlayer
from .tablefiles import Progress, build_notice, build_progress, write_table
from .tablework import run_chunks
from .wintable import (
    FORMAT,
    DealRecord,
    WinTable,
    deal_stats,
    game_points_of,
    kept_table,
    record_first_deal,
    shipped_fingerprint,
    solve,
    supports,
    table_from_json,
    table_to_json,
    win_cache_path,
)

__all__ = [
    "CHUNK",
    "SeatMaker",
    "build_win_table",
    "compute_table",
    "deal_chunk",
    "play_first_deal",
    "win_table_at_hand",
    "win_table_for",
]

SeatMaker = Callable[[str, int], Player]
"""``make(kind, seed)``: the player of a computer kind for one seat, seeded."""

CHUNK = 25
"""First deals per unit of work when a table is computed."""


def win_table_for(book: Rulebook, *, progress: bool = True) -> WinTable | None:
    """``book``'s table: the shipped one for the standard game, a cached or freshly computed one for
    another profile of two seats, ``None`` (after a one-line notice, once per profile and process) when
    the model does not fit the profile or its table cannot be built."""
    key = book.fingerprint
    known, table = wintable.known_table(key)
    if known:
        return table
    why = supports(book)
    if why is None:
        try:
            table = _table_for(book, progress)
        except Exception as exc:  # any failure to build falls back to points, as documented
            why = _("its table could not be built ({reason})").format(reason=exc)
    if table is None and wintable.first_notice(key):
        wintable.notice(
            _("expert: no win table for the profile {profile!r} ({why}); it plays for points").format(
                profile=book.profile_name, why=why
            )
        )
    wintable.remember_table(key, table)
    return table


def win_table_at_hand(book: Rulebook) -> WinTable | None:
    """``book``'s table when it is at hand without computing one: the shipped table of the standard
    game, or one already kept in the data directory (then as `win_table_for` gives it); ``None``
    otherwise, without a notice. For answers that must come at once (a hint, a review)."""
    key = book.fingerprint
    if wintable.known_table(key)[0] or key == shipped_fingerprint():
        return win_table_for(book)
    try:
        kept = win_cache_path(key).is_file()
    except (OSError, RuntimeError):  # no data directory: nothing kept there
        kept = False
    return win_table_for(book) if kept else None


def _table_for(book: Rulebook, progress: bool) -> WinTable:
    path, table = kept_table(book)
    if table is not None:
        return table
    if progress:
        build_notice("win", book.profile_name)
    began = time.perf_counter()
    computed = compute_table(book, wintable.FIRST_USE_DEALS, seed=0, show_progress=progress)
    text = table_to_json(computed, {"fingerprint": book.fingerprint})
    if path is not None:
        write_table(
            path, "win", FORMAT, book.fingerprint, book.profile_name, text, time.perf_counter() - began
        )
    return table_from_json(text)  # as stored: the same numbers in this process as in the next


def build_win_table(
    book: Rulebook, *, jobs: int = 1, dask: str | None = None, progress: Progress | None = None
) -> WinTable | None:
    """Compute ``book``'s table now and keep it in the data directory (for `cribbage tables build`),
    ``None`` when the model does not fit the profile or it is the shipped one's."""
    if supports(book) is not None or book.fingerprint == shipped_fingerprint():
        return None
    began = time.perf_counter()
    computed = compute_table(book, wintable.FIRST_USE_DEALS, seed=0, jobs=jobs, dask=dask, progress=progress)
    text = table_to_json(computed, {"fingerprint": book.fingerprint})
    seconds = time.perf_counter() - began
    path: Path = win_cache_path(book.fingerprint)
    if not write_table(path, "win", FORMAT, book.fingerprint, book.profile_name, text, seconds):
        raise OSError(f"cannot write {path}")
    table = table_from_json(text)
    wintable.remember_table(book.fingerprint, table)
    return table


def play_first_deal(profile: Profile, kinds: Sequence[str], seed: int, make: SeatMaker) -> DealRecord | None:
    """Play the first deal of a game of ``profile`` seeded ``seed`` between ``kinds`` (each seat's
    player from ``make``) and return its `DealRecord`."""
    game = Game(profile, seed=seed, players=[f"{k} {i + 1}" for i, k in enumerate(kinds)])
    players = [make(kind, player_seed(seed, seat)) for seat, kind in enumerate(kinds)]
    while not game.is_over and game.deal_number == 0:
        to_act = game.to_act
        if not to_act:
            break
        seat = to_act[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
    return record_first_deal(game)


def compute_table(
    book: Rulebook,
    deals: int,
    *,
    seed: int,
    show_progress: bool = True,
    jobs: int = 1,
    dask: str | None = None,
    progress: Progress | None = None,
) -> WinTable:
    """``book``'s table from ``deals`` first deals of hard self-play (seeded): in this process, in
    ``jobs`` local processes or on the Dask cluster at ``dask`` (the same table on every backend).
    ``progress(deals done)`` as it goes; else with ``show_progress`` a progress bar on a terminal."""
    chunks = [(start, min(start + CHUNK, deals)) for start in range(0, deals, CHUNK)]
    work = functools.partial(_hard_chunk, seed)
    with build_progress(
        _("win table for {profile}").format(profile=book.profile_name),
        deals,
        show=show_progress and progress is None,
    ) as report:
        parts = run_chunks(work, book.profile, chunks, jobs=jobs, dask=dask, progress=progress or report)
    records = [record for chunk in sorted(parts) for record in parts[chunk]]
    return solve(deal_stats(records), book.target, game_points_of(book), source="first use")


def _hard_seat(kind: str, seed: int) -> Player:
    return HardPlayer(seed)


def _hard_chunk(seed: int, profile: Profile, start: int, stop: int) -> list[DealRecord]:
    return deal_chunk(profile, ("hard", "hard"), seed, start, stop, _hard_seat)


def deal_chunk(
    profile: Profile,
    kinds: tuple[str, ...],
    seed: int,
    start: int,
    stop: int,
    make: SeatMaker,
) -> list[DealRecord]:
    """The `DealRecord` of the first deal of games ``start`` to ``stop - 1`` seeded from ``seed`` (the
    unit of work of `benchmarks/make_win_table.py` on every backend; deals that end the game are left
    out)."""
    records = []
    for index in range(start, stop):
        record = play_first_deal(profile, kinds, game_seed(seed, index), make)
        if record is not None:
            records.append(record)
    return records
