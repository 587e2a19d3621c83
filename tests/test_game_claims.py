"""The game's side of a count under muggins (`cribcore.game.claims`): checking and settling actions on
the open claim (the claim's own state machine is `cribcore.claims.Claim`, tests/test_claims.py)."""

from __future__ import annotations

import pytest

from cribcore import Game, Play, parse_card
from cribcore.actions import BadClaim, Count, Muggins, NotYourTurn, Pass, WrongPhase
from cribcore.game.claims import check_claim, settle
from cribcore.testing import play_script, stacked_game, variant

# The pone (seat 1) keeps 4C 5D 6H KC: 16 with the 5S starter. The dealer keeps 7S 8S 9S TS.
DEAL = (("7S 8S 9S TS 3D QD", "4C 5D 6H KC AH 2H"), "5S")


def at_the_pones_count() -> Game:
    game = stacked_game(DEAL, dealer=0, profile=variant("muggins", muggins={"apply_to_play": False}))
    play_script(game, "discard 3D QD", "discard AH 2H")
    play_script(game, *(f"play {card}" for card in ("4C", "7S", "5D", "8S", "6H", "9S", "KC", "TS")))
    return game


def test_nothing_to_settle_outside_a_claim() -> None:
    game = stacked_game(DEAL, dealer=0, profile=variant("muggins", muggins={"apply_to_play": False}))
    with pytest.raises(WrongPhase, match="no count to declare"):
        check_claim(game, 0, Count(3))


def test_only_the_counting_seat_declares_and_only_a_count() -> None:
    game = at_the_pones_count()
    assert (game.claim_stage, game.counting) == ("count", 1)
    with pytest.raises(NotYourTurn, match="Player 2's turn"):
        check_claim(game, 0, Count(16))
    with pytest.raises(WrongPhase, match="declare your count first"):
        check_claim(game, 1, Pass())
    with pytest.raises(BadClaim):
        check_claim(game, 1, Count(-1))


def test_a_count_then_a_call_score_and_settle_the_claim() -> None:
    game = at_the_pones_count()
    before = game.scores
    settle(game, 1, Count(12))  # 4 missed
    assert game.scores == (before[0], before[1] + 12)
    assert (game.claim_stage, game.to_act) == ("call", (0,))
    settle(game, 0, Muggins(6))  # the caller scores what was missed, 4
    assert game.scores == (before[0] + 4, before[1] + 12)
    assert (game.claim_stage, game.counting) == ("count", 0)  # settled: the dealer's hand comes next
    assert game.deal_logs()[0].claims == ("count 12", "muggins 6")


def test_a_pass_settles_a_claim_and_what_follows_the_count_goes_on() -> None:
    game = at_the_pones_count()
    settle(game, 1, Count(16))
    settle(game, 0, Pass())
    assert (game.claim_stage, game.counting, game.to_act) == ("count", 0, (0,))
    assert Count(0) in game.legal_actions(0) and Play(parse_card("7S")) not in game.legal_actions(0)
