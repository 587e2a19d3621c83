"""The rule parameters of a game, as data: one frozen pydantic model, `RuleSet`.

A profile (see `cribcore.profiles`) resolves to one `RuleSet` plus the plugins it names. The engine reads
only this model and the plugins' hooks; nothing else changes how a game is played.
"""

from __future__ import annotations

from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationInfo,
    field_validator,
    model_serializer,
    model_validator,
)

from .cards import STANDARD_CARDS

__all__ = ["RuleSet"]

_OPTIONAL = ("sides_of_seats", "targets")


class RuleSet(BaseModel):
    """Structural parameters of a game. The defaults are the locked standard game (docs/rules.md).

    Invariants checked on construction: every seat keeps at least one card, the crib is not empty, and
    the pack holds every dealt card plus the starter. The pack is the standard 52 cards unless the
    validation context gives its size as ``pack_size`` (a profile whose plugin adds cards: see
    `cribcore.profiles`); ``None`` there leaves that check to the caller.

    The sides (when given) name every seat and leave no side empty.

    Sides: each side keeps one score. By default every seat is its own side; ``partnerships`` is the
    shorthand for ``sides_of_seats = (0, 1, 0, 1)``; ``sides_of_seats`` names any split (captain's
    cribbage: ``(0, 1, 1)``, one seat against two partners). Each side plays to ``target`` unless
    ``targets`` gives one target per side. Read them through `sides`, `side_of`, `seats_of` and
    `target_of`, never the fields, so that every form means the same.
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
    sides_of_seats: tuple[int, ...] | None = Field(
        None,
        description="The side each seat plays for, seat by seat, sides numbered from 0 (e.g. [0, 1, 1]: "
        "one seat against two partners who share a score). Unset: partnerships, or every seat alone.",
    )
    targets: tuple[int, ...] | None = Field(
        None,
        description="Points that end the game for each side, side by side (e.g. [61, 121]). Unset: "
        "every side plays to target.",
    )

    @field_validator("sides_of_seats", "targets", mode="before")
    @classmethod
    def _list_is_tuple(cls, value: Any) -> Any:
        # Profiles (TOML) and records (JSON) give lists; the model is strict and frozen, so tuples.
        return tuple(value) if isinstance(value, list) else value

    @model_serializer(mode="wrap")
    def _without_unset_sides(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # Unset sides and targets are left out, so profiles, records and views of games without them
        # read exactly as before these fields existed (and TOML, which has no null, can hold them).
        data: dict[str, Any] = handler(self)
        for name in _OPTIONAL:
            if data.get(name) is None:
                data.pop(name, None)
        return data

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> RuleSet:
        if self.discards >= self.cards_dealt:
            raise ValueError("discards must leave each seat at least one card to keep")
        if self.crib_size < 1:
            raise ValueError("the crib would be empty: set discards or crib_from_pack")
        context = info.context if isinstance(info.context, dict) else {}
        pack_size = context.get("pack_size", STANDARD_CARDS)
        if pack_size is not None and self.cards_needed > pack_size:
            raise ValueError("the pack has too few cards for this deal")
        if self.partnerships and self.seats != 4:
            raise ValueError(f"partnerships need four seats, not {self.seats}")
        if self.sides_of_seats is not None:
            self._check_sides(self.sides_of_seats)
        if self.targets is not None:
            if len(self.targets) != self.sides:
                raise ValueError(f"targets need one target per side ({self.sides}), not {len(self.targets)}")
            if not all(1 <= target <= 10_000 for target in self.targets):
                raise ValueError("every target must be 1 to 10000 points")
        return self

    def _check_sides(self, sides: tuple[int, ...]) -> None:
        if self.partnerships:
            raise ValueError("set partnerships or sides_of_seats, not both")
        if len(sides) != self.seats:
            raise ValueError(f"sides_of_seats needs one side per seat ({self.seats}), not {len(sides)}")
        count = max(sides, default=-1) + 1
        if min(sides, default=0) < 0 or set(sides) != set(range(count)):
            raise ValueError("sides_of_seats must number the sides 0, 1, 2... with no side left empty")
        if count < 2:
            raise ValueError("sides_of_seats needs at least two sides")

    @property
    def hand_size(self) -> int:
        """Cards each seat keeps for the play and the show."""
        return self.cards_dealt - self.discards

    @property
    def cards_needed(self) -> int:
        """Cards a deal takes from the pack: the hands, the crib's cards from the pack, the starter."""
        return self.seats * self.cards_dealt + self.crib_from_pack + 1

    @property
    def crib_size(self) -> int:
        """The cards in the crib: every seat's discards and the cards from the pack."""
        return self.seats * self.discards + self.crib_from_pack

    @property
    def sides(self) -> int:
        """Number of scores kept: one per side (per seat, unless seats share sides)."""
        if self.sides_of_seats is not None:
            return max(self.sides_of_seats) + 1
        return 2 if self.partnerships else self.seats

    def side_of(self, seat: int) -> int:
        """The side (score) a seat plays for."""
        if self.sides_of_seats is not None:
            return self.sides_of_seats[seat]
        return seat % 2 if self.partnerships else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats that play for ``side``, in seat order."""
        return tuple(seat for seat in range(self.seats) if self.side_of(seat) == side)

    def target_of(self, side: int) -> int:
        """The points that end the game for ``side``."""
        return self.targets[side] if self.targets is not None else self.target

    @property
    def uneven(self) -> bool:
        """Whether the sides differ in size or in target (views and boards then show each side's)."""
        sizes = {len(self.seats_of(side)) for side in range(self.sides)}
        return len(sizes) > 1 or len({self.target_of(side) for side in range(self.sides)}) > 1
