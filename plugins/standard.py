"""The standard rules (docs/rules.md) as the built-in implementation of cribcore's hooks.

Loaded for every game. Variants change these results through their own implementations of the same
hooks; this module never needs to know about them.
"""

from __future__ import annotations

from collections.abc import Sequence

from cribcore.cards import FULL_DECK, Card, Rank
from cribcore.hookspecs import hookimpl
from cribcore.rules import RuleSet
from cribcore.scoring import HEELS, ScoreItem, play_items, show_items

from .skunk import skunk_lines


@hookimpl(trylast=True)
def cribcore_pack() -> Sequence[Card]:
    return FULL_DECK


@hookimpl
def cribcore_starter_items(starter: Card) -> Sequence[ScoreItem]:
    if starter.rank == Rank.JACK:
        return [ScoreItem(HEELS, (starter,), 2)]
    return []


@hookimpl
def cribcore_play_items(pile: tuple[Card, ...]) -> Sequence[ScoreItem]:
    return play_items(pile)


@hookimpl(trylast=True)
def cribcore_play_continues() -> bool:
    return True


@hookimpl
def cribcore_show_items(cards: tuple[Card, ...], starter: Card, crib: bool) -> Sequence[ScoreItem]:
    return show_items(cards, starter, crib=crib)


@hookimpl(trylast=True)
def cribcore_declared() -> bool:
    return False


@hookimpl(trylast=True)
def cribcore_muggins(claimed: int, missed: int) -> tuple[int, int]:
    return min(claimed, missed), 0


@hookimpl(trylast=True)
def cribcore_counting_order(rules: RuleSet, dealer: int) -> Sequence[int]:
    return [(dealer + k) % rules.seats for k in range(1, rules.seats + 1)]


@hookimpl(trylast=True)
def cribcore_winner(rules: RuleSet, scores: tuple[int, ...], side: int) -> int | None:
    return side if scores[side] >= rules.target_of(side) else None


@hookimpl(trylast=True)
def cribcore_game_points() -> int:
    return 1


@hookimpl(trylast=True)
def cribcore_skunk_lines(rules: RuleSet) -> tuple[int, int]:
    return skunk_lines(rules.target)
