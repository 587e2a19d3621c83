"""Joker cribbage: one or two jokers in the pack, wild in the show.

A house rule, and a complete third-party cribcore plugin that adds cards to the pack. Its rules:

- The pack is the 52 standard cards and one or two jokers (option ``jokers``), written ``X1`` and ``X2``.
- In the show a joker counts as whichever card gives the hand (or the crib) the most points: any card
  not already among its cards and the starter. A joker turned up as the starter is wild for every hand
  and the crib, for each as it suits it best. Two jokers in one count choose together.
- In the play a joker counts ten toward the count, and it pairs and runs as whichever ten-card (10, J, Q,
  K) scores the most for its player as it is laid; later cards of that count see it as that card.
- A joker turned up as the starter is not a jack: it scores no heels, but the dealer scores
  ``turned_up`` points (2 by default, 0 to turn it off) for "the joker turned up", its own kind of score.

How an extra card is counted is up to the plugin: the standard hooks see a joker as the ten-card it is
made as (the king of spades, counting ten), and this plugin's wrappers replace their items whenever a
joker is among the cards. Other plugins' show items for a count with a joker are replaced too: with a
joker, the count is the standard count of the best card it can stand for.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from itertools import permutations
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cribcore.cards import FULL_DECK, Card, Rank, Suit
from cribcore.hookspecs import hookimpl
from cribcore.scoring import ScoreItem, play_items, show_items, show_total
from cribcore.speech import ScoreKind

TURNED_UP = "joker-turned-up"
"""This plugin's own kind of score item: a joker turned up as the starter."""

JOKERS = (
    Card.extra("X1", rank=Rank.KING, suit=Suit.SPADES, value=10),
    Card.extra("X2", rank=Rank.KING, suit=Suit.SPADES, value=10),
)
"""The jokers: made once, as every process that loads this plugin must parse ``X1`` and ``X2``."""

_TEN_CARDS = tuple(Card(rank, Suit.SPADES) for rank in (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING))

ItemsResult = Sequence[Sequence[ScoreItem] | None]


class JokerCribbage:
    """Joker cribbage: one or two jokers in the pack, wild in the show, ten in the play."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

        jokers: Literal[1, 2] = Field(1, description="How many jokers the pack holds.")
        turned_up: int = Field(
            2, ge=0, le=2, description="Points the dealer scores when a joker is turned up as the starter."
        )

    def __init__(self, options: Options) -> None:
        self.options = options
        self.pack = (*FULL_DECK, *JOKERS[: options.jokers])

    @hookimpl(tryfirst=True)
    def cribcore_pack(self) -> Sequence[Card]:
        return self.pack

    @hookimpl
    def cribcore_score_kinds(self) -> Mapping[str, ScoreKind]:
        return {TURNED_UP: ScoreKind(label="joker turned up", spoken="the joker turned up")}

    @hookimpl(wrapper=True)
    def cribcore_starter_items(self, starter: Card) -> Generator[None, ItemsResult, ItemsResult]:
        results = yield
        if starter.standard:
            return results
        points = self.options.turned_up
        return [[ScoreItem(TURNED_UP, (starter,), points)]] if points else []

    @hookimpl(wrapper=True)
    def cribcore_show_items(
        self, cards: tuple[Card, ...], starter: Card, crib: bool
    ) -> Generator[None, ItemsResult, ItemsResult]:
        results = yield
        if all(card.standard for card in (*cards, starter)):
            return results
        return [best_show(cards, starter, crib=crib)]

    @hookimpl(wrapper=True)
    def cribcore_play_items(self, pile: tuple[Card, ...]) -> Generator[None, ItemsResult, ItemsResult]:
        results = yield
        if all(card.standard for card in pile):
            return results
        return [play_items(as_laid(pile))]


def best_show(cards: Sequence[Card], starter: Card, *, crib: bool) -> tuple[ScoreItem, ...]:
    """The show items of ``cards`` with ``starter`` when each joker among them is the card that scores
    most (the first such card in card order on a tie), each item showing the joker standing for it."""
    wild = [card for card in (*cards, starter) if not card.standard]
    taken = {card for card in (*cards, starter) if card.standard}
    free = [card for card in FULL_DECK if card not in taken]
    best: dict[Card, Card] = {}
    best_points = -1
    for choice in permutations(free, len(wild)):
        chosen = dict(zip(wild, choice, strict=True))
        hand = [chosen.get(card, card) for card in cards]
        points = show_total(hand, chosen.get(starter, starter), crib=crib)
        if points > best_points:
            best, best_points = chosen, points
    standing = {joker: joker.standing_for(card.rank, card.suit) for joker, card in best.items()}
    hand = [standing.get(card, card) for card in cards]
    return show_items(hand, standing.get(starter, starter), crib=crib)


def as_laid(pile: Sequence[Card]) -> tuple[Card, ...]:
    """The pile with each joker standing for the ten-card that scored most as it was laid (the first of
    10, J, Q, K on a tie), given what the jokers laid before it stood for."""
    laid: list[Card] = []
    for card in pile:
        if card.standard:
            laid.append(card)
            continue
        options = [card.standing_for(ten.rank, ten.suit) for ten in _TEN_CARDS]
        laid.append(max(options, key=lambda option: sum(i.points for i in play_items((*laid, option)))))
    return tuple(laid)


PROFILE = """\
name = "joker-cribbage"
description = "Six-card cribbage with one or two jokers in the pack, wild in the show."
extends = "standard"
plugins = ["joker-cribbage"]

[options.joker-cribbage]
jokers = 1
turned_up = 2
"""
"""The profile joker-cribbage.toml as this package ships it: its ``cribcore.profiles`` entry point
``joker-cribbage``, so that installing the package adds it to ``cribbage profiles list`` and
``--profile joker-cribbage`` loads it."""
