"""The easy computer: plausible but weak.

It keeps the cards that score most as they are, without thinking about the starter or the crib, and in
the play takes any points it sees at once (as the game's rulebook scores them), otherwise lays its
lowest legal card. Under muggins it declares less than its count about one time in three and calls half
of an opponent's undercounts.
"""

from __future__ import annotations

from ..actions import Action, Discard, Play
from ..views import SeatView
from .counting import counting_for
from .level import LevelPlayer, goal
from .tally import RANK, SUIT, rank_points

__all__ = ["EasyPlayer", "face_value"]


def face_value(cards: list[int]) -> int:
    """What cards (indices) score as they lie, with no starter: fifteens, pairs, runs, and a flush of
    all of them (at least four)."""
    points = rank_points(tuple(sorted(RANK[c] for c in cards))) if len(cards) >= 2 else 0
    if len(cards) >= 4 and len({SUIT[c] for c in cards}) == 1:
        points += len(cards)
    return points


class EasyPlayer(LevelPlayer):
    """Keeps the highest-scoring cards as they lie (the first such discard on ties); plays the card that
    scores most now, else the lowest legal card."""

    level = "easy"
    miss_rate = 0.3
    call_rate = 0.5

    def discard(self, view: SeatView) -> Action:
        best: tuple[float, Action] | None = None
        sign = goal(view)
        for action in view.legal_actions:
            assert isinstance(action, Discard)
            kept = [c.index for c in view.hand if c not in action.cards]
            points = sign * face_value(kept)
            if best is None or points > best[0]:
                best = (points, action)
        assert best is not None
        return best[1]

    def play(self, view: SeatView) -> Action:
        laid = [c.index for _, c in view.pile]
        peg = counting_for(self.rulebook_of(view)).pegger(view.dealer)
        best: tuple[float, Action] | None = None
        sign = goal(view)
        for action in view.legal_actions:
            assert isinstance(action, Play)
            card = action.card
            points = sign * peg([*laid, card.index], view.count + card.value, view.seat)
            if best is None or points > best[0]:
                best = (points, action)
        assert best is not None
        return best[1]
