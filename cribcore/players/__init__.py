"""Computer players and the player protocol. Every player decides from a `SeatView` only."""

from .base import Player
from .simple import RandomPlayer, SimplePlayer

__all__ = ["Player", "RandomPlayer", "SimplePlayer"]
