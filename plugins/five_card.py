"""Five-card cribbage: five cards each, two to the crib, the play one count only, to 61, three for last.

See docs/rules.md: hands of three and a crib of four; the player who does not deal
first scores the compensation once, at the start of the game (Hoyle: once per game, not per deal); the
play ends after the first go or 31, and cards left in hand are not played. A hand flush is all three hand
cards (3), four with the starter; the crib needs all five.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from cribcore.hookspecs import hookimpl
from cribcore.rules import RuleSet
from cribcore.scoring import ScoreItem

from .deals import DealVariant

COMPENSATION = "compensation"


class FiveCard(DealVariant):
    """Five-card cribbage for two: hands of three, one count in the play, to 61, three for last."""

    DEAL: ClassVar[Mapping[str, object]] = {"seats": 2, "cards_dealt": 5, "discards": 2, "crib_from_pack": 0}
    REASON = "five-card cribbage is two players dealt five cards, discarding two"

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

        target: int = Field(61, ge=1, le=10_000, description="Points that end the game.")
        compensation: int = Field(
            3, ge=0, le=10, description="Points for the player who does not deal first, once per game."
        )

    def __init__(self, options: Options) -> None:
        self.options = options

    @hookimpl
    def cribcore_rules(self) -> Mapping[str, object]:
        return {
            "seats": 2,
            "cards_dealt": 5,
            "discards": 2,
            "crib_from_pack": 0,
            "target": self.options.target,
        }

    @hookimpl
    def cribcore_check_rules(self, rules: RuleSet) -> str | None:
        if (rules.seats, rules.cards_dealt, rules.discards) != (2, 5, 2):
            return "five-card cribbage is two players dealt five cards, discarding two"
        return None

    @hookimpl
    def cribcore_game_start(self, rules: RuleSet, dealer: int) -> Sequence[tuple[int, ScoreItem]]:
        if not self.options.compensation:
            return []
        return [((dealer + 1) % rules.seats, ScoreItem(COMPENSATION, (), self.options.compensation))]

    @hookimpl(tryfirst=True)
    def cribcore_play_continues(self) -> bool:
        return False
