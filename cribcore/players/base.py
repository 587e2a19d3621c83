"""The protocol every seat's decision-maker follows, human or computer."""

from __future__ import annotations

from typing import Protocol

from ..actions import Action
from ..views import SeatView

__all__ = ["Player"]


class Player(Protocol):
    """Chooses one of ``view.legal_actions``; it is called only when that tuple is not empty.

    A player sees only its seat's view, so it can never read another seat's hidden cards.
    """

    def choose(self, view: SeatView) -> Action: ...
