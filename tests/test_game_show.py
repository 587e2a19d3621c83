"""The show (`cribcore.game.show`): the hands in counting order, then the crib, then the next deal."""

from __future__ import annotations

from cribcore import Discard, Phase, parse_cards
from cribcore.game.show import show
from cribcore.testing import stacked_game

# The dealer keeps 5D 5H JC QS (20 with the 5S starter), the pone 2S 7D 8C KH (6); the crib
# 4H 6C AD 9S is 9.
DEAL = (("5H 5D JC QS 4H 6C", "2S 7D 8C KH AD 9S"), "5S")


def test_the_pone_counts_first_then_the_dealer_then_the_crib_then_the_deal_moves_on() -> None:
    game = stacked_game(DEAL, dealer=0)
    game.apply(0, Discard(parse_cards("4H 6C")))
    game.apply(1, Discard(parse_cards("AD 9S")))
    show(game)
    counted = [(e.kind, e.seat, e.points, e.scores) for e in game.events[-3:]]
    assert counted == [("hand", 1, 6, (0, 6)), ("hand", 0, 20, (20, 6)), ("crib", 0, 9, (29, 6))]
    assert [" ".join(map(str, e.cards)) for e in game.events[-3:]] == [
        "2S 7D 8C KH",
        "5D 5H JC QS",
        "AD 4H 6C 9S",
    ]
    # The items are worked out when read: three fives are a pair royal.
    assert sum(item.points for item in game.events[-2].items) == 20
    assert game.dealer == 1 and game.phase is Phase.WAITING  # the stacked source has no second deal
    assert len(game.deal_logs()) == 1


def test_a_hand_that_reaches_the_target_ends_the_game_before_the_crib() -> None:
    game = stacked_game(DEAL, dealer=0)
    game.apply(0, Discard(parse_cards("4H 6C")))
    game.apply(1, Discard(parse_cards("AD 9S")))
    game._scores[0] = 101  # 20 more reach 121
    show(game)
    assert [e.kind for e in game.events[-3:]] == ["hand", "hand", "win"]
    assert game.is_over and game.winner == 0 and game.scores == (121, 6)
