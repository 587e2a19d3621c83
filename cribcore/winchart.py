"""The win-chance graph of a review: the reviewed seat's chance to win after each of its decisions and
at each deal's start, as the expert's win table gives it (`cribcore.players.wintable`).

A point is taken

- at the start of each deal (``kind`` ``"start"``): the table's value of the scores, the dealer known;
- after each reviewed decision (``"discard"`` or ``"play"``): the expert's value of the choice the seat
  made (`cribcore.players.expert.Judgement.win`), from the seat's own view, so it knows what the
  player knew: the hand dealt, the starter once turned, the cards laid;
- at the end of a finished game (``"end"``): won or lost.

The measure (`ChanceSeries.measure`) is the chance to win (``"win"``); under a profile where a game can
give more than one game point (skunks) it is the expected game points, won less lost (``"game_points"``,
from the table's expected share of the points at stake); and where no table is at hand
(`cribcore.players.wintable_build.win_table_at_hand`) it is the seat's lead in points (``"lead"``), with a
one-line note that says so. The biggest swings (`SWINGS` of them) are the points whose value moved most
from the point before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .i18n import N_, gettext

__all__ = ["SWINGS", "ChancePoint", "ChanceSeries", "DealStart", "build_series", "side_value"]

SWINGS = 3
"""How many of the biggest swings a series marks."""


@dataclass(frozen=True, slots=True)
class DealStart:
    """Where a deal began: its number (from 0), its dealer's seat and the scores per side."""

    deal: int
    dealer: int
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChancePoint:
    """One point of the graph."""

    deal: int
    """The deal, from 0."""
    kind: str
    """``start``, ``discard``, ``play`` or ``end``."""
    decision: int | None
    """The index of the review's decision this point follows (``None`` for a start or the end)."""
    scores: tuple[int, ...]
    chance: float | None
    """The seat's side's chance to win (its share of the game points at stake), 0 to 1; ``None`` where
    no table is at hand."""
    value: float
    """What the graph draws, in the series' measure: the chance, the expected game points or the lead."""

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal + 1,
            "kind": self.kind,
            "decision": self.decision,
            "scores": list(self.scores),
            "chance": None if self.chance is None else round(self.chance, 4),
            "value": round(self.value, 4),
        }


@dataclass(frozen=True, slots=True)
class ChanceSeries:
    """The graph's points in order, its measure and its scale, and the biggest swings."""

    measure: str
    """``win``, ``game_points`` or ``lead`` (see the module docstring)."""
    points: tuple[ChancePoint, ...]
    low: float
    """The scale's bottom: 0 for a chance, ``-G`` for game points, minus the largest lead otherwise (the
    scale is even about 0)."""
    high: float
    swings: tuple[int, ...]
    """Indexes into `points` of the biggest swings, biggest first."""
    note: str | None = None
    """One line when no table is at hand (the graph then shows the lead in points)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "measure": self.measure,
            "low": self.low,
            "high": self.high,
            "note": self.note,
            "points": [p.to_json() for p in self.points],
            "swings": list(self.swings),
        }


_NO_TABLE = N_("No win table for the profile {profile}: the graph shows your lead in points.")


def side_value(table: Any, side: int, dealer_side: int, scores: Sequence[int]) -> float:
    """``side``'s value (chance or share of game points) at the start of a deal dealt by
    ``dealer_side`` with ``scores`` (per side), by ``table`` (a `cribcore.players.wintable.WinTable`)."""
    other = 1 - dealer_side
    value = float(table.start(scores[dealer_side], scores[other]))
    return value if side == dealer_side else 1.0 - value


def _finished_value(table: Any, side: int, winner: int, scores: Sequence[int]) -> float:
    if winner == side:
        return float(table.won(scores[1 - side]))
    return 1.0 - float(table.won(scores[side]))


def _lead(side: int, scores: Sequence[int]) -> float:
    others = [s for i, s in enumerate(scores) if i != side]
    return float(scores[side] - max(others, default=0))


def build_series(
    *,
    table: Any,
    side: int,
    side_of: Any,
    starts: Sequence[DealStart],
    decisions: Sequence[tuple[int, str, tuple[int, ...], float | None]],
    end: tuple[int, tuple[int, ...]] | None,
    profile: str,
    lang: str | None = None,
) -> ChanceSeries:
    """The series for the seat of ``side``. ``table``: the win table (``None``: none at hand);
    ``side_of``: seat to side; ``starts``: each deal's start; ``decisions``: (deal, kind, scores when
    made, the chosen action's chance or ``None``) in order; ``end``: (winning side, final scores) of a
    finished game, ``None`` otherwise; the note is in ``lang`` (default: the current language)."""
    sides = len(starts[0].scores) if starts else 2
    use_table = table is not None and sides == 2
    top = float(max(getattr(table, "game_points", (1,)))) if use_table else 1.0
    measure = "lead" if not use_table else ("game_points" if top > 1 else "win")

    def value_of(chance: float | None, scores: Sequence[int]) -> float:
        if measure == "lead" or chance is None:
            return _lead(side, scores) if measure == "lead" else 0.0
        return (2.0 * chance - 1.0) * top if measure == "game_points" else chance

    points: list[ChancePoint] = []
    by_deal: dict[int, list[tuple[int, tuple[int, str, tuple[int, ...], float | None]]]] = {}
    for index, decision in enumerate(decisions):
        by_deal.setdefault(decision[0], []).append((index, decision))
    last = 0.5
    for start in starts:
        chance = side_value(table, side, side_of(start.dealer), start.scores) if use_table else None
        if chance is not None:
            last = chance
        value = value_of(chance, start.scores)
        points.append(ChancePoint(start.deal, "start", None, start.scores, chance, value))
        for index, (deal, kind, scores, won) in by_deal.get(start.deal, []):
            chance = (won if won is not None else last) if use_table else None
            if chance is not None:
                last = chance
            points.append(ChancePoint(deal, kind, index, scores, chance, value_of(chance, scores)))
    if end is not None and starts:
        winner, scores = end
        chance = _finished_value(table, side, winner, scores) if use_table else None
        points.append(ChancePoint(starts[-1].deal, "end", None, scores, chance, value_of(chance, scores)))
    if measure == "lead":
        # Even about 0, so that above the middle is ahead and below it behind.
        reach = max([1.0, *(abs(p.value) for p in points)])
        low, high = -reach, reach
    else:
        low, high = (-top, top) if measure == "game_points" else (0.0, 1.0)
    moves = sorted(
        ((abs(points[i].value - points[i - 1].value), i) for i in range(1, len(points))),
        key=lambda m: -m[0],
    )
    swings = tuple(i for move, i in moves[:SWINGS] if move > 0)
    note = None
    if measure == "lead":
        note = gettext(_NO_TABLE, lang).format(profile=profile)
    return ChanceSeries(measure, tuple(points), low, high, swings, note)
