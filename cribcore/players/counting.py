"""What the computer players ask a game's `Rulebook`, in card indices, keeping the standard fast paths.

The computer levels weigh thousands of hands and plays per decision, on card indices (`Card.index`).
A `Counting` answers them for one rulebook:

- the show (`hand_values`, `show_points`): `cribcore.players.tally`'s split rank-and-suit count when
  the rulebook's show is the standard count, otherwise `Rulebook.show_total` with the seat and the
  dealer (a table look-up under the built-in flush variants, the profile's hooks, cached, otherwise);
- the play (`pegger`): `cribcore.players.tally.peg_pile` when `Rulebook.is_standard_play`, otherwise
  `Rulebook.play_points` for the seat that lays and the dealer, cached by pile;
- whether the play goes on after a count closes (`play_continues`) and the counting order of the show
  (`counting_order`), from the rulebook, cached.

So a plugin that changes the count changes what the computer plans with, and the standard profile
keeps its exact numbers and speed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import FULL_DECK
from ..rulebook import Rulebook
from .tally import hand_values, peg_pile, show_points

__all__ = ["Counting", "PegScorer", "counting_for"]

PegScorer = Callable[[Sequence[int], int, int], int]
"""``(pile, count, seat) -> points``: what laying the last card of ``pile`` (card indices, the current
count in order, now at ``count``) scores for ``seat`` in the play, go points excluded."""

_PEG_CACHE = 1 << 16


class Counting:
    """The computer players' view of one `Rulebook` (build it with `counting_for`, which shares one)."""

    def __init__(self, book: Rulebook) -> None:
        self.book = book
        self.standard_show = book.flush_rules == (False, True)
        """Whether hands and cribs count exactly as the standard show (`tally`'s fast count)."""
        self.standard_play = book.is_standard_play
        """Whether the play scores exactly as the standard play (`tally.peg_pile`)."""
        self.always_continues = book.play_always_continues
        """Whether the play goes on to a new count whenever one closes with cards still held."""
        self._continues: dict[tuple[int, ...], bool] = {}
        self._pegs: dict[tuple[tuple[int, ...], int, int], int] = {}

    def __repr__(self) -> str:
        return f"Counting({self.book!r})"

    # ------------------------------------------------------------------ the show

    def hand_values(
        self,
        hand: Sequence[int],
        starters: Sequence[int],
        *,
        crib: bool = False,
        seat: int | None = None,
        dealer: int | None = None,
    ) -> list[int]:
        """The show total of ``hand`` (card indices) with each of ``starters``, in order; ``seat`` owns
        the hand (the dealer for a crib), ``dealer`` dealt (see `Rulebook.show_items`)."""
        if self.standard_show:
            return hand_values(hand, starters, crib=crib)
        cards = [FULL_DECK[c] for c in hand]
        cuts = [FULL_DECK[s] for s in starters]
        return self.book.show_totals(cards, cuts, crib=crib, seat=seat, dealer=dealer)

    def show_points(
        self,
        hand: Sequence[int],
        starter: int,
        *,
        crib: bool = False,
        seat: int | None = None,
        dealer: int | None = None,
    ) -> int:
        """The show total of ``hand`` (card indices, at least one) with ``starter``."""
        if self.standard_show:
            return show_points(hand, starter, crib=crib)
        cards = [FULL_DECK[c] for c in hand]
        return self.book.show_total(cards, FULL_DECK[starter], crib=crib, seat=seat, dealer=dealer)

    # ------------------------------------------------------------------ the play

    def pegger(self, dealer: int) -> PegScorer:
        """The play scorer of a deal ``dealer`` deals (see `PegScorer`)."""
        if self.standard_play:
            return peg_pile
        points_of = self.book.play_points
        cache = self._pegs

        def peg(pile: Sequence[int], count: int, seat: int) -> int:
            key = (tuple(pile), seat, dealer)
            points = cache.get(key)
            if points is None:
                if len(cache) >= _PEG_CACHE:
                    cache.clear()
                points = cache[key] = points_of([FULL_DECK[c] for c in pile], seat=seat, dealer=dealer)
            return points

        return peg

    def play_continues(self, cards_left: tuple[int, ...]) -> bool:
        """Whether the play goes on to a new count, the seats holding ``cards_left`` cards each."""
        if self.always_continues:
            return True
        answer = self._continues.get(cards_left)
        if answer is None:
            answer = self._continues[cards_left] = self.book.play_continues(cards_left)
        return answer

    def counting_order(self, dealer: int) -> tuple[int, ...]:
        """The seats whose hands are counted in the show, in order (the crib after them)."""
        return self.book.counting_order(dealer)


_BY_BOOK: dict[int, Counting] = {}


def counting_for(book: Rulebook) -> Counting:
    """The shared `Counting` of ``book`` (its caches live as long as the process)."""
    counting = _BY_BOOK.get(id(book))
    if counting is None or counting.book is not book:
        if len(_BY_BOOK) >= 64:
            _BY_BOOK.clear()
        counting = _BY_BOOK[id(book)] = Counting(book)
    return counting
