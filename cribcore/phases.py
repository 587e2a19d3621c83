"""Plugin phases: decisions a plugin adds to the game, as plain immutable values.

A plugin may open a *phase* before a deal (an auction for the crib, say): a named step in which seats
act in turn with the plugin's own actions, given by their canonical text (``"bid 3"``, ``"pass"``), until
the plugin says the phase is over. The engine keeps a `PhaseState`, asks the plugin (through the hooks
``cribcore_phase_before_deal``, ``cribcore_phase_actions``, ``cribcore_phase_apply`` and
``cribcore_phase_choose``) for the legal actions and for what each action does (a `PhaseStep`), and
records the actions' texts in the deal's log. A plugin's answers must depend only on their arguments, so
that a seed or a record reproduces the game.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .scoring import ScoreItem

__all__ = ["PhaseState", "PhaseStep", "name_seats"]


@dataclass(frozen=True, slots=True)
class PhaseState:
    """A plugin phase as it stands: public, so every seat's view holds it whole."""

    name: str
    """The phase, named by the plugin that opened it (names are unique across plugins)."""
    deal: int
    """The deal it comes before, counting from 0."""
    dealer: int
    """The seat that deals next unless the phase chooses another (the usual rotation)."""
    to_act: int
    """The seat to act now."""
    scores: tuple[int, ...]
    """Points per side as the phase stands."""
    actions: tuple[tuple[int, str], ...] = ()
    """Every action taken in this phase so far, in order: the seat and the action's text."""


@dataclass(frozen=True, slots=True)
class PhaseStep:
    """What one action of a plugin phase does: the plugin's answer to ``cribcore_phase_apply``."""

    to_act: int | None = None
    """The next seat to act, or ``None`` when the phase is over."""
    dealer: int | None = None
    """The seat that deals the coming deal, when the phase chooses it (``None``: leave it)."""
    awards: tuple[tuple[int, ScoreItem], ...] = ()
    """Points to each seat's side, in order, each an event of the item's kind; points may be negative
    (a price paid), and a side's score never goes below 0."""
    note: str = ""
    """Said with the action's event (``"Ann wins the crib for 3"``). A plugin does not know the players'
    names: ``{seat N}`` (N from 1) stands for the player in seat N, and each table says the name
    (`name_seats`): ``"{seat 2} buys the crib for 5"``."""


_SEAT = re.compile(r"\{seat (\d+)\}")


def name_seats(note: str, names: Sequence[str]) -> str:
    """``note`` with each ``{seat N}`` (N from 1) replaced by that seat's name in ``names``; a number
    that is no seat is left as written."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return names[seat - 1] if 1 <= seat <= len(names) else match.group(0)

    return _SEAT.sub(name, note)
