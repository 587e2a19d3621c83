"""Computer players and the player protocol. Every player decides from a `SeatView` only."""

from .base import Player
from .hints import Hint, hint
from .registry import COMPUTER_KINDS, make_player
from .simple import RandomPlayer, SimplePlayer

__all__ = ["COMPUTER_KINDS", "Hint", "Player", "RandomPlayer", "SimplePlayer", "hint", "make_player"]
