"""The faster hard level and the play search kernel: same choices as before, and the kernel's contract."""

from __future__ import annotations

import os

import pytest

from .hard_golden import GAMES, QUICK, load, record

LONG = os.environ.get("CRIBCORE_GOLDEN") == "long"


@pytest.mark.parametrize("game", GAMES if LONG else GAMES[:QUICK], ids=lambda g: f"{g[0]}-{g[2]}")
def test_hard_makes_the_recorded_choices_for_the_same_draws(
    game: tuple[str, tuple[str, ...], int, int],
) -> None:
    """Every action of the recorded games and every play ranking of the hard level (cards, values,
    samples), as the code before the speed-up produced them (`CRIBCORE_GOLDEN=long`: all games)."""
    golden = {(g["profile"], tuple(g["kinds"]), g["seed"], g["index"]): g for g in load()}
    expected = golden[game]
    got = record(*game)
    assert got["actions"] == expected["actions"]
    assert got["rankings"] == expected["rankings"]
