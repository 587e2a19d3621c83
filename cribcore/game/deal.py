"""The deal, the discard and the starter: a deal's cards handed out, each seat's discard listed, checked
and applied, and the starter turned once every seat has discarded (then the play begins).

A six-card standard hand's fifteen discards are shared `Discard` objects read from a table by card
index (`list_discards`): the general listing makes the same objects in the same order, the table only
spares building them again.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from operator import attrgetter
from typing import Any

from ..actions import Action, BadDiscard, CardNotHeld, Discard, NotYourTurn, WrongPhase
from ..cards import STANDARD_CARDS, Card, format_cards
from ..deals import DealCards
from ..events import make_event, unguarded
from ..turns import CARD_VALUE
from .state import DISCARD, WAITING, GameState, by_index

__all__ = [
    "check_discard",
    "checked_discards",
    "clear_deal",
    "discard",
    "discard_of",
    "discard_refusal",
    "is_listed_discard",
    "list_discards",
    "start_deal",
]

_DiscardSlots = unguarded(Discard)
_new = object.__new__

_DISCARDS: dict[int, Discard] = {}
"""One shared `Discard` per set of cards (actions are immutable values), so listing legal discards
builds nothing; keyed by the set's bits of `Card.index` (equal cards have equal indexes, so equal keys
mean equal discards)."""

_PAIR_ROWS: list[list[Discard | None]] = [[None] * STANDARD_CARDS for _ in range(STANDARD_CARDS)]
"""The shared two-card `Discard` of standard cards by their indexes, lower first (``None`` until made):
a six-card hand's fifteen discards are read straight from it."""

cards_of = attrgetter("cards")
"""An action's ``cards`` read as they are: a compiled engine (docs/speed.md) would check a plain read
against the declared tuple and raise `TypeError` for a malformed action, before the engine refuses it."""


def _pair_of(first: Card, second: Card) -> Discard:
    """``discard_of((first, second))`` without the loop (the standard discard is two cards)."""
    action = _DISCARDS.get((1 << first.index) | (1 << second.index))
    return action if action is not None else discard_of((first, second))


def discard_of(cards: tuple[Card, ...]) -> Discard:
    """The shared `Discard` of ``cards``, which are already in `Card` order."""
    key = 0
    for card in cards:
        key |= 1 << card.index
    action = _DISCARDS.get(key)
    if action is None:
        if len(_DISCARDS) >= 1 << 16:
            _DISCARDS.clear()
        # Built by plain assignment (see `cribcore.events.unguarded`): ``Discard(cards)`` would sort
        # cards that are already in order, and a game's first deals make hundreds of discards.
        made = _new(_DiscardSlots)
        made.cards = cards
        made.__class__ = Discard
        action = _DISCARDS[key] = made
    if len(cards) == 2:
        low, high = cards[0].index, cards[1].index
        if low < high < STANDARD_CARDS:
            _PAIR_ROWS[low][high] = action
    return action


def list_discards(game: GameState, seat: int) -> tuple[Action, ...]:
    """Every discard of ``seat``'s hand when no plugin may refuse one: the same all deal long, so
    listed once (shared objects, which `apply` recognizes by identity: see `is_listed_discard`)."""
    hand = game._hands[seat]
    need = game.rules.discards
    choices: Sequence[Action]
    held = game._held[seat]
    if need == 2 and len(held) == 6 and held[5] < STANDARD_CARDS:
        # The standard deal's fifteen pairs, in `combinations` order, when every one was made before.
        a, b, c, d, e, f = held
        rows = _PAIR_ROWS
        ra, rb, rc, rd, r_e = rows[a], rows[b], rows[c], rows[d], rows[e]
        # Typed loosely so that, every entry made, it is the choices as it is (no `typing.cast` call).
        # fmt: off
        found: Any = (
            ra[b], ra[c], ra[d], ra[e], ra[f], rb[c], rb[d], rb[e], rb[f],
            rc[d], rc[e], rc[f], rd[e], rd[f], r_e[f],
        )
        # fmt: on
        choices = found if all(found) else [_pair_of(x, y) for x, y in combinations(hand, 2)]
    elif need == 2:
        choices = [_pair_of(x, y) for x, y in combinations(hand, 2)]
    else:
        choices = [discard_of(cards) for cards in combinations(hand, need)]
    known = game._discard_choices[seat] = tuple(choices)
    return known


def checked_discards(game: GameState, seat: int) -> tuple[Action, ...]:
    """Every discard of ``seat``'s hand that the plugins allow (asked of each, so never kept)."""
    return tuple(
        discard_of(cards)
        for cards in combinations(game._hands[seat], game.rules.discards)
        if discard_refusal(game, seat, cards) is None
    )


def is_listed_discard(game: GameState, seat: int, action: Action) -> bool:
    """Whether ``action`` is one of the discards `list_discards` listed for ``seat``, whose hand is as
    it was then: the shared `Discard` of the right number of held cards. Told by identity, so `apply`
    takes it without the general checks."""
    if type(action) is not Discard:
        return False
    # Read untyped: a malformed discard's cards may be anything (see `cards_of`).
    cards: object = cards_of(action)
    if type(cards) is not tuple or len(cards) != game.rules.discards:
        return False
    held = game._held[seat]
    key = 0
    for card in cards:
        if type(card) is not Card or card.index not in held:
            return False
        key |= 1 << card.index
    return _DISCARDS.get(key) is action


def discard_refusal(game: GameState, seat: int, cards: tuple[Card, ...]) -> str | None:
    """Why the plugins refuse ``seat``'s discard of ``cards``, or ``None``."""
    assert game._cards is not None
    return game.rulebook.check_discard(game._cards.hands[seat], cards, dealer=game._dealer, seat=seat)


def check_discard(game: GameState, seat: int, action: Discard) -> None:
    """Raise the `IllegalAction` that ``seat``'s discard ``action`` would meet, or return."""
    if game._phase is not DISCARD:
        raise WrongPhase("the discard is over; play a card")
    if game._discards[seat] is not None:
        raise NotYourTurn("you have already discarded")
    need = game.rules.discards
    cards = action.cards
    if len(cards) != need:
        raise BadDiscard(f"discard exactly {need} card{'s' if need != 1 else ''}, not {len(cards)}")
    if len(set(cards)) != len(cards):
        raise BadDiscard(f"a card is named twice in {format_cards(cards)}")
    missing = [card for card in cards if card not in game._hands[seat]]
    if missing:
        raise CardNotHeld(f"you do not hold {format_cards(missing)}")
    reason = discard_refusal(game, seat, cards)
    if reason is not None:
        raise BadDiscard(reason)


def clear_deal(game: GameState, seats: int) -> None:
    """Empty the fields of a deal that the deal's cards do not set: no discard, no card laid, no claim."""
    game._hand_plays = [()] * seats
    game._discard_choices = [None] * seats
    game._kept = [()] * seats
    game._discards = [None] * seats
    game._discard_order = []
    game._starter_shown = False
    game._plays = []
    game._laid = [[] for _ in range(seats)]
    game._pile = []
    game._pile_cards = []
    game._count = 0
    game._said_go = set()
    game._to_play = None
    game._claims = []


def start_deal(game: GameState) -> None:
    """Deal the next deal's cards (or wait, when the source has no more deals)."""
    index = game._deal_index + 1
    cards = game._source.deal(index, game._dealer, game.rules)
    if cards is None:
        game._phase = WAITING
        return
    seats = game.rules.seats
    game._deal_index = index
    game._cards = cards
    # Kept in `Card` order, so legal actions and views need no sorting.
    game._hands = hands = [sorted(hand, key=by_index) for hand in cards.hands]
    game._held = [list(map(by_index, hand)) for hand in hands]
    if not game._seeded_standard:
        # Any source's cards may include extras (jokers): their count values are looked up too.
        _value_table(game, cards)
    clear_deal(game, seats)
    game._to_discard = tuple(range(seats))
    game._crib = list(cards.crib_cards)
    game._phase = DISCARD
    events = game._events
    events.append(make_event("deal", index, game._dealer))
    for seat, hand in enumerate(hands):
        events.append(make_event("dealt", index, seat, tuple(hand), 0, (), (), None, False, seat))
    if game.rules.discards == 0:
        for seat in range(seats):
            game._discards[seat] = ()
            game._to_discard = ()
            game._kept[seat] = tuple(game._hands[seat])
        _turn_starter(game)


def _value_table(game: GameState, cards: DealCards) -> None:
    """Count values by card index that cover this deal's extra cards (a plugin's jokers)."""
    dealt = [card for hand in cards.hands for card in hand]
    size = max([STANDARD_CARDS, *(card.index + 1 for card in dealt)])
    values = list(CARD_VALUE) + [0] * (size - STANDARD_CARDS)
    for card in dealt:
        values[card.index] = card.value
    game._values = values
    game._top_value = max(values)


def discard(game: GameState, seat: int, cards: tuple[Card, ...]) -> None:
    """Apply ``seat``'s (checked) discard of ``cards``; the last one turns the starter."""
    hand = game._hands[seat]
    held = game._held[seat]
    for card in cards:
        at = held.index(card.index)
        del held[at]
        del hand[at]
    game._kept[seat] = tuple(hand)
    game._discards[seat] = cards
    # The other seats still to discard (`filter` in C, where a comprehension makes a frame).
    game._to_discard = to_come = tuple(filter(seat.__ne__, game._to_discard))
    game._discard_order.append(seat)
    game._crib.extend(cards)
    event = make_event("discard", game._deal_index, seat, cards, 0, (), (), None, False, seat)
    game._events.append(event)
    if not to_come:
        _turn_starter(game)


def _turn_starter(game: GameState) -> None:
    assert game._cards is not None
    starter = game._cards.starter
    game._starter_shown = True
    game._events.append(make_event("starter", game._deal_index, game._dealer, (starter,)))
    items = game.rulebook.starter_items(starter, dealer=game._dealer)
    if items:
        event = make_event("heels", game._deal_index, seat=game._dealer, cards=(starter,), items=items)
        if game._award(event, sum(item.points for item in items)):
            return
    game._begin_play()
