"""The deal and the discard (`cribcore.game.deal`), on one stacked deal whose cards the test chooses."""

from __future__ import annotations

from itertools import combinations

import pytest

from cribcore import Action, Card, Discard, Game, Phase, parse_cards
from cribcore.actions import BadDiscard, CardNotHeld, NotYourTurn, WrongPhase
from cribcore.game.deal import (
    check_discard,
    discard,
    discard_of,
    is_listed_discard,
    list_discards,
)
from cribcore.testing import stacked_game

# The dealer (seat 0) holds 4H 5D 5H 6C JC QS, the pone AD 2S 7D 8C 9S KH; the starter is 5S.
DEAL = (("5H 5D JC QS 4H 6C", "2S 7D 8C KH AD 9S"), "5S")


def cards_of(action: Action) -> tuple[Card, ...]:
    assert isinstance(action, Discard)
    return action.cards


def dealt() -> Game:
    return stacked_game(DEAL, dealer=0)


def test_a_six_card_hand_lists_its_fifteen_discards_once_in_card_order() -> None:
    game = dealt()
    listed = list_discards(game, 0)
    assert [" ".join(map(str, cards_of(action))) for action in listed[:3]] == ["4H 5D", "4H 5H", "4H 6C"]
    assert len(listed) == 15
    # Shared objects: the same ones again, and the one `discard_of` gives for the same cards.
    assert all(a is b for a, b in zip(listed, list_discards(game, 0), strict=True))
    hand = game.view(0).hand
    assert [cards_of(action) for action in listed] == list(combinations(hand, 2))
    assert discard_of(tuple(hand[:2])) is listed[0]


def test_only_a_listed_discard_of_held_cards_skips_the_checks() -> None:
    game = dealt()
    listed = list_discards(game, 0)
    assert is_listed_discard(game, 0, listed[0])
    assert not is_listed_discard(game, 1, listed[0])  # the pone does not hold 4H 5H
    assert not is_listed_discard(game, 0, Discard(parse_cards("4H 5H")))  # equal, not the shared one


def test_a_discard_is_checked_before_anything_changes() -> None:
    game = dealt()
    with pytest.raises(BadDiscard, match="discard exactly 2 cards, not 3"):
        check_discard(game, 0, Discard(parse_cards("4H 5H 6C")))
    with pytest.raises(CardNotHeld, match="you do not hold 2S"):
        check_discard(game, 0, Discard(parse_cards("4H 2S")))
    assert game.view(0).hand == tuple(sorted(parse_cards("5H 5D JC QS 4H 6C")))
    discard(game, 0, parse_cards("4H 6C"))
    with pytest.raises(NotYourTurn, match="already discarded"):
        check_discard(game, 0, Discard(parse_cards("5H 5D")))


def test_the_last_discard_turns_the_starter_and_the_play_begins() -> None:
    game = dealt()
    discard(game, 0, parse_cards("4H 6C"))
    assert game.phase.value == "discard" and game.to_act == (1,) and game.starter is None
    discard(game, 1, parse_cards("AD 9S"))
    assert [event.kind for event in game.events[-3:]] == ["discard", "discard", "starter"]
    assert str(game.starter) == "5S"
    assert game.phase.value == "play" and game.to_act == (1,)  # the pone leads
    assert game.view(0).kept == parse_cards("5D 5H JC QS")  # in card order
    with pytest.raises(WrongPhase, match="the discard is over"):
        check_discard(game, 1, Discard(parse_cards("2S 7D")))


def test_a_source_without_the_next_deal_leaves_the_game_waiting() -> None:
    game = dealt()
    game.apply(0, Discard(parse_cards("4H 6C")))
    game.apply(1, Discard(parse_cards("AD 9S")))
    for _ in range(8):  # the play, each seat laying its first legal card
        game.apply(game.to_act[0], game.legal_actions(game.to_act[0])[0])
    assert game.phase is Phase.WAITING and game.deal_number == 0 and game.to_act == ()
