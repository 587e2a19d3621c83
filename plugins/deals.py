"""What the variants that change the deal share: their rules come from a fixed deal plus their options.

Five-card, seven-card, three-player and four-player cribbage each set the seats and the cards of a deal
(`DealVariant.DEAL`) and take a target (and four-player, partnerships) as options. This helper is a
plugin base, not part of the engine: the engine sees only the hooks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from cribcore.hookspecs import hookimpl
from cribcore.rules import RuleSet


class DealVariant:
    """A variant whose `RuleSet` values are `DEAL` plus the options that are rule fields."""

    DEAL: ClassVar[Mapping[str, object]]
    """The fixed rule values: seats, cards_dealt, discards, crib_from_pack."""
    REASON: ClassVar[str]
    """Why a profile whose rules differ from `DEAL` is refused (one line)."""

    def __init__(self, options: BaseModel) -> None:
        self.options: Any = options

    @hookimpl
    def cribcore_rules(self) -> Mapping[str, object]:
        chosen = {k: v for k, v in self.options.model_dump().items() if k in RuleSet.model_fields}
        return {**self.DEAL, **chosen}

    @hookimpl
    def cribcore_check_rules(self, rules: RuleSet) -> str | None:
        if any(getattr(rules, key) != value for key, value in self.DEAL.items()):
            return self.REASON
        return None
