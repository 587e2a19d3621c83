"""The win table: the chance that the dealer of the next deal wins the game, from every pair of scores.

The expert level (`cribcore.players.expert`) values its choices by it. The table is computed by this
project from its own games, in two steps:

1. **How a deal's points arrive** (`DealStats`), measured from self-play deals (`DealRecord`): the
   joint distribution of the dealer's and the pone's pegging (his heels counted with the dealer's), the
   order in which those points arrive (`race_dealer`, `race_pone`: the chance that one side reaches a
   given number of pegging points before the other reaches its own: pegging out happens mid-play), and
   the show: the pone's hand, then the dealer's hand and crib.
2. **The table by dynamic programming** (`solve`), from the target downward: a deal always scores at
   least one point (the last card), so each pair of scores depends only on pairs with a larger total.
   The pegging, the pone's hand and the dealer's show are taken as independent of each other.

In match play, where the profile gives more than one game point for some wins (skunks), the table holds
the dealer's expected share of the game points at stake, ``(G + points won - points lost) / (2 G)``
(``G`` the most a game can give), which is the win probability when every game is worth one.

The standard game's table ships with the package (``win_table.json``, made by
``benchmarks/make_win_table.py``: deals of hard self-play, then re-measured from the expert's own
self-play with that table and solved again until the table stops moving). Another profile of two seats
(another target, a variant, a third-party plugin) gets its own on first use: deals of hard self-play
under its rules, with a notice and a progress bar (`cribcore.players.wintable_build`, which plays the
games: this module only solves, reads and keeps tables), kept in the data directory by the profile's
fingerprint (``win-tables/FINGERPRINT.json``, with the header of `cribcore.players.tablefiles`: a
damaged or stale file is reported and computed again), or built ahead by ``cribbage tables build``.
Profiles the model does not fit (more than two seats, lowball, a counting order other than the pone's
hand before the dealer's, targets that differ by side) have none: the expert then plays for points,
after a one-line notice.
"""

from __future__ import annotations

import functools
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Protocol

from ..i18n import _, ngettext
from ..rulebook import Rulebook
from .tablefiles import read_table, table_path

__all__ = [
    "SCALE",
    "DealRecord",
    "DealStats",
    "DiscardValue",
    "WinTable",
    "deal_stats",
    "first_notice",
    "kept_table",
    "known_table",
    "record_first_deal",
    "remember_table",
    "shipped_table",
    "solve",
    "supports",
    "win_table_kept",
]

SCALE = 10_000
"""Probabilities are stored as integers out of this (the data file's unit)."""

FORMAT = 1
"""The data file's format version."""

FIRST_USE_DEALS = 1_500
"""Deals of self-play measured when a profile's table is computed on first use."""


# --------------------------------------------------------------------------- one deal's points


@dataclass(frozen=True, slots=True)
class DealRecord:
    """How one deal's points arrived: the play's points in order (``True`` for the dealer's side, his
    heels first), then the show's: the pone's hand, the dealer's hand, the crib."""

    pegging: tuple[tuple[bool, int], ...]
    pone_hand: int
    dealer_hand: int
    crib: int

    def to_json(self) -> list[object]:
        return [[[int(d), p] for d, p in self.pegging], self.pone_hand, self.dealer_hand, self.crib]

    @classmethod
    def from_json(cls, data: Sequence[object]) -> DealRecord:
        pegging, pone, dealer, crib = data
        assert isinstance(pegging, list)
        return cls(tuple((bool(d), int(p)) for d, p in pegging), int(pone), int(dealer), int(crib))  # type: ignore[call-overload]


_PLAY_KINDS = frozenset({"play", "go", "heels"})


def record_first_deal(game: object) -> DealRecord | None:
    """The `DealRecord` of the first deal of ``game`` (a `cribcore.engine.Game` whose first deal has
    been counted), or ``None`` when the game ended in it. Claims under muggins count where they
    concern (the play, a hand or the crib); other points (a variant's extras) count with the play."""
    events = game.events  # type: ignore[attr-defined]
    rules = game.rules  # type: ignore[attr-defined]
    dealer: int | None = None
    pegging: list[tuple[bool, int]] = []
    show = {"pone": 0, "hand": 0, "crib": 0}
    concerning = "play"
    for event in events:
        if event.deal != 0 or event.kind in ("cut",):
            if event.deal != 0 and dealer is not None:
                break
            continue
        if event.kind == "deal":
            dealer = event.seat
            continue
        if event.kind in ("hand", "crib"):
            concerning = event.kind
        elif event.kind in _PLAY_KINDS:
            concerning = "play"
        if not (event.scored and event.points and event.seat is not None) or dealer is None:
            continue
        mine = rules.side_of(event.seat) == rules.side_of(dealer)
        if concerning == "play":
            pegging.append((mine, event.points))
        elif not mine:
            show["pone"] += event.points
        else:
            show["hand" if concerning == "hand" else "crib"] += event.points
    if dealer is None or game.winner is not None:  # type: ignore[attr-defined]
        return None
    return DealRecord(tuple(pegging), show["pone"], show["hand"], show["crib"])


# --------------------------------------------------------------------------- the distributions


def _distribution(values: Iterable[int]) -> tuple[float, ...]:
    counts = Counter(values)
    total = sum(counts.values())
    return tuple(counts.get(v, 0) / total for v in range(max(counts) + 1))


@dataclass(frozen=True, slots=True)
class DealStats:
    """A deal's points as distributions (see the module docstring). ``joint`` lists (dealer's
    pegging, pone's pegging, probability); ``race_dealer[n][m]`` is the chance that the dealer's side
    pegs ``n`` points before the pone's side pegs ``m`` (``race_pone`` the other way round), for ``n``
    and ``m`` up to ``reach``, a number of pegging points no deal reached; the hands' and crib's
    distributions are by points (index 0 is 0 points)."""

    deals: int
    joint: tuple[tuple[int, int, float], ...]
    race_dealer: tuple[tuple[float, ...], ...]
    race_pone: tuple[tuple[float, ...], ...]
    reach: int
    pone_hand: tuple[float, ...]
    dealer_hand: tuple[float, ...]
    crib: tuple[float, ...]
    dealer_show: tuple[float, ...]

    def mean(self, name: str) -> float:
        dist: tuple[float, ...] = getattr(self, name)
        return sum(v * p for v, p in enumerate(dist))

    def to_json(self) -> dict[str, object]:
        def ints(values: Iterable[float]) -> list[int]:
            return [round(v * SCALE * 10) for v in values]

        return {
            "deals": self.deals,
            "joint": [[x, y, round(p * SCALE * 10)] for x, y, p in self.joint],
            "race_dealer": [ints(row) for row in self.race_dealer],
            "race_pone": [ints(row) for row in self.race_pone],
            "reach": self.reach,
            "pone_hand": ints(self.pone_hand),
            "dealer_hand": ints(self.dealer_hand),
            "crib": ints(self.crib),
            "dealer_show": ints(self.dealer_show),
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> DealStats:
        unit = SCALE * 10

        def floats(values: object) -> tuple[float, ...]:
            assert isinstance(values, list)
            return tuple(int(v) / unit for v in values)

        joint = data["joint"]
        assert isinstance(joint, list)
        race_d, race_p = data["race_dealer"], data["race_pone"]
        assert isinstance(race_d, list) and isinstance(race_p, list)
        return cls(
            deals=int(data["deals"]),  # type: ignore[call-overload]
            joint=tuple((int(x), int(y), int(p) / unit) for x, y, p in joint),
            race_dealer=tuple(floats(row) for row in race_d),
            race_pone=tuple(floats(row) for row in race_p),
            reach=int(data["reach"]),  # type: ignore[call-overload]
            pone_hand=floats(data["pone_hand"]),
            dealer_hand=floats(data["dealer_hand"]),
            crib=floats(data["crib"]),
            dealer_show=floats(data["dealer_show"]),
        )


def deal_stats(records: Sequence[DealRecord]) -> DealStats:
    """The distributions of ``records`` (at least one)."""
    totals = [(sum(p for d, p in r.pegging if d), sum(p for d, p in r.pegging if not d)) for r in records]
    reach = max(max(x, y) for x, y in totals) + 1
    n = len(records)
    joint_counts = Counter(totals)
    joint = tuple(sorted((x, y, c / n) for (x, y), c in joint_counts.items()))
    # For every deal, when (the index of the point event) each side first reached each total.
    never = 1 << 30
    race_d = [[0.0] * (reach + 1) for _ in range(reach + 1)]
    race_p = [[0.0] * (reach + 1) for _ in range(reach + 1)]
    for record in records:
        first_d = [never] * (reach + 1)
        first_p = [never] * (reach + 1)
        first_d[0] = first_p[0] = -1
        have = {True: 0, False: 0}
        for t, (side, points) in enumerate(record.pegging):
            start = have[side] + 1
            have[side] += points
            firsts = first_d if side else first_p
            for total in range(start, min(have[side], reach) + 1):
                firsts[total] = t
        for nd in range(1, reach + 1):
            td = first_d[nd]
            row_d = race_d[nd]
            for np_ in range(1, reach + 1):
                tp = first_p[np_]
                if td < tp:
                    row_d[np_] += 1
                elif tp < td:
                    race_p[nd][np_] += 1
    for table in (race_d, race_p):
        for row in table:
            for i in range(len(row)):
                row[i] /= n
    return DealStats(
        deals=n,
        joint=joint,
        race_dealer=tuple(tuple(row) for row in race_d),
        race_pone=tuple(tuple(row) for row in race_p),
        reach=reach,
        pone_hand=_distribution(r.pone_hand for r in records),
        dealer_hand=_distribution(r.dealer_hand for r in records),
        crib=_distribution(r.crib for r in records),
        dealer_show=_distribution(r.dealer_hand + r.crib for r in records),
    )


# --------------------------------------------------------------------------- the table


class DiscardValue(Protocol):
    """`WinTable.discard_values`'s answer for one decision."""

    def __call__(self, hand: int, crib_shift: float, mine: float = 0.0, theirs: float = 0.0) -> float: ...


GamePoints = Callable[[int], int]
"""The game points a win is worth with the loser at a given score (1 unless skunks count)."""


def _one(loser: int) -> int:
    del loser
    return 1


@dataclass(slots=True)
class WinTable:
    """``dealer[a][b]``: the dealer's side's chance to win (its share of the game points in match
    play) when the deal starts with the dealer's side at ``a`` and the pone's at ``b`` (both below
    ``target``). Built by `solve`; the expert asks `start`, `discard_values` and `leaf_value`."""

    target: int
    stats: DealStats
    dealer: list[list[float]]
    game_points: tuple[int, ...]
    """Game points of a win by the loser's score (index), all 1 when skunks do not count."""
    source: str = ""
    _pone_after: list[list[float]] | None = field(default=None, repr=False)
    _dealer_after: list[list[float]] | None = field(default=None, repr=False)

    @property
    def top(self) -> int:
        return max(self.game_points)

    def won(self, loser: int) -> float:
        """The winner's value when the loser ends at ``loser`` points."""
        g = self.top
        return (g + self.game_points[max(0, min(loser, self.target - 1))]) / (2 * g)

    def start(self, dealer_score: int, pone_score: int) -> float:
        """The dealer's side's value at the start of a deal (a side at the target has won)."""
        t = self.target
        if dealer_score >= t:
            return self.won(pone_score)
        if pone_score >= t:
            return 1.0 - self.won(dealer_score)
        return self.dealer[max(0, dealer_score)][max(0, pone_score)]

    # ------------------------------------------------------------ helpers for decisions

    def _pone_table(self) -> list[list[float]]:
        """``u[c][e]``: the dealer's value when the pone has counted its hand and stands at ``c``, and
        the dealer, at ``e``, counts its hand and crib next."""
        if self._pone_after is None:
            self._pone_after = _show_table(self, self.stats.dealer_show)
        return self._pone_after

    def _dealer_table(self) -> list[list[float]]:
        """``m[e][y]``: the dealer's value after the play with the pone at ``y`` and the dealer at
        ``e`` with its hand counted in (``e`` up to the target), before the pone's hand and the crib."""
        if self._dealer_after is None:
            t = self.target
            crib = _show_table(self, self.stats.crib)  # [c][e]: pone done at c, dealer at e, crib next
            hand = self.stats.pone_hand
            m = [[0.0] * t for _ in range(t + 1)]
            for e in range(t + 1):
                for y in range(t):
                    v = 0.0
                    for h, p in enumerate(hand):
                        if p and y + h < t:
                            v += p * (crib[y + h][e] if e < t else self.won(y + h))
                        elif p:
                            v += p * (1.0 - self.won(min(e, t)))
                    m[e][y] = v
            self._dealer_after = m
        return self._dealer_after

    def pegging_terms(
        self, dealer_score: int, pone_score: int
    ) -> tuple[float, float, list[tuple[int, int, float]]]:
        """(the dealer's value of pegging out first, the pone's, the pegging totals that leave the game
        open) for a deal starting at these scores."""
        t = self.target
        stats = self.stats
        nd = min(t - dealer_score, stats.reach)
        np_ = min(t - pone_score, stats.reach)
        open_ = [(x, y, p) for x, y, p in stats.joint if dealer_score + x < t and pone_score + y < t]
        return (
            stats.race_dealer[nd][np_] * self.won(pone_score),
            stats.race_pone[nd][np_] * self.won(dealer_score),
            open_,
        )

    def discard_values(self, dealer_score: int, pone_score: int, is_dealer: bool) -> DiscardValue:
        """``value(hand, crib_shift, mine=0.0, theirs=0.0)``: the seat's side's value when its kept
        hand shows ``hand``, the crib scores ``crib_shift`` more than usual, and the seat's side pegs
        ``mine`` and the other side ``theirs`` more than the measured pegging, the deal starting at these
        scores; memoised, for one decision.

        Fractional shifts are shared linearly between the whole points around them. A pegging shift
        moves the side's points as its show does (pegging out mid-play is still taken from the measured
        race, and the dealer's extra pegging is counted with the crib): the discard's question is which
        keep moves the deal's points, not when within the deal they arrive."""
        t = self.target
        win_d, win_p, open_ = self.pegging_terms(dealer_score, pone_score)
        memo: dict[tuple[int, int], float] = {}
        if is_dealer:
            m = self._dealer_table()

            def exact(a: int, b: int) -> float:
                # a: points added to the dealer's side after the play, b: to the pone's pegging.
                v = win_d
                for x, y, p in open_:
                    e = min(t, max(0, dealer_score + x + a))
                    yy = max(0, pone_score + y + b)
                    v += p * (m[e][yy] if yy < t else 1.0 - self.won(dealer_score + x))
                return v

        else:
            u = self._pone_table()

            def exact(a: int, b: int) -> float:
                # a: points added to the pone's side (pegging and hand), b: to the dealer's after it.
                v = win_p
                for x, y, p in open_:
                    c = max(0, pone_score + y + a)
                    if c >= t:
                        v += p * self.won(dealer_score + x)
                    else:
                        e = dealer_score + x + b
                        dealer_value = self.won(c) if e >= t else u[c][max(0, e)]
                        v += p * (1.0 - dealer_value)
                return v

        def value(hand: int, crib_shift: float, mine: float = 0.0, theirs: float = 0.0) -> float:
            if is_dealer:
                a, b = hand + crib_shift + mine, theirs
            else:
                a, b = hand + mine, crib_shift + theirs
            ia = int(a // 1)
            ib = int(b // 1)
            fa = a - ia
            fb = b - ib
            out = 0.0
            for ka, wa in ((ia, 1.0 - fa), (ia + 1, fa)):
                if wa <= 0.0:
                    continue
                for kb, wb in ((ib, 1.0 - fb), (ib + 1, fb)):
                    if wb <= 0.0:
                        continue
                    got = memo.get((ka, kb))
                    if got is None:
                        got = memo[(ka, kb)] = exact(ka, kb)
                    out += wa * wb * got
            return out

        return value


def _show_table(table: WinTable, show: Sequence[float]) -> list[list[float]]:
    """``r[c][e]``: the dealer's value with the pone done at ``c`` and the dealer at ``e`` about to
    score ``show`` (a distribution), the next deal dealt by the pone then."""
    t = table.target
    w = table.dealer
    r = [[0.0] * t for _ in range(t)]
    for c in range(t):
        row = r[c]
        wc = w[c]
        for e in range(t):
            v = 0.0
            for s, p in enumerate(show):
                if p:
                    v += p * (table.won(c) if e + s >= t else 1.0 - wc[e + s])
            row[e] = v
    return r


def solve(
    stats: DealStats,
    target: int,
    game_points: GamePoints = _one,
    progress: Callable[[int, int], None] | None = None,
    source: str = "",
) -> WinTable:
    """The table for ``target`` from ``stats`` by dynamic programming (see the module docstring).
    ``progress(done, total)`` is told of each total of the two scores solved."""
    t = target
    points = tuple(max(1, game_points(loser)) for loser in range(t))
    table = WinTable(t, stats, [[0.0] * t for _ in range(t)], points, source)
    w = table.dealer
    u = [[0.0] * t for _ in range(t)]  # pone done at c, dealer at e before its show
    v = [[0.0] * t for _ in range(t)]  # after the play: dealer at a, pone at b
    hand = [(h, p) for h, p in enumerate(stats.pone_hand) if p]
    show = [(s, p) for s, p in enumerate(stats.dealer_show) if p]
    joint = [(x, y, p) for x, y, p in stats.joint if x or y]  # every deal scores (the last card)
    norm = sum(p for _, _, p in joint)
    joint = [(x, y, p / norm) for x, y, p in joint]
    won = table.won
    levels = 2 * t - 1
    for level in range(2 * t - 2, -1, -1):
        cells = [(a, level - a) for a in range(max(0, level - t + 1), min(t - 1, level) + 1)]
        for a, b in cells:
            nd = min(t - a, stats.reach)
            np_ = min(t - b, stats.reach)
            value = stats.race_dealer[nd][np_] * won(b) + stats.race_pone[nd][np_] * (1.0 - won(a))
            for x, y, p in joint:
                if a + x < t and b + y < t:
                    value += p * v[a + x][b + y]
            w[a][b] = value
        for c, e in cells:
            value = 0.0
            wc = w[c]
            for s, p in show:
                value += p * (won(c) if e + s >= t else 1.0 - wc[e + s])
            u[c][e] = value
        for a, b in cells:
            value = 0.0
            for h, p in hand:
                value += p * (1.0 - won(a) if b + h >= t else u[b + h][a])
            v[a][b] = value
        if progress is not None:
            progress(levels - level, levels)
    table._pone_after = u
    return table


# --------------------------------------------------------------------------- files and profiles


def table_to_json(table: WinTable, extra: dict[str, object] | None = None) -> str:
    data: dict[str, object] = {
        "format": FORMAT,
        "target": table.target,
        "source": table.source,
        "game_points": list(table.game_points),
        "stats": table.stats.to_json(),
        **(extra or {}),
        "dealer": [[round(p * SCALE) for p in row] for row in table.dealer],
    }
    lines = json.dumps({k: v for k, v in data.items() if k != "dealer"}, sort_keys=True)
    rows = ",\n".join(json.dumps(row, separators=(",", ":")) for row in data["dealer"])  # type: ignore[attr-defined]
    return lines[:-1] + ', "dealer": [\n' + rows + "\n]}\n"


def table_from_json(text: str) -> WinTable:
    """The table in ``text`` (the data file's JSON); raises `ValueError` when it is not one."""
    try:
        data = json.loads(text)
        if data["format"] != FORMAT:
            raise ValueError(f"win table format {data['format']}, not {FORMAT}")
        target = int(data["target"])
        dealer = [[int(v) / SCALE for v in row] for row in data["dealer"]]
        if len(dealer) != target or any(len(row) != target for row in dealer):
            raise ValueError("the win table's size does not match its target")
        return WinTable(
            target,
            DealStats.from_json(data["stats"]),
            dealer,
            tuple(int(g) for g in data["game_points"]),
            str(data.get("source", "")),
        )
    except (KeyError, TypeError, AssertionError) as exc:
        raise ValueError(f"not a win table: {exc}") from None


@functools.cache
def shipped_table() -> WinTable:
    """The standard game's table shipped with the package, read once."""
    return table_from_json(files("cribcore.players").joinpath("win_table.json").read_text(encoding="utf-8"))


def supports(book: Rulebook) -> str | None:
    """``None`` when the table's model fits ``book``'s profile, else why not (a few words)."""
    rules = book.rules
    if rules.seats != 2 or rules.sides != 2:
        return ngettext("{n} seat", "{n} seats", rules.seats).format(n=rules.seats)
    if not book.target_wins:
        return _("reaching the target loses")
    if rules.target_of(0) != rules.target_of(1):
        return _("the sides play to different targets")
    if tuple(book.counting_order(0)) != (1, 0):
        return _("its show is counted in another order")
    return None


_BY_FINGERPRINT: dict[str, WinTable | None] = {}
"""The table of each profile (by fingerprint) already looked up or built in this process (``None``: it
has none)."""
_NOTICED: set[str] = set()


def known_table(fingerprint: str) -> tuple[bool, WinTable | None]:
    """Whether this process already knows the table of the profile with this fingerprint, and it."""
    return fingerprint in _BY_FINGERPRINT, _BY_FINGERPRINT.get(fingerprint)


def remember_table(fingerprint: str, table: WinTable | None) -> None:
    """Keep, for this process, the table of the profile with this fingerprint (``None``: it has none)."""
    _BY_FINGERPRINT[fingerprint] = table


def first_notice(fingerprint: str) -> bool:
    """``True`` the first time it is asked for this fingerprint in this process: a notice is said once."""
    if fingerprint in _NOTICED:
        return False
    _NOTICED.add(fingerprint)
    return True


def win_cache_path(fingerprint: str) -> Path:
    """Where the table of the profile with this fingerprint is kept (in the data directory)."""
    return table_path("win", fingerprint)


def game_points_of(book: Rulebook) -> GamePoints:
    """The game points of a win by the loser's score, under ``book`` (1 when it cannot say)."""
    t = book.target

    def points(loser: int) -> int:
        try:
            return max(1, int(book.game_points((t, loser), 0)))
        except Exception:  # a plugin's hook failing here must not stop the expert
            return 1

    return points


def notice(text: str) -> None:
    """A one-line notice on standard error (the expert's fallback to points)."""
    print(text, file=sys.stderr)


def kept_table(book: Rulebook) -> tuple[Path | None, WinTable | None]:
    """Where ``book``'s own table is kept (``None`` without a data directory) and the table found
    without computing one: the shipped table for the standard game, else the one kept there when it
    reads whole (a damaged or stale file is reported in one line), else ``None``."""
    shipped = shipped_table()
    if book.fingerprint == shipped_fingerprint():
        return None, shipped
    try:
        path: Path | None = win_cache_path(book.fingerprint)
    except RuntimeError:
        path = None
    if path is not None:
        body = read_table(path, "win", FORMAT, book.fingerprint, book.profile_name)
        if body is not None:
            try:
                return path, table_from_json(body)
            except ValueError:
                pass
    return path, None


def win_table_kept(book: Rulebook) -> bool:
    """Whether ``book``'s own table is kept, whole, in the data directory."""
    path = win_cache_path(book.fingerprint)
    return read_table(path, "win", FORMAT, book.fingerprint, book.profile_name) is not None


@functools.cache
def shipped_fingerprint() -> str:
    from ..engine import standard_profile
    from ..rulebook import rulebook_for

    return rulebook_for(standard_profile()).fingerprint
