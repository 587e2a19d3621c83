"""Skunk and double skunk: a lopsided win counts as two or three games in a match.

See docs/rules.md: a win with the loser below 91 (31 or
more behind at 121) counts as two games; below 61 as three (the double skunk; ACC tournaments count only
the single skunk: set ``double_skunk_line = 0``). With several losers, the best of them decides.

The lines are set for the profile's ``target``; a side with a target of its own (``targets``) is judged by
how far it stands behind its own target, so a line 30 points below 121 is 30 points below 61 for a side
playing to 61.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from cribcore.hookspecs import hookimpl
from cribcore.rules import RuleSet


class Skunk:
    """A win with the loser below the skunk line is worth two games; below the double line, three."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

        skunk_line: int = Field(91, ge=0, description="A loser below this is skunked (0 turns it off).")
        double_skunk_line: int = Field(61, ge=0, description="A loser below this is double skunked (0: off).")

    def __init__(self, options: Options) -> None:
        self.options = options

    @hookimpl(tryfirst=True)
    def cribcore_game_points(self, rules: RuleSet, scores: tuple[int, ...], winner: int) -> int | None:
        # The best loser's score as if it played to the profile's target (the same score when it does).
        best_loser = max(
            score - rules.target_of(side) + rules.target
            for side, score in enumerate(scores)
            if side != winner
        )
        if best_loser < self.options.double_skunk_line:
            return 3
        if best_loser < self.options.skunk_line:
            return 2
        return None
