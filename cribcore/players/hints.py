"""Hints: the action the strongest computer level would take from a view, with its reason."""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import Action
from ..views import SeatView
from .simple import SimplePlayer

__all__ = ["Hint", "hint"]


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested legal action and a one-line reason (for example the expected points)."""

    action: Action
    reason: str


def hint(view: SeatView) -> Hint:
    """The suggestion for ``view``'s seat; ``view.legal_actions`` must not be empty."""
    return Hint(SimplePlayer().choose(view), "the simple computer's choice")
