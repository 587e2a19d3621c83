"""The toss-fives house rule, tested with cribcore's helper for plugin authors (`cribcore.testing`)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from cribcore_toss_fives import TossFives

from cribcore.actions import IllegalAction
from cribcore.profiles import Profile
from cribcore.testing import HookRecorder, one_plugin_profile, play_script, stacked_game

# Named in the test module, not in tests/conftest.py as a package of its own does: this example runs
# inside cribcore's own suite too, where a conftest below the top may not name plugins.
pytest_plugins = ["cribcore.testing"]

# Seat 0 is dealt two fives; seat 1 none.
DEAL = (("5H 5D JC QS 4H 6C", "2S 7D 8C KH AD 9S"), "3S")


@pytest.fixture
def profile(register_plugin: Callable[[str, object], None]) -> Profile:
    """The standard game with toss-fives, registered for this test (installed or not)."""
    register_plugin("toss-fives", TossFives)
    return one_plugin_profile("toss-fives")


def test_every_five_dealt_goes_to_the_crib(profile: Profile) -> None:
    game = stacked_game(DEAL, profile=profile)
    with pytest.raises(IllegalAction, match="every 5 you are dealt goes to the crib"):
        play_script(game, "discard 5H JC")
    play_script(game, "discard 5H 5D", "discard KH AD")
    assert game.phase == "play"


def test_a_player_without_fives_discards_freely(profile: Profile) -> None:
    game = stacked_game(DEAL, profile=profile)
    play_script(game, "discard 5H 5D")
    legal = game.legal_actions(1)
    assert len(legal) == 15  # every pair of six cards


def test_the_rank_is_an_option(register_plugin: Callable[[str, object], None]) -> None:
    register_plugin("toss-fives", TossFives)
    kings = one_plugin_profile("toss-fives", {"rank": "K"})
    game = stacked_game(DEAL, profile=kings)
    play_script(game, "discard 5H 5D")
    with pytest.raises(IllegalAction, match="every K you are dealt"):
        play_script(game, "discard 2S 7D")


def test_the_engine_asks_the_hook_of_each_discard(
    profile: Profile, hook_recorder: Callable[[Profile], HookRecorder]
) -> None:
    calls = hook_recorder(profile)
    play_script(stacked_game(DEAL, profile=profile), "discard 5H 5D")
    (call,) = calls.getcalls("check_discard")
    assert call.kwargs["seat"] == 0 and call.result == []
