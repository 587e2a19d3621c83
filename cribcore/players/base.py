"""The protocol every seat's decision-maker follows, human or computer."""

from __future__ import annotations

from typing import Protocol

from ..actions import Action
from ..views import SeatView

__all__ = ["ChoosesFromActions", "Player"]


class Player(Protocol):
    """Chooses one of ``view.legal_actions``; it is called only when that tuple is not empty.

    A player sees only its seat's view, so it can never read another seat's hidden cards.
    """

    def choose(self, view: SeatView) -> Action:
        """One of ``view.legal_actions``, decided from ``view`` alone."""
        ...


class ChoosesFromActions(Player, Protocol):
    """A player whose choice depends on nothing in its view but ``view.legal_actions`` (the random
    player): ``choose_from(actions)`` is ``choose(view)`` for any view with those legal actions. A
    simulation hands such a player the seat's legal actions alone, not a whole view nobody reads."""

    def choose_from(self, actions: tuple[Action, ...]) -> Action: ...
