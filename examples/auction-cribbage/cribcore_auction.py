"""Auction cribbage: before every deal after the first, the players bid points for the crib.

A complete third-party cribcore plugin that adds a decision to the game. It opens a phase named
``auction`` before each deal (``cribcore_phase_before_deal``), lists each seat's legal bids
(``cribcore_phase_actions``: ``"pass"`` and ``"bid N"``), applies them (``cribcore_phase_apply``: the
highest bidder deals and pays the bid from its score), and says how each computer level bids
(``cribcore_phase_choose``). The rule, in short: each seat speaks once, starting with the seat that would
deal next and going left; a bid must beat every bid before it and is at most ``max_bid`` points and at
most the bidder's own score; the highest bidder deals and loses the bid; if all pass, the deal passes
left as usual.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from cribcore.hookspecs import hookimpl
from cribcore.phases import PhaseState, PhaseStep
from cribcore.rules import RuleSet
from cribcore.scoring import ScoreItem

PHASE = "auction"
PASS = "pass"
COMPUTER_LIMITS = {"easy": -1, "simple": 0, "medium": 1, "hard": 2}
"""The highest bid each computer level makes for the crib (-1: it always passes); other levels bid
like ``medium``."""


def _bids(state: PhaseState) -> list[tuple[int, int]]:
    """The bids so far: ``(seat, points)``, in order."""
    return [(seat, int(text.split()[1])) for seat, text in state.actions if text != PASS]


class Auction:
    """Before each deal, the seats bid points for the crib; the highest bidder deals and pays."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

        max_bid: int = Field(5, ge=0, le=30, description="The most points a seat may bid for the crib.")

    def __init__(self, options: Options) -> None:
        self.options = options

    @hookimpl
    def cribcore_phase_before_deal(self, dealer: int) -> tuple[str, int]:
        # Bidding starts with the seat the usual rotation makes dealer (left of the last dealer).
        return PHASE, dealer

    @hookimpl
    def cribcore_phase_actions(self, rules: RuleSet, state: PhaseState) -> Sequence[str] | None:
        if state.name != PHASE:
            return None
        high = max((points for _, points in _bids(state)), default=-1)
        own = state.scores[rules.side_of(state.to_act)]
        top = min(self.options.max_bid, own)
        return [PASS, *(f"bid {points}" for points in range(high + 1, top + 1))]

    @hookimpl
    def cribcore_phase_apply(
        self, rules: RuleSet, state: PhaseState, seat: int, text: str
    ) -> PhaseStep | None:
        if state.name != PHASE:
            return None
        spoken = len(state.actions) + 1
        if spoken < rules.seats:
            return PhaseStep(to_act=(seat + 1) % rules.seats)
        bids = _bids(state) + ([(seat, int(text.split()[1]))] if text != PASS else [])
        if not bids:
            return PhaseStep(note="everyone passes: the deal passes left as usual")
        winner, price = max(bids, key=lambda bid: bid[1])
        paid = ((winner, ScoreItem("auction", (), -price)),) if price else ()
        return PhaseStep(
            dealer=winner, awards=paid, note=f"the crib goes to {{seat {winner + 1}}} for {price}"
        )

    @hookimpl
    def cribcore_phase_choose(self, state: PhaseState, level: str, legal: tuple[str, ...]) -> str | None:
        if state.name != PHASE:
            return None
        limit = COMPUTER_LIMITS.get(level, COMPUTER_LIMITS["medium"])
        bids = [text for text in legal if text != PASS and int(text.split()[1]) <= limit]
        # The cheapest bid that still beats the others: the crib is worth about two points to its owner.
        return bids[0] if bids else PASS


PROFILE = """\
name = "auction"
description = "Six-card cribbage where the players bid points for the crib before each deal."
extends = "standard"
plugins = ["auction"]

[options.auction]
max_bid = 5
"""
"""The profile auction.toml as this package ships it: its ``cribcore.profiles`` entry point
``auction``, so that installing the package adds it to ``cribbage profiles list`` and
``--profile auction`` loads it."""
