"""The computer players by name, as the command line, the simulator and the server choose them.

A kind is a short lower-case word; `make_player` builds a fresh player for one seat of one game, seeded
so that a seeded game with computer seats is reproducible. The levels are ``easy``, ``medium``,
``hard`` and ``expert`` (see `LEVELS`); ``computer`` is the default level, `DEFAULT_LEVEL`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from .base import Player
from .simple import RandomPlayer

__all__ = ["COMPUTER_KINDS", "DEFAULT_LEVEL", "LEVELS", "make_player"]

LEVELS = ("easy", "medium", "hard", "expert")
"""The computer levels, weakest first."""

DEFAULT_LEVEL = "medium"
"""The level of a computer player whose level is not named."""


def _level(module: str, name: str) -> Callable[[int | None], Player]:
    """The factory of the level class ``name`` of ``module``, imported when the first such player is
    made: a run that seats only random players loads no level's search or tables."""
    made: list[Callable[[int | None], Player]] = []

    def factory(seed: int | None) -> Player:
        if not made:
            made.append(getattr(importlib.import_module(module, __package__), name))
        return made[0](seed)

    return factory


_LEVEL_FACTORIES: dict[str, Callable[[int | None], Player]] = {
    "easy": _level(".easy", "EasyPlayer"),
    "medium": _level(".medium", "MediumPlayer"),
    "hard": _level(".hard", "HardPlayer"),
    "expert": _level(".expert", "ExpertPlayer"),
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
