"""The play (`cribcore.game.play`), on stacked deals whose cards the test chooses."""

from __future__ import annotations

import pytest

from cribcore import Discard, Game, Phase, Play, parse_card, parse_cards
from cribcore.actions import NotYourTurn, OverThirtyOne, WrongPhase
from cribcore.game.play import check_play, next_able_seat, play_card, play_of
from cribcore.scoring import FIFTEEN
from cribcore.testing import stacked_game

DEALER, PONE = 0, 1


def in_play(deal: tuple[tuple[str, str], str], dealer_away: str, pone_away: str) -> Game:
    game = stacked_game(deal, dealer=DEALER)
    game.apply(DEALER, Discard(parse_cards(dealer_away)))
    game.apply(PONE, Discard(parse_cards(pone_away)))
    return game


def lay(game: Game, seat: int, card: str) -> None:
    play_card(game, seat, parse_card(card))


# The dealer keeps KD QD 8S 7S, the pone 9H TH AC 3C; the starter is 4S.
GO_DEAL = (("KD QD 8S 7S 6C 6D", "9H TH AC 3C 2H 2D"), "4S")


def go_game() -> Game:
    return in_play(GO_DEAL, "6C 6D", "2H 2D")


def test_a_seat_that_cannot_lay_says_go_once_and_the_other_seat_plays_on() -> None:
    game = go_game()
    lay(game, PONE, "9H")
    lay(game, DEALER, "KD")
    lay(game, PONE, "TH")  # 29: the dealer's cards are all 7 or more
    assert [(e.kind, e.seat, e.count) for e in game.events[-2:]] == [("play", 1, 29), ("says-go", 0, 29)]
    assert game.to_act == (PONE,) and game.count == 29
    assert game.legal_actions(PONE) == (play_of(parse_card("AC")),)  # 3C would make 32
    lay(game, PONE, "AC")  # 30, and nobody can lay: the go, then a new count led by the dealer
    assert [(e.kind, e.seat, e.points, e.note) for e in game.events[-2:]] == [
        ("go", 1, 1, "go"),
        ("reset", 1, 0, ""),
    ]
    assert game.scores == (0, 1) and game.count == 0 and game.to_act == (DEALER,)


def test_a_card_past_31_or_out_of_turn_is_refused() -> None:
    game = go_game()
    with pytest.raises(NotYourTurn, match="turn to play"):
        check_play(game, DEALER, Play(parse_card("KD")))
    lay(game, PONE, "9H")
    lay(game, DEALER, "KD")
    lay(game, PONE, "TH")
    with pytest.raises(OverThirtyOne, match="3C would take the count to 32, past 31"):
        check_play(game, PONE, Play(parse_card("3C")))


def test_the_play_is_refused_during_the_discard() -> None:
    game = stacked_game(GO_DEAL, dealer=DEALER)
    with pytest.raises(WrongPhase, match="time to discard"):
        check_play(game, PONE, Play(parse_card("9H")))


def test_a_fifteen_scores_two_in_the_play() -> None:
    game = in_play((("5H 5D JC QS 4H 6C", "2S 7D 8C KH AD 9S"), "5S"), "4H 6C", "AD 9S")
    lay(game, PONE, "KH")
    lay(game, DEALER, "5H")
    scored = game.events[-1]
    assert (scored.kind, scored.seat, scored.points, scored.count) == ("play", 0, 2, 15)
    assert [(item.kind, item.points) for item in scored.items] == [(FIFTEEN, 2)]


def test_the_next_able_seat_is_the_next_holding_cards_while_every_card_fits() -> None:
    game = go_game()
    assert next_able_seat(game, PONE) == DEALER and next_able_seat(game, DEALER) == PONE
    lay(game, PONE, "9H")
    lay(game, DEALER, "KD")
    lay(game, PONE, "TH")
    assert game.phase is Phase.PLAY


def test_the_last_card_scores_one_and_the_show_follows() -> None:
    game = go_game()
    for seat, card in [(PONE, "9H"), (DEALER, "KD"), (PONE, "TH"), (PONE, "AC")]:
        lay(game, seat, card)
    for seat, card in [(DEALER, "QD"), (PONE, "3C"), (DEALER, "8S"), (DEALER, "7S")]:
        lay(game, seat, card)
    kinds = [(e.kind, e.seat, e.note) for e in game.events]
    assert ("go", 0, "last card") in kinds
    assert kinds.index(("go", 0, "last card")) < kinds.index(("hand", 1, ""))
