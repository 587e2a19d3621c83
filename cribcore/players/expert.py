"""The expert computer: every decision judged by the side's chance of winning the game.

Where the profile has a win table (`cribcore.players.wintable`), the expert values each legal action by
the probability that its seat's side wins the game after it; elsewhere it falls back to expected points
(as the hard level does).

The judge API (used by the coach and hints):

- `ExpertPlayer.judge` returns a `Judgement` for every legal action, best first;
- `ExpertPlayer.decide` returns the chosen one (``judge(view)[0]``).

A `Judgement`'s ``facts`` has stable keys, by the kind of decision:

- every kind: ``"kind"`` (``"discard"``, ``"play"``, ``"claim"`` or ``"other"``);
- a discard: ``"kept"`` and ``"discard"`` (tuples of `cribcore.cards.Card`), ``"expected_hand"``,
  ``"expected_crib"`` (floats, the crib never negative), ``"crib"`` (``"own"`` when the crib scores for
  the seat's side, else ``"opponent"``), ``"min_hand"``, ``"max_hand"`` (ints), ``"net"`` (expected hand
  plus or minus the crib), ``"reach"`` (chance to reach the target in this deal's show, 0 to 1);
- a play: ``"card"`` (`cribcore.cards.Card`), ``"points_now"`` (what laying it scores at once, go
  excluded), ``"count"`` (the count after it), ``"samples"`` (sampled hands behind the value),
  ``"risk"`` (how much the side's value falls short of the best card's, in points; 0 for the best);
- a claim (muggins): ``"true"`` (the true count), ``"declared"`` (declared so far).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..actions import Action, Count, Discard, Muggins, Pass, Play
from ..rulebook import Rulebook
from ..scoring import PLAY_LIMIT
from ..views import SeatView
from .counting import counting_for
from .hard import HardPlayer
from .level import LevelPlayer, goal
from .muggins import declared_so_far
from .tally import VALUE, card_of

__all__ = ["ExpertPlayer", "Judgement"]


@dataclass(frozen=True, slots=True)
class Judgement:
    """One legal action as the expert values it.

    ``points``: expected points for the seat's side over the rest of the deal, net of the other sides,
    as the expert values this choice. ``win``: the probability that the seat's side wins the game after
    this choice (``None`` when the profile has no win table and the expert falls back to points).
    ``facts``: what a reason in words needs, with the stable keys listed in the module docstring.
    """

    action: Action
    points: float
    win: float | None
    facts: Mapping[str, object] = field(default_factory=dict)


class ExpertPlayer(LevelPlayer):
    """The expert level: plays to win the game. ``ExpertPlayer(seed, rulebook=...)`` as every level."""

    level = "expert"

    def __init__(self, seed: int | None = None, *, rulebook: Rulebook | None = None) -> None:
        super().__init__(seed, rulebook=rulebook)
        # The hard level's averages and search, for what the win table does not change.
        self._hard = HardPlayer(self.seed, rulebook=rulebook)

    def discard(self, view: SeatView) -> Action:
        return self.decide(view).action

    def play(self, view: SeatView) -> Action:
        return self.decide(view).action

    def decide(self, view: SeatView) -> Judgement:
        """The expert's choice: the first of `judge`."""
        return self.judge(view)[0]

    def judge(self, view: SeatView) -> list[Judgement]:
        """Every legal action of ``view`` judged, best first (``view`` must have legal actions)."""
        first = view.legal_actions[0]
        if isinstance(first, Discard):
            return self._judge_discards(view)
        if isinstance(first, Play):
            return self._judge_plays(view)
        if isinstance(first, (Count, Muggins, Pass)):
            return self._judge_claims(view)
        return [Judgement(action, 0.0, None, {"kind": "other"}) for action in view.legal_actions]

    # ------------------------------------------------------------------ kinds

    def _judge_discards(self, view: SeatView) -> list[Judgement]:
        sign = goal(view)
        judged = []
        for _, reach, option in self._hard.rank_discards(view):
            facts: dict[str, object] = {
                "kind": "discard",
                "kept": option.kept,
                "discard": option.discard,
                "expected_hand": option.expected_hand,
                "expected_crib": option.expected_crib,
                "crib": "own" if option.own_crib else "opponent",
                "min_hand": option.min_hand,
                "max_hand": option.max_hand,
                "net": option.net,
                "reach": reach,
            }
            judged.append(Judgement(Discard(option.discard), sign * option.net, None, facts))
        return judged

    def _judge_plays(self, view: SeatView) -> list[Judgement]:
        plays = [a for a in view.legal_actions if isinstance(a, Play)]
        if len(plays) == 1:
            estimates = [(plays[0].card.index, 0.0, 0)]
        else:
            estimates = [(e.card, e.value, e.samples) for e in self._hard.rank_plays(view)]
        best = estimates[0][1]
        pile = [c.index for _, c in view.pile]
        peg = counting_for(self.rulebook_of(view)).pegger(view.dealer)
        judged = []
        for index, value, samples in estimates:
            after = view.count + VALUE[index]
            now = peg([*pile, index], after, view.seat) if after <= PLAY_LIMIT else 0
            facts = {
                "kind": "play",
                "card": card_of(index),
                "points_now": now,
                "count": after,
                "samples": samples,
                "risk": best - value,
            }
            judged.append(Judgement(Play(card_of(index)), value, None, facts))
        return judged

    def _judge_claims(self, view: SeatView) -> list[Judgement]:
        chosen = self.claim(view)
        facts = {"kind": "claim", "true": view.claim_points or 0, "declared": declared_so_far(view)}
        rest = [a for a in view.legal_actions if a != chosen]
        return [Judgement(chosen, 0.0, None, facts), *(Judgement(a, 0.0, None, facts) for a in rest)]
