"""Extra cards for the computer levels: a view whose cards include a plugin's extra cards (jokers) is
shown to a level with a standard card standing in for each, and the level's choice is mapped back.

The levels count on dense card indices 0..51 (`cribcore.players.tally`), so an extra card must never
reach them. Each visible extra card is given a standard card of the same count value that the view does
not show (any card it does not show, when no card of that value is free): the level then plays it as a
card of its value, which is how the standard count sees it too, and never crashes. When the crib is an
opponent's, discards that lay an extra card away are left out whenever another discard is legal: a wild
card is worth more in one's own hand than in the other side's crib.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..actions import Action, Discard, Play
from ..cards import FULL_DECK, Card
from ..events import Event
from ..views import SeatView

__all__ = ["extra_cards_of", "on_standard_cards"]


def _visible(view: SeatView) -> list[Card]:
    cards = [*view.hand, *view.kept, *view.discarded, *(card for _, card in view.pile)]
    cards.extend(card for laid in view.laid for card in laid)
    if view.starter is not None:
        cards.append(view.starter)
    for action in view.legal_actions:
        if isinstance(action, Discard):
            cards.extend(action.cards)
        elif isinstance(action, Play):
            cards.append(action.card)
    cards.extend(card for event in view.events for card in event.cards)
    return cards


def extra_cards_of(view: SeatView) -> tuple[Card, ...]:
    """The extra (non-standard) cards the view shows, each once, in card order."""
    return tuple(sorted({card for card in _visible(view) if not card.standard}))


def _stand_ins(view: SeatView, extras: tuple[Card, ...]) -> dict[Card, Card]:
    shown = {card for card in _visible(view) if card.standard}
    free = [card for card in FULL_DECK if card not in shown]
    mapping: dict[Card, Card] = {}
    for extra in extras:
        same_value = [card for card in free if card.value == extra.value]
        pick = (same_value or free)[0]
        free.remove(pick)
        mapping[extra] = pick
    return mapping


def _map_cards(cards: tuple[Card, ...], mapping: dict[Card, Card]) -> tuple[Card, ...]:
    return tuple(mapping.get(card, card) for card in cards)


def _map_action(action: Action, mapping: dict[Card, Card]) -> Action:
    if isinstance(action, Discard):
        return Discard(_map_cards(action.cards, mapping))
    if isinstance(action, Play):
        return Play(mapping.get(action.card, action.card))
    return action


def _map_event(event: Event, mapping: dict[Card, Card]) -> Event:
    if not any(card in mapping for card in event.cards):
        return event
    return replace(event, cards=_map_cards(event.cards, mapping))


def on_standard_cards(view: SeatView, decide: Callable[[SeatView], Action]) -> Action:
    """``decide(view)``, with stand-ins for the view's extra cards (when it shows any) and the action
    mapped back to the real cards. A view of standard cards only goes straight through."""
    if not view.rulebook.has_extra_cards:
        # The pack is the standard 52: no need to look through the whole view for extra cards.
        return decide(view)
    extras = extra_cards_of(view)
    if not extras:
        return decide(view)
    actions = view.legal_actions
    if view.rules.side_of(view.dealer) != view.side:  # the crib is an opponent's
        keeping = tuple(a for a in actions if not (isinstance(a, Discard) and _lays_extra(a)))
        if keeping:
            actions = keeping
    mapping = _stand_ins(view, extras)
    masked = replace(
        view,
        hand=_map_cards(view.hand, mapping),
        kept=_map_cards(view.kept, mapping),
        discarded=_map_cards(view.discarded, mapping),
        starter=mapping.get(view.starter, view.starter) if view.starter is not None else None,
        pile=tuple((seat, mapping.get(card, card)) for seat, card in view.pile),
        laid=tuple(_map_cards(cards, mapping) for cards in view.laid),
        legal_actions=tuple(_map_action(a, mapping) for a in actions),
        events=tuple(_map_event(event, mapping) for event in view.events),
    )
    back = {standard: extra for extra, standard in mapping.items()}
    return _map_action(decide(masked), back)


def _lays_extra(action: Discard) -> bool:
    return not all(card.standard for card in action.cards)
