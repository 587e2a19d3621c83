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

The show needs no scoring code: the plugin declares the jokers wild (``cribcore_wild_cards``) and the
rules authority counts each hand and crib as the best substitution, under every plugin of the profile,
its items naming what each joker stood for ("X1 as 5♥"). In the play a joker is what it is made as (the
king of spades, counting ten) to the standard hooks; this plugin's wrapper counts it as the best
ten-card and puts the items back on the joker with `cribcore.wild.substituted_items`.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cribcore.cards import FULL_DECK, Card, Rank, Suit
from cribcore.hookspecs import hookimpl
from cribcore.scoring import ScoreItem, play_items
from cribcore.speech import ScoreKind
from cribcore.wild import substituted_items

TURNED_UP = "joker-turned-up"
"""This plugin's own kind of score item: a joker turned up as the starter."""

JOKERS = (
    Card.extra("X1", rank=Rank.KING, suit=Suit.SPADES, value=10),
    Card.extra("X2", rank=Rank.KING, suit=Suit.SPADES, value=10),
)
"""The jokers: made once, as every process that loads this plugin must parse ``X1`` and ``X2``."""

_TEN_RANKS = (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)

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
    def cribcore_wild_cards(self) -> Mapping[Card, Sequence[Card]]:
        return {joker: FULL_DECK for joker in JOKERS[: self.options.jokers]}

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
    def cribcore_play_items(self, pile: tuple[Card, ...]) -> Generator[None, ItemsResult, ItemsResult]:
        results = yield
        if all(card.standard for card in pile):
            return results
        standing = as_laid(pile)
        return [substituted_items(play_items([standing.get(card, card) for card in pile]), standing)]


def as_laid(pile: Sequence[Card]) -> dict[Card, Card]:
    """What each joker of the pile stood for: the ten-card that scored most as it was laid (the first
    of 10, J, Q, K on a tie), given what the jokers laid before it stood for; a card of that rank not
    laid in the count, so that the items can be put back on the joker."""
    laid: list[Card] = []
    standing: dict[Card, Card] = {}
    for card in pile:
        if card.standard:
            laid.append(card)
            continue
        options = [
            next(ten for ten in FULL_DECK if ten.rank == rank and ten not in laid and ten not in pile)
            for rank in _TEN_RANKS
        ]
        best = max(options, key=lambda option: sum(item.points for item in play_items((*laid, option))))
        standing[card] = best
        laid.append(best)
    return standing


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
