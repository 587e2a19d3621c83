"""The medium computer: sound rules of thumb.

Discard: the kept hand's exact average over every possible starter, plus (own crib) or minus (an
opponent's crib) a rule-of-thumb value of the cards laid away: pairs, fifteens, fives and near runs.
Play: the points a card takes now, minus the points the next player is likely to answer with (a ten
on 5 or 21, a pair, a fifteen or a run), judged from how many cards of each rank are still unseen; a
card that can answer a pair with three of a kind is worth a little more. Under muggins it declares
less than its count one time in ten and calls four out of five of an opponent's undercounts. Hands and
plays are counted by the game's rulebook (`cribcore.players.counting`); the rules of thumb are the
standard game's.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from ..actions import Action, Discard, Play
from ..cards import STANDARD_CARDS
from ..scoring import PLAY_LIMIT
from ..views import SeatView
from .counting import counting_for
from .level import LevelPlayer, crib_is_mine, goal
from .tally import RANK, VALUE

__all__ = ["MediumPlayer", "crib_guess", "next_holding", "unseen_ranks"]


def crib_guess(cards: Sequence[int]) -> float:
    """A rule-of-thumb crib value of laid-away cards (indices): 2 per pair or fifteen between them,
    1 per five, 1 for ranks next to each other and 0.5 for ranks two apart (run chances)."""
    points = sum(1.0 for c in cards if RANK[c] == 5)
    for a, b in combinations(cards, 2):
        gap = abs(RANK[a] - RANK[b])
        points += 2.0 if gap == 0 else 1.0 if gap == 1 else 0.5 if gap == 2 else 0.0
        points += 2.0 if VALUE[a] + VALUE[b] == 15 else 0.0
    return points


def unseen_ranks(view: SeatView) -> list[int]:
    """How many cards of each rank (index 1..13; 0 unused) the view has not seen this deal."""
    counts = [0] + [4] * 13
    known = {*view.hand, *view.kept, *view.discarded, *(c for cards in view.laid for c in cards)}
    if view.starter is not None:
        known.add(view.starter)
    for card in known:
        counts[card.rank] -= 1
    return counts


def next_holding(view: SeatView) -> int:
    """How many cards the next seat after the view's that still holds cards has (0: none does)."""
    seats = view.rules.seats
    for k in range(1, seats):
        held = view.held[(view.seat + k) % seats]
        if held:
            return held
    return 0


class MediumPlayer(LevelPlayer):
    """Sound heuristics for the discard and the play (see the module docstring). Deterministic."""

    level = "medium"
    miss_rate = 0.1
    call_rate = 0.8

    def discard(self, view: SeatView) -> Action:
        hand = [c.index for c in view.hand]
        starters = [c for c in range(STANDARD_CARDS) if c not in hand]
        counting = counting_for(self.rulebook_of(view))
        sign = 1.0 if crib_is_mine(view) else -1.0
        best: tuple[float, Action] | None = None
        for action in view.legal_actions:
            assert isinstance(action, Discard)
            thrown = [c.index for c in action.cards]
            kept = [c for c in hand if c not in thrown]
            values = counting.hand_values(kept, starters, seat=view.seat, dealer=view.dealer)
            net = goal(view) * (sum(values) / len(values) + sign * crib_guess(thrown))
            if best is None or net > best[0]:
                best = (net, action)
        assert best is not None
        return best[1]

    def play(self, view: SeatView) -> Action:
        unseen = unseen_ranks(view)
        total_unseen = max(1, sum(unseen))
        held = next_holding(view)
        peg = counting_for(self.rulebook_of(view)).pegger(view.dealer)
        seats = view.rules.seats
        replier = (view.seat + 1) % seats
        laid = [c.index for _, c in view.pile]
        mine = [int(c.rank) for c in view.hand]
        best: tuple[float, Action] | None = None
        for action in view.legal_actions:
            assert isinstance(action, Play)
            card = action.card.index
            pile = [*laid, card]
            count = view.count + VALUE[card]
            value = float(peg(pile, count, view.seat))
            if count < PLAY_LIMIT and held:
                for rank in range(1, 14):
                    if not unseen[rank] or count + min(rank, 10) > PLAY_LIMIT:
                        continue
                    # The chance the next player holds at least one card of this rank.
                    chance = 1.0 - (1.0 - unseen[rank] / total_unseen) ** held
                    # A card of this rank in the suit of the card laid (only a house rule may care).
                    answer = (rank - 1) * 4 + card % 4
                    reply = peg([*pile, answer], count + min(rank, 10), replier)
                    value -= chance * reply
                    if rank == RANK[card] and mine.count(rank) >= 2:
                        value += chance * 3.0  # a pair answered with three of a kind
            value *= goal(view)
            # Shed high cards while the count is low; keep low cards for the end of a count.
            value += VALUE[card] * 0.01
            if best is None or value > best[0]:
                best = (value, action)
        assert best is not None
        return best[1]
