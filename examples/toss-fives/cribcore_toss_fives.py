"""Toss fives: every card of one rank (fives by default) that a player is dealt must go to the crib.

A house rule, and a complete third-party cribcore plugin: one class registered in the
``cribcore.plugins`` entry-point group, with its options as a pydantic model. It implements one hook,
``cribcore_check_discard``, to forbid discards that keep a tossed card. Its profile ships with it, as
``PROFILE`` in the ``cribcore.profiles`` entry-point group.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cribcore.cards import Card, parse_card
from cribcore.hookspecs import hookimpl
from cribcore.rules import RuleSet

RankText = Literal["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]


class TossFives:
    """Every five you are dealt goes to the crib (as many as your discard holds)."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

        rank: RankText = Field("5", description="The rank that must be tossed to the crib.")

    def __init__(self, options: Options) -> None:
        self.options = options
        self.rank = parse_card(f"{options.rank}C").rank

    @hookimpl
    def cribcore_check_discard(
        self, rules: RuleSet, hand: tuple[Card, ...], cards: tuple[Card, ...]
    ) -> str | None:
        dealt = sum(1 for card in hand if card.rank == self.rank)
        tossed = sum(1 for card in cards if card.rank == self.rank)
        if tossed < min(dealt, rules.discards):
            return f"toss {self.options.rank}s: every {self.options.rank} you are dealt goes to the crib"
        return None


PROFILE = """\
name = "toss-fives"
description = "Six-card cribbage where every five dealt must be laid away to the crib."
extends = "standard"
plugins = ["toss-fives"]

[options.toss-fives]
rank = "5"
"""
"""The profile toss-fives.toml as this package ships it: its ``cribcore.profiles`` entry point
``toss-fives``, so that installing the package adds it to ``cribbage profiles list`` and
``--profile toss-fives`` loads it."""
