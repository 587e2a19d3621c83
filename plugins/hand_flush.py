"""Which flushes count in the show: the four-card hand flush on or off, and the four-card crib flush.

See docs/rules.md: one common rule counts only a five-card flush (hand or crib); the four-card hand
flush (the hand's own cards of one suit) is the house rule of the standard game. ``hand_min`` and
``crib_min`` are the cards of one suit needed, counting the starter, for a four-card hand or crib: 4
lets the hand's (crib's) own cards score without the starter, 5 needs the starter to match too. Hands of
other sizes (five- and seven-card cribbage) follow the same choice: "own cards" or "with the starter".
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cribcore.cards import Card
from cribcore.hookspecs import hookimpl
from cribcore.scoring import FLUSH, ScoreItem, show_items


class HandFlush:
    """Choose which flushes score: the hand's own four cards, and the crib's own four cards."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

        hand_min: Literal[4, 5] = Field(
            4, description="4: a hand flush needs only the hand; 5: the starter too."
        )
        crib_min: Literal[4, 5] = Field(
            5, description="4: a crib flush needs only the crib; 5: the starter too."
        )

    def __init__(self, options: Options) -> None:
        self.options = options

    @hookimpl
    def cribcore_flush_rules(self) -> tuple[bool, bool]:
        return self.options.hand_min == 5, self.options.crib_min == 5

    @hookimpl(wrapper=True)
    def cribcore_show_items(
        self, cards: tuple[Card, ...], starter: Card, crib: bool
    ) -> Generator[None, list[Sequence[ScoreItem] | None], list[Sequence[ScoreItem] | None]]:
        results = yield
        flushes = [
            item
            for item in show_items(
                cards,
                starter,
                crib=crib,
                hand_flush_needs_starter=self.options.hand_min == 5,
                crib_flush_needs_starter=self.options.crib_min == 5,
            )
            if item.kind == FLUSH
        ]
        kept = [[item for item in result or () if item.kind != FLUSH] for result in results]
        return [*kept, flushes]
