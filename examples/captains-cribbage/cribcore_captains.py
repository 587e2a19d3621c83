"""Captain's cribbage: three players, one of them (the captain, seat 0) alone against the other two.

A complete third-party cribcore plugin that changes only data: it sets the sides (seat 0 is side 0,
seats 1 and 2 are side 1, sharing one score) and a target per side (the captain 61, the partners 121).
Everything else is three-player cribbage, which the profile extends: every seat deals in turn, each hand
is counted on its own and its points go to its seat's side, and the crib's points go to the dealer's side.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field

from cribcore.hookspecs import hookimpl
from cribcore.rules import RuleSet

CAPTAIN_SIDE = (0, 1, 1)
"""Seat 0 plays alone; seats 1 and 2 are partners."""


class Captains:
    """Seat 0, the captain, plays alone to a short target against two partners to the full one."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

        captain_target: int = Field(61, ge=1, le=10_000, description="Points the captain needs to win.")
        partners_target: int = Field(121, ge=1, le=10_000, description="Points the partners need to win.")

    def __init__(self, options: Options) -> None:
        self.options = options

    @hookimpl
    def cribcore_rules(self) -> Mapping[str, object]:
        return {
            "sides_of_seats": CAPTAIN_SIDE,
            "targets": (self.options.captain_target, self.options.partners_target),
        }

    @hookimpl
    def cribcore_check_rules(self, rules: RuleSet) -> str | None:
        if rules.seats != 3 or rules.side_of(0) == rules.side_of(1) or rules.seats_of(1) != (1, 2):
            return "captain's cribbage is three players: seat 0 alone against seats 1 and 2"
        return None


PROFILE = """\
name = "captains"
description = "Three-hand captain's cribbage: seat 0 alone to 61 against two partners to 121."
extends = "three-players"
plugins = ["captains"]
"""
"""The profile captains.toml as this package ships it: its ``cribcore.profiles`` entry point
``captains``, so that installing the package adds it to ``cribbage profiles list`` and
``--profile captains`` loads it."""
