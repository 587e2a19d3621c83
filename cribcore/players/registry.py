"""The computer players by name, as the command line, the simulator and the server choose them.

A kind is a short lower-case word; `make_player` builds a fresh player for one seat of one game, seeded
so that a seeded game with computer seats is reproducible. The levels are ``easy``, ``medium``,
``hard`` and ``expert`` (see `LEVELS`); ``computer`` is the default level, `DEFAULT_LEVEL`.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Player
from .easy import EasyPlayer
from .expert import ExpertPlayer
from .hard import HardPlayer
from .medium import MediumPlayer
from .simple import RandomPlayer

__all__ = ["COMPUTER_KINDS", "DEFAULT_LEVEL", "LEVELS", "make_player"]

LEVELS = ("easy", "medium", "hard", "expert")
"""The computer levels, weakest first."""

DEFAULT_LEVEL = "medium"

_LEVEL_FACTORIES: dict[str, Callable[[int | None], Player]] = {
    "easy": EasyPlayer,
    "medium": MediumPlayer,
    "hard": HardPlayer,
    "expert": ExpertPlayer,
}

COMPUTER_KINDS: dict[str, Callable[[int | None], Player]] = {
    "computer": _LEVEL_FACTORIES[DEFAULT_LEVEL],
    **_LEVEL_FACTORIES,
    "random": lambda seed: RandomPlayer(seed),
}
"""Each computer kind with a factory taking the seat's seed (``None`` for an unseeded player)."""


def make_player(kind: str, seed: int | None = None) -> Player:
    """A new player of ``kind``; raises `ValueError` naming the known kinds when ``kind`` is unknown."""
    try:
        factory = COMPUTER_KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown computer kind {kind!r}: use {', '.join(COMPUTER_KINDS)}") from None
    return factory(seed)
