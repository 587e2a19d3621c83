"""Hints: the hard level's choice, always a legal action, with its reason in expected points."""

from __future__ import annotations

import dataclasses

from cribcore import Discard, Game, Play, load_profile, parse_cards
from cribcore.players import hint, make_player
from cribcore.players.hard import HardPlayer

from .conftest import make_stacked_game


def test_every_hint_is_legal_and_has_a_reason() -> None:
    """Hints for both seats at every decision of two games (standard and muggins)."""
    for profile, seed in ((None, 3), (load_profile("muggins"), 4)):
        game = Game(profile, seed=seed)
        players = [make_player("medium", 1), make_player("easy", 2)]
        hints = 0
        while game.to_act and game.deal_number < 3:
            seat = game.to_act[0]
            view = game.view(seat)
            suggestion = hint(view)
            assert suggestion.action in view.legal_actions
            assert suggestion.reason
            hints += 1
            game.apply(seat, players[seat].choose(view))
        assert hints > 20


def test_discard_hint_gives_the_expected_points() -> None:
    game = make_stacked_game((("5H 5D JC QS 4H 6C", "2C 3D 7S 8H 9C KD"), "AS"), dealer=0)
    suggestion = hint(game.view(0))
    assert suggestion.action == Discard(parse_cards("JC QS"))
    assert suggestion.reason.startswith("keeps 4H 5D 5H 6C: expected 16.0 in hand, +4.7 in your crib")
    assert "in your crib" in suggestion.reason
    pone = hint(game.view(1))
    assert "the opponent's crib" in pone.reason


def test_play_hint_gives_the_expected_points() -> None:
    game = make_stacked_game((("5H 5D JC QS 4H 6C", "2C 3D 7S 8H 9C KD"), "AS"), dealer=0)
    game.apply(0, Discard(parse_cards("JC QS")))
    game.apply(1, Discard(parse_cards("9C KD")))
    view = game.view(1)  # the pone leads
    suggestion = hint(view)
    assert isinstance(suggestion.action, Play)
    assert suggestion.reason.startswith(f"plays {suggestion.action.card}: expected ")
    assert "points" in suggestion.reason


def test_a_hint_is_what_the_hard_level_plays_and_does_not_change() -> None:
    game = Game(seed=12)
    view = game.view(0)
    assert hint(view) == hint(view)
    assert hint(view).action == HardPlayer(0).choose(view)


def test_a_hint_for_an_unknown_decision_is_the_first_legal_action() -> None:
    view = Game(seed=1).view(0)
    odd = dataclasses.replace(view, legal_actions=("mystery",))  # type: ignore[arg-type]
    assert hint(odd).action is odd.legal_actions[0]
