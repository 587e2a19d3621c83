"""Seeds derived from seeds: each game of a seeded run and each computer seat of a seeded game gets its
own, the same on every machine, process and Python version.

A low module so that the simulator (`cribcore.simulate`, which re-exports both functions) and the
builders of the computer's tables (`cribcore.players.wintable_build`) seed their games alike.
"""

from __future__ import annotations

import hashlib

__all__ = ["derive_seed", "game_seed", "player_seed"]


def derive_seed(*parts: object) -> int:
    """A seed derived from ``parts`` (numbers and words, joined by their text): the same parts give the
    same seed on every machine, process and Python version; any other parts give an unrelated one."""
    # SHA-256 rather than hash(): the same on every machine, process and Python version.
    text = "/".join(str(part) for part in ("cribcore-simulate", *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` (from 0) of a run seeded with ``run_seed``."""
    return derive_seed(run_seed, index)


def player_seed(seed: int, seat: int) -> int:
    """The seed of the player at ``seat`` in the game seeded with ``seed``."""
    return derive_seed(seed, "seat", seat)
