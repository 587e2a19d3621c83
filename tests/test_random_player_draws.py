"""The random player picks exactly what ``random.Random(seed).choice`` picks, draw after draw."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any, cast

import pytest

from cribcore.players import RandomPlayer
from cribcore.views import SeatView


def _view(actions: tuple[Any, ...]) -> SeatView:
    return cast(SeatView, SimpleNamespace(legal_actions=actions))


def test_the_random_player_picks_as_random_choice_does() -> None:
    player, reference = RandomPlayer(11), random.Random(11)
    sizes = random.Random(0)
    for _ in range(500):
        actions = tuple(range(sizes.randrange(1, 40)))
        picked: object = player.choose(_view(actions))
        assert picked == reference.choice(actions)


def test_the_random_player_with_nothing_to_choose_raises_as_choice_does() -> None:
    with pytest.raises(IndexError):
        RandomPlayer(1).choose(_view(()))
