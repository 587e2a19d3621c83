"""The hard computer: exact discard averages, the crib table, and a sampled search in the play.

Discard: every legal discard is valued by `cribcore.players.discards.discard_options` under the game's
rulebook: the kept hand's exact average over every possible starter by the profile's show, plus the
expected crib (own crib) or minus it (an opponent's), from the profile's crib table. Near the end of
the game (the seat's side within `DISCARD_REACH` of the target) the chance of reaching the target in
this deal counts too: each discard gains `REACH_VALUE` times the share of starters with which its hand,
with the expected crib (own crib) and the usual pegging (`PEGGING`), would reach the target.

Under a profile whose play is not the standard one (two seats keeping four), each discard also gains
part (`PLAY_RULE_WEIGHT`) of what the profile's play changes in how the kept four peg: the keep's
pegging difference (the seat's less the other seat's) in the profile's pegging table less the same in
the standard table (`cribcore.players.pegtable`, the profile's table built on first use and kept by
fingerprint); near the
end, the usual pegging of the reach estimate moves by what the profile's play adds to the seat's role
on average. Under the standard play there is no such term, so the standard level discards exactly as
before.

Play: `cribcore.players.pegging.search_play` over sampled hands for the other seats, with the profile's
play scoring, turns and counting order; near the end that search plays for the win (see there).

Muggins: declares every count exactly and calls every undercount.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from ..actions import Action, Count, Discard, Muggins, Pass, Play
from ..cards import format_cards
from ..views import SeatView
from .discards import DiscardOption, discard_options
from .level import LevelPlayer, crib_is_mine, goal
from .muggins import declared_so_far
from .pegging import ENDGAME_REACH, WIN_VALUE, PlayEstimate, search_play
from .pegtable import fits, peg_table, peg_table_for
from .tally import RANK, card_of

__all__ = ["DISCARD_REACH", "PEGGING", "PLAY_RULE_WEIGHT", "REACH_VALUE", "Decision", "HardPlayer"]

DISCARD_REACH = 40
"""Within this many points of the target, the discard also weighs reaching it in this deal."""

REACH_VALUE = 20.0
"""Points a certain peg-out in this deal is worth to the discard, over its average."""

PEGGING = {True: 3.3, False: 2.2}
"""About how many points the dealer (``True``) and the pone peg in a deal, for the reach estimate
(measured: the hard level against itself, 1,368 deals)."""

PLAY_RULE_WEIGHT = 0.5
"""How much of what the profile's play changes in a keep's pegging, by the pegging tables, the discard
counts. The tables play every deal out by the play search's quick rule on both sides; played by the
search, a keep chosen for the full difference won back under half of what the tables promised, and
gave up half or more of that in the show (measured under the test rule ``pairs-six``, see
benchmarks/README.md: weighed in full or by half, the discard's net gain is within noise of none)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """What the hard level chose and why (``reason`` is one line for a hint)."""

    action: Action
    reason: str


class HardPlayer(LevelPlayer):
    """The strongest level; `decide` also gives the reason, for hints."""

    level = "hard"
    shuffled_draws: ClassVar[bool] = False
    """Whether the play search draws hands by shuffling the unseen cards, as this level did before it
    drew them by index sampling (`cribcore.players.pegging.search_play`'s ``shuffled``): the same seed
    then makes the very same choices as then. Its evaluation of a draw is the same either way."""

    def discard(self, view: SeatView) -> Action:
        return self.decide_discard(view).action

    def play(self, view: SeatView) -> Action:
        return self.decide_play(view).action

    def decide(self, view: SeatView) -> Decision:
        """The choice for any decision, with its reason (kinds it does not know: the first legal action)."""
        deciders: dict[type, Callable[[SeatView], Decision]] = {
            Discard: self.decide_discard,
            Play: self.decide_play,
            Count: self.decide_claim,
            Muggins: self.decide_claim,
            Pass: self.decide_claim,
        }
        decider = deciders.get(type(view.legal_actions[0]))
        if decider is None:
            return Decision(self.other(view), "the first choice offered")
        return decider(view)

    def decide_claim(self, view: SeatView) -> Decision:
        """Under muggins: the exact count, or muggins on every point missed."""
        action = self.claim(view)
        true = view.claim_points or 0
        if isinstance(action, Count):
            reason = f"the count is {true}"
        elif isinstance(action, Muggins):
            reason = f"{action.points} missed: the count was {true}, {declared_so_far(view)} declared"
        else:
            reason = "nothing was missed"
        return Decision(action, reason)

    # ------------------------------------------------------------------ discard

    def play_rule_pegging(self, view: SeatView) -> Callable[[DiscardOption], float] | None:
        """What the profile's play (not the standard one) changes in a keep's pegging, net of the other
        seat's, by discard option, times `PLAY_RULE_WEIGHT`; ``None`` under the standard play or where
        the pegging table does not fit the game (see the module docstring)."""
        book = self.rulebook_of(view)
        if book.is_standard_play or len(view.hand) - view.rules.discards != 4 or not fits(book):
            return None
        table = peg_table_for(book)
        standard = peg_table()
        dealer = view.is_dealer

        def pegging(option: DiscardOption) -> float:
            ranks = [RANK[c.index] for c in option.kept]
            mine, theirs = table.pegging(ranks, dealer)
            base_mine, base_theirs = standard.pegging(ranks, dealer)
            return PLAY_RULE_WEIGHT * ((mine - theirs) - (base_mine - base_theirs))

        return pegging

    def _play_rule_level(self, view: SeatView) -> float:
        """How many more points the seat's role pegs in a deal under the profile's play than under the
        standard play (the average keep's, by the pegging tables), for the reach estimate."""
        table = peg_table_for(self.rulebook_of(view))
        return table.base[view.is_dealer][0] - peg_table().base[view.is_dealer][0]

    def rank_discards(
        self, view: SeatView, *, pegging: bool = True
    ) -> list[tuple[float, float, DiscardOption]]:
        """Every legal discard as (score, chance to reach the target this deal, option), best first.
        ``pegging``: with the play rule's pegging (`play_rule_pegging`) in the score."""
        rules = view.rules
        own = crib_is_mine(view)
        legal = {a.cards for a in view.legal_actions if isinstance(a, Discard)}
        options = [
            option
            for option in discard_options(
                view.hand,
                rules.discards,
                own_crib=own,
                crib_size=rules.crib_size,
                seats=rules.seats,
                rulebook=self.rulebook_of(view),
                seat=view.seat,
                dealer=view.dealer,
            )
            if option.discard in legal
        ]
        need = rules.target - view.scores[view.side]
        play_rule = self.play_rule_pegging(view) if pegging and len(options) > 1 else None
        pegged = PEGGING[view.is_dealer]
        if play_rule is not None and need <= DISCARD_REACH:
            pegged += self._play_rule_level(view)
        ranked = []
        for option in options:
            reach = 0.0
            if need <= DISCARD_REACH:
                extra = pegged + (option.expected_crib if own else 0.0)
                hits = sum(1 for value in option.hand_values if value + extra >= need)
                reach = hits / len(option.hand_values)
            score = option.net + REACH_VALUE * reach
            if play_rule is not None:
                score += play_rule(option)
            ranked.append((score, reach, option))
        sign = goal(view)  # under lowball the fewest points (and no reaching the target) are best
        ranked.sort(key=lambda r: -sign * r[0])  # stable: ties keep the analysis order
        return ranked

    def decide_discard(self, view: SeatView) -> Decision:
        _, reach, option = self.rank_discards(view)[0]
        crib = option.expected_crib
        if option.own_crib:
            owner = "your" if view.is_dealer else "your partner's"
            whose = f"+{crib:.1f} in {owner} crib"
        else:
            owner = "the opponent's" if view.rules.seats == 2 else "the dealer's"
            whose = f"-{crib:.1f} in {owner} crib"
        reason = (
            f"keeps {format_cards(option.kept)}: expected {option.expected_hand:.1f} in hand, {whose} "
            f"(net {option.net:.1f}; hand {option.min_hand} to {option.max_hand})"
        )
        if reach > 0:
            reason += f"; about {reach:.0%} to reach {view.rules.target} this deal"
        return Decision(Discard(option.discard), reason)

    # ------------------------------------------------------------------ play

    def rank_plays(self, view: SeatView) -> list[PlayEstimate]:
        """Every legal card with its searched value, best first."""
        candidates = [a.card.index for a in view.legal_actions if isinstance(a, Play)]
        return search_play(
            view, candidates, self.rng(view), self.rulebook_of(view), shuffled=self.shuffled_draws
        )

    def decide_play(self, view: SeatView) -> Decision:
        if len(view.legal_actions) == 1:
            action = view.legal_actions[0]
            return Decision(action, "the only card you can lay")
        estimates = self.rank_plays(view)
        best = estimates[0]
        card = card_of(best.card)
        reason = (
            f"plays {card}: expected {best.value:+.1f} points against the other side over the rest of "
            f"the play ({best.samples} sampled hands"
        )
        if min(view.rules.target - score for score in view.scores) <= ENDGAME_REACH:
            reason += f", counting the show and a win as {WIN_VALUE:.0f}"
        reason += ")"
        if len(estimates) > 1:
            reason += f"; next best {card_of(estimates[1].card)} {estimates[1].value:+.1f}"
        return Decision(Play(card), reason)
