"""The testing helper shipped to plugin authors (`cribcore.testing`), used as an author would."""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import replace

import pytest

from cribcore import Game, Rank, pluginmanager
from cribcore.actions import IllegalAction
from cribcore.hookspecs import hookimpl
from cribcore.profiles import Profile, ProfileError
from cribcore.rules import RuleSet
from cribcore.scoring import ScoreItem
from cribcore.testing import (
    HookRecorder,
    one_plugin_profile,
    play_out,
    play_script,
    record_hooks,
    registered,
    stacked_game,
    variant,
)

pytest_plugins = ["cribcore.testing"]


class NoKings:
    """A house rule: kings may not be laid away to the crib."""

    @hookimpl
    def cribcore_check_discard(self, cards: tuple[object, ...]) -> str | None:
        return "no kings in the crib" if any(getattr(c, "rank", None) == Rank.KING for c in cards) else None


DEAL = (("KH 5D JC QS 4H 6C", "2S 7D 8C KC AD 9S"), "5S")


def test_stacked_game_deals_the_given_cards() -> None:
    game = stacked_game(DEAL, dealer=1)
    assert sorted(str(c) for c in game.view(0).hand) == ["4H", "5D", "6C", "JC", "KH", "QS"]
    assert game.dealer == 1


def test_registered_plugin_is_installed_only_inside_the_block() -> None:
    with registered("no-kings", NoKings):
        assert "no-kings" in pluginmanager.available()
        profile = one_plugin_profile("no-kings")
        game = stacked_game(DEAL, profile=profile)
        with pytest.raises(IllegalAction, match="no kings in the crib"):
            play_script(game, "discard KH 5D")
        play_script(game, "discard QS JC", "discard 8C 9S")
        assert game.phase == "play"
    assert "no-kings" not in pluginmanager.available()
    with pytest.raises(ProfileError, match="unknown plugin 'no-kings'"):
        one_plugin_profile("no-kings")


def test_the_fixtures_register_and_record(
    register_plugin: Callable[[str, object], None], hook_recorder: Callable[[Profile], HookRecorder]
) -> None:
    register_plugin("no-kings", NoKings)
    profile = one_plugin_profile("no-kings")
    calls = hook_recorder(profile)
    play_script(stacked_game(DEAL, profile=profile), "discard QS JC")
    checked = calls.getcalls("check_discard")
    assert sorted(str(c) for c in checked[-1].kwargs["cards"]) == ["JC", "QS"]
    assert checked[-1].result == []  # a list hook: the answers that are not None


def test_record_hooks_sees_the_calls_of_a_game() -> None:
    profile = variant("five-card", rules={"target": 31}, five_card={"compensation": 2})
    assert profile.rules.target == 31 and profile.options["five-card"]["compensation"] == 2
    with record_hooks(profile) as calls:
        game = play_out(Game(profile, seed=4))
        assert game.game_points in (1, 2, 3)  # asked of the hooks when the game is over
    assert game.is_over
    assert len(calls.getcalls("cribcore_game_start")) == 1
    assert calls.getcalls("game_points")[-1].result in (1, 2, 3)
    assert all(call.error is None for call in calls.calls)


def test_one_plugin_profile_takes_the_plugin_rules_and_options() -> None:
    profile = one_plugin_profile("seven-card", {"target": 181})
    assert profile.plugins == ("standard", "seven-card")
    assert profile.rules.cards_dealt == 7 and profile.rules.target == 181
    assert stacked_game(rules=RuleSet(target=31)).rules.target == 31


Results = list[Sequence[ScoreItem]]


class DoubleCribFifteens:
    """The list-hook wrapper of docs/plugins.md: fifteens in the crib score 4."""

    @hookimpl(wrapper=True)
    def cribcore_show_items(self, crib: bool) -> Generator[None, Results, Results]:
        results = yield
        if not crib:
            return results
        return [
            [replace(item, points=4) if item.kind == "fifteen" else item for item in items]
            for items in results
        ]


def test_the_wrapper_example_of_the_guide_works(register_plugin: Callable[[str, object], None]) -> None:
    register_plugin("double-crib-fifteens", DoubleCribFifteens)
    profile = one_plugin_profile("double-crib-fifteens")
    # Dealer 0's crib: QS JC from seat 0, KC 9S from seat 1, starter 5S: three fifteens and his nobs.
    game = stacked_game((("5H 5D JC QS 4H 6C", "2S 7D 8C KC AD 9S"), "5S"), profile=profile)
    with record_hooks(profile) as calls:
        play_script(game, "discard QS JC", "discard KC 9S")
        play_out(game)
    crib = next(call for call in calls.getcalls("show_items") if call.kwargs["crib"])
    fifteens = [item for items in crib.result for item in items if item.kind == "fifteen"]
    assert fifteens and all(item.points == 4 for item in fifteens)
