"""Skunk and double skunk: a lopsided win counts as two or three games in a match.

See docs/rules.md: a win with the loser below 91 at 121 (31 or more short of the target) counts as
two games; below 61 as three (the double skunk; ACC tournaments count only the single skunk: set
``double_skunk_line = 0``). The lines follow the target unless set: skunk below target - 30, double
skunk below target - 60 (91 and 61 at 121; 31 and none at 61; 121 and 91 at 151). A line that would be
1 or less is off, since no loser can sensibly be below it. With several losers, the best of them
decides.

The lines are set for the profile's ``target``; a side with a target of its own (``targets``) is judged by
how far it stands behind its own target, so a line 30 points below 121 is 30 points below 61 for a side
playing to 61.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from cribcore.hookspecs import hookimpl
from cribcore.rules import RuleSet

__all__ = ["SKUNK_GAP", "Skunk", "skunk_lines"]

SKUNK_GAP = 30
"""How far short of the target the skunk line is; the double skunk line is twice as far."""


def _derived(target: int, gap: int) -> int:
    line = target - gap
    return line if line > 1 else 0


def skunk_lines(
    target: int, skunk_line: int | None = None, double_skunk_line: int | None = None
) -> tuple[int, int]:
    """The single and double skunk lines for a game to ``target``: a loser below a line is skunked; 0
    means never. A line given (not ``None``) is used as it is; otherwise it follows the target."""
    single = skunk_line if skunk_line is not None else _derived(target, SKUNK_GAP)
    double = double_skunk_line if double_skunk_line is not None else _derived(target, 2 * SKUNK_GAP)
    return single, double


class Skunk:
    """A win with the loser below the skunk line is worth two games; below the double line, three."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

        skunk_line: int | None = Field(
            None,
            ge=0,
            description="A loser below this is skunked (0 turns it off; default: the target - 30).",
        )
        double_skunk_line: int | None = Field(
            None,
            ge=0,
            description="A loser below this is double skunked (0 turns it off; default: the target - 60).",
        )

    def __init__(self, options: Options) -> None:
        self.options = options

    @hookimpl(tryfirst=True)
    def cribcore_skunk_lines(self, rules: RuleSet) -> tuple[int, int]:
        return skunk_lines(rules.target, self.options.skunk_line, self.options.double_skunk_line)

    @hookimpl(tryfirst=True)
    def cribcore_game_points(self, rules: RuleSet, scores: tuple[int, ...], winner: int) -> int | None:
        single, double = skunk_lines(rules.target, self.options.skunk_line, self.options.double_skunk_line)
        # The best loser's score as if it played to the profile's target (the same score when it does).
        best_loser = max(
            score - rules.target_of(side) + rules.target
            for side, score in enumerate(scores)
            if side != winner
        )
        if best_loser < double:
            return 3
        if best_loser < single:
            return 2
        return None
