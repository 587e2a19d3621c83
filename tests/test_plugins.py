"""Plugins load through the entry-point group, only when named, and the hooks are enough for a variant."""

from __future__ import annotations

import types
from collections.abc import Iterator

import pytest

from cribcore.actions import Discard
from cribcore.cards import Rank
from cribcore.engine import Game
from cribcore.hookspecs import hookimpl
from cribcore.players import RandomPlayer
from cribcore.pluginmanager import UnknownPlugin, available, plugin_manager
from cribcore.profiles import Profile
from cribcore.rules import RuleSet
from cribcore.testing import registered


def _toss_fives() -> types.ModuleType:
    """The worked example of docs/plugins.md, as a module."""
    module = types.ModuleType("cribcore_test_toss_fives")

    @hookimpl
    def cribcore_check_discard(rules: RuleSet, hand: tuple, cards: tuple) -> str | None:  # type: ignore[type-arg]
        fives_dealt = sum(1 for card in hand if card.rank == Rank.FIVE)
        fives_tossed = sum(1 for card in cards if card.rank == Rank.FIVE)
        if fives_tossed < min(fives_dealt, rules.discards):
            return "toss fives: every five you are dealt goes to the crib"
        return None

    module.cribcore_check_discard = cribcore_check_discard  # type: ignore[attr-defined]
    return module


@pytest.fixture
def toss_fives_installed() -> Iterator[None]:
    with registered("toss_fives", _toss_fives()):
        yield


def test_standard_is_registered_as_an_entry_point() -> None:
    assert available()["standard"].value == "cribcore_plugins.standard"


def test_unknown_plugin_is_named() -> None:
    with pytest.raises(UnknownPlugin, match="'no_such_rule'"):
        plugin_manager(("no_such_rule",))


def test_installed_plugin_is_not_loaded_unless_named(toss_fives_installed: None) -> None:
    pm = plugin_manager(())
    assert pm.get_plugin("toss_fives") is None
    assert pm.get_plugin("standard") is not None


def test_named_plugin_changes_the_legal_discards(toss_fives_installed: None) -> None:
    profile = Profile(name="toss-fives", plugins=("standard", "toss_fives"))
    for seed in range(40):
        game = Game(profile, seed=seed)
        for seat in range(2):
            hand = game.view(seat).hand
            fives = [card for card in hand if card.rank == Rank.FIVE]
            for action in game.legal_actions(seat):
                assert isinstance(action, Discard)
                assert sum(card in action.cards for card in fives) == min(len(fives), 2)


def test_a_game_with_the_plugin_plays_to_the_end(toss_fives_installed: None) -> None:
    profile = Profile(name="toss-fives", plugins=("standard", "toss_fives"))
    game = Game(profile, seed=11)
    players = [RandomPlayer(1), RandomPlayer(2)]
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
    assert max(game.scores) >= 121
