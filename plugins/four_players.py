"""Four-player cribbage: five cards each, one each to the crib, individually or as two partnerships.

RULES.md §3 (seed 003, "cribbage emparejado"): play, counting and dealing go clockwise from the
dealer's left. Partners sit opposite (seats 0 and 2 against 1 and 3) and share one score.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field

from cribcore.hookspecs import hookimpl
from cribcore.rules import RuleSet


class FourPlayers:
    """Four players, five cards each, each discarding one; optionally two partnerships."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

        partnerships: bool = Field(False, description="Seats 0+2 against 1+3, one score per side.")
        target: int = Field(121, ge=1, le=10_000, description="Points that end the game.")

    def __init__(self, options: Options) -> None:
        self.options = options

    @hookimpl
    def cribcore_rules(self) -> Mapping[str, object]:
        return {
            "seats": 4,
            "cards_dealt": 5,
            "discards": 1,
            "crib_from_pack": 0,
            "partnerships": self.options.partnerships,
            "target": self.options.target,
        }

    @hookimpl
    def cribcore_check_rules(self, rules: RuleSet) -> str | None:
        if rules.seats != 4:
            return f"four-player cribbage needs four seats, not {rules.seats}"
        return None
