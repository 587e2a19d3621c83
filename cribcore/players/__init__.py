"""Computer players and the player protocol. Every player decides from a `SeatView` only."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .base import Player
    from .easy import EasyPlayer
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
    ".hard": ("HardPlayer",),
    ".hints": ("Hint", "hint"),
    ".medium": ("MediumPlayer",),
    ".registry": ("COMPUTER_KINDS", "DEFAULT_LEVEL", "LEVELS", "make_player"),
    ".simple": ("RandomPlayer", "SimplePlayer"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME_OF})


__all__ = [
    "COMPUTER_KINDS",
    "DEFAULT_LEVEL",
    "LEVELS",
    "EasyPlayer",
    "HardPlayer",
    "Hint",
    "MediumPlayer",
    "Player",
    "RandomPlayer",
    "SimplePlayer",
    "hint",
    "make_player",
]
