"""Seven-card cribbage: seven cards each, two to the crib (hands of five, crib of four), to 151.

See docs/rules.md (some play to 181, which the ``target`` option allows). A hand flush is
all five hand cards (5), six with the starter; the crib needs all five.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from .deals import DealVariant


class SevenCard(DealVariant):
    """Seven-card cribbage for two: hands of five, a crib of four, to 151."""

    DEAL: ClassVar[Mapping[str, object]] = {"seats": 2, "cards_dealt": 7, "discards": 2, "crib_from_pack": 0}
    REASON = "seven-card cribbage is two players dealt seven cards, discarding two"

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

        target: int = Field(151, ge=1, le=10_000, description="Points that end the game (some play 181).")
