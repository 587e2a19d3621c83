"""The rule parameters of a game, as data: one frozen pydantic model, `RuleSet`.

A profile (see `cribcore.profiles`) resolves to one `RuleSet` plus the plugins it names. The engine reads
only this model and the plugins' hooks; nothing else changes how a game is played.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["RuleSet"]


class RuleSet(BaseModel):
    """Structural parameters of a game. The defaults are the locked standard game (docs/rules.md).

    Invariants checked on construction: every seat keeps at least one card, the crib is not empty, and
    the pack holds every dealt card plus the starter.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    seats: int = Field(2, ge=2, le=4, description="Number of players at the table.")
    partnerships: bool = Field(
        False, description="Seats opposite each other (0+2, 1+3) form one side with one score."
    )
    cards_dealt: int = Field(6, ge=2, le=12, description="Cards dealt to each seat.")
    discards: int = Field(2, ge=0, le=4, description="Cards each seat lays away to the crib.")
    crib_from_pack: int = Field(0, ge=0, le=4, description="Cards dealt from the pack straight to the crib.")
    target: int = Field(121, ge=1, le=10_000, description="Points that end the game.")

    @model_validator(mode="after")
    def _consistent(self) -> RuleSet:
        if self.discards >= self.cards_dealt:
            raise ValueError("discards must leave each seat at least one card to keep")
        if self.crib_size < 1:
            raise ValueError("the crib would be empty: set discards or crib_from_pack")
        if self.seats * self.cards_dealt + self.crib_from_pack + 1 > 52:
            raise ValueError("the pack has too few cards for this deal")
        if self.partnerships and self.seats != 4:
            raise ValueError(f"partnerships need four seats, not {self.seats}")
        return self

    @property
    def hand_size(self) -> int:
        """Cards each seat keeps for the play and the show."""
        return self.cards_dealt - self.discards

    @property
    def crib_size(self) -> int:
        return self.seats * self.discards + self.crib_from_pack

    @property
    def sides(self) -> int:
        """Number of scores kept: one per seat, or one per partnership."""
        return 2 if self.partnerships else self.seats

    def side_of(self, seat: int) -> int:
        """The side (score) a seat plays for."""
        return seat % 2 if self.partnerships else seat
