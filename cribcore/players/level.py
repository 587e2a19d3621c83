"""What the three computer levels share: dispatch on the kind of decision, seeding, and table facts.

A level decides from its seat's `SeatView` alone. `LevelPlayer.choose` looks at the kind of the first
legal action (all legal actions of one moment are of one kind) and calls the level's method for it:
`discard`, `play`, or, under muggins, `claim` (declare a count, call muggins or pass), which follows the
level's `MugginsHabits`. A kind the level does not know (an action added later) gets `other`, by
default the first legal action.

Decisions that use chance draw from a generator seeded by the player's seed and the view's cards, so a
decision is a function of (seed, view): the same seed and the same decisions replay the same game, and
asking twice (a hint, then the move) gives the same answer.

A level plays by the rules of the game it sits in: it scores and plans with the view's
`cribcore.rulebook.Rulebook` (`LevelPlayer.rulebook_of`). A player built with an explicit ``rulebook``
uses that one instead, whatever the game's: ``HardPlayer(seed, rulebook=standard_rulebook())`` is the
hard level told the standard rules, to measure what knowing a house rule is worth.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from ..actions import Action, Count, Discard, Muggins, Pass, Play, PluginAction
from ..rulebook import Rulebook
from ..views import SeatView
from .muggins import MugginsHabits
from .phases import choose_plugin_action
from .wild import on_standard_cards

__all__ = ["LevelPlayer", "crib_is_mine", "goal", "sides_of"]


def goal(view: SeatView) -> float:
    """1 when points are good (reaching the target wins), -1 under lowball (reaching it loses): every
    level multiplies its values by this, so it plays for fewer points when fewer points win."""
    return 1.0 if view.target_wins else -1.0


def crib_is_mine(view: SeatView) -> bool:
    """Whether this deal's crib scores for the view's side (the seat or its partner deals)."""
    return view.rules.side_of(view.dealer) == view.side


def sides_of(view: SeatView) -> tuple[int, ...]:
    """The side of each seat, by seat."""
    return tuple(view.rules.side_of(seat) for seat in range(view.rules.seats))


class LevelPlayer:
    """A computer level. Subclasses implement `discard` and `play`; each returns one of
    ``view.legal_actions``. ``seed`` makes the player's chance decisions reproducible (``None``: a
    fresh random seed). ``rulebook``, when given, replaces every view's rulebook in the player's
    reckoning (the game still enforces its own rules: a choice is always a legal action)."""

    level: ClassVar[str] = ""
    miss_rate: ClassVar[float] = 0.0
    """Under muggins, how often the level declares less than its true count (on purpose)."""
    call_rate: ClassVar[float] = 1.0
    """Under muggins, how often the level calls an opponent's undercount."""

    def __init__(self, seed: int | None = None, *, rulebook: Rulebook | None = None) -> None:
        self.seed: int = seed if seed is not None else random.SystemRandom().randrange(2**32)
        self.rulebook = rulebook
        self._muggins = MugginsHabits(self.miss_rate, self.call_rate, seed=self.seed)

    def rulebook_of(self, view: SeatView) -> Rulebook:
        """The rules this player reckons with: its own ``rulebook`` if it was given one, else the game's."""
        return self.rulebook if self.rulebook is not None else view.rulebook

    def choose(self, view: SeatView) -> Action:
        """One of ``view.legal_actions``: a discard, a card to play, a count or call under muggins,
        or a plugin phase's action, each decided as the level decides it."""
        # A plugin's extra cards (jokers) get standard stand-ins: the levels count on indices 0..51.
        return on_standard_cards(view, self._choose)

    def _choose(self, view: SeatView) -> Action:
        actions = view.legal_actions
        handlers: dict[type, Callable[[SeatView], Action]] = {
            Discard: self.discard,
            Play: self.play,
            Count: self.claim,
            Muggins: self.claim,
            Pass: self.claim,
            PluginAction: self.plugin_phase,
        }
        handler = handlers.get(type(actions[0]))
        if handler is None:
            return self.other(view)
        if len(actions) == 1:
            return actions[0]
        return handler(view)

    def discard(self, view: SeatView) -> Action:
        """The level's discard to the crib, one of ``view.legal_actions``."""
        raise NotImplementedError

    def play(self, view: SeatView) -> Action:
        """The level's card to lay in the play, one of ``view.legal_actions``."""
        raise NotImplementedError

    def claim(self, view: SeatView) -> Action:
        """Under muggins: declare a count, or call muggins or pass, by the level's habits."""
        return self._muggins.choose(view)

    def plugin_phase(self, view: SeatView) -> Action:
        """In a plugin's phase (an auction, say): the plugin's choice for this level."""
        return choose_plugin_action(view, self.level)

    def other(self, view: SeatView) -> Action:
        """A decision of a kind this level does not know yet: the first legal action."""
        return view.legal_actions[0]

    def rng(self, view: SeatView) -> random.Random:
        """A generator for one decision, fixed by the seed and what the view shows."""
        laid = "|".join(" ".join(str(c) for c in cards) for cards in view.laid)
        pile = " ".join(str(c) for _, c in view.pile)
        hand = " ".join(str(c) for c in view.hand)
        return random.Random(f"{self.level}/{self.seed}/{view.deal}/{view.seat}/{hand}/{pile}/{laid}")

    def __repr__(self) -> str:
        told = "" if self.rulebook is None else f", rulebook={self.rulebook!r}"
        return f"{type(self).__name__}(seed={self.seed}{told})"
