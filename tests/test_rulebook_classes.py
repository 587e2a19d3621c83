"""Show totals kept by class (`cribcore.rulebook`): when every plugin that changes the show declares
``cribcore_show_suits_as_standard``, hands of the same ranks, starter rank and class (flush with the
starter's suit, flush of another, the jack of the starter's suit, none) are counted by the hooks once,
and every total is still the sum of the items the hooks give; without the declaration, or when one
show plugin does not make it, every hand is asked of the hooks."""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Sequence
from dataclasses import replace

import pytest

from cribcore.cards import FULL_DECK, Card, parse_cards
from cribcore.cli.main import main
from cribcore.hookspecs import hookimpl
from cribcore.plugincheck import check_show_classes
from cribcore.pluginmanager import PluginError
from cribcore.profiles import resolved_profile
from cribcore.rulebook import Rulebook
from cribcore.scoring import PAIR, ScoreItem
from cribcore.testing import registered

from .house_rules import four_suits_items


class DoublePairs:
    """Every pair in the show scores 4; counts the show hook's calls; declares as told."""

    def __init__(self, declares: bool | None) -> None:
        self.declares = declares
        self.calls = 0

    @hookimpl(wrapper=True)
    def cribcore_show_items(
        self,
    ) -> Generator[None, list[Sequence[ScoreItem] | None], list[Sequence[ScoreItem] | None]]:
        self.calls += 1
        results = yield
        return [
            [replace(item, points=4) if item.kind == PAIR else item for item in result or ()]
            for result in results
        ]

    @hookimpl
    def cribcore_show_suits_as_standard(self) -> bool | None:
        return self.declares


class FourSuits:
    """2 for a hand and starter holding all four suits: it sees suits, and declares nothing."""

    @hookimpl
    def cribcore_show_items(self, cards: tuple[Card, ...], starter: Card) -> Sequence[ScoreItem]:
        return four_suits_items(cards, starter)


def book_of(plugin: DoublePairs, *, with_four_suits: bool = False) -> Rulebook:
    with registered("double-pairs", plugin), registered("four-suits-test", FourSuits()):
        plugins = ["double-pairs", "four-suits-test"] if with_four_suits else ["double-pairs"]
        return Rulebook(resolved_profile({"name": "double-pairs", "plugins": plugins}, "a test profile"))


def hand(text: str) -> tuple[tuple[Card, ...], Card]:
    cards = parse_cards(text)
    return cards[:-1], cards[-1]


def test_a_class_is_counted_by_the_hooks_once() -> None:
    plugin = DoublePairs(True)
    book = book_of(plugin)
    # The same ranks, the starter's rank, no flush and no jack: one class, whatever the suits.
    first = book.show_total(*hand("5H 5D 6C 7S 8H"), crib=False)
    asked = plugin.calls
    # 7-8 is fifteen (2), a double run of four (8), the pair of fives 4 here.
    assert book.show_total(*hand("5C 5S 6D 7H 8C"), crib=False) == first == 2 + 8 + 4
    assert plugin.calls == asked
    # Another class of the same ranks (nobs, a flush) is asked of the hooks.
    book.show_total(*hand("JH 2H 3C 4H KH"), crib=False)
    asked = plugin.calls
    # J-2-3 and 2-3-K are fifteens (4), 2-3-4 a run (3), and nobs (1).
    assert book.show_total(*hand("JS 2H 3C 4H KS"), crib=False) == 4 + 3 + 1
    assert plugin.calls == asked
    assert book.show_total(*hand("JS 2S 3S 4S KS"), crib=True) == 4 + 3 + 1 + 5
    assert plugin.calls == asked + 1


def test_totals_by_class_are_the_hooks_totals() -> None:
    book = book_of(DoublePairs(True))
    rng = random.Random(32)
    for _ in range(3000):
        dealt = rng.sample(FULL_DECK, 5)
        crib, seat = rng.random() < 0.5, rng.randrange(2)
        items = book.show_items(dealt[:4], dealt[4], crib=crib, seat=seat)
        assert book.show_total(dealt[:4], dealt[4], crib=crib, seat=seat) == sum(i.points for i in items)
    cards = rng.sample(FULL_DECK, 4)
    starters = [card for card in FULL_DECK if card not in cards]
    assert book.show_totals(cards, starters, crib=False) == [
        book.show_total(cards, starter, crib=False) for starter in starters
    ]


def test_without_the_declaration_every_hand_is_asked() -> None:
    for plugin, with_four_suits in ((DoublePairs(None), False), (DoublePairs(True), True)):
        book = book_of(plugin, with_four_suits=with_four_suits)
        book.show_total(*hand("5H 5D 6C 7S 8H"), crib=False)
        asked = plugin.calls
        book.show_total(*hand("5C 5S 6D 7H 8C"), crib=False)
        assert plugin.calls == asked + 1


def test_four_suits_is_counted_hand_by_hand() -> None:
    plugin = DoublePairs(True)
    book = book_of(plugin, with_four_suits=True)
    # All four suits score 2 more; the same ranks in three suits do not: no class may merge them.
    assert book.show_total(*hand("5H 5D 6C 7S 8H"), crib=False) == 2 + 8 + 4 + 2
    assert book.show_total(*hand("5H 5D 6C 7H 8H"), crib=False) == 2 + 8 + 4


class FalselyDeclared:
    """Declares that it sees suits only as the standard count does, but scores what it says it does not."""

    def __init__(self, items: Callable[[Sequence[Card], Card], list[ScoreItem]]) -> None:
        self.items = items

    @hookimpl
    def cribcore_show_items(self, cards: tuple[Card, ...], starter: Card) -> Sequence[ScoreItem]:
        return self.items(cards, starter)

    @hookimpl
    def cribcore_show_suits_as_standard(self) -> bool:
        return True


def hearts(cards: Sequence[Card], starter: Card) -> list[ScoreItem]:
    """1 for every heart in the hand and starter: a suit of its own."""
    shown = [card for card in (*cards, starter) if card.suit.name == "HEARTS"]
    return [ScoreItem("hearts", tuple(shown), len(shown))] if shown else []


def three_of_a_suit(cards: Sequence[Card], starter: Card) -> list[ScoreItem]:
    """3 when three cards of the hand share a suit: suits beyond the flush's all-or-nothing."""
    suits = [card.suit for card in cards]
    return [ScoreItem("three suited", tuple(cards), 3)] if max(map(suits.count, suits)) == 3 else []


class TestTheDeclarationIsChecked:
    """`plugins --check` and `profiles validate` try a declaration on seeded hands (`check_show_classes`)."""

    @pytest.mark.parametrize("items", [hearts, three_of_a_suit])
    def test_a_false_declaration_is_one_line_naming_two_hands(
        self, items: Callable[[Sequence[Card], Card], list[ScoreItem]]
    ) -> None:
        with registered("liar", FalselyDeclared(items)):
            profile = resolved_profile({"name": "liar", "plugins": ["liar"]}, "a test profile")
            with pytest.raises(PluginError) as caught:
                check_show_classes(profile)
        message = str(caught.value)
        assert "\n" not in message
        assert message.startswith("plugin 'liar': cribcore_show_suits_as_standard declares that the show")
        assert " scores " in message

    def test_a_true_declaration_passes(self) -> None:
        with registered("double-pairs", DoublePairs(True)):
            check_show_classes(resolved_profile({"name": "d", "plugins": ["double-pairs"]}, "a test profile"))

    def test_plugins_check_reports_it(self, capsys: pytest.CaptureFixture[str]) -> None:
        with registered("liar", FalselyDeclared(hearts)):
            assert main(["plugins", "--check", "liar"]) == 1
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1
        assert "cribcore_show_suits_as_standard" in err
