"""Every way to lay cards away, valued: the exact average kept hand plus or minus the expected crib.

For every possible discard, the kept hand is counted exactly with each possible starter (every card not
in the hand or otherwise seen: 46 for a hand of six), giving its expected, lowest and highest show; the
crib is estimated from the self-computed crib table (`cribcore.players.crib`). The net is the expected
hand plus the expected crib when the crib is the seat's own, minus it when it is an opponent's. The hard
level discards by it and `cribcore.analysis` presents it.

Both follow a profile when given its `cribcore.rulebook.Rulebook`: the hand is counted by the profile's
show (`cribcore.players.counting`) and the crib valued with the profile's crib table
(`cribcore.players.crib.crib_table_for`). The standard profile keeps the fast count and the shipped table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from ..cards import FULL_DECK, Card, format_cards
from ..rulebook import Rulebook
from .counting import counting_for
from .crib import crib_table, crib_table_for, expected_crib
from .tally import hand_values

__all__ = ["DiscardOption", "discard_options"]


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One discard with its averages. ``expected_crib`` is what the crib is expected to score (never
    negative); ``net`` adds it for one's own crib and subtracts it for an opponent's."""

    discard: tuple[Card, ...]
    kept: tuple[Card, ...]
    expected_hand: float
    expected_crib: float
    own_crib: bool
    net: float
    min_hand: int
    max_hand: int
    hand_values: tuple[int, ...] = field(default=(), repr=False, compare=False)
    """The kept hand's show with each possible starter, in `Card` order of the starters."""

    def to_json(self) -> dict[str, object]:
        return {
            "discard": [str(c) for c in self.discard],
            "keep": [str(c) for c in self.kept],
            "expected_hand": round(self.expected_hand, 4),
            "expected_crib": round(self.expected_crib, 4),
            "crib": "yours" if self.own_crib else "opponent's",
            "net": round(self.net, 4),
            "min_hand": self.min_hand,
            "max_hand": self.max_hand,
        }

    def __str__(self) -> str:
        return f"keep {format_cards(self.kept)}, discard {format_cards(self.discard)}: net {self.net:.2f}"


def discard_options(
    hand: Sequence[Card],
    discards: int,
    *,
    own_crib: bool,
    crib_size: int = 4,
    seats: int = 2,
    seen: Sequence[Card] = (),
    rulebook: Rulebook | None = None,
    seat: int | None = None,
    dealer: int | None = None,
) -> list[DiscardOption]:
    """Every way to lay ``discards`` cards of ``hand`` away, best net first (ties: better hand, then
    the discard in card order). Starters are the cards in neither ``hand`` nor ``seen``.

    Hands are counted and cribs valued under ``rulebook``'s profile (the standard rules when
    ``None``), the hand as ``seat``'s with ``dealer`` dealing (as `cribcore.rulebook.Rulebook.show_items`
    takes them when ``None``). The caller guarantees distinct cards and ``0 < discards < len(hand)``.
    """
    ordered = sorted(hand)
    known = {card.index for card in (*ordered, *seen)}
    starters = [c for c in range(len(FULL_DECK)) if c not in known]
    counting = counting_for(rulebook) if rulebook is not None else None
    table = crib_table_for(rulebook) if rulebook is not None else crib_table()

    def values_of(kept: Sequence[int], starters: Sequence[int]) -> list[int]:
        if counting is None:
            return hand_values(kept, starters)
        return counting.hand_values(kept, starters, seat=seat, dealer=dealer)

    options = []
    for thrown in combinations(ordered, discards):
        kept = tuple(card for card in ordered if card not in thrown)
        values = values_of([card.index for card in kept], starters)
        mean = sum(values) / len(values)
        crib = expected_crib(
            [card.index for card in thrown], own=own_crib, crib_size=crib_size, seats=seats, table=table
        )
        options.append(
            DiscardOption(
                discard=thrown,
                kept=kept,
                expected_hand=mean,
                expected_crib=crib,
                own_crib=own_crib,
                net=mean + crib if own_crib else mean - crib,
                min_hand=min(values),
                max_hand=max(values),
                hand_values=tuple(values),
            )
        )
    options.sort(key=lambda o: (-o.net, -o.expected_hand, [c.index for c in o.discard]))
    return options
