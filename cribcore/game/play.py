"""The play: cards laid on the count, their points, goes and the last card, closing a count, and the
hand-over to the show when no seat holds a card (or the rules end the play).

One path for every profile, with a fast branch where the standard play allows one: its items are told
apart by the last ranks and the count before any scorer is called, and when every held card fits the
count the next seat holding cards lays, with nobody passed over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..actions import CardNotHeld, NotYourTurn, OverThirtyOne, Play, WrongPhase
from ..cards import Card
from ..claims import Claim
from ..events import Event, make_event
from ..scoring import GO, PLAY_LIMIT, ScoreItem, counted_play_items, may_end_run
from ..turns import GO_POINTS, next_able, next_holding, passed_over, scores_go
from .state import PLAY, GameState

__all__ = ["begin_play", "check_play", "next_able_seat", "play_card", "play_of"]

_PLAYS: dict[int, Play] = {}
"""One shared `Play` per card (actions are immutable values), so listing legal plays builds nothing;
keyed by `Card.index` (an int hashes without calling Python code)."""

_PLAYS_BY_ID: dict[int, Play] = {}
"""The same shared `Play`s by the identity of their card (each holds its card, so an id here is never
reused by another card): a hand's plays are then looked up without a Python call per card."""


def play_of(card: Card) -> Play:
    """The shared `Play` of ``card``."""
    action = _PLAYS.get(card.index)
    if action is None or action.card is not card:
        action = _PLAYS[card.index] = Play(card)
        if len(_PLAYS_BY_ID) >= 1 << 12:
            _PLAYS_BY_ID.clear()
        _PLAYS_BY_ID[id(card)] = action
    return action


def _plays_of(hand: Sequence[Card]) -> tuple[Play, ...]:
    """The shared `Play` of each card of ``hand``, in order."""
    # Typed loosely: once `all` (in C; a `Play` is always true) finds every card had one, it is the plays.
    plays: Any = tuple(map(_PLAYS_BY_ID.get, map(id, hand)))
    return plays if all(plays) else tuple(map(play_of, hand))


_GO_ITEMS: dict[int, tuple[tuple[Card], tuple[ScoreItem]]] = {}
"""The go's (or last card's) cards and items for each card laid last, by `Card.index` (a `ScoreItem`
is immutable, and a frozen dataclass's ``__init__`` costs more than the look-up: a go a count)."""


def _go_of(card: Card) -> tuple[tuple[Card], tuple[ScoreItem]]:
    known = _GO_ITEMS.get(card.index)
    if known is None or known[0][0] is not card:
        known = _GO_ITEMS[card.index] = ((card,), (ScoreItem(GO, (card,), GO_POINTS),))
    return known


def begin_play(game: GameState) -> None:
    """Start the play: the seat after the dealer that holds cards leads (none: straight to the show)."""
    game._phase = PLAY
    game._hand_plays = [_plays_of(hand) for hand in game._hands]
    game._to_play = next_holding(game._hands, game._dealer)
    if game._to_play is None:
        game._begin_show()


def check_play(game: GameState, seat: int, action: Play) -> None:
    """Raise the `IllegalAction` that ``seat``'s play ``action`` would meet, or return."""
    if game._phase is not PLAY:
        raise WrongPhase("it is time to discard, not to play")
    if seat != game._to_play:
        raise NotYourTurn(f"it is {game.players[game._to_play or 0]}'s turn to play")
    card = action.card
    if card not in game._hands[seat]:
        raise CardNotHeld(f"you do not hold {card}")
    if game._count + card.value > PLAY_LIMIT:
        raise OverThirtyOne(f"{card} would take the count to {game._count + card.value}, past {PLAY_LIMIT}")


def play_card(game: GameState, seat: int, card: Card) -> None:
    """Lay ``seat``'s (checked) ``card``: score it, then the next seat lays, or the count closes."""
    standard = game._standard_play
    if not standard:
        # A plugin's items are asked before anything changes: a hook that fails leaves the game as it
        # was (the standard items, below, cannot fail).
        items = game.rulebook.play_items((*game._pile_cards, card), seat=seat, dealer=game._dealer)
    held = game._held[seat]
    at = held.index(card.index)
    del held[at]
    del game._hands[seat][at]
    plays = game._hand_plays[seat]
    game._hand_plays[seat] = plays[:at] + plays[at + 1 :]
    game._laid[seat].append(card)
    game._plays.append(card)
    game._pile.append((seat, card))
    pile = game._pile_cards
    pile.append(card)
    count = game._count = game._count + card.value
    if standard:
        # Most cards score nothing: those are told apart here, sparing them the items' call (only a
        # fifteen, 31, a pair or a count whose last three ranks may end a run can score).
        rank, size = card.rank, len(pile)
        if (
            count == 15
            or count == PLAY_LIMIT
            or (
                size >= 2
                and (
                    pile[-2].rank == rank
                    or (size >= 3 and may_end_run(rank, pile[-2].rank, pile[-3].rank, size))
                )
            )
        ):
            items = counted_play_items(pile, count)
        else:
            items = ()
    if game._declares_play:
        event = make_event("play", game._deal_index, seat=seat, cards=(card,), items=items, count=count)
        _play_declared(game, seat, event)
        return
    points = 0
    if items:  # most cards score nothing
        for item in items:
            points += item.points
    if points:
        if game._score("play", seat, points, (card,), items, count):
            return
    else:
        game._events.append(make_event("play", game._deal_index, seat, (card,), 0, items, (), count))
    if count < PLAY_LIMIT:
        able = next_able_seat(game, seat)
        if able is not None:
            game._to_play = able
            return
        note = "go" if any(game._hands) else "last card"
        cards, go = _go_of(card)
        if game._score("go", seat, GO_POINTS, cards, go, count, note):
            return
    _close_count(game, seat)


def _play_declared(game: GameState, seat: int, event: Event) -> None:
    """The play under muggins: the card's points, its go or last-card point included, are declared."""
    game._emit(replace(event, items=()))
    card = event.cards[0]
    items = event.items
    nxt = next_able_seat(game, seat) if game._count < PLAY_LIMIT else None
    if scores_go(nxt, game._count):
        items = (*items, ScoreItem(GO, (card,), GO_POINTS))

    def then() -> None:
        if nxt is not None:
            game._to_play = nxt
        else:
            _close_count(game, seat)

    game._to_play = None
    game._claim = Claim(seat, (card,), items, then)


def next_able_seat(game: GameState, last: int) -> int | None:
    """The next seat after ``last`` (``last`` itself last) able to lay a card on the count; seats
    passed over that hold cards say go, once per count."""
    count = game._count
    held = game._held
    if PLAY_LIMIT - count >= game._top_value:
        # Every held card fits: the next seat holding cards lays, and nobody is passed over
        # (`next_holding` written out, as it runs once a card).
        for seat in game._after[last]:
            if held[seat]:
                return seat
        return None
    able = next_able(held, last, count, game._values)
    if able is not None and able == game._after[last][0]:
        return able  # the next seat lays: nobody is passed over
    for seat in passed_over(held, last, able):
        if seat not in game._said_go:
            game._said_go.add(seat)
            game._emit(make_event("says-go", game._deal_index, seat=seat, count=count))
    return able


def _close_count(game: GameState, last: int) -> None:
    game._events.append(make_event("reset", game._deal_index, last, (), 0, (), (), game._count))
    game._pile = []
    game._pile_cards = []
    game._count = 0
    game._said_go = set()
    leader = next_holding(game._held, last)
    if leader is not None and (
        game._always_continues or game.rulebook.play_continues(tuple(len(hand) for hand in game._hands))
    ):
        game._to_play = leader
        return
    game._begin_show()
