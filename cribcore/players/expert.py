"""The expert computer: every decision judged by the side's chance of winning the game.

Where the profile has a win table (`cribcore.players.wintable`; in match play with skunks, the expected
share of the game points), the expert values each legal action by the probability that its seat's side
wins the game after it; elsewhere (three seats, lowball, a table that cannot be built) it falls back to
expected points, as the hard level does, after a one-line notice.

- **Discard**: for each legal discard, the kept hand's show with every possible starter (exact, from
  `cribcore.players.discards`), the crib's expected points from the crib table as a shift of the usual
  crib, and the measured distributions of the pegging, of the other hand and of the crib: the chance
  to win from the scores this deal would leave (pegging out mid-play and the pone counting first
  included), averaged over the starters. The pegging is shifted by how well the kept ranks peg in the
  seat's role, for both sides (`cribcore.players.pegtable`, times `PEG_WEIGHT`; two seats keeping four;
  under a profile whose play is not the standard one, the profile's own table, built on first use);
  without a win table the same shift is added to the points. Near the end
  of the game (a side within `ENDGAME_REACH` of the target), where these averages say least about who
  gets there first, the best `ENDGAME_TOP` discards by them are judged again on `ENDGAME_DRAWS`
  simulated deals each (`cribcore.players.endgame`: the other seat's hand, its pegging race and the
  show in counting order); their order is the simulation's, their ``win`` keeps the averages' level
  (shifted by the difference of the two means), so the other discards stay comparable.
- **Play**: `cribcore.players.pegging.search_play` with a leaf: sampled hands for the other seats (drawn
  consistently with the cards played and the goes said, and in the two-handed game weighed by how
  likely the other seat was to keep them and to lay what it laid: `cribcore.players.inference`),
  every card played out to the end of the show,
  and each play-out's end valued by the table at the next deal (or won and lost at once when a side
  reaches the target mid-play or in the show). So it plays for the last points when they win the game
  and holds back a card that would hand the opponent the game.
- **Muggins**: declares every count exactly and calls every point missed (more points never lower the
  chance to win).

The judge API (used by the coach and hints):

- `ExpertPlayer.judge` returns a `Judgement` for every legal action, best first;
- `ExpertPlayer.decide` returns the chosen one (``judge(view)[0]``).

A `Judgement`'s ``facts`` has stable keys, by the kind of decision:

- every kind: ``"kind"`` (``"discard"``, ``"play"``, ``"claim"`` or ``"other"``);
- a discard: ``"kept"`` and ``"discard"`` (tuples of `cribcore.cards.Card`), ``"expected_hand"``,
  ``"expected_crib"`` (floats, the crib never negative), ``"crib"`` (``"own"`` when the crib scores for
  the seat's side, else ``"opponent"``), ``"min_hand"``, ``"max_hand"`` (ints), ``"net"`` (expected hand
  plus or minus the crib), ``"reach"`` (chance to reach the target in this deal's show, 0 to 1), and
  where the pegging table applies ``"pegging"`` (how many more points than the average keep the seat
  pegs, less how many more the other side pegs; the judgement's ``points`` include it);
- a play: ``"card"`` (`cribcore.cards.Card`), ``"points_now"`` (what laying it scores at once, go
  excluded), ``"count"`` (the count after it), ``"samples"`` (sampled hands behind the value),
  ``"risk"`` (how much the side's value falls short of the best card's, in points; 0 for the best);
- a claim (muggins): ``"true"`` (the true count), ``"declared"`` (declared so far).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..actions import Action, Count, Discard, Muggins, Pass, Play
from ..rulebook import Rulebook
from ..scoring import PLAY_LIMIT
from ..views import SeatView
from .counting import counting_for
from .endgame import fits, simulate_keeps
from .hard import HardPlayer
from .inference import BETA, keep_model, plays_seen
from .level import LevelPlayer, goal
from .muggins import declared_so_far
from .pegging import KeepLikelihood, Leaf, play_twins, search_play
from .pegtable import PegTable, peg_table_at_hand, peg_table_for
from .pegtable import fits as peg_fits
from .tally import RANK, VALUE, card_of
from .wintable import WinTable
from .wintable_build import win_table_at_hand, win_table_for

__all__ = [
    "ENDGAME_DRAWS",
    "ENDGAME_REACH",
    "ENDGAME_TOP",
    "PEG_WEIGHT",
    "ROLLOUTS",
    "ExpertPlayer",
    "Judgement",
]

PEG_WEIGHT = 1.0
"""How much of the pegging table's shift (`cribcore.players.pegtable`) the discard counts."""

ROLLOUTS = 1600
"""Play-outs per play decision, shared among the candidate cards of different ranks (with `INFER`; 800
beat hard in 51.8 % of 2,000 duplicate games, 160 in 48.95 % of 4,000). With the inference, 1,600 takes
about 20 ms of CPU a decision (median; p99 about 85 ms), well inside the time goal; 2,400 took 37 ms."""


ENDGAME_DRAWS = 400
"""Draws of the other seat's hand (each with `cribcore.players.endgame.STARTERS` starters) behind each
end-of-game discard (`cribcore.players.endgame`; 0: none). About 80 ms of CPU a discard once the
look-ups are warm; 2,000 single-starter draws screened no better."""

ENDGAME_REACH = 30
"""The discard is simulated when a side is within this many points of the target (simulating every
discard screened no better than the averages away from the end)."""

ENDGAME_TOP = 3
"""How many of the best discards by the averages the simulation judges again."""


INFER = True
"""Whether the play search weighs the other seat's drawn hand by how likely its discard rule was to
keep it (`cribcore.players.inference.KeepModel`) rather than by its points alone."""

INFER_PLAYS = True
"""With `INFER`: whether the other seat's cards laid this deal weigh its drawn hand too (a player that
passes a pair it held is rare; `cribcore.players.inference.PlaysSeen`)."""


def _split(view: SeatView, action: Action) -> tuple[list[int], list[int]]:
    """(kept, laid away) card indices of the discard ``action`` from ``view``'s hand."""
    assert isinstance(action, Discard)
    thrown = action.cards
    return [c.index for c in view.hand if c not in thrown], [c.index for c in thrown]


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
    """The expert level: plays to win the game. ``ExpertPlayer(seed, rulebook=...)`` as every level;
    ``table`` replaces the profile's win table (to measure or refine one), ``rollouts`` sets the play
    search's play-outs per decision, ``peg_weight`` how much of the pegging table the discard counts
    (0: none), ``infer``/``infer_plays``/``beta`` whether and how sharply the play search weighs the other
    seat's drawn hand by its discard and its cards laid (`INFER`, `INFER_PLAYS`),
    ``endgame_draws``/``endgame_reach``/``endgame_top`` the end-of-game discard's simulation
    (`ENDGAME_DRAWS`, `ENDGAME_REACH`, `ENDGAME_TOP`; ``endgame_draws=0``: none). With
    ``compute_tables=False`` a profile whose table is not at hand
    (`cribcore.players.wintable_build.win_table_at_hand`) is judged by points at once instead of computing its
    table first (about a minute of CPU; `cribbage tables build` builds it ahead): for answers a player
    waits for, hints and reviews."""

    level = "expert"

    def __init__(
        self,
        seed: int | None = None,
        *,
        rulebook: Rulebook | None = None,
        table: WinTable | None = None,
        rollouts: int = ROLLOUTS,
        compute_tables: bool = True,
        peg_weight: float = PEG_WEIGHT,
        infer: bool = INFER,
        beta: float = BETA,
        infer_plays: bool = INFER_PLAYS,
        endgame_draws: int = ENDGAME_DRAWS,
        endgame_reach: int = ENDGAME_REACH,
        endgame_top: int = ENDGAME_TOP,
    ) -> None:
        super().__init__(seed, rulebook=rulebook)
        self.compute_tables = compute_tables
        # The hard level's averages and search, where the table does not decide.
        self._hard = HardPlayer(self.seed, rulebook=rulebook)
        self._table = table
        self.rollouts = rollouts
        self.peg_weight = peg_weight
        self.infer = infer
        self.beta = beta
        self.infer_plays = infer_plays
        self.endgame_draws = endgame_draws
        self.endgame_reach = endgame_reach
        self.endgame_top = endgame_top

    def table_of(self, view: SeatView) -> WinTable | None:
        """The win table this player judges ``view`` by, ``None`` when it plays for points."""
        if self._table is not None:
            return self._table
        book = self.rulebook_of(view)
        return win_table_for(book) if self.compute_tables else win_table_at_hand(book)

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

    # ------------------------------------------------------------------ discard

    def _judge_discards(self, view: SeatView) -> list[Judgement]:
        sign = goal(view)
        ranked = self._hard.rank_discards(view, pegging=False)  # the pegging table's shift comes below
        table = self.table_of(view) if len(ranked) > 1 else None
        pegs = self._peg_table(view) if len(ranked) > 1 else None
        value = None
        shift_base = 0.0
        if table is not None:
            dealer_side = view.rules.side_of(view.dealer)
            value = table.discard_values(
                view.scores[dealer_side], view.scores[1 - dealer_side], view.side == dealer_side
            )
            shift_base = table.stats.mean("crib")
        judged = []
        for score, reach, option in ranked:
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
            mine = theirs = 0.0
            if pegs is not None:
                mine, theirs = pegs.shift([RANK[c.index] for c in option.kept], view.is_dealer)
                mine *= self.peg_weight
                theirs *= self.peg_weight
                facts["pegging"] = mine - theirs
            win = None
            if value is not None:
                shift = option.expected_crib - shift_base
                counts = Counter(option.hand_values)
                total = len(option.hand_values)
                win = sum(n * value(h, shift, mine, theirs) for h, n in counts.items()) / total
            points = sign * (option.net + mine - theirs)
            judged.append((Judgement(Discard(option.discard), points, win, facts), score + mine - theirs))
        if value is not None:
            # Stable: ties keep the points order.
            judged.sort(key=lambda j: (-(j[0].win or 0.0), -j[0].points))
            if table is not None and self._simulates(view):
                top = judged[: self.endgame_top]
                keeps = [_split(view, j.action) for j, _ in top]
                model = keep_model(view.seat != view.dealer, self.beta)
                sims = simulate_keeps(
                    view, keeps, table, model, self.rng(view), self.endgame_draws, self.rulebook_of(view)
                )
                # The averages' level, the simulation's order: the other discards stay comparable.
                level = sum(j.win or 0.0 for j, _ in top) / len(top) - sum(sims) / len(sims)
                for i, (j, score) in enumerate(top):
                    judged[i] = (replace(j, win=sims[i] + level), score)
                judged.sort(key=lambda j: (-(j[0].win or 0.0), -j[0].points))
        elif pegs is not None:
            judged.sort(key=lambda j: -sign * j[1])  # hard's score (reach included) and the pegging
        return [j for j, _ in judged]

    def _simulates(self, view: SeatView) -> bool:
        """Whether this discard is simulated (`cribcore.players.endgame`)."""
        if self.endgame_draws <= 0 or not fits(view, self.rulebook_of(view)):
            return False
        return max(view.scores) >= view.rules.target - self.endgame_reach

    def _peg_table(self, view: SeatView) -> PegTable | None:
        """The pegging table of the profile when it fits ``view``'s game (two seats keeping four; the
        shipped table under the standard play, the profile's own otherwise, `peg_table_for`); without
        ``compute_tables`` only a table at hand."""
        if self.peg_weight == 0.0 or view.rules.seats != 2 or len(view.hand) - view.rules.discards != 4:
            return None
        book = self.rulebook_of(view)
        if not peg_fits(book):
            return None
        return peg_table_for(book) if self.compute_tables else peg_table_at_hand(book)

    # ------------------------------------------------------------------ play

    def _judge_plays(self, view: SeatView) -> list[Judgement]:
        plays = [a for a in view.legal_actions if isinstance(a, Play)]
        candidates = [a.card.index for a in plays]
        table = self.table_of(view) if len(plays) > 1 else None
        wins: dict[int, float | None] = {}
        if len(plays) == 1:
            estimates = [(candidates[0], 0.0, 0)]
        elif table is None:
            estimates = [(e.card, e.value, e.samples) for e in self._hard.rank_plays(view)]
        else:
            leaf, gains = self._leaf(view, table)
            model = self._keep_model(view)
            ranked = search_play(
                view,
                candidates,
                self.rng(view),
                self.rulebook_of(view),
                leaf=leaf,
                rollouts=self.rollouts,
                keep_model=model,
                distinct=self.infer,
            )
            # The leaf is called once per draw played out for each candidate the search plays out
            # (one per rank under the standard play); a candidate's points are its twin's.
            twin = play_twins(candidates, counting_for(self.rulebook_of(view)).standard_play)
            searched = [i for i, j in enumerate(twin) if i == j]
            n = len(searched)
            shared = {i: sum(gains[k::n]) / max(1, len(gains[k::n])) for k, i in enumerate(searched)}
            points = {card: shared[twin[i]] for i, card in enumerate(candidates)}
            estimates = [(e.card, points[e.card], e.samples) for e in ranked]
            wins = {e.card: e.value for e in ranked}
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
            judged.append(Judgement(Play(card_of(index)), value, wins.get(index), facts))
        return judged

    def _keep_model(self, view: SeatView) -> KeepLikelihood | None:
        """How likely the other seat's kept hand is (`search_play`'s ``keep_model``), ``None`` when the
        expert does not infer it, the game is not two-handed, or the profile's show is not the standard
        one (the model values a keep by the standard show, so it would read a house rule's keeps wrong)."""
        if not self.infer or view.rules.seats != 2 or not self.rulebook_of(view).is_standard_show:
            return None
        discard = keep_model(view.seat != view.dealer, self.beta)
        if not self.infer_plays or not counting_for(self.rulebook_of(view)).standard_play:
            return discard
        seen = plays_seen(view, 1 - view.seat)
        if not seen.plays:
            return discard

        def model(kept: Sequence[int], thrown: Sequence[int]) -> float:
            chance = discard(kept, thrown)
            return chance * seen(kept) if chance > 0.0 else 0.0

        return model

    def _leaf(self, view: SeatView, table: WinTable) -> tuple[Leaf, list[float]]:
        """The play search's leaf for ``view`` (the side's value at the end of a play-out) and the list
        it appends each play-out's points difference to, in the order the search calls it."""
        mine = view.side
        theirs = 1 - mine
        before = view.scores
        next_dealer = view.rules.side_of((view.dealer + 1) % view.rules.seats)
        gains: list[float] = []

        def leaf(scores: tuple[int, ...], winner: int | None) -> float:
            gains.append(scores[mine] - before[mine] - (scores[theirs] - before[theirs]))
            if winner is not None:
                if winner == mine:
                    return table.won(scores[theirs])
                return 1.0 - table.won(scores[mine])
            value = table.start(scores[next_dealer], scores[1 - next_dealer])
            return value if next_dealer == mine else 1.0 - value

        return leaf, gains

    # ------------------------------------------------------------------ muggins

    def _judge_claims(self, view: SeatView) -> list[Judgement]:
        chosen = self._hard.claim(view)
        facts = {"kind": "claim", "true": view.claim_points or 0, "declared": declared_so_far(view)}
        rest = [a for a in view.legal_actions if a != chosen]
        return [Judgement(chosen, 0.0, None, facts), *(Judgement(a, 0.0, None, facts) for a in rest)]
