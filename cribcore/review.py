"""The coach: one seat's decisions in a recorded game, each judged by the expert level.

The record is re-played through the engine (`cribcore.records.replay`); at each discard and each card
the seat chose (a card is a decision only when more than one could be laid), the expert judges every
legal action from that seat's own view (`cribcore.players.expert.ExpertPlayer.judge`), so the review
knows no more than the player did. A decision's loss is what the expert's choice is worth more than the
seat's: in expected points for the seat's side over the rest of the deal, and, where the expert has a
win table for the profile at hand (the standard game's, or one already computed), in the chance of
winning the game.

Marks (`MARKS`): by the chance of winning where both choices have one, else by expected points:

=============  =====================  =====================
mark           points lost at least   winning chances lost
=============  =====================  =====================
inaccuracy     1.0                    2 percentage points
mistake        2.0                    4 percentage points
blunder        4.0                    8 percentage points
=============  =====================  =====================

A point is worth about 1.7 percentage points of the chance to win before the end of a game (measured:
the median over the expert's reviews of six games of easy against medium, 1.7 in the discard and 1.6
in the play), so the two scales mark about the same choices; the lowest mark lies above the expert's own
sampling noise in the play, so the expert reviewed against itself is (almost) never marked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, Discard, Play
from .cards import Card, format_cards
from .engine import Game
from .i18n import current_language
from .players.expert import ExpertPlayer, Judgement
from .players.hints import judgement_facts
from .players.pegging import ROLLOUTS
from .players.reasons import reason_words
from .players.wintable_build import win_table_at_hand
from .records import RecordError, replay
from .views import SeatView
from .winchart import ChanceSeries, DealStart, build_series

__all__ = [
    "MARKS",
    "REVIEW_ROLLOUTS",
    "REVIEW_SEED",
    "SHOWN_POINTS",
    "SHOWN_WIN",
    "Judge",
    "Mark",
    "Review",
    "ReviewedDecision",
    "mark_for",
    "review_game",
]

REVIEW_SEED = 0
"""The expert's seed for reviews: the same record always gets the same review."""

REVIEW_ROLLOUTS = 4 * ROLLOUTS
"""Play-outs per card decision when reviewing: four times a game's, since a review is not played against
the clock. The expert that played a game, with a game's play-outs and its own seed, sometimes picks a
card the review's search finds a little worse: with this many, 3 of 203 decisions of three games of the
expert against itself were marked (none a blunder), against 7 (one a blunder) with a game's play-outs.
"""


@dataclass(frozen=True, slots=True)
class Mark:
    """A mark and the least loss that earns it, in expected points and in winning chances (0 to 1)."""

    name: str
    points: float
    win: float


MARKS: tuple[Mark, ...] = (
    Mark("blunder", 4.0, 0.08),
    Mark("mistake", 2.0, 0.04),
    Mark("inaccuracy", 1.0, 0.02),
)
"""The marks, worst first (see the module docstring)."""

SHOWN_POINTS = 0.05
"""The least loss in expected points a review shows (it writes one decimal)."""

SHOWN_WIN = 0.0005
"""The least loss in winning chances (0 to 1) a review shows (one decimal of a percentage point)."""

Judge = Callable[[SeatView], Sequence[Judgement]]
"""Every legal action of a view judged, best first (the expert's ``judge``)."""


def mark_for(points_lost: float, win_lost: float | None) -> str | None:
    """The mark a loss earns (``None``: none): by ``win_lost`` when known, else by ``points_lost``."""
    for mark in MARKS:
        if (win_lost >= mark.win) if win_lost is not None else (points_lost >= mark.points):
            return mark.name
    return None


@dataclass(frozen=True, slots=True)
class ReviewedDecision:
    """One decision of the reviewed seat: where it was, what the seat did, what the expert would have
    done, and what the difference cost."""

    deal: int
    """The deal, from 0."""
    kind: str
    """``discard`` or ``play``."""
    scores: tuple[int, ...]
    """The scores (per side) when the decision was made."""
    hand: tuple[Card, ...]
    count: int
    """The count before a card is laid (0 for a discard)."""
    chosen: Action
    best: Action
    points_lost: float
    """Expected points the seat's choice gives up against the expert's (0 when they agree)."""
    win_lost: float | None
    """Winning chances given up (0 to 1), ``None`` when the expert values this profile by points."""
    mark: str | None
    reason: str
    """Why the expert's choice is better, in words (against the seat's choice, when they differ)."""
    win: float | None = None
    """The seat's side's chance to win after its choice, as the expert values it (``None``: no table)."""

    @property
    def even(self) -> bool:
        """Whether the seat's choice, other than the expert's, loses less than a review shows (under
        `SHOWN_POINTS` points and, where known, `SHOWN_WIN` of the winning chances): as good as the
        expert's, as when the game is decided whichever is chosen."""
        return (
            self.chosen != self.best
            and abs(self.points_lost) < SHOWN_POINTS
            and (self.win_lost is None or abs(self.win_lost) < SHOWN_WIN)
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal + 1,
            "kind": self.kind,
            "scores": list(self.scores),
            "hand": [str(c) for c in self.hand],
            "count": self.count,
            "chosen": str(self.chosen),
            "best": str(self.best),
            "points_lost": round(self.points_lost, 3),
            "win_lost": None if self.win_lost is None else round(self.win_lost, 4),
            "mark": self.mark,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Review:
    """The review of one seat in one record."""

    seat: int
    players: tuple[str, ...]
    profile: str
    decisions: tuple[ReviewedDecision, ...]
    deals: int
    """Deals in which the seat made a decision that was reviewed."""
    by_mark: Mapping[str, int] = field(default_factory=dict)
    chances: ChanceSeries | None = None
    """The win-chance graph (`cribcore.winchart`)."""

    @property
    def discard_lost(self) -> float:
        """Expected points lost in the discards, per deal."""
        return _per_deal(sum(d.points_lost for d in self.decisions if d.kind == "discard"), self.deals)

    @property
    def play_lost(self) -> float:
        """Expected points lost in the play, per deal."""
        return _per_deal(sum(d.points_lost for d in self.decisions if d.kind == "play"), self.deals)

    @property
    def costliest(self) -> tuple[ReviewedDecision, ...]:
        """The three decisions that lost most (by winning chances where known, else points), losses a
        review shows only (not `ReviewedDecision.even` ones)."""
        lost = [d for d in self.decisions if (d.points_lost > 0 or (d.win_lost or 0) > 0) and not d.even]
        lost.sort(key=lambda d: (-(d.win_lost or 0.0), -d.points_lost))
        return tuple(lost[:3])

    def to_json(self) -> dict[str, Any]:
        """The documented JSON shape (see docs/review.md)."""
        return {
            "seat": self.seat,
            "player": self.players[self.seat],
            "players": list(self.players),
            "profile": self.profile,
            "thresholds": {m.name: {"points": m.points, "win": m.win} for m in MARKS},
            "decisions": [d.to_json() for d in self.decisions],
            "summary": {
                "deals": self.deals,
                "discard_lost_per_deal": round(self.discard_lost, 3),
                "play_lost_per_deal": round(self.play_lost, 3),
                "marks": {m.name: self.by_mark.get(m.name, 0) for m in MARKS},
                "costliest": [self.decisions.index(d) for d in self.costliest],
            },
            "chances": None if self.chances is None else self.chances.to_json(),
        }


def _per_deal(total: float, deals: int) -> float:
    return total / deals if deals else 0.0


def review_game(
    record: Mapping[str, Any],
    seat: int = 0,
    *,
    judge: Judge | None = None,
    kinds: frozenset[str] = frozenset({"discard", "play"}),
    lang: str | None = None,
    rollouts: int = REVIEW_ROLLOUTS,
) -> Review:
    """Review ``seat``'s decisions in ``record`` (validated and re-played; a bad record raises
    `RecordError`). ``judge`` replaces the expert; ``rollouts`` sets the expert's play-outs per card
    decision (fewer: a quicker, noisier review); ``kinds`` limits the decisions judged (``{"discard"}``:
    the discards only, the cheap part). Reasons are in ``lang`` (default: the current language)."""
    code = lang or current_language()
    moments: list[tuple[SeatView, Action]] = []
    starts: list[DealStart] = []

    def watch(game: Game, acting: int, action: Action) -> None:
        if not starts or starts[-1].deal != game.deal_number:
            starts.append(DealStart(game.deal_number, game.dealer, game.scores))
        if acting != seat:
            return
        kind = "discard" if isinstance(action, Discard) else "play" if isinstance(action, Play) else None
        if kind in kinds:
            view = game.view(acting)
            if len(view.legal_actions) > 1:
                moments.append((view, action))

    players = record.get("players") if isinstance(record, Mapping) else None
    if isinstance(players, list) and not 0 <= seat < len(players):
        raise RecordError(f"seat {seat}: the record has seats 0 to {len(players) - 1}")
    game = replay(record, before=watch)
    if game.rulebook.has_extra_cards:
        raise RecordError(f"profile {game.profile.name}: the coach judges games of the standard pack only")
    if judge is None:
        # A review answers in seconds: a profile whose table is not at hand is judged by points.
        judge = ExpertPlayer(
            REVIEW_SEED, rulebook=game.rulebook, rollouts=rollouts, compute_tables=False
        ).judge
    decisions = tuple(_judged(view, action, judge(view), code) for view, action in moments)
    marks: dict[str, int] = {}
    for decision in decisions:
        if decision.mark is not None:
            marks[decision.mark] = marks.get(decision.mark, 0) + 1
    chances = build_series(
        table=win_table_at_hand(game.rulebook),
        side=game.rules.side_of(seat),
        side_of=game.rules.side_of,
        starts=starts,
        decisions=[(d.deal, d.kind, d.scores, d.win) for d in decisions],
        end=(game.winner, game.scores) if game.is_over and game.winner is not None else None,
        profile=game.profile.name,
        lang=code,
    )
    return Review(
        seat=seat,
        players=game.players,
        profile=game.profile.name,
        decisions=decisions,
        deals=len({d.deal for d in decisions}),
        by_mark=marks,
        chances=chances,
    )


def _judged(view: SeatView, action: Action, judgements: Sequence[Judgement], lang: str) -> ReviewedDecision:
    best = judgements[0]
    chosen = next((j for j in judgements if j.action == action), None)
    if chosen is None:  # the judge left the seat's action out: nothing to compare it with
        chosen = best
    points_lost = max(0.0, best.points - chosen.points)
    win_lost = None
    if best.win is not None and chosen.win is not None:
        win_lost = max(0.0, best.win - chosen.win)
    if chosen is best or best.action == action:
        points_lost, win_lost = 0.0, (0.0 if win_lost is not None else None)
    other = None if chosen is best else judgement_facts(chosen, view)
    reason = reason_words(judgement_facts(best, view), other, lang, cost=points_lost, win_cost=win_lost)
    kind = "discard" if isinstance(action, Discard) else "play"
    return ReviewedDecision(
        deal=view.deal,
        kind=kind,
        scores=view.scores,
        hand=view.hand,
        count=view.count,
        chosen=action,
        best=best.action,
        points_lost=points_lost,
        win_lost=win_lost,
        mark=mark_for(points_lost, win_lost),
        reason=reason,
        win=chosen.win,
    )


def describe_action(action: Action) -> str:
    """An action as the review prints it: ``JC QS`` for a discard, ``7S`` for a card."""
    if isinstance(action, Discard):
        return format_cards(action.cards)
    if isinstance(action, Play):
        return str(action.card)
    return str(action)
