"""The engine's fast paths give exactly what the general definitions give: the play count that knows its
total, show events whose items are worked out when first read, the turn rules of `cribcore.turns` with a
pack's own card values, and discards recognised by identity."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
import pickle
import random

from cribcore import FULL_DECK, Card, parse_cards
from cribcore.actions import Discard
from cribcore.engine import Game
from cribcore.events import Event, lazy_items, make_event
from cribcore.scoring import PLAY_LIMIT, RUN, counted_play_items, play_items, show_items
from cribcore.turns import next_able


def _longest_run(pile: list[Card]) -> int:
    """The longest run ending with the last card, by brute force (0 when none)."""
    for length in range(len(pile), 2, -1):
        ranks = sorted(card.rank for card in pile[-length:])
        if all(b - a == 1 for a, b in itertools.pairwise(ranks)):
            return length
    return 0


def test_the_play_count_that_knows_its_total_scores_as_play_items() -> None:
    rng = random.Random(15)
    piles = 0
    for _ in range(400):
        pack = list(FULL_DECK)
        rng.shuffle(pack)
        # Low cards first half the time, so that runs and long counts are common.
        if rng.random() < 0.5:
            pack.sort(key=lambda card: (card.rank > 6, rng.random()))
        pile: list[Card] = []
        count = 0
        for card in pack:
            if count + card.value > PLAY_LIMIT:
                break
            pile.append(card)
            count += card.value
            items = counted_play_items(pile, count)
            assert items == play_items(pile)
            runs = [item.points for item in items if item.kind == RUN]
            assert runs == ([_longest_run(pile)] if _longest_run(pile) and pile[-2].rank != card.rank else [])
            piles += 1
    assert piles > 2000


def test_show_items_read_late_are_the_itemized_count_and_serialize_the_same() -> None:
    game = Game(seed=7)
    rng = random.Random(7)
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    shows = [event for event in game.events if event.kind in ("hand", "crib")]
    assert shows
    for event in shows:
        text = json.dumps(event.to_json())
        starter = next(e.cards[0] for e in game.events if e.kind == "starter" and e.deal == event.deal)
        expected = show_items(event.cards, starter, crib=event.kind == "crib")
        assert event.items == expected
        assert event.points == sum(item.points for item in expected)
        eager = Event(**{f.name: getattr(event, f.name) for f in dataclasses.fields(Event)})
        assert eager == event and hash(eager) == hash(event) and repr(eager) == repr(event)
        assert json.dumps(eager.to_json()) == text


def test_an_event_with_late_items_copies_pickles_and_replaces_as_its_items() -> None:
    hand, starter = parse_cards("5H 5D 5C JS"), parse_cards("5S")[0]
    eager = Event("hand", 0, 1, hand, 29, show_items(hand, starter), (29, 0), scored=True)

    def late() -> Event:
        items = lazy_items(show_items, hand, starter, crib=False)
        return make_event("hand", 0, 1, hand, 29, items, (29, 0), None, True)

    assert late() == eager
    assert pickle.loads(pickle.dumps(late())) == eager
    assert copy.copy(late()) == eager
    assert dataclasses.replace(late(), note="x") == dataclasses.replace(eager, note="x")
    assert dataclasses.asdict(late()) == dataclasses.asdict(eager)
    assert late().to_json() == eager.to_json()


def test_next_able_reads_a_packs_own_card_values() -> None:
    king, queen = (card.index for card in parse_cards("KS QS"))
    # A pack where the king of spades counts 0 (as a plugin's extra card may): at 31 it still fits.
    values = [card.value for card in FULL_DECK]
    values[king] = 0
    assert next_able([[queen], [king]], 1, 31, values) == 1
    assert next_able([[queen], [king]], 1, 31) is None


def test_a_discard_equal_to_a_listed_one_but_not_it_is_still_applied() -> None:
    game = Game(seed=3)
    seat = game.to_act[0]
    listed = game.legal_actions(seat)[0]
    assert isinstance(listed, Discard)
    twin = Discard(tuple(reversed(listed.cards)))
    assert twin == listed and twin is not listed
    events = game.apply(seat, twin)
    assert events[0].kind == "discard" and events[0].cards == listed.cards


def test_a_deals_shuffle_and_starter_draw_are_randoms_own_for_every_length() -> None:
    """The shuffle's kept steps and the starter's draw (`cribcore.deals`) give `random.Random.shuffle`'s
    order and `randrange`'s number, and leave the generator in the same state, lists of any length."""
    from cribcore.deals import _draw_below, shuffle

    for seed in range(60):
        for length in (0, 1, 2, 3, 17, 40, 52, 53, 300):
            mine, theirs = list(range(length)), list(range(length))
            first, second = random.Random(seed), random.Random(seed)
            shuffle(first, mine)
            second.shuffle(theirs)
            assert mine == theirs
            if length:
                assert _draw_below(first, length) == second.randrange(length)
            assert first.getstate() == second.getstate()


def test_listed_discards_are_the_discards_their_cards_make() -> None:
    """The engine builds its shared discards without `Discard`'s sorting (their cards are in order
    already): each equals, hashes and prints as the discard made the ordinary way."""
    from cribcore.profiles import load_profile

    for profile_name in ("standard", "three-players", "five-card"):
        game = Game(load_profile(profile_name), seed=3)
        for seat in game.to_act:
            for action in game.legal_actions(seat):
                assert isinstance(action, Discard)
                plain = Discard(tuple(reversed(action.cards)))
                assert action == plain and hash(action) == hash(plain) and str(action) == str(plain)
                assert list(action.cards) == sorted(action.cards)
