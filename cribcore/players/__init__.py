"""Computer players and the player protocol. Every player decides from a `SeatView` only."""

from .base import Player
from .easy import EasyPlayer
from .hard import HardPlayer
from .hints import Hint, hint
from .medium import MediumPlayer
from .registry import COMPUTER_KINDS, DEFAULT_LEVEL, LEVELS, make_player
from .simple import RandomPlayer, SimplePlayer

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
