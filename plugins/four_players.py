"""Four-player cribbage: five cards each, one each to the crib, individually or as two partnerships.

See docs/rules.md: play, counting and dealing go clockwise from the
dealer's left. Partners sit opposite (seats 0 and 2 against 1 and 3) and share one score.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from .deals import DealVariant


class FourPlayers(DealVariant):
    """Four players, five cards each, each discarding one; optionally two partnerships."""

    DEAL: ClassVar[Mapping[str, object]] = {"seats": 4, "cards_dealt": 5, "discards": 1, "crib_from_pack": 0}
    REASON = "four-player cribbage is four players dealt five cards, discarding one"

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

        partnerships: bool = Field(False, description="Seats 0+2 against 1+3, one score per side.")
        target: int = Field(121, ge=1, le=10_000, description="Points that end the game.")
