"""Per-seat views never hold another seat's hidden cards.

The check walks the whole `SeatView` (every dataclass field, tuple, event, score item and action) and
collects every `Card` with the deal it belongs to. The hidden set of a deal, for a seat, is computed from
the game's full state: every card except the seat's own dealt cards and the cards made public by then
(cards laid, the starter once turned, hands and the crib once shown). Cards cut for deal are public.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from cribcore import FULL_DECK, Card, Discard, Game, Play, Profile, RuleSet, SeatView, parse_card, parse_cards
from cribcore.events import Event
from cribcore.profiles import builtin_names, load_profile

StackedGame = Callable[..., Game]
CUT = -1
"""The context of cards cut for deal, which everyone sees."""

RANDOM_GAMES = 250
LOW_TARGET_GAMES = 150
PROFILE_GAMES = 15


def cards_in(value: Any) -> Iterator[Card]:
    """Every card anywhere inside ``value``; fails on a type the walk does not know."""
    if isinstance(value, Card):
        yield value
    elif value is None or isinstance(value, str | int | float | enum.Enum):
        return
    elif isinstance(value, tuple | list | set | frozenset):
        for element in value:
            yield from cards_in(element)
    elif isinstance(value, dict):
        for key, element in value.items():
            yield from cards_in(key)
            yield from cards_in(element)
    elif isinstance(value, BaseModel):
        yield from cards_in(value.model_dump())
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from cards_in(getattr(value, field.name))
    else:
        raise TypeError(f"a view holds a {type(value).__name__}, which this walk does not know")


def event_context(event: Event) -> int:
    return CUT if event.kind == "cut" else event.deal


def cards_by_deal(view: SeatView, events: tuple[Event, ...]) -> Iterator[tuple[int, Card]]:
    """Cards in the view's fields other than events (which belong to the current deal) and in
    ``events`` (each belonging to its own deal)."""
    for field in dataclasses.fields(view):
        if field.name != "events":
            for card in cards_in(getattr(view, field.name)):
                yield view.deal, card
    for event in events:
        for card in cards_in(event):
            yield event_context(event), card


def hidden_cards(game: Game, seat: int, deal: int) -> set[Card]:
    """What ``seat`` may not know of ``deal`` now, computed from the game's full state."""
    if deal == CUT:
        return set()
    log = game.deal_logs()[deal]
    events = [event for event in game.events if event.deal == deal]
    public = set(log.plays)
    if any(event.kind == "starter" for event in events):
        public.add(log.starter)
    for event in events:
        if event.kind == "hand":
            assert event.seat is not None
            public |= set(log.hands[event.seat]) - set(log.discards[event.seat] or ())
        if event.kind == "crib":
            public |= {card for cards in log.discards if cards for card in cards}
            public |= set(log.crib_cards)
    return set(FULL_DECK) - set(log.hands[seat]) - public


def leaks(game: Game, view: SeatView, events: tuple[Event, ...]) -> list[str]:
    """The hidden cards ``view`` (with ``events``) shows, as text naming the deal."""
    hidden: dict[int, set[Card]] = {}
    found = []
    for deal, card in cards_by_deal(view, events):
        if deal not in hidden:
            hidden[deal] = hidden_cards(game, view.seat, deal)
        if card in hidden[deal]:
            found.append(f"{card} of deal {deal}")
    return found


class ViewWatch:
    """Checks every seat's view after each action; old events are checked once, when they appear,
    and must never change afterwards (a card's hidden set only shrinks within a deal)."""

    def __init__(self, game: Game, label: str) -> None:
        self.game = game
        self.label = label
        self.seen: list[tuple[Event, ...]] = [() for _ in range(game.rules.seats)]
        self.after_action()

    def after_action(self) -> None:
        for seat in range(self.game.rules.seats):
            view = self.game.view(seat)
            old = self.seen[seat]
            assert view.events[: len(old)] == old, f"{self.label}: seat {seat}'s past events changed"
            found = leaks(self.game, view, view.events[len(old) :])
            where = f"{self.label}, seat {seat}, deal {view.deal}, phase {view.phase}"
            assert not found, f"{where}: the view shows hidden cards {found}"
            self.seen[seat] = view.events

    def at_end(self) -> None:
        for seat in range(self.game.rules.seats):
            view = self.game.view(seat)
            found = leaks(self.game, view, view.events)
            assert not found, f"{self.label}, seat {seat} at the end: hidden cards {found}"


def watched_game(game: Game, seed: int, label: str) -> Game:
    rng = random.Random(seed)
    watch = ViewWatch(game, label)
    while game.to_act:
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        watch.after_action()
    watch.at_end()
    return game


def test_no_view_shows_hidden_cards_in_random_games() -> None:
    for seed in range(RANDOM_GAMES):
        game = watched_game(Game(seed=seed), seed, f"seed {seed}")
        assert game.is_over


def test_no_view_shows_hidden_cards_when_games_end_early() -> None:
    """Low targets end games mid-play and mid-show, with cards still hidden at the end."""
    for seed in range(LOW_TARGET_GAMES):
        target = 1 + seed % 30
        profile = Profile(name="short", rules=RuleSet(target=target))
        game = watched_game(Game(profile, seed=seed), seed, f"seed {seed}, target {target}")
        assert game.is_over


@pytest.mark.parametrize("name", builtin_names())
def test_no_view_shows_hidden_cards_under_any_profile(name: str) -> None:
    profile = load_profile(name)
    for seed in range(PROFILE_GAMES):
        game = watched_game(Game(profile, seed=seed), seed, f"profile {name}, seed {seed}")
        assert game.is_over


# ----------------------------------------------------------------------------- the checker itself


def test_walk_finds_cards_everywhere_in_a_view() -> None:
    game = Game(seed=3)
    game.apply(0, game.legal_actions(0)[0])
    discarded = game.view(0)
    assert set(discarded.hand) | set(discarded.discarded) <= set(cards_in(discarded))
    waiting = game.view(1)
    in_actions = {card for action in waiting.legal_actions for card in cards_in(action)}
    assert in_actions == set(waiting.hand)


def test_checker_reports_a_card_leaked_into_a_field() -> None:
    game = Game(seed=3)
    view = game.view(0)
    opponents = game.view(1).hand
    leaky = dataclasses.replace(view, pile=((1, opponents[0]),))
    assert leaks(game, leaky, leaky.events) == [f"{opponents[0]} of deal 0"]


def test_checker_reports_an_unredacted_private_event() -> None:
    game = Game(seed=3)
    dealt = next(e for e in game.events if e.kind == "dealt" and e.seat == 1)
    view = game.view(0)
    assert len(leaks(game, view, (*view.events, dealt))) == 6


def test_checker_allows_cut_cards_and_shown_hands() -> None:
    game = Game(seed=4)
    rng = random.Random(4)
    while game.deal_number == 0:
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    view = game.view(0)
    shown = [e for e in view.events if e.kind in ("hand", "crib", "cut")]
    assert shown
    assert leaks(game, view, view.events) == []


# ----------------------------------------------------------------------------- what a view shows


def test_other_seats_dealt_and_discard_events_lose_their_cards() -> None:
    game = Game(seed=8)
    for seat in (0, 1):
        game.apply(seat, game.legal_actions(seat)[0])
    view = game.view(0)
    mine = [e for e in view.events if e.kind in ("dealt", "discard") and e.seat == 0]
    theirs = [e for e in view.events if e.kind in ("dealt", "discard") and e.seat == 1]
    assert [len(e.cards) for e in mine] == [6, 2]
    assert [(e.cards, e.items) for e in theirs] == [((), ()), ((), ())]
    assert len(game.events) == len(view.events)


def test_view_holds_the_seats_own_cards() -> None:
    game = Game(seed=8)
    dealt = next(e for e in game.events if e.kind == "dealt" and e.seat == 1).cards
    action = game.legal_actions(1)[0]
    assert isinstance(action, Discard)
    game.apply(1, action)
    view = game.view(1)
    assert view.discarded == action.cards
    assert set(view.hand) | set(view.discarded) == set(dealt)
    assert view.kept == view.hand
    assert view.held == (6, 4)
    assert view.crib_size == 2
    assert view.starter is None
    assert view.legal_actions == ()
    assert game.view(0).legal_actions


def test_starter_is_hidden_until_every_seat_has_discarded() -> None:
    game = Game(seed=12)
    starter = game.deal_logs()[0].starter
    game.apply(0, game.legal_actions(0)[0])
    assert starter not in set(cards_in(game.view(0))) | set(cards_in(game.view(1)))
    game.apply(1, game.legal_actions(1)[0])
    assert game.view(0).starter == starter
    assert game.view(1).starter == starter


def test_after_a_win_in_the_play_the_opponents_cards_stay_hidden(stacked: StackedGame) -> None:
    game = stacked((("TC KD 8S 7S 6C 6D", "5H 9H AC 3C 2H 2D"), "4S"), dealer=0, rules=RuleSet(target=2))
    game.apply(0, Discard(parse_cards("6C 6D")))
    game.apply(1, Discard(parse_cards("2H 2D")))
    game.apply(1, Play(parse_card("5H")))
    game.apply(0, Play(parse_card("TC")))
    assert game.is_over
    dealer_sees = set(cards_in(game.view(0)))
    pone_sees = set(cards_in(game.view(1)))
    assert dealer_sees.isdisjoint(parse_cards("9H AC 3C 2H 2D"))
    assert pone_sees.isdisjoint(parse_cards("KD 8S 7S 6C 6D"))
    assert parse_card("TC") in pone_sees


def test_view_of_a_seat_that_does_not_exist_is_refused() -> None:
    with pytest.raises(ValueError, match="no seat 2"):
        Game(seed=1).view(2)
