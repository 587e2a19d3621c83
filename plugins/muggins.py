"""Muggins: players declare their own counts, and an opponent may take the points they miss.

See docs/rules.md: overcounts are
corrected openly; an undercount stands, and an opponent may call "muggins" to take the missed points,
scoring the lesser of the claimed and the true missed amount; a false call (nothing missed) gives the
claimed points to the other side. His heels is not subject to muggins (the engine never asks for it).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from cribcore.hookspecs import hookimpl


class Muggins:
    """Players declare their counts; opponents may call muggins on points missed."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

        penalty_for_false_call: bool = Field(
            True, description="A call when nothing was missed gives the claimed points to the other side."
        )
        apply_to_play: bool = Field(True, description="Play points are declared too, not only the show.")

    def __init__(self, options: Options) -> None:
        self.options = options

    @hookimpl(tryfirst=True)
    def cribcore_declared(self, kind: str) -> bool:
        return kind != "play" or self.options.apply_to_play

    @hookimpl(tryfirst=True)
    def cribcore_muggins(self, claimed: int, missed: int) -> tuple[int, int]:
        if missed:
            return min(claimed, missed), 0
        return 0, claimed if self.options.penalty_for_false_call else 0
