"""Two simple computer players: a random one (for tests) and a sensible greedy one (the default opponent).

The stronger levels belong in their own modules; these need nothing but the view and its rulebook.
"""

from __future__ import annotations

import random

from ..actions import Action, Discard, Play, PluginAction
from ..cards import FULL_DECK
from ..views import SeatView
from .muggins import CLAIM_ACTIONS, MugginsHabits
from .phases import choose_plugin_action

__all__ = ["RandomPlayer", "SimplePlayer"]

_PLAIN_RANDBELOW = random.Random._randbelow is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]
"""Whether `random.Random.choice` draws with ``getrandbits`` as `RandomPlayer` repeats it (CPython's)."""


class RandomPlayer:
    """Picks uniformly among the legal actions with its own generator (never the game's): exactly the
    action ``random.Random(seed).choice`` would pick, draw after draw."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self._getrandbits = self._rng.getrandbits

    def choose(self, view: SeatView) -> Action:
        """A legal action drawn at random."""
        return self.choose_from(view.legal_actions)

    def choose_from(self, actions: tuple[Action, ...]) -> Action:
        """The choice `choose` makes from a view whose legal actions are ``actions`` (all it reads of
        one): `cribcore.simulate` hands it them alone, building no view for it."""
        if not _PLAIN_RANDBELOW:
            return self._rng.choice(actions)
        # `random.Random.choice`'s draws written out (two Python calls fewer a decision): a draw of
        # as many bits as the count of actions has, again until it is below that count.
        n = len(actions)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        getrandbits = self._getrandbits
        bits = n.bit_length()
        drawn = getrandbits(bits)
        while drawn >= n:
            drawn = getrandbits(bits)
        return actions[drawn]


class SimplePlayer:
    """Keeps the hand with the best average show over the possible starters, counting its discards as
    half-value crib points (for its own crib) or half-value losses (for the opponent's); in the play,
    takes the most points now and avoids leaving the count at 5 or 21, where a ten-card makes 15 or 31.
    Deterministic for a given view.
    """

    def __init__(self) -> None:
        self._muggins = MugginsHabits()

    def choose(self, view: SeatView) -> Action:
        """A legal action by the simple player's rule of thumb."""
        actions = view.legal_actions
        if isinstance(actions[0], CLAIM_ACTIONS):
            return self._muggins.choose(view)
        if isinstance(actions[0], PluginAction):
            return choose_plugin_action(view, "simple")
        if isinstance(actions[0], Discard):
            return max(actions, key=lambda a: self._discard_value(view, a))
        return max(actions, key=lambda a: self._play_value(view, a))

    @staticmethod
    def _discard_value(view: SeatView, action: Action) -> float:
        assert isinstance(action, Discard)
        kept = tuple(c for c in view.hand if c not in action.cards)
        unseen = [c for c in FULL_DECK if c not in view.hand]
        book, seat, dealer = view.rulebook, view.seat, view.dealer
        total = sum(book.show_total(kept, cut, crib=False, seat=seat, dealer=dealer) for cut in unseen)
        hand = total / len(unseen)
        # Any number of cards may go to the crib (one, two, three or four, as the rules deal): each pair
        # among them and each two that make 15 is worth 2, and each five a point.
        given = action.cards
        crib = sum(1 for c in given if c.rank == 5)
        for i, a in enumerate(given):
            for b in given[i + 1 :]:
                crib += (2 if a.rank == b.rank else 0) + (2 if a.value + b.value == 15 else 0)
        sign = 1 if view.is_dealer else -1
        return hand + sign * crib * 0.5

    @staticmethod
    def _play_value(view: SeatView, action: Action) -> float:
        assert isinstance(action, Play)
        pile = (*(c for _, c in view.pile), action.card)
        points = view.rulebook.play_points(pile, seat=view.seat, dealer=view.dealer)
        count = view.count + action.card.value
        risk = 0.5 if count in (5, 21) else 0.0
        # Prefer shedding high cards while the count is low, keeping low cards for late in a count.
        return points - risk + action.card.value * 0.01
