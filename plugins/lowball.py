"""Lowball: normal scoring, but the first to reach the target loses, and the game ends at that moment.

See docs/rules.md. With more than two sides the
winner is the side with the fewest points; on a tie, the first of them after the loser in seat order.
"""

from __future__ import annotations

from collections.abc import Generator

from cribcore.hookspecs import hookimpl
from cribcore.rules import RuleSet


@hookimpl(wrapper=True)
def cribcore_winner(
    rules: RuleSet, scores: tuple[int, ...], side: int
) -> Generator[None, int | None, int | None]:
    reached = yield
    if reached is None:
        return None
    loser = reached
    order = [(loser + k) % len(scores) for k in range(1, len(scores))]
    return min(order, key=lambda s: (scores[s], order.index(s)))
