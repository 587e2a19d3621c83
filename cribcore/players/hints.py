"""Hints: the action the strongest computer level would take from a view, with its reason."""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import Action
from ..views import SeatView
from .hard import HardPlayer
from .wild import on_standard_cards

__all__ = ["HINT_SEED", "Hint", "hint"]

HINT_SEED = 0
"""The hard level's seed for hints: the same view always gets the same hint."""


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested legal action and a one-line reason (for example the expected points)."""

    action: Action
    reason: str


def hint(view: SeatView) -> Hint:
    """The hard level's choice for ``view``'s seat, with its expected points; ``view.legal_actions``
    must not be empty. The action is always one of ``view.legal_actions``."""
    reasons: list[str] = []

    def decide(seen: SeatView) -> Action:
        decision = HardPlayer(HINT_SEED).decide(seen)
        reasons.append(decision.reason)
        return decision.action

    # A plugin's extra cards (jokers) get standard stand-ins, as when the level plays.
    action = on_standard_cards(view, decide)
    return Hint(action, reasons[0])
