"""A profile's two-seat play on ranks: the quick rule of the play search, scored by the profile.

The pegging table of a profile whose play is not the standard one (`cribcore.players.pegtable`) plays
millions of deals of four cards a seat. `RankPlay` plays them on ranks, as the standard table's
`cribcore.players.pegging.play_out_ranks` does, but asks the profile's rulebook what each card laid
scores (`Rulebook.play_points`, once per distinct count and role, then looked up), and its quick rule
expects the answers a random card gives as the profile scores them (`play_risks`).

Suits do not matter to the table: a count's cards are given suits by rank and by how many of that rank
came before, so that equal ranks differ and neighbouring ranks do not share a suit (a play rule that
scores suits is judged on such cards).

`play_risks` is also what the play search's quick rule uses under a profile (`cribcore.players.pegging`):
the guesses at what a random card answers with (a fifteen or 31, a pair, a run) are measured on the
standard count, and under a profile they are scaled by what the profile scores for each.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import FULL_DECK, STANDARD_CARDS, Card
from ..rulebook import Rulebook
from ..scoring import PLAY_LIMIT
from ..turns import GO_POINTS
from .tally import RANK, SUIT

__all__ = ["COUNT_RISK", "PAIR_RISK", "RUN_RISK", "RankPlay", "play_risks", "value_share"]

PAIR_RISK = 0.5
"""About what a card laid on an open count gives away to a pair (a rough chance of a pair, times 2)."""

RUN_RISK = 0.6
"""About what a card one or two ranks from the last one gives away to a run."""

_CARD = {(RANK[c], SUIT[c]): FULL_DECK[c] for c in range(STANDARD_CARDS)}

_PROBES = {
    "count": ((7, 0), (8, 1)),  # a fifteen alone
    "pair": ((9, 0), (9, 1)),  # a pair alone
    "run": ((2, 0), (3, 1), (4, 2)),  # a run of three alone
}
_STANDARD = {"count": 2, "pair": 2, "run": 3}


def play_risks(book: Rulebook) -> tuple[float, float, float]:
    """How much more than the standard play ``book`` scores a fifteen, a pair and a run of three laid
    in the play (each the mean over the two roles of a two-seat deal): 1 each under the standard play."""
    if book.is_standard_play:
        return (1.0, 1.0, 1.0)
    scales = []
    for name, probe in _PROBES.items():
        cards = [_CARD[p] for p in probe]
        points = sum(book.play_points(cards, seat=seat, dealer=0) for seat in (0, 1)) / 2
        scales.append(max(0.0, points / _STANDARD[name]))
    return scales[0], scales[1], scales[2]


def value_share(value: int) -> float:
    """The share of the standard pack worth ``value`` in the count (0 for no card)."""
    return 16 / 52 if value == 10 else 4 / 52 if 1 <= value <= 9 else 0.0


COUNT_RISK = tuple(2 * (value_share(15 - after) + value_share(31 - after)) for after in range(32))
"""The points a random card answers a count with by making 15 or 31, weighed by its chance."""


class RankPlay:
    """Two seats playing ranks (ace 1 … king 13) by the quick rule under ``book``'s play (see the module
    docstring). Not thread-safe; build one per process."""

    def __init__(self, book: Rulebook) -> None:
        self.book = book
        count_scale, pair_scale, run_scale = play_risks(book)
        self._count_risk = tuple(
            count_scale * 2 * (value_share(15 - after) + value_share(31 - after)) for after in range(32)
        )
        self._pair_risk = pair_scale * PAIR_RISK
        self._run_risk = run_scale * RUN_RISK
        self._points: dict[int, int] = {}
        self._quick: dict[int, float] = {}

    def _cards(self, code: int) -> list[Card]:
        ranks = []
        while code:
            ranks.append(code & 15)
            code >>= 4
        ranks.reverse()
        seen: dict[int, int] = {}
        cards = []
        for rank in ranks:
            k = seen.get(rank, 0)
            seen[rank] = k + 1
            cards.append(_CARD[(rank, (rank + k) % 4)])
        return cards

    def points(self, code: int, dealer_lays: bool) -> int:
        """What the last card of the count ``code`` (its ranks, four bits each, the last lowest) scores
        for the seat that laid it (the dealer or the pone), go points excluded."""
        key = code << 1 | dealer_lays
        points = self._points.get(key)
        if points is None:
            seat = 0 if dealer_lays else 1
            points = self._points[key] = self.book.play_points(self._cards(code), seat=seat, dealer=0)
        return points

    def _quick_value(self, code: int, count: int, dealer_lays: bool) -> float:
        """The quick rule's value of the card that made the count ``code``, now at ``count``."""
        key = code << 1 | dealer_lays
        value = self._quick.get(key)
        if value is None:
            rank = code & 15
            prev = (code >> 4) & 15
            card_value = min(rank, 10)
            risk = self._count_risk[count]
            if count + card_value <= PLAY_LIMIT:
                risk += self._pair_risk
            if prev and 0 < abs(rank - prev) <= 2:
                risk += self._run_risk
            value = self._quick[key] = self.points(code, dealer_lays) - risk + card_value * 0.01
        return value

    def _choose(self, hand: list[int], code: int, count: int, dealer_lays: bool) -> int:
        """The rank the quick rule lays from ``hand`` on the count ``code`` at ``count`` (0: none fits)."""
        best = 0
        best_value = -1e9
        for rank in hand:
            after = count + min(rank, 10)
            if after > PLAY_LIMIT:
                continue
            value = self._quick_value(code << 4 | rank, after, dealer_lays)
            if value > best_value:
                best_value = value
                best = rank
        return best

    def play_out(self, dealer: Sequence[int], pone: Sequence[int]) -> tuple[int, int]:
        """(dealer's, pone's) pegging when the two seats play these ranks by the quick rule, the pone
        first, the go and the last card counted (his heels excluded)."""
        hands = [list(pone), list(dealer)]  # index 1: the dealer
        gains = [0, 0]
        seat = 0
        code = count = 0
        rank = self._choose(hands[0], 0, 0, False)
        while True:
            hands[seat].remove(rank)
            code = code << 4 | rank
            count += min(rank, 10)
            points = self.points(code, seat == 1)
            nxt = -1
            best = 0
            if count < PLAY_LIMIT:
                best = self._choose(hands[1 - seat], code, count, seat == 0)
                if best:
                    nxt = 1 - seat
                else:
                    best = self._choose(hands[seat], code, count, seat == 1)
                    if best:
                        nxt = seat
                    else:
                        points += GO_POINTS
            gains[seat] += points
            if nxt >= 0:
                seat = nxt
                rank = best
                continue
            code = count = 0
            seat = 1 - seat
            if not hands[seat]:
                seat = 1 - seat
                if not hands[seat]:
                    break
            rank = self._choose(hands[seat], 0, 0, seat == 1)
        return gains[1], gains[0]
