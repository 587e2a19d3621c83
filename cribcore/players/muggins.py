"""How a computer declares its counts and calls muggins (the muggins variant), at a given skill.

A computer reads the true points of the count being settled from its view (`SeatView.claim_points`,
computed from cards every seat has seen). An imperfect level sometimes declares less on purpose (a missed
fifteen or run, as a person might); every level calls muggins on an opponent's undercount, the stronger
ones more reliably, and never makes a false call.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..actions import Action, Count, Muggins, Pass
from ..views import SeatView

__all__ = ["CLAIM_ACTIONS", "MugginsHabits", "declared_so_far"]

CLAIM_ACTIONS = (Count, Muggins, Pass)
"""The action types of the muggins variant; a view whose legal actions are of these types is a claim."""


def declared_so_far(view: SeatView) -> int:
    """The points the counting seat's declaration scored (its declared count, an undercount standing)."""
    for event in reversed(view.events):
        if event.kind == "count" and event.seat == view.counting:
            return event.points
    return 0


@dataclass
class MugginsHabits:
    """``miss_rate``: how often a declaration leaves points out; ``call_rate``: how often an opponent's
    undercount is called. Deterministic for a seed."""

    miss_rate: float = 0.0
    call_rate: float = 1.0
    seed: int | None = None

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def choose(self, view: SeatView) -> Action:
        """A `Count` when declaring, else `Muggins` for the missed points or `Pass`."""
        true = view.claim_points or 0
        if view.claim_stage == "count":
            if true and self._rng.random() < self.miss_rate:
                return Count(self._rng.randrange(true))
            return Count(true)
        missed = true - declared_so_far(view)
        if missed > 0 and self._rng.random() < self.call_rate:
            return Muggins(missed)
        return Pass()
