"""Shared fixtures: games on stacked (chosen) deals."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cribcore import Game
from cribcore.testing import DealSpec, stacked_game

__all__ = ["DealSpec", "StackedGame", "make_stacked_game"]

StackedGame = Callable[..., Game]

make_stacked_game = stacked_game
"""Kept under its old name for the tests that import it; it lives in `cribcore.testing`."""


@pytest.fixture
def stacked() -> StackedGame:
    """``stacked(((hand0, hand1), starter), ..., dealer=0, rules=None, profile=None)``: a game on
    chosen deals."""
    return make_stacked_game
