"""The engine (docs/rules.md): illegal actions, determinism, the cut, heels, the play, the show and
winning, on stacked deals whose every card is chosen by the test."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

import pytest

from cribcore import (
    Action,
    Discard,
    Game,
    IllegalAction,
    Phase,
    Play,
    RuleSet,
    format_cards,
    game_record,
    parse_card,
    parse_cards,
)
from cribcore.actions import (
    ActionCardParseError,
    ActionParseError,
    BadDiscard,
    CardNotHeld,
    Count,
    GameOver,
    Muggins,
    NotYourTurn,
    OverThirtyOne,
    WrongPhase,
    parse_action,
)
from cribcore.cards import CardParseError
from cribcore.deals import SeededDeals
from cribcore.events import Event
from cribcore.players import RandomPlayer, SimplePlayer
from cribcore.scoring import FIFTEEN, GO, HEELS, PAIR, RUN, THIRTY_ONE

StackedGame = Callable[..., Game]
DEALER, PONE = 0, 1


def discard(text: str) -> Discard:
    return Discard(parse_cards(text))


def play(text: str) -> Play:
    return Play(parse_card(text))


def run(game: Game, *moves: tuple[int, Action]) -> Game:
    for seat, action in moves:
        game.apply(seat, action)
    return game


def kinds(events: tuple[Event, ...] | list[Event]) -> list[str]:
    return [event.kind for event in events]


def events_of(game: Game, kind: str) -> list[Event]:
    return [event for event in game.events if event.kind == kind]


def item_kinds(event: Event) -> list[tuple[str, int]]:
    return [(item.kind, item.points) for item in event.items]


def events_after(game: Game, kind: str, seat: int | None = None) -> list[Event]:
    """The events after the last event of ``kind`` (by ``seat`` when given)."""
    positions = [
        i
        for i, event in enumerate(game.events)
        if event.kind == kind and (seat is None or event.seat == seat)
    ]
    return list(game.events[positions[-1] + 1 :])


def play_with(game: Game, players: list[Any]) -> Game:
    while game.to_act:
        seat = game.to_act[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
    return game


# The go deal: dealer (seat 0) keeps KD QD 8S 7S; the pone (seat 1) keeps 9H TH AC 3C.
GO_DEAL = (("KD QD 8S 7S 6C 6D", "9H TH AC 3C 2H 2D"), "4S")
GO_DISCARDS = ((DEALER, discard("6C 6D")), (PONE, discard("2H 2D")))
GO_PLAYS = [(PONE, "9H"), (DEALER, "KD"), (PONE, "TH"), (PONE, "AC")]
SECOND_COUNT = [(DEALER, "QD"), (PONE, "3C"), (DEALER, "8S"), (DEALER, "7S")]


def go_deal(stacked: StackedGame, rules: RuleSet | None = None) -> Game:
    return stacked(GO_DEAL, dealer=DEALER, rules=rules)


# ----------------------------------------------------------------------------- illegal actions


def snapshot(game: Game) -> tuple[object, ...]:
    seats = range(game.rules.seats)
    return (
        json.dumps(game_record(game), sort_keys=True),
        game.events,
        tuple(game.view(seat) for seat in seats),
        tuple(game.legal_actions(seat) for seat in seats),
        game.scores,
        game.phase,
        game.to_act,
        game.count,
        game.starter,
        game.dealer,
        game.deal_number,
        game.winner,
    )


def in_discard(stacked: StackedGame) -> Game:
    return go_deal(stacked)


def after_one_discard(stacked: StackedGame) -> Game:
    return run(go_deal(stacked), GO_DISCARDS[0])


def in_play(stacked: StackedGame) -> Game:
    return run(go_deal(stacked), *GO_DISCARDS)


def after_two_cards(stacked: StackedGame) -> Game:
    return run(in_play(stacked), (PONE, play("9H")), (DEALER, play("KD")))


def at_twenty_nine(stacked: StackedGame) -> Game:
    game = run(in_play(stacked), *((seat, play(card)) for seat, card in GO_PLAYS[:3]))
    assert game.count == 29
    return game


def game_over(stacked: StackedGame) -> Game:
    game = run(
        go_deal(stacked, RuleSet(target=1)),
        *GO_DISCARDS,
        *((seat, play(card)) for seat, card in GO_PLAYS),
    )
    assert game.is_over
    return game


def waiting(stacked: StackedGame) -> Game:
    game = run(in_play(stacked), *((s, play(c)) for s, c in GO_PLAYS + SECOND_COUNT))
    assert game.phase is Phase.WAITING
    return game


IllegalCase = tuple[Callable[[StackedGame], Game], int, Any, type[IllegalAction]]
ILLEGAL: dict[str, IllegalCase] = {
    "play during the discard": (in_discard, PONE, play("9H"), WrongPhase),
    "discard during the play": (in_play, PONE, discard("AC 3C"), WrongPhase),
    "dealer plays when the pone leads": (in_play, DEALER, play("KD"), NotYourTurn),
    "a seat that does not exist": (in_discard, 2, discard("KD QD"), NotYourTurn),
    "a negative seat": (in_play, -1, play("9H"), NotYourTurn),
    "discard twice": (after_one_discard, DEALER, discard("8S 7S"), NotYourTurn),
    "discard the opponent's card": (in_discard, DEALER, discard("KD 9H"), CardNotHeld),
    "play the opponent's card": (in_play, PONE, play("KD"), CardNotHeld),
    "play a discarded card": (in_play, PONE, play("2H"), CardNotHeld),
    "play a card already laid": (after_two_cards, PONE, play("9H"), CardNotHeld),
    "play past 31": (at_twenty_nine, PONE, play("3C"), OverThirtyOne),
    "discard one card": (in_discard, DEALER, discard("KD"), BadDiscard),
    "discard three cards": (in_discard, DEALER, discard("KD QD 8S"), BadDiscard),
    "discard no card": (in_discard, DEALER, Discard(()), BadDiscard),
    "discard the same card twice": (
        in_discard,
        DEALER,
        Discard((parse_card("KD"), parse_card("KD"))),
        BadDiscard,
    ),
    "play after the game is over": (game_over, DEALER, play("QD"), GameOver),
    "discard after the game is over": (game_over, PONE, discard("3C 9H"), GameOver),
    "play while waiting for a deal": (waiting, DEALER, play("QD"), WrongPhase),
    "something that is not an action": (in_play, PONE, "play 9H", IllegalAction),
}


@pytest.mark.parametrize("case", ILLEGAL)
def test_illegal_action_raises_and_leaves_the_game_unchanged(stacked: StackedGame, case: str) -> None:
    setup, seat, action, error = ILLEGAL[case]
    game = setup(stacked)
    before = snapshot(game)
    with pytest.raises(error) as excinfo:
        game.apply(seat, action)
    assert type(excinfo.value) is error
    assert snapshot(game) == before
    with pytest.raises(error):
        game.check(seat, action)
    assert snapshot(game) == before


def test_illegal_actions_are_value_errors() -> None:
    for error in (NotYourTurn, WrongPhase, GameOver, CardNotHeld, OverThirtyOne, BadDiscard):
        assert issubclass(error, IllegalAction)
    assert issubclass(IllegalAction, ValueError)


@pytest.mark.parametrize(
    "text",
    [
        *("fold", "discard", "play 7S 8S", "count two", "pass 2", "play 7X"),
        *("count \u0663", "muggins 1_0", "count"),  # another script's digit, an underscore, no number
    ],
)
def test_unreadable_and_illegal_are_different_errors(text: str) -> None:
    # Text that is no action is an ActionParseError, never an IllegalAction: a caller tells a typo
    # from a move the game refuses (both stay ValueErrors, as before).
    with pytest.raises(ActionParseError) as excinfo:
        parse_action(text)
    assert not isinstance(excinfo.value, IllegalAction) and isinstance(excinfo.value, ValueError)
    # A bad card is also a CardParseError naming the token, as parse_card's.
    assert isinstance(excinfo.value, CardParseError) == (text == "play 7X")
    game = Game(seed=3)
    with pytest.raises(IllegalAction) as refused:
        game.apply(0, parse_action("play " + str(game.view(0).hand[0])))
    assert not isinstance(refused.value, ActionParseError)
    assert issubclass(ActionCardParseError, ActionParseError)


def test_counts_are_read_in_ascii_digits_with_a_sign() -> None:
    assert parse_action("count 12") == Count(12)
    assert parse_action("muggins  +2 ") == Muggins(2)
    assert parse_action("count -1") == Count(-1)  # read, then refused by the game as any bad count


def test_game_goes_on_normally_after_an_illegal_action(stacked: StackedGame) -> None:
    spoiled = at_twenty_nine(stacked)
    with pytest.raises(OverThirtyOne):
        spoiled.apply(PONE, play("3C"))
    clean = at_twenty_nine(stacked)
    for game in (spoiled, clean):
        run(game, (PONE, play("AC")), *((s, play(c)) for s, c in SECOND_COUNT))
    assert spoiled.events == clean.events


def test_over_31_message_names_the_card_and_count(stacked: StackedGame) -> None:
    with pytest.raises(OverThirtyOne, match="3C would take the count to 32"):
        at_twenty_nine(stacked).apply(PONE, play("3C"))


def test_apply_returns_the_events_it_caused(stacked: StackedGame) -> None:
    game = at_twenty_nine(stacked)
    before = len(game.events)
    caused = game.apply(PONE, play("AC"))
    assert caused == game.events[before:]
    assert kinds(caused) == ["play", "go", "reset"]


def test_legal_actions(stacked: StackedGame) -> None:
    game = go_deal(stacked)
    assert len(game.legal_actions(DEALER)) == 15
    assert discard("6C 6D") in game.legal_actions(DEALER)
    run(game, *GO_DISCARDS)
    assert game.legal_actions(DEALER) == ()
    assert [str(a) for a in game.legal_actions(PONE)] == [
        "play AC",
        "play 3C",
        "play 9H",
        "play TH",
    ]
    run(game, (PONE, play("9H")), (DEALER, play("KD")), (PONE, play("TH")))
    assert game.to_act == (PONE,)
    assert [str(a) for a in game.legal_actions(PONE)] == ["play AC"]


# ----------------------------------------------------------------------------- chance


def test_same_seed_gives_identical_games() -> None:
    games = [play_with(Game(seed=7), [RandomPlayer(1), RandomPlayer(2)]) for _ in range(2)]
    assert games[0].events == games[1].events
    assert game_record(games[0]) == game_record(games[1])


def test_different_seeds_give_different_deals() -> None:
    dealt = [tuple(events_of(Game(seed=seed), "dealt")) for seed in (1, 2)]
    assert dealt[0] != dealt[1]


def test_deals_depend_only_on_the_seed_not_on_decisions() -> None:
    by_random = play_with(Game(seed=11), [RandomPlayer(5), RandomPlayer(6)])
    by_simple = play_with(Game(seed=11), [SimplePlayer(), SimplePlayer()])
    assert by_random.events != by_simple.events
    assert events_of(by_random, "cut") == events_of(by_simple, "cut")
    deals = min(by_random.deal_number, by_simple.deal_number) + 1
    assert deals >= 5

    def chance(game: Game, kind: str) -> list[Event]:
        return [e for e in events_of(game, kind) if e.deal < deals]

    assert chance(by_random, "dealt") == chance(by_simple, "dealt")
    assert chance(by_random, "starter") == chance(by_simple, "starter")
    assert len(chance(by_random, "starter")) == deals


def test_seeded_deal_does_not_depend_on_what_was_drawn_before() -> None:
    rules = RuleSet()
    first = SeededDeals(3)
    first.cut(rules)
    first.deal(0, 0, rules)
    assert first.deal(4, 0, rules) == SeededDeals(3).deal(4, 0, rules)


def test_seeded_deal_gives_52_distinct_cards_in_hands_and_starter() -> None:
    rules = RuleSet()
    for index in range(20):
        cards = SeededDeals(99).deal(index, index % 2, rules)
        dealt = [*cards.hands[0], *cards.hands[1], cards.starter]
        assert len(set(dealt)) == 13
        assert [len(hand) for hand in cards.hands] == [6, 6]


# ----------------------------------------------------------------------------- the cut for deal


def test_lower_cut_card_deals_first() -> None:
    rules = RuleSet()
    for seed in range(200):
        cut = SeededDeals(seed).cut(rules)
        *ties, final = cut.rounds
        for round_ in ties:
            assert round_[0][1].rank == round_[1][1].rank, seed
        cards = dict(final)
        assert cards[cut.dealer].rank < cards[1 - cut.dealer].rank, seed


def test_equal_cuts_cut_again() -> None:
    rules = RuleSet()
    recuts = [seed for seed in range(200) if len(SeededDeals(seed).cut(rules).rounds) > 1]
    assert recuts
    cut = SeededDeals(recuts[0]).cut(rules)
    assert cut.rounds[0][0][1].rank == cut.rounds[0][1][1].rank


def test_game_starts_with_the_cut_events_and_the_cut_winner_deals() -> None:
    for seed in range(40):
        game = Game(seed=seed)
        cut = SeededDeals(seed).cut(game.rules)
        cuts = [(seat, card) for round_ in cut.rounds for seat, card in round_]
        leading = game.events[: len(cuts)]
        assert [(e.kind, e.seat, e.cards) for e in leading] == [("cut", seat, (card,)) for seat, card in cuts]
        assert game.dealer == cut.dealer
        assert game.events[len(cuts)] == Event("deal", 0, seat=cut.dealer)


def test_deal_alternates_and_scores_carry_over() -> None:
    game = play_with(Game(seed=21), [RandomPlayer(1), RandomPlayer(2)])
    deals = events_of(game, "deal")
    assert len(deals) > 3
    first = deals[0].seat
    assert first is not None
    assert [event.seat for event in deals] == [(first + i) % 2 for i in range(len(deals))]
    assert [event.deal for event in deals] == list(range(len(deals)))
    totals = [event.scores for event in game.events if event.scored]
    assert all(
        a <= b for before, after in itertools.pairwise(totals) for a, b in zip(before, after, strict=True)
    )


# ----------------------------------------------------------------------------- heels and winning

HEELS_DEAL = (("KD QD 8S 7S 6C 6D", "9H TH AC 3C 2H 2D"), "JH")


def test_starter_jack_scores_heels_for_the_dealer(stacked: StackedGame) -> None:
    for dealer in (0, 1):
        game = run(stacked(HEELS_DEAL, dealer=dealer), *GO_DISCARDS)
        heels = events_of(game, "heels")
        assert len(heels) == 1
        assert heels[0].seat == dealer
        assert heels[0].points == 2
        assert item_kinds(heels[0]) == [(HEELS, 2)]
        assert game.scores[dealer] == 2
        assert game.scores[1 - dealer] == 0
        assert game.phase is Phase.PLAY


def test_other_starters_score_no_heels(stacked: StackedGame) -> None:
    game = run(go_deal(stacked), *GO_DISCARDS)
    assert events_of(game, "heels") == []
    assert game.scores == (0, 0)


def test_heels_can_win_the_game(stacked: StackedGame) -> None:
    game = run(stacked(HEELS_DEAL, dealer=DEALER, rules=RuleSet(target=2)), *GO_DISCARDS)
    assert game.is_over
    assert game.winner == DEALER
    assert kinds(game.events[-3:]) == ["starter", "heels", "win"]
    assert game.to_act == ()
    assert events_of(game, "play") == []


# Seat 1 (pone) leads 5H; the dealer's TC makes fifteen.
FIFTEEN_DEAL = (("TC KD 8S 7S 6C 6D", "5H 9H AC 3C 2H 2D"), "4S")


def test_a_play_that_reaches_the_target_wins_at_once(stacked: StackedGame) -> None:
    game = run(
        stacked(FIFTEEN_DEAL, dealer=DEALER, rules=RuleSet(target=2)),
        *GO_DISCARDS,
        (PONE, play("5H")),
        (DEALER, play("TC")),
    )
    assert game.is_over
    assert game.winner == DEALER
    assert game.scores == (2, 0)
    assert kinds(game.events[-2:]) == ["play", "win"]
    assert item_kinds(game.events[-2]) == [(FIFTEEN, 2)]
    assert game.view(PONE).hand == parse_cards("AC 3C 9H")
    assert game_record(game)["deals"][0]["plays"] == ["5H", "TC"]
    assert game_record(game)["result"] == {"scores": [2, 0], "winner": DEALER, "game_points": 1}


# The pone keeps 5H 5D 5S JC (29 with the 5C starter); the dealer keeps 7C 8D 8H 9S (12).
SHOW_DEAL = (("7C 8D 8H 9S KD QD", "5H 5D 5S JC KH QH"), "5C")
SHOW_PLAYS = [
    (PONE, "5H"),
    (DEALER, "8D"),
    (PONE, "5D"),
    (DEALER, "8H"),
    (PONE, "5S"),  # 31
    (DEALER, "7C"),
    (PONE, "JC"),
    (DEALER, "9S"),  # last card
]


def show_deal(stacked: StackedGame, rules: RuleSet | None = None) -> Game:
    return run(
        stacked(SHOW_DEAL, dealer=DEALER, rules=rules),
        (DEALER, discard("KD QD")),
        (PONE, discard("KH QH")),
        *((seat, play(card)) for seat, card in SHOW_PLAYS),
    )


def test_show_counts_pone_then_dealer_then_crib(stacked: StackedGame) -> None:
    game = show_deal(stacked)
    show = [e for e in game.events if e.kind in ("hand", "crib")]
    assert [(e.kind, e.seat, e.points) for e in show] == [
        ("hand", PONE, 29),
        ("hand", DEALER, 12),
        ("crib", DEALER, 12),
    ]
    assert show[0].cards == parse_cards("5D 5H 5S JC")
    assert show[2].cards == parse_cards("QD QH KD KH")
    assert [e.scores for e in show] == [(1, 31), (13, 31), (25, 31)]


def test_show_order_follows_the_dealer_not_the_seat_numbers(stacked: StackedGame) -> None:
    hands, starter = SHOW_DEAL
    game = run(
        stacked(((hands[1], hands[0]), starter), dealer=1),
        (1, discard("KD QD")),
        (0, discard("KH QH")),
        *((1 - seat, play(card)) for seat, card in SHOW_PLAYS),
    )
    show = [(e.kind, e.seat) for e in game.events if e.kind in ("hand", "crib")]
    assert show == [("hand", 0), ("hand", 1), ("crib", 1)]


def test_pone_reaching_the_target_in_the_show_wins_before_the_dealer_counts(
    stacked: StackedGame,
) -> None:
    # After the play the dealer has 1 and the pone 2; the dealer's hand (12) would also reach 13.
    game = show_deal(stacked, RuleSet(target=13))
    assert game.is_over
    assert game.winner == PONE
    assert kinds(events_after(game, "reset")) == ["hand", "win"]
    assert game.scores == (1, 31)


def test_next_deal_passes_to_the_pone(stacked: StackedGame) -> None:
    game = stacked(SHOW_DEAL, SHOW_DEAL, dealer=DEALER)
    run(
        game,
        (DEALER, discard("KD QD")),
        (PONE, discard("KH QH")),
        *((seat, play(card)) for seat, card in SHOW_PLAYS),
    )
    assert game.deal_number == 1
    assert game.dealer == PONE
    assert game.events[-3:][0] == Event("deal", 1, seat=PONE)
    assert game.scores == (25, 31)
    assert game.phase is Phase.DISCARD
    assert game.to_act == (0, 1)


def test_game_waits_when_the_deals_run_out(stacked: StackedGame) -> None:
    game = show_deal(stacked)
    assert game.phase is Phase.WAITING
    assert game.to_act == ()
    assert not game.is_over


# ----------------------------------------------------------------------------- the play


def test_go_passes_the_turn_and_the_other_player_plays_on(stacked: StackedGame) -> None:
    game = at_twenty_nine(stacked)
    assert kinds(game.events[-2:]) == ["play", "says-go"]
    assert game.events[-1].seat == DEALER
    assert game.to_act == (PONE,)
    game.apply(PONE, play("AC"))
    assert [e.kind for e in events_of(game, "says-go")] == ["says-go"]


def test_go_point_goes_to_the_last_card_before_the_go(stacked: StackedGame) -> None:
    game = run(at_twenty_nine(stacked), (PONE, play("AC")))
    go = events_of(game, "go")
    assert [(e.seat, e.points, e.note, e.count) for e in go] == [(PONE, 1, "go", 30)]
    assert item_kinds(go[0]) == [(GO, 1)]
    assert game.scores == (0, 1)


def test_after_a_go_the_next_player_leads_a_new_count(stacked: StackedGame) -> None:
    game = run(at_twenty_nine(stacked), (PONE, play("AC")))
    assert game.count == 0
    assert game.view(DEALER).pile == ()
    assert game.to_act == (DEALER,)


def test_player_with_no_cards_is_skipped(stacked: StackedGame) -> None:
    game = run(at_twenty_nine(stacked), (PONE, play("AC")), (DEALER, play("QD")))
    game.apply(PONE, play("3C"))
    assert game.view(PONE).hand == ()
    assert game.to_act == (DEALER,)
    game.apply(DEALER, play("8S"))
    assert game.to_act == (DEALER,)
    assert events_of(game, "says-go")[-1].count == 29


def test_last_card_of_the_play_scores_one(stacked: StackedGame) -> None:
    game = run(at_twenty_nine(stacked), (PONE, play("AC")))
    run(game, *((seat, play(card)) for seat, card in SECOND_COUNT))
    last = events_of(game, "go")[-1]
    assert (last.seat, last.points, last.note, last.count) == (DEALER, 1, "last card", 28)
    assert kinds(events_after(game, "go", DEALER))[:2] == ["reset", "hand"]


def test_seed_002_first_sequence_7s_8d_8h(stacked: StackedGame) -> None:
    game = run(
        stacked((("8D QD JD 9D 2C 2D", "7S 8H TC KC AC AD"), "3H"), dealer=DEALER),
        (DEALER, discard("2C 2D")),
        (PONE, discard("AC AD")),
        (PONE, play("7S")),
        (DEALER, play("8D")),
        (PONE, play("8H")),
    )
    plays = events_of(game, "play")
    assert [(e.seat, format_cards(e.cards), e.points) for e in plays] == [
        (PONE, "7S", 0),
        (DEALER, "8D", 2),
        (PONE, "8H", 2),
    ]
    assert item_kinds(plays[1]) == [(FIFTEEN, 2)]
    assert item_kinds(plays[2]) == [(PAIR, 2)]
    assert [(e.kind, e.seat, e.points) for e in events_after(game, "play")] == [
        ("says-go", DEALER, 0),
        ("go", PONE, 1),
        ("reset", PONE, 0),
    ]
    assert game.scores == (2, 3)


def test_seed_002_second_sequence_4c_6d_5h(stacked: StackedGame) -> None:
    game = run(
        stacked((("6D KS QS JS 2C 2D", "4C 5H TC KC AC AD"), "3H"), dealer=DEALER),
        (DEALER, discard("2C 2D")),
        (PONE, discard("AC AD")),
        (PONE, play("4C")),
        (DEALER, play("6D")),
        (PONE, play("5H")),
    )
    plays = events_of(game, "play")
    assert [e.points for e in plays] == [0, 0, 5]
    assert item_kinds(plays[2]) == [(FIFTEEN, 2), (RUN, 3)]
    assert plays[2].count == 15


def test_seed_002_third_sequence_thirty_one_after_a_go(stacked: StackedGame) -> None:
    game = run(
        stacked((("9D 8C 7C 5C 6H 6S", "KC TH 2S QH 3D 3S"), "4D"), dealer=DEALER),
        (DEALER, discard("6H 6S")),
        (PONE, discard("3D 3S")),
        (PONE, play("KC")),
        (DEALER, play("9D")),
        (PONE, play("TH")),
    )
    assert events_of(game, "says-go")[0].seat == DEALER
    game.apply(PONE, play("2S"))
    thirty_one = game.events[-2]
    assert (thirty_one.kind, thirty_one.seat, thirty_one.count) == ("play", PONE, 31)
    assert item_kinds(thirty_one) == [(THIRTY_ONE, 2)]
    assert game.events[-1].kind == "reset"
    assert events_of(game, "go") == []
    assert game.scores == (0, 2)
    assert game.to_act == (DEALER,)
    run(game, (DEALER, play("8C")), (PONE, play("QH")), (DEALER, play("7C")))
    assert game.to_act == (DEALER,)
    game.apply(DEALER, play("5C"))
    last = events_of(game, "go")
    assert [(e.seat, e.points, e.note, e.count) for e in last] == [(DEALER, 1, "last card", 30)]


THREE_SEATS = RuleSet(seats=3, cards_dealt=2, discards=1)


@pytest.mark.parametrize(
    ("cards", "points"),
    [(("4C", "6D", "5H"), [0, 0, 5 + 1]), (("7S", "8D", "8H"), [0, 2, 2 + 1])],
)
def test_seed_002_sequences_as_complete_plays_score_the_last_card(
    stacked: StackedGame, cards: tuple[str, str, str], points: list[int]
) -> None:
    """Three seats keeping one card each: the three cards are the whole play."""
    first, second, third = cards
    hands = (f"{third} KS", f"{first} KH", f"{second} KD")  # seats 0 (dealer), 1, 2
    game = run(
        stacked((hands, "2S"), dealer=0, rules=THREE_SEATS),
        (0, discard("KS")),
        (1, discard("KH")),
        (2, discard("KD")),
        (1, play(first)),
        (2, play(second)),
        (0, play(third)),
    )
    scored = {(e.seat, e.kind): e.points for e in game.events if e.kind in ("play", "go")}
    assert [scored.get((seat, "play"), 0) + scored.get((seat, "go"), 0) for seat in (1, 2, 0)] == (points)
    assert events_of(game, "go")[0].note == "last card"
    show = [(e.kind, e.seat) for e in game.events if e.kind in ("hand", "crib")]
    assert show == [("hand", 1), ("hand", 2), ("hand", 0), ("crib", 0)]


def test_count_and_pile_are_public(stacked: StackedGame) -> None:
    game = after_two_cards(stacked)
    for seat in (DEALER, PONE):
        view = game.view(seat)
        assert view.count == 19
        assert [(s, str(c)) for s, c in view.pile] == [(PONE, "9H"), (DEALER, "KD")]
        assert view.laid == (parse_cards("KD"), parse_cards("9H"))


def test_events_record_the_running_count(stacked: StackedGame) -> None:
    game = run(at_twenty_nine(stacked), (PONE, play("AC")))
    assert [e.count for e in events_of(game, "play")] == [9, 19, 29, 30]


def test_a_deal_shuffles_exactly_as_random_shuffle() -> None:
    """The shared shuffle loop (for speed: deals, the hard level's sampled hands) gives the same order
    as `random.Random.shuffle` and leaves the generator in the same state, for any length."""
    import random

    from cribcore.cards import FULL_DECK
    from cribcore.deals import shuffle

    for seed in range(200):
        for items in (list(FULL_DECK), list(range(seed % 45)), [7]):
            mine, theirs = list(items), list(items)
            first, second = random.Random(seed), random.Random(seed)
            shuffle(first, mine)
            second.shuffle(theirs)
            assert mine == theirs and first.random() == second.random()


def test_an_award_before_the_first_deal_keeps_its_deal_number() -> None:
    """Five-card's compensation is scored before the first deal and belongs to deal 0, as its plugin
    says (the engine once stamped it with the current deal, -1, when building scoring events faster)."""
    from cribcore.profiles import load_profile

    game = Game(load_profile("five-card"), seed=0)
    awards = [event for event in game.events if event.kind == "compensation"]
    assert awards and all(event.deal == 0 and event.scored for event in awards)
