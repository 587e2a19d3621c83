"""Three-player cribbage: five cards each and one from the pack to the crib; each discards one.

See docs/rules.md: the player to the dealer's left cuts, leads and counts first; counting goes
left round to the dealer, then the crib; the deal passes left. After a go, each following player who
can lay a card must; the last to lay a card scores the go. The engine's turn order already follows
these rules for any number of seats; this plugin sets the deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from .deals import DealVariant


class ThreePlayers(DealVariant):
    """Three players, five cards each plus one from the pack to the crib, each discarding one."""

    DEAL: ClassVar[Mapping[str, object]] = {
        "seats": 3,
        "cards_dealt": 5,
        "discards": 1,
        "crib_from_pack": 1,
        "partnerships": False,
    }
    REASON = "three-player cribbage is three players alone, dealt five each, one from the pack to the crib"

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

        target: int = Field(121, ge=1, le=10_000, description="Points that end the game (some play 61).")
