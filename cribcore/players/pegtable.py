"""The pegging table: how many points each side pegs, by the four ranks a seat keeps and its role.

The expert's discard (`cribcore.players.expert`) weighs how well the kept hand pegs for its seat: a pone
keeping a five, or cards that make fifteens easy for the dealer, pegs worse than one keeping low cards;
a dealer keeping a pair pegs better. The win table's pegging (`cribcore.players.wintable`) is one
measured distribution for every keep; this table says how far each keep moves it.

For each multiset of four kept ranks (1,820 of them) and each role (dealer or pone), the table holds the
expected pegging of the keeping seat and of its opponent in the standard two-seat play, the go and the
last card included (his heels, which do not depend on the keep, excluded). The opponent's four are every
four of the 48 cards left (suits do not matter to the play, so every multiset of ranks with its number
of ways), each weighed by how likely a sound player keeps it (`cribcore.players.pegging.KEEP_WEIGHT` by
what it scores as it lies, flushes aside), and every deal is played out by both seats with the quick rule
of the hard level's play search (`cribcore.players.pegging.play_out_ranks`, the search's own play-out on
ranks: the most points now, minus what a random card would answer with), the pone leading. The result
is exact for that rule: no sampling, hence no seed; the data file ``peg_table.json`` is made by
``benchmarks/make_peg_table.py`` (the command is in the file).

Values are stored in thousandths of a point. `PegTable.shift` gives a keep's pegging less the average
keep's (four cards at random from the pack), which is how the expert moves its win values.

Under a profile whose play is not the standard one (`peg_table_for`), the table is the profile's own,
made the same way with the play scored by the profile (`cribcore.players.rankplay.RankPlay`: each card's
points from the profile's rulebook, and the quick rule's guesses at the answers scaled to them). Each
deal of two keeps serves both: the dealer's row of the one and the pone's row of the other. It is
computed on first use (about 45 s of CPU, shared by ``jobs`` processes) and kept in the data
directory (``peg-tables/FINGERPRINT.json``, see `cribcore.players.tablefiles`).
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib.resources import files
from itertools import combinations_with_replacement
from math import comb

from ..i18n import _
from ..profiles import Profile
from ..rulebook import Rulebook, rulebook_for
from .pegging import KEEP_WEIGHT, play_out_ranks
from .rankplay import RankPlay
from .tablefiles import Progress, build_notice, build_progress, read_table, table_path, write_table
from .tally import rank_points

__all__ = [
    "FORMAT",
    "KEYS",
    "PegTable",
    "build_peg_table",
    "compute_peg_table",
    "entry",
    "fits",
    "peg_table",
    "peg_table_at_hand",
    "peg_table_for",
    "peg_table_kept",
    "play_out",
]

FORMAT = 1
"""The data file's format version."""

UNIT = 1000
"""Stored values are points times this."""

KEYS: tuple[tuple[int, ...], ...] = tuple(combinations_with_replacement(range(1, 14), 4))
"""Every multiset of four ranks (ace 1 … king 13), sorted: the table's rows, in this order."""

_INDEX = {key: i for i, key in enumerate(KEYS)}


play_out = play_out_ranks
"""(dealer's, pone's) pegging when both seats play these ranks by the quick rule, the pone first (the
go and the last card counted): the play search's own rank play-out
(`cribcore.players.pegging.play_out_ranks`), so the table follows the rule the search plays by."""


def _ways(key: Sequence[int], taken: Sequence[int]) -> int:
    """The number of ways to hold the ranks ``key`` from a pack that has lost the ranks ``taken``."""
    ways = 1
    for rank in set(key):
        left = 4 - taken.count(rank)
        ways *= comb(left, key.count(rank))
    return ways


@functools.cache
def _keep_weight(key: tuple[int, ...]) -> float:
    return KEEP_WEIGHT[min(rank_points(key), len(KEEP_WEIGHT) - 1)]


def _opponents(seen: Sequence[int]) -> Iterator[tuple[tuple[int, ...], float]]:
    """Every opponent's four ranks possible beside the ranks ``seen`` with its weight (ways times keep
    weight)."""
    for other in KEYS:
        ways = _ways(other, seen)
        if ways:
            yield other, ways * _keep_weight(other)


def entry(kept: Sequence[int], is_dealer: bool, seen: Sequence[int] = ()) -> tuple[float, float]:
    """(the keeping seat's expected pegging, its opponent's) for the ranks ``kept`` in this role,
    exactly as the data file holds it (before rounding). ``seen``: ranks of other cards the opponent
    cannot hold (the data file has none: the thrown cards are not in its key)."""
    key = tuple(sorted(kept))
    mine = theirs = total = 0.0
    for other, weight in _opponents((*key, *seen)):
        d, p = play_out(key, other) if is_dealer else play_out(other, key)
        if not is_dealer:
            d, p = p, d
        mine += weight * d
        theirs += weight * p
        total += weight
    return mine / total, theirs / total


@dataclass(frozen=True, slots=True)
class PegTable:
    """``dealer[i]`` and ``pone[i]``: (the keeping seat's pegging, its opponent's) for `KEYS` ``[i]``
    kept in that role; ``base``: the same for four random cards of the pack, by role."""

    dealer: tuple[tuple[float, float], ...]
    pone: tuple[tuple[float, float], ...]
    base: dict[bool, tuple[float, float]]
    command: str = ""

    def pegging(self, ranks: Sequence[int], is_dealer: bool) -> tuple[float, float]:
        """(mine, theirs) for the four kept ``ranks`` (any order) in this role."""
        rows = self.dealer if is_dealer else self.pone
        return rows[_INDEX[tuple(sorted(ranks))]]

    def shift(self, ranks: Sequence[int], is_dealer: bool) -> tuple[float, float]:
        """How much more than the average keep (mine, theirs) peg when these four ranks are kept."""
        mine, theirs = self.pegging(ranks, is_dealer)
        base_mine, base_theirs = self.base[is_dealer]
        return mine - base_mine, theirs - base_theirs


def _base(rows: Sequence[tuple[float, float]]) -> tuple[float, float]:
    mine = theirs = total = 0.0
    for key, (m, t) in zip(KEYS, rows, strict=True):
        ways = _ways(key, ())
        mine += ways * m
        theirs += ways * t
        total += ways
    return mine / total, theirs / total


def table_to_json(
    dealer: Sequence[tuple[float, float]], pone: Sequence[tuple[float, float]], command: str
) -> str:
    """The data file's text: one row of two integers (thousandths) per key, in `KEYS` order."""

    def rows(values: Sequence[tuple[float, float]]) -> str:
        return ",\n".join(json.dumps([round(m * UNIT), round(t * UNIT)]) for m, t in values)

    head = json.dumps(
        {"format": FORMAT, "unit": UNIT, "command": command, "keys": "KEYS: 4 ranks A..K, sorted"}
    )
    return head[:-1] + ', "dealer": [\n' + rows(dealer) + '\n], "pone": [\n' + rows(pone) + "\n]}\n"


def table_from_json(text: str) -> PegTable:
    """The table in ``text``; raises `ValueError` when it is not one."""
    try:
        data = json.loads(text)
        if data["format"] != FORMAT:
            raise ValueError(f"peg table format {data['format']}, not {FORMAT}")
        unit = int(data["unit"])
        dealer = tuple((int(m) / unit, int(t) / unit) for m, t in data["dealer"])
        pone = tuple((int(m) / unit, int(t) / unit) for m, t in data["pone"])
        if len(dealer) != len(KEYS) or len(pone) != len(KEYS):
            raise ValueError("the peg table does not have a row for every keep")
        return PegTable(dealer, pone, {True: _base(dealer), False: _base(pone)}, str(data["command"]))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a peg table: {exc}") from None


@functools.cache
def peg_table() -> PegTable:
    """The shipped table (standard play), read once."""
    return table_from_json(files("cribcore.players").joinpath("peg_table.json").read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- a profile's own table

PROFILE_VERSION = 1
"""The version of a profile's table file (a file of another version is built again)."""

CHUNK = 52
"""Keeps of the dealer per unit of work (35 units in all)."""

STRIDE = 1
"""Every deal of two keeps is played (1); tests set more to play one pair of keeps in ``STRIDE``, for a
rough table in a moment."""

_BY_FINGERPRINT: dict[str, PegTable] = {}


def fits(book: Rulebook) -> bool:
    """Whether the pegging table's model fits ``book``'s game: two seats keeping four, the play going on
    to a new count whenever one closes, the target winning."""
    rules = book.rules
    return rules.seats == 2 and rules.hand_size == 4 and book.play_always_continues and book.target_wins


def peg_table_for(book: Rulebook, *, progress: bool = True, jobs: int = 1) -> PegTable:
    """``book``'s pegging table: the shipped one under the standard play, otherwise the profile's own,
    read from the data directory or computed (with a notice and a progress bar on a terminal when
    ``progress``) and kept there. ``book`` must `fits`."""
    if book.is_standard_play:
        return peg_table()
    found = _BY_FINGERPRINT.get(book.fingerprint)
    if found is not None:
        return found
    try:
        path = table_path("peg", book.fingerprint)
    except RuntimeError:  # no home directory to find the data directory in
        path = None
    body = read_table(path, "peg", PROFILE_VERSION, book.fingerprint, book.profile_name) if path else None
    table = None
    if body is not None:
        try:
            table = table_from_json(body)
        except ValueError:
            table = None
    if table is None:
        if progress:
            build_notice("peg", book.profile_name)
        began = time.perf_counter()
        with build_progress(
            _("pegging table for {profile}").format(profile=book.profile_name), len(KEYS), show=progress
        ) as report:
            body = peg_table_text(book, jobs=jobs, progress=report)
        table = table_from_json(body)
        if path is not None:
            write_table(
                path,
                "peg",
                PROFILE_VERSION,
                book.fingerprint,
                book.profile_name,
                body,
                time.perf_counter() - began,
            )
    _BY_FINGERPRINT[book.fingerprint] = table
    return table


def peg_table_at_hand(book: Rulebook) -> PegTable | None:
    """``book``'s table when it is at hand without computing it (the shipped one, one in memory or one
    kept in the data directory), else ``None``: for answers that must come at once."""
    if book.is_standard_play or book.fingerprint in _BY_FINGERPRINT:
        return peg_table_for(book)
    try:
        kept = table_path("peg", book.fingerprint).is_file()
    except (OSError, RuntimeError):
        kept = False
    return peg_table_for(book) if kept else None


_PLAYS: dict[str, RankPlay] = {}


def _rank_play(profile: Profile) -> RankPlay:
    book = rulebook_for(profile)
    play = _PLAYS.get(book.fingerprint)
    if play is None:
        play = _PLAYS[book.fingerprint] = RankPlay(book)
    return play


Sums = list[list[float]]
"""Per key of `KEYS`: [mine, theirs, weight] summed over the deals seen so far."""


def peg_chunk(profile: Profile, start: int, stop: int) -> tuple[Sums, Sums]:
    """(the dealer's sums for the keeps ``KEYS[start:stop]``, the pone's sums for every keep from the
    same deals): the unit of work of a profile's table, in any process."""
    play = _rank_play(profile)
    dealer: Sums = []
    pone: Sums = [[0.0, 0.0, 0.0] for _ in KEYS]
    stride = STRIDE
    for i, key in enumerate(KEYS[start:stop], start):
        mine = theirs = total = 0.0
        key_weight = _keep_weight(key)
        for j, other in enumerate(KEYS):
            if stride > 1 and (i + j) % stride:
                continue
            ways = _ways(other, key)
            if not ways:
                continue
            d, p = play.play_out(key, other)
            weight = ways * _keep_weight(other)
            mine += weight * d
            theirs += weight * p
            total += weight
            back = _ways(key, other) * key_weight
            row = pone[_INDEX[other]]
            row[0] += back * p
            row[1] += back * d
            row[2] += back
        dealer.append([mine, theirs, total])
    return dealer, pone


def _chunks() -> list[tuple[int, int]]:
    return [(start, min(start + CHUNK, len(KEYS))) for start in range(0, len(KEYS), CHUNK)]


def peg_table_text(
    book: Rulebook, *, jobs: int = 1, dask: str | None = None, progress: Progress | None = None
) -> str:
    """The data file's text of ``book``'s table, computed in this process, in ``jobs`` local
    processes, or on the Dask cluster at ``dask``; ``progress(keeps done)`` as it goes."""
    from .tablework import run_chunks

    parts = run_chunks(peg_chunk, book.profile, _chunks(), jobs=jobs, dask=dask, progress=progress)
    dealer: list[tuple[float, float]] = []
    pone_sums: Sums = [[0.0, 0.0, 0.0] for _ in KEYS]
    for (start, _stop), (rows, pone) in sorted(parts.items()):
        del start
        dealer.extend((m / max(t, 1e-12), o / max(t, 1e-12)) for m, o, t in rows)
        for total, part in zip(pone_sums, pone, strict=True):
            for i in range(3):
                total[i] += part[i]
    pone_rows = [(m / max(t, 1e-12), o / max(t, 1e-12)) for m, o, t in pone_sums]
    return table_to_json(dealer, pone_rows, f"built for the profile {book.profile_name}")


def build_peg_table(
    book: Rulebook, *, jobs: int = 1, dask: str | None = None, progress: Progress | None = None
) -> None:
    """Compute ``book``'s own pegging table now and keep it in the data directory (`cribbage tables
    build`); `OSError` when it cannot be written."""
    began = time.perf_counter()
    body = peg_table_text(book, jobs=jobs, dask=dask, progress=progress)
    table = table_from_json(body)
    path = table_path("peg", book.fingerprint)
    seconds = time.perf_counter() - began
    if not write_table(path, "peg", PROFILE_VERSION, book.fingerprint, book.profile_name, body, seconds):
        raise OSError(f"cannot write {path}")
    _BY_FINGERPRINT[book.fingerprint] = table


def peg_table_kept(book: Rulebook) -> bool:
    """Whether ``book``'s own pegging table is kept, whole, in the data directory."""
    path = table_path("peg", book.fingerprint)
    return read_table(path, "peg", PROFILE_VERSION, book.fingerprint, book.profile_name) is not None


def compute_peg_table(book: Rulebook, *, jobs: int = 1) -> PegTable:
    """``book``'s pegging table computed now (not read or kept), as `peg_table_for` would make it."""
    return table_from_json(peg_table_text(book, jobs=jobs))
