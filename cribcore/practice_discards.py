"""The discard trainer: six cards dealt, the player lays two away, and the answer is judged.

Each hand (`Trial`) is dealt from a seed; the player's role (dealer: the crib is theirs; pone: it is
the opponent's) is fixed or alternates, dealer first. An answer (`judge`) is ranked among the fifteen
ways to lay two away by their net (`cribcore.analysis.analyze`: the same expected hand, crib and net
that ``cribbage analyze`` gives for that hand and role; equal nets share a rank), and set beside the
best. The expert (`cribcore.players.expert`) judges the same hand from a fresh game at 0-0, where it
also weighs how the kept cards peg and the chance to win the game; its choice, and its reason in words
against the player's, are given when it differs from the player's.

The running score (`Score`) is the share of best choices (rank 1) and the average points lost against
the best net; the long-run totals are kept in the data directory (`accuracy_path`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .actions import Discard
from .analysis import DiscardOption, analyze
from .cards import FULL_DECK, Card, parse_card
from .datadir import data_dir
from .deals import DealCards, RecordedDeals
from .engine import Game
from .files import atomic_write_text
from .i18n import _
from .players.expert import ExpertPlayer
from .players.hints import judgement_facts
from .players.reasons import reason_words
from .profiles import Profile
from .rulebook import rulebook_for

__all__ = [
    "ACCURACY_FILE",
    "Answer",
    "Score",
    "Trial",
    "accuracy_path",
    "deal_trials",
    "judge",
    "load_accuracy",
    "parse_answer",
    "save_accuracy",
]

ACCURACY_FILE = "practice-discards.json"
"""The long-run totals' file in the data directory."""

BEST_EPSILON = 1e-9
"""Nets closer than this are equal (they share a rank)."""


@dataclass(frozen=True, slots=True)
class Trial:
    """One hand to practise: its number (from 1), the six cards dealt, whether the player deals, and
    the other seat's six (only for the expert's game: its judgement never sees them)."""

    number: int
    hand: tuple[Card, ...]
    dealer: bool
    other: tuple[Card, ...]
    starter: Card

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.number, "cards": [str(c) for c in self.hand], "dealer": self.dealer}


def deal_trials(seed: int | None, hands: int, role: str | None = None) -> list[Trial]:
    """``hands`` hands from ``seed`` (the same seed deals the same hands); ``role`` ``"dealer"`` or
    ``"pone"`` fixes the player's role, ``None`` alternates it, dealer first."""
    rng = random.Random(seed)
    trials = []
    for i in range(hands):
        cards = rng.sample(FULL_DECK, 13)
        dealer = role == "dealer" if role is not None else i % 2 == 0
        trials.append(Trial(i + 1, tuple(sorted(cards[:6])), dealer, tuple(cards[6:12]), cards[12]))
    return trials


def parse_answer(text: str, hand: Sequence[Card]) -> tuple[Card, ...]:
    """Two cards of ``hand`` named by their text (``5H 5D``) or their positions (``1 2``); raises
    `ValueError` with a one-line reason otherwise."""
    tokens = text.replace(",", " ").split()
    if len(tokens) == 1 and tokens[0].isdigit() and len(tokens[0]) == 2:
        tokens = list(tokens[0])
    if len(tokens) != 2:
        raise ValueError(_("choose two cards to lay away, by position (1 2) or by name (5H 5D)"))
    chosen = []
    for token in tokens:
        if token.isdigit():
            position = int(token)
            if not 1 <= position <= len(hand):
                raise ValueError(
                    _("no card at position {n}: choose 1 to {last}").format(n=position, last=len(hand))
                )
            chosen.append(hand[position - 1])
        else:
            card = parse_card(token)
            if card not in hand:
                raise ValueError(_("{card} is not in your hand").format(card=card))
            chosen.append(card)
    if chosen[0] == chosen[1]:
        raise ValueError(_("choose two different cards"))
    return tuple(chosen)


@dataclass(frozen=True, slots=True)
class Answer:
    """A judged answer."""

    trial: Trial
    options: tuple[DiscardOption, ...]
    """The fifteen ways to lay two away, best net first (``analyze``'s order)."""
    chosen: DiscardOption
    rank: int
    """1 + how many ways have a better net (equal nets share a rank)."""
    expert: tuple[Card, ...]
    """The expert's discard."""
    reason: str
    """Why the expert's choice is better than the player's, in words (empty when they agree)."""

    @property
    def best(self) -> DiscardOption:
        return self.options[0]

    @property
    def points_lost(self) -> float:
        return max(0.0, self.best.net - self.chosen.net)

    @property
    def is_best(self) -> bool:
        return self.rank == 1

    @property
    def expert_agrees(self) -> bool:
        return set(self.expert) == set(self.chosen.discard)

    def to_json(self) -> dict[str, Any]:
        expert = next(o for o in self.options if set(o.discard) == set(self.expert))
        return {
            **self.trial.to_json(),
            "choice": {**self.chosen.to_json(), "rank": self.rank},
            "best": {**self.best.to_json(), "rank": 1},
            "points_lost": round(self.points_lost, 4),
            "expert": {
                "discard": [str(c) for c in expert.discard],
                "keep": [str(c) for c in expert.kept],
                "agrees": self.expert_agrees,
                "reason": self.reason,
            },
        }


def _option_of(options: Sequence[DiscardOption], discard: Sequence[Card]) -> DiscardOption:
    wanted = set(discard)
    return next(o for o in options if set(o.discard) == wanted)


def judge(trial: Trial, discard: Sequence[Card], profile: Profile, lang: str | None = None) -> Answer:
    """``discard`` (two cards of the trial's hand) judged: its rank and figures, and the expert's
    choice with its reason (in ``lang``)."""
    book = rulebook_for(profile)
    options = tuple(analyze(trial.hand, dealer=trial.dealer, rulebook=book))
    chosen = _option_of(options, discard)
    rank = 1 + sum(1 for o in options if o.net > chosen.net + BEST_EPSILON)
    # The expert's view of a fresh game at 0-0 in which the player holds this hand.
    dealer_seat = 0 if trial.dealer else 1
    deals = RecordedDeals(
        [dealer_seat], [DealCards(hands=(trial.hand, trial.other), crib_cards=(), starter=trial.starter)]
    )
    game = Game(profile, seed=0, deals=deals)
    view = game.view(0)
    judged = ExpertPlayer(0, rulebook=book, compute_tables=False).judge(view)
    best = judged[0]
    assert isinstance(best.action, Discard)
    mine = next(
        (j for j in judged if isinstance(j.action, Discard) and set(j.action.cards) == set(discard)), best
    )
    reason = ""
    if mine is not best and set(best.action.cards) != set(discard):
        points = max(0.0, best.points - mine.points)
        win = None if best.win is None or mine.win is None else max(0.0, best.win - mine.win)
        reason = reason_words(
            judgement_facts(best, view), judgement_facts(mine, view), lang, cost=points, win_cost=win
        )
    return Answer(trial, options, chosen, rank, tuple(best.action.cards), reason)


@dataclass(frozen=True, slots=True)
class Score:
    """Hands answered, how many were the best choice, and the points lost in all."""

    hands: int = 0
    best: int = 0
    points_lost: float = 0.0

    def add(self, answer: Answer) -> Score:
        return Score(self.hands + 1, self.best + int(answer.is_best), self.points_lost + answer.points_lost)

    def plus(self, other: Score) -> Score:
        return Score(self.hands + other.hands, self.best + other.best, self.points_lost + other.points_lost)

    @property
    def share_best(self) -> float:
        return self.best / self.hands if self.hands else 0.0

    @property
    def average_lost(self) -> float:
        return self.points_lost / self.hands if self.hands else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "best": self.best,
            "share_best": round(self.share_best, 4),
            "average_lost": round(self.average_lost, 4),
        }


def accuracy_path() -> Path:
    """Where the long-run totals are kept."""
    return data_dir() / ACCURACY_FILE


def load_accuracy(path: Path | None = None) -> Score:
    """The long-run totals (none yet: zeros). Raises `ValueError` (one line) for a file that is not
    the trainer's."""
    where = path or accuracy_path()
    try:
        data = json.loads(where.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Score()
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{where}: cannot be read ({exc})") from None
    try:
        hands, best, lost = int(data["hands"]), int(data["best"]), float(data["points_lost"])
    except (TypeError, KeyError, ValueError):
        raise ValueError(f"{where}: not the discard trainer's totals") from None
    if hands < 0 or not 0 <= best <= hands or lost < 0:
        raise ValueError(f"{where}: not the discard trainer's totals")
    return Score(hands, best, lost)


def save_accuracy(score: Score, path: Path | None = None) -> None:
    """Write the long-run totals (atomically: never half a file)."""
    where = path or accuracy_path()
    where.parent.mkdir(parents=True, exist_ok=True)
    data = {"format": "cribcore-practice-discards", "hands": score.hands, "best": score.best}
    atomic_write_text(where, json.dumps({**data, "points_lost": round(score.points_lost, 6)}) + "\n")
