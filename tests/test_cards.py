"""Cards (docs/rules.md): the text form, the deck, count values and ordering."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import pickle

import pytest

from cribcore import (
    FULL_DECK,
    Card,
    CardParseError,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("5H", "5H"),
        ("5h", "5H"),
        ("TS", "TS"),
        ("ts", "TS"),
        ("10s", "TS"),
        ("10S", "TS"),
        ("j♣", "JC"),
        ("J♣", "JC"),
        ("q♥", "QH"),
        ("A♠", "AS"),
        ("a♦", "AD"),
        ("10♦", "TD"),
        ("kc", "KC"),
        (" 7d ", "7D"),
    ],
)
def test_parse_card_accepts_every_documented_spelling(text: str, canonical: str) -> None:
    card = parse_card(text)
    assert str(card) == canonical
    assert Card.parse(text) == card


@pytest.mark.parametrize("card", FULL_DECK, ids=str)
def test_canonical_text_round_trips_for_every_card(card: Card) -> None:
    assert parse_card(str(card)) == card
    assert parse_card(str(card).lower()) == card


def test_parsed_card_has_rank_and_suit() -> None:
    card = parse_card("10♥")
    assert card.rank is Rank.TEN
    assert card.suit is Suit.HEARTS
    assert card == Card(Rank.TEN, Suit.HEARTS)


@pytest.mark.parametrize(
    "token", ["5X", "1H", "11S", "ZZ", "5", "H", "10", "0H", "5HH", "T♣♣", "JOKER", "5 H"]
)
def test_parse_card_rejects_garbage_naming_the_token(token: str) -> None:
    with pytest.raises(CardParseError) as excinfo:
        parse_card(token)
    assert token in str(excinfo.value)


def test_parse_card_rejects_empty_text() -> None:
    with pytest.raises(CardParseError, match="not a card: ''"):
        parse_card("")


def test_card_parse_error_is_a_value_error() -> None:
    assert issubclass(CardParseError, ValueError)
    with pytest.raises(ValueError, match="5X"):
        parse_card("5X")


def test_parse_cards_splits_on_spaces_and_commas() -> None:
    assert format_cards(parse_cards("5h, 10s j♣  AD")) == "5H TS JC AD"
    assert parse_cards(["5h", "TS"]) == (parse_card("5H"), parse_card("TS"))
    assert parse_cards("") == ()


def test_parse_cards_names_the_bad_token_among_good_ones() -> None:
    with pytest.raises(CardParseError, match="11S"):
        parse_cards("5H 11S TS")


def test_cards_are_immutable() -> None:
    card = parse_card("5H")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = Rank.SIX  # type: ignore[misc]
    with pytest.raises((dataclasses.FrozenInstanceError, AttributeError, TypeError)):
        card.colour = "red"  # type: ignore[attr-defined]
    assert str(card) == "5H"


def test_equal_cards_are_hashed_alike() -> None:
    a = Card(Rank.FIVE, Suit.HEARTS)
    b = parse_card("5h")
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b, parse_card("5H")}) == 1
    assert {a: "five"}[b] == "five"


def test_cards_survive_pickling_and_copying() -> None:
    for card in FULL_DECK:
        for copied in (pickle.loads(pickle.dumps(card)), copy.deepcopy(card)):
            assert copied == card
            assert hash(copied) == hash(card)
            assert (copied.value, copied.index) == (card.value, card.index)


def test_full_deck_has_52_distinct_cards_of_every_rank_and_suit() -> None:
    assert len(FULL_DECK) == 52
    assert len(set(FULL_DECK)) == 52
    assert set(FULL_DECK) == {Card(r, s) for r, s in itertools.product(Rank, Suit)}
    assert len({str(card) for card in FULL_DECK}) == 52


def test_card_index_is_dense_and_follows_deck_order() -> None:
    assert [card.index for card in FULL_DECK] == list(range(52))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("AC", 1),
        ("2D", 2),
        ("5H", 5),
        ("9S", 9),
        ("TC", 10),
        ("JD", 10),
        ("QH", 10),
        ("KS", 10),
    ],
)
def test_count_values(text: str, value: int) -> None:
    assert parse_card(text).value == value


def test_count_values_over_the_whole_deck() -> None:
    assert sum(card.value for card in FULL_DECK) == 4 * (sum(range(1, 11)) + 30)


def test_ace_is_low() -> None:
    assert [int(rank) for rank in Rank] == list(range(1, 14))
    assert Rank.ACE.symbol == "A"
    assert parse_card("AS") < parse_card("2C")


def test_cards_order_by_rank_then_suit() -> None:
    shuffled = parse_cards("KS 5S AC 5C TD 5H 5D")
    assert format_cards(sorted(shuffled)) == "AC 5C 5D 5H 5S TD KS"
    assert list(FULL_DECK) == sorted(FULL_DECK)


def test_card_comparison_operators_agree() -> None:
    low, high = parse_card("9H"), parse_card("9S")
    assert low < high
    assert low <= high
    assert high > low
    assert high >= low
    assert low <= low
    assert not low < low


def test_cards_do_not_compare_with_other_types() -> None:
    text: object = "5S"
    with pytest.raises(TypeError):
        _ = parse_card("5H") < text
    assert parse_card("5S") != text


def test_repr_and_symbols() -> None:
    card = parse_card("qd")
    assert repr(card) == "Card(QD)"
    assert card.rank.symbol == "Q"
    assert card.suit.symbol == "♦"
    assert card.suit.is_red
    assert not parse_card("QS").suit.is_red
