"""Computer players and the player protocol. Every player decides from a `SeatView` only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazyexports import lazy_exports

if TYPE_CHECKING:
    from .base import Player
    from .easy import EasyPlayer
    from .expert import ExpertPlayer
    from .hard import HardPlayer
    from .hints import Hint, hint
    from .medium import MediumPlayer
    from .registry import COMPUTER_KINDS, DEFAULT_LEVEL, LEVELS, make_player
    from .simple import RandomPlayer, SimplePlayer

# Imported when first used, so that a command that needs one kind (``simulate --players random``)
# does not load every level's search and tables.
_HOMES = {
    ".base": ("Player",),
    ".easy": ("EasyPlayer",),
    ".expert": ("ExpertPlayer",),
    ".hard": ("HardPlayer",),
    ".hints": ("Hint", "hint"),
    ".medium": ("MediumPlayer",),
    ".registry": ("COMPUTER_KINDS", "DEFAULT_LEVEL", "LEVELS", "make_player"),
    ".simple": ("RandomPlayer", "SimplePlayer"),
}
__getattr__, __dir__ = lazy_exports(__name__, _HOMES, globals())

__all__ = [
    "COMPUTER_KINDS",
    "DEFAULT_LEVEL",
    "LEVELS",
    "EasyPlayer",
    "ExpertPlayer",
    "HardPlayer",
    "Hint",
    "MediumPlayer",
    "Player",
    "RandomPlayer",
    "SimplePlayer",
    "hint",
    "make_player",
]
