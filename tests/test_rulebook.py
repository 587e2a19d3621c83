"""The rulebook is the one rules authority: its fast answers equal the plugins' itemized answers under
every built-in profile, it follows a third-party house rule everywhere it is asked, and games, views
and players share one rulebook per profile."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cribcore import FULL_DECK, Card, Game, load_profile, parse_card, parse_cards
from cribcore.pluginmanager import distribution_versions, plugin_manager, plugin_versions
from cribcore.profiles import BUILTIN_DIRECTORY
from cribcore.rulebook import Rulebook, profile_fingerprint, rulebook_for, standard_rulebook
from cribcore.scoring import PAIR, show_items

from .house_rules import PAIR_POINTS, ten_pairs

__all__ = ["ten_pairs"]

PROFILES = sorted(p.stem for p in BUILTIN_DIRECTORY.glob("*.toml"))


def deals(count: int, size: int, rng: random.Random) -> list[tuple[tuple[Card, ...], Card]]:
    out = []
    for _ in range(count):
        cards = rng.sample(FULL_DECK, size + 1)
        hand = tuple(cards[:size])
        if rng.random() < 1 / 3:
            # Flushes are rare among random hands: deal one suit a third of the time.
            suited = [c for c in FULL_DECK if c.suit == hand[0].suit and c != cards[size]]
            hand = tuple(rng.sample(suited, size))
        out.append((hand, cards[size]))
    return out


def hooked_show(book: Rulebook, hand: tuple[Card, ...], starter: Card, *, crib: bool) -> int:
    hook = plugin_manager(book.profile.plugins, book.profile.options).hook
    results = hook.cribcore_show_items(
        rules=book.rules, cards=tuple(sorted(hand)), starter=starter, crib=crib, seat=0, dealer=0
    )
    return sum(item.points for result in results if result for item in result)


@pytest.mark.parametrize("name", PROFILES)
def test_fast_show_equals_the_hooks_under_every_profile(name: str) -> None:
    book = rulebook_for(load_profile(name))
    rng = random.Random(name)
    for size, crib in ((book.rules.hand_size, False), (book.rules.crib_size, True)):
        for hand, starter in deals(300, size, rng):
            want = hooked_show(book, hand, starter, crib=crib)
            assert book.show_total(hand, starter, crib=crib) == want, (name, hand, starter, crib)
            assert book.show_counter(hand, starter, crib=crib) == want
            items = book.show_items(hand, starter, crib=crib)
            assert sum(item.points for item in items) == want


@pytest.mark.parametrize("name", PROFILES)
def test_answers_match_the_engines_flags_and_hooks(name: str) -> None:
    profile = load_profile(name)
    book = rulebook_for(profile)
    game = Game(profile, seed=3)
    assert game.rulebook is book
    assert game.view(0).rulebook is book
    assert (book.target_wins, book.play_goes_on) == (game.target_wins, game.play_continues)
    assert book.target == profile.rules.target
    assert book.profile_name == profile.name
    seats = profile.rules.seats
    for dealer in range(seats):
        assert sorted(book.counting_order(dealer)) == list(range(seats))
        assert book.counting_order(dealer)[-1] == dealer


def test_standard_profile_is_standard_scoring_and_variants_say_so() -> None:
    assert standard_rulebook().is_standard_scoring
    assert standard_rulebook() is rulebook_for(load_profile())
    assert not rulebook_for(load_profile("flush-with-starter")).is_standard_scoring
    # Structural variants keep the standard count.
    assert rulebook_for(load_profile("five-card")).is_standard_scoring


def test_play_and_starter_answers_are_the_standard_ones() -> None:
    book = standard_rulebook()
    pile = parse_cards("5H 5D 5C")
    assert book.play_points(pile, seat=0, dealer=1) == 6 + 2  # three of a kind and fifteen
    assert [item.kind for item in book.play_items(pile, seat=0, dealer=1)] == ["fifteen", "pair"]
    assert [item.points for item in book.starter_items(parse_card("JH"), dealer=0)] == [2]
    assert book.starter_items(parse_card("QH"), dealer=0) == ()
    assert book.play_continues((1, 1))
    assert not rulebook_for(load_profile("five-card")).play_continues((1, 1))


def test_winning_muggins_and_game_points() -> None:
    book = standard_rulebook()
    assert book.winner((121, 40), 0) == 0
    assert book.winner((120, 40), 0) is None
    assert book.game_points((121, 40), 0) == 1
    assert book.muggins(5, 3) == (3, 0)
    assert not book.declared("hand")
    lowball = rulebook_for(load_profile("lowball"))
    assert not lowball.target_wins
    assert lowball.winner((121, 40), 0) == 1
    assert rulebook_for(load_profile("muggins")).declared("hand")
    assert rulebook_for(load_profile("skunk-match")).game_points((121, 80), 0) == 2


def test_fingerprint_is_stable_and_tells_profiles_apart() -> None:
    standard = load_profile()
    assert profile_fingerprint(standard) == profile_fingerprint(load_profile())
    assert standard_rulebook().fingerprint == profile_fingerprint(standard)
    fingerprints = {rulebook_for(load_profile(name)).fingerprint for name in PROFILES}
    assert len(fingerprints) == len(PROFILES)


def test_the_fingerprint_counts_every_plugin_version_records_only_third_party_ones() -> None:
    from importlib.metadata import version

    names = ("standard", "muggins", "not-installed")
    assert distribution_versions(names) == {
        "standard": version("cribcore"),
        "muggins": version("cribcore"),
        "not-installed": "?",
    }
    assert plugin_versions(names) == {}


def test_a_house_rule_changes_every_answer(ten_pairs: Path) -> None:
    profile = load_profile(ten_pairs)
    book = rulebook_for(profile)
    assert not book.is_standard_scoring
    hand, starter = parse_cards("5H 5D 9C KS"), parse_card("2C")
    standard = sum(item.points for item in show_items(hand, starter))
    assert standard == 6  # two fifteens (each five with the king) and a pair
    assert book.show_total(hand, starter, crib=False) == 4 + PAIR_POINTS
    assert [i.points for i in book.show_items(hand, starter, crib=True) if i.kind == PAIR] == [PAIR_POINTS]


def test_the_engine_scores_a_house_rule_through_the_rulebook(ten_pairs: Path) -> None:
    from .conftest import make_stacked_game

    game = make_stacked_game(
        (("5H 5D 9C KS 2D 3D", "AC 4C 7H 8H JS QS"), "6C"), profile=load_profile(ten_pairs)
    )
    from cribcore.actions import Discard

    game.apply(0, Discard(parse_cards("2D 3D")))
    game.apply(1, Discard(parse_cards("AC 4C")))
    while game.to_act:
        seat = game.to_act[0]
        game.apply(seat, game.legal_actions(seat)[0])
        if any(e.kind == "hand" for e in game.events):
            break
    hands = [e for e in game.events if e.kind == "hand" and e.seat == 0]
    assert hands and any(item.kind == PAIR and item.points == PAIR_POINTS for item in hands[0].items)
