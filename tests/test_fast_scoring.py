"""The fast show total (`cribcore.scoring.show_total`): the same number as the itemized count and as the
brute-force reference scorer, for hands and cribs of every size and every flush rule, and the same as
the engine's show under every built-in profile."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Sequence

import pytest

from cribcore import FULL_DECK, Card, parse_card, parse_cards, score_show
from cribcore.pluginmanager import plugin_manager
from cribcore.profiles import BUILTIN_DIRECTORY, load_profile
from cribcore.scoring import FLUSH, show_items, show_total
from cribcore.stats import flush_rules
from tests.reference_scorer import reference_show

FLUSH_RULES = [(False, True), (True, True), (False, False), (True, False)]
"""(hand_flush_needs_starter, crib_flush_needs_starter): standard first."""


def deals(count: int, size: int, seed: int) -> list[tuple[tuple[Card, ...], Card]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        cards = rng.sample(FULL_DECK, size + 1)
        out.append((tuple(cards[:size]), cards[size]))
    return out


def expected_total(
    hand: Sequence[Card], starter: Card, *, crib: bool, hand_needs_starter: bool, crib_needs_starter: bool
) -> int:
    """The reference scorer's count, with the flush re-decided here under the given rules."""
    points = reference_show(hand, starter, crib=crib)
    points["flush"] = 0
    if len(hand) >= 3 and len({card.suit for card in hand}) == 1:  # one or two cards are no flush
        if starter.suit == hand[0].suit:
            points["flush"] = len(hand) + 1
        elif not (crib_needs_starter if crib else hand_needs_starter):
            points["flush"] = len(hand)
    return sum(points.values())


def test_agrees_with_the_reference_on_many_hands_and_cribs() -> None:
    for i, (hand, starter) in enumerate(deals(12_000, 4, seed=6)):
        crib = i % 2 == 1
        assert show_total(hand, starter, crib=crib) == expected_total(
            hand, starter, crib=crib, hand_needs_starter=False, crib_needs_starter=True
        ), (hand, starter, crib)


@pytest.mark.parametrize("size", [1, 2, 3, 5, 6])
@pytest.mark.parametrize(("hand_rule", "crib_rule"), FLUSH_RULES)
def test_agrees_with_the_reference_for_every_size_and_flush_rule(
    size: int, hand_rule: bool, crib_rule: bool
) -> None:
    for i, (hand, starter) in enumerate(deals(600, size, seed=size)):
        crib = i % 2 == 1
        got = show_total(
            hand, starter, crib=crib, hand_flush_needs_starter=hand_rule, crib_flush_needs_starter=crib_rule
        )
        want = expected_total(
            hand, starter, crib=crib, hand_needs_starter=hand_rule, crib_needs_starter=crib_rule
        )
        assert got == want, (hand, starter, crib)


@pytest.mark.parametrize(("hand_rule", "crib_rule"), FLUSH_RULES)
def test_equals_the_itemized_total(hand_rule: bool, crib_rule: bool) -> None:
    rules = {"hand_flush_needs_starter": hand_rule, "crib_flush_needs_starter": crib_rule}
    for size in range(1, 7):
        for i, (hand, starter) in enumerate(deals(400, size, seed=100 + size)):
            crib = i % 2 == 0
            itemized = sum(item.points for item in show_items(hand, starter, crib=crib, **rules))
            assert show_total(hand, starter, crib=crib, **rules) == itemized
            assert score_show(hand, starter, crib=crib, **rules).total == itemized


@pytest.mark.parametrize("name", sorted(p.stem for p in BUILTIN_DIRECTORY.glob("*.toml")))
def test_agrees_with_the_engines_show_under_every_profile(name: str) -> None:
    profile = load_profile(name)
    rules = flush_rules(profile)
    hook = plugin_manager(profile.plugins, profile.options).hook
    for size, crib in ((profile.rules.hand_size, False), (profile.rules.crib_size, True)):
        # Flushes are rare among random hands: deal one-suit hands a third of the time.
        rng = random.Random(f"{name}/{crib}")
        for hand, starter in deals(1_500, size, seed=rng.randrange(2**32)):
            if rng.random() < 1 / 3:
                suited = [c for c in FULL_DECK if c.suit == hand[0].suit and c != starter]
                hand = tuple(rng.sample(suited, size))
            results = hook.cribcore_show_items(
                rules=profile.rules, cards=hand, starter=starter, crib=crib, seat=0, dealer=0 if crib else 1
            )
            engine = sum(item.points for result in results if result for item in result)
            fast = show_total(
                hand,
                starter,
                crib=crib,
                hand_flush_needs_starter=rules.hand_needs_starter,
                crib_flush_needs_starter=rules.crib_needs_starter,
            )
            assert fast == engine, (name, hand, starter, crib)


@pytest.mark.parametrize(
    ("hand", "starter", "rules", "crib", "flush"),
    [
        ("4H 6H 8H TH", "KS", {}, False, 4),
        ("4H 6H 8H TH", "KS", {"hand_flush_needs_starter": True}, False, 0),
        ("4H 6H 8H TH", "KH", {"hand_flush_needs_starter": True}, False, 5),
        ("4H 6H 8H TH", "KS", {}, True, 0),
        ("4H 6H 8H TH", "KS", {"crib_flush_needs_starter": False}, True, 4),
        ("4H 6H 8H TH", "KH", {"crib_flush_needs_starter": False}, True, 5),
        # docs/rules.md: five-card hands of three, seven-card hands of five.
        ("4H 8H TH", "KS", {}, False, 3),
        ("4H 8H TH", "KH", {}, False, 4),
        ("2H 4H 8H TH QH", "KS", {}, False, 5),
        ("2H 4H 8H TH QH", "KH", {}, False, 6),
    ],
)
def test_flush_rules(hand: str, starter: str, rules: dict[str, bool], crib: bool, flush: int) -> None:
    cards, cut = parse_cards(hand), parse_card(starter)
    items = show_items(cards, cut, crib=crib, **rules)
    assert sum(item.points for item in items if item.kind == FLUSH) == flush
    assert [item.kind for item in items] == [FLUSH] * (flush > 0)
    assert show_total(cards, cut, crib=crib, **rules) == flush


def test_flush_item_lists_the_hand_then_the_starter() -> None:
    (item,) = show_items(parse_cards("TH 4H 8H 6H"), parse_card("KH"))
    assert item.cards == parse_cards("4H 6H 8H TH KH")


def test_nothing_is_built_at_import() -> None:
    code = (
        "import cribcore, cribcore.scoring as s, cribcore.stats, cribcore.simulate;"
        "assert not s._RANK_TOTALS and s._rank_patterns.cache_info().currsize == 0"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
