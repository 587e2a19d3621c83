"""Scoring (docs/rules.md): the worked examples of the show and the play, and the show scorer checked
against the brute-force reference in `tests/reference_scorer.py` on many random hands."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribcore import (
    FULL_DECK,
    Card,
    Score,
    ScoreItem,
    format_cards,
    parse_card,
    parse_cards,
    score_play,
    score_show,
)
from cribcore.scoring import (
    FIFTEEN,
    FLUSH,
    GO,
    NOBS,
    PAIR,
    RUN,
    THIRTY_ONE,
    peg_sequence,
)
from tests.reference_scorer import KINDS, reference_show, reference_total


def points_by_kind(score: Score) -> dict[str, int]:
    totals: dict[str, int] = Counter()
    for item in score.items:
        totals[item.kind] += item.points
    return dict(totals)


def item_shapes(score: Score) -> Counter[tuple[str, int]]:
    """How many items of each (kind, points) the score holds."""
    return Counter((item.kind, item.points) for item in score.items)


# ----------------------------------------------------------------------------- the show

SHOW_EXAMPLES = [
    # hand, starter, crib, total, items as {(kind, points): how many}
    ("4C 5D 6H KC", "5S", False, 16, {(FIFTEEN, 2): 4, (PAIR, 2): 1, (RUN, 3): 2}),
    ("5H 5D 5S JC", "5C", False, 29, {(FIFTEEN, 2): 8, (PAIR, 2): 6, (NOBS, 1): 1}),
    ("4H 6H 8H TH", "KH", False, 5, {(FLUSH, 5): 1}),
    ("4H 6H 8H TH", "KS", False, 4, {(FLUSH, 4): 1}),
    ("4H 6H 8H TH", "KS", True, 0, {}),
    ("3C 4D 5H 5S", "6C", False, 14, {(FIFTEEN, 2): 2, (PAIR, 2): 1, (RUN, 4): 2}),
    ("AC 2C 3C 4C", "5C", False, 12, {(FIFTEEN, 2): 1, (RUN, 5): 1, (FLUSH, 5): 1}),
    ("JH 2C 3D 4S", "7H", False, 6, {(FIFTEEN, 2): 1, (RUN, 3): 1, (NOBS, 1): 1}),
    ("7C 8D 8H 9S", "9C", False, 20, {(FIFTEEN, 2): 2, (PAIR, 2): 2, (RUN, 3): 4}),
]


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "total", "shapes"),
    SHOW_EXAMPLES,
    ids=[f"{h}+{s}{' crib' if c else ''}" for h, s, c, _, _ in SHOW_EXAMPLES],
)
def test_show_worked_examples(
    hand: str, starter: str, crib: bool, total: int, shapes: dict[tuple[str, int], int]
) -> None:
    score = score_show(parse_cards(hand), parse_card(starter), crib=crib)
    assert score.total == total
    assert item_shapes(score) == Counter(shapes)


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "total", "shapes"),
    SHOW_EXAMPLES,
    ids=[f"{h}+{s}{' crib' if c else ''}" for h, s, c, _, _ in SHOW_EXAMPLES],
)
def test_reference_scorer_agrees_with_worked_examples(
    hand: str, starter: str, crib: bool, total: int, shapes: dict[tuple[str, int], int]
) -> None:
    expected = Counter[str]()
    for (kind, points), times in shapes.items():
        expected[kind] += points * times
    reference = reference_show(parse_cards(hand), parse_card(starter), crib=crib)
    assert reference_total(parse_cards(hand), parse_card(starter), crib=crib) == total
    assert {k: v for k, v in reference.items() if v} == dict(expected)


def test_show_items_name_their_cards() -> None:
    score = score_show(parse_cards("4C 5D 6H KC"), parse_card("5S"))
    cards: dict[str, set[str]] = {}
    for item in score.items:
        cards.setdefault(item.kind, set()).add(format_cards(item.cards))
    assert cards[FIFTEEN] == {"4C 5D 6H", "4C 5S 6H", "5D KC", "5S KC"}
    assert cards[PAIR] == {"5D 5S"}
    assert cards[RUN] == {"4C 5D 6H", "4C 5S 6H"}


def test_show_items_come_in_counting_order() -> None:
    score = score_show(parse_cards("5H 5D 5S JC"), parse_card("5C"))
    kinds = [item.kind for item in score.items]
    assert kinds == sorted(kinds, key=[FIFTEEN, PAIR, RUN, FLUSH, NOBS].index)


def test_nobs_needs_the_jack_of_the_starters_suit() -> None:
    assert points_by_kind(score_show(parse_cards("JS 2C 4D 8H"), parse_card("KS"))) == {NOBS: 1}
    assert points_by_kind(score_show(parse_cards("JS 2C 4D 8H"), parse_card("KH"))) == {}


def test_a_starter_jack_is_not_nobs() -> None:
    assert score_show(parse_cards("2S 4C 6D 8H"), parse_card("JS")).total == 0


def test_crib_scores_a_five_card_flush() -> None:
    score = score_show(parse_cards("4H 6H 8H TH"), parse_card("KH"), crib=True)
    assert item_shapes(score) == Counter({(FLUSH, 5): 1})


def test_three_of_a_hand_suit_and_starter_is_no_flush() -> None:
    assert score_show(parse_cards("2H 4H 6H 8S"), parse_card("QH")).total == 0


def test_show_rejects_a_repeated_card() -> None:
    with pytest.raises(ValueError, match="twice"):
        score_show(parse_cards("5H 5D 5S 5C"), parse_card("5H"))


def test_score_json_lists_items_and_total() -> None:
    score = score_show(parse_cards("AC 2C 3C 4C"), parse_card("5C"))
    data = score.to_json()
    assert data["total"] == 12
    assert {"kind": RUN, "cards": ["AC", "2C", "3C", "4C", "5C"], "points": 5} in data["items"]  # type: ignore[operator]


# ----------------------------------------------------------------------------- the play


def pegged(cards: str, *, last: bool = False) -> list[Score]:
    return peg_sequence(parse_cards(cards), last=last)


def test_play_7s_8d_8h_scores_fifteen_then_pair_then_last_card() -> None:
    scores = pegged("7S 8D 8H", last=True)
    assert [s.total for s in scores] == [0, 2, 3]
    assert item_shapes(scores[1]) == Counter({(FIFTEEN, 2): 1})
    assert item_shapes(scores[2]) == Counter({(PAIR, 2): 1, (GO, 1): 1})


def test_play_4c_6d_5h_scores_fifteen_and_run_then_last_card() -> None:
    scores = pegged("4C 6D 5H", last=True)
    assert [s.total for s in scores] == [0, 0, 6]
    assert item_shapes(scores[2]) == Counter({(FIFTEEN, 2): 1, (RUN, 3): 1, (GO, 1): 1})


def test_play_without_last_has_no_go_point() -> None:
    assert [s.total for s in pegged("7S 8D 8H")] == [0, 2, 2]
    assert [s.total for s in pegged("4C 6D 5H")] == [0, 0, 5]


def test_play_thirty_one_scores_two_and_no_go_point() -> None:
    scores = pegged("KC 9D TH 2S", last=True)
    assert [s.total for s in scores] == [0, 0, 0, 2]
    assert item_shapes(scores[3]) == Counter({(THIRTY_ONE, 2): 1})


def test_play_pairs_must_be_consecutive() -> None:
    scores = pegged("6D 5S 6C 5C")
    assert [s.total for s in scores] == [0, 0, 0, 0]
    assert sum(c.value for c in parse_cards("6D 5S 6C 5C")) == 22


def test_play_run_of_four_in_any_order() -> None:
    scores = pegged("7C 9D 6H 8S")
    assert [s.total for s in scores] == [0, 0, 0, 4]
    assert item_shapes(scores[3]) == Counter({(RUN, 4): 1})


def test_play_run_uses_the_longest_clean_suffix() -> None:
    scores = pegged("6C 7D 8H 6S")
    assert [s.total for s in scores] == [0, 0, 3, 3]
    assert [str(c) for c in scores[3].items[0].cards] == ["7D", "8H", "6S"]


def test_play_run_broken_by_a_duplicate_scores_nothing() -> None:
    scores = pegged("7C 6D 8H 6S")
    assert [s.total for s in scores] == [0, 0, 3, 0]


@pytest.mark.parametrize(("cards", "points"), [("3C 3D", 2), ("3C 3D 3H", 6), ("3C 3D 3H 3S", 12)])
def test_play_pairs_royals_and_double_royals(cards: str, points: int) -> None:
    scores = pegged(cards)
    assert scores[-1].items[0].kind == PAIR
    assert scores[-1].total == points


def test_play_fifteen_and_pair_together() -> None:
    # 5 + 5 + 5 = 15 with three of a kind: 2 + 6.
    scores = pegged("5C 5D 5H")
    assert item_shapes(scores[2]) == Counter({(FIFTEEN, 2): 1, (PAIR, 6): 1})


def test_play_last_card_at_thirty_one_is_not_a_go() -> None:
    scores = pegged("TC TD TH AS", last=True)
    assert item_shapes(scores[3]) == Counter({(THIRTY_ONE, 2): 1})


def test_score_play_scores_only_the_last_card() -> None:
    assert score_play(parse_cards("7S 8D")).total == 2
    assert score_play(parse_cards("7S 8D 8H")).total == 2


@pytest.mark.parametrize(("cards", "message"), [("", "nothing"), ("5H 5H", "twice"), ("KC QD JH 2S", "31")])
def test_score_play_rejects_impossible_piles(cards: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        score_play(parse_cards(cards))


def test_peg_sequence_names_the_card_that_passes_31() -> None:
    with pytest.raises(ValueError, match="2S would take the count to 32"):
        pegged("KC QD JH 2S")


# ----------------------------------------------------------------------------- against the reference

hands_and_starters = st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=5, unique=True).map(
    lambda cards: (tuple(cards[:4]), cards[4])
)


def check_against_reference(hand: tuple[Card, ...], starter: Card, *, crib: bool) -> None:
    score = score_show(hand, starter, crib=crib)
    reference = reference_show(hand, starter, crib=crib)
    by_kind = points_by_kind(score)
    where = f"{' '.join(map(str, hand))} + {starter} ({'crib' if crib else 'hand'})"
    assert set(by_kind) <= set(KINDS), where
    assert {kind: by_kind.get(kind, 0) for kind in KINDS} == reference, where
    assert score.total == sum(reference.values()), where
    every_card = {*hand, starter}
    for item in score.items:
        assert set(item.cards) <= every_card, where
        assert_item_is_well_formed(item)


def assert_item_is_well_formed(item: ScoreItem) -> None:
    ranks = sorted(int(c.rank) for c in item.cards)
    if item.kind == FIFTEEN:
        assert sum(c.value for c in item.cards) == 15
    elif item.kind == PAIR:
        assert len(item.cards) == 2 and ranks[0] == ranks[1]
    elif item.kind == RUN:
        assert ranks == list(range(ranks[0], ranks[0] + len(ranks)))
        assert item.points == len(item.cards)
    elif item.kind == FLUSH:
        assert len({c.suit for c in item.cards}) == 1
        assert item.points == len(item.cards)
    elif item.kind == NOBS:
        assert item.cards[0].rank == 11 and item.points == 1


@settings(max_examples=2500, deadline=None)
@given(hands_and_starters)
def test_show_matches_reference_as_a_hand(cards: tuple[tuple[Card, ...], Card]) -> None:
    check_against_reference(*cards, crib=False)


@settings(max_examples=2500, deadline=None)
@given(hands_and_starters)
def test_show_matches_reference_as_a_crib(cards: tuple[tuple[Card, ...], Card]) -> None:
    check_against_reference(*cards, crib=True)


def close_ranked_cards(low: int) -> list[Card]:
    return [card for card in FULL_DECK if low <= card.rank < low + 4]


close_hands = st.integers(1, 10).flatmap(
    lambda low: st.lists(st.sampled_from(close_ranked_cards(low)), min_size=5, max_size=5, unique=True)
)


@settings(max_examples=600, deadline=None)
@given(cards=close_hands, crib=st.booleans())
def test_show_matches_reference_on_hands_rich_in_runs_and_pairs(cards: list[Card], crib: bool) -> None:
    """Ranks drawn from four neighbours, so double and triple runs and pairs are common."""
    check_against_reference(tuple(cards[:4]), cards[4], crib=crib)
