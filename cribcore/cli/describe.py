"""Words for scores and seats: how the table refers to each seat (`Voice`), and the words for scores
from `cribcore.speech` (what each item is called, a score's reasons, the show counted aloud).

Everything here is pure text; colour and card drawing live in `cribcore.cli.render`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..speech import item_name, number_words, reasons, spoken_play, spoken_show, spoken_starter

if TYPE_CHECKING:  # only a hint: the rules are pydantic models, which describing a score never needs
    from ..rules import RuleSet

__all__ = [
    "Voice",
    "item_name",
    "number_words",
    "reasons",
    "spoken_play",
    "spoken_show",
    "spoken_starter",
]


@dataclass(frozen=True, slots=True)
class Voice:
    """How the table refers to seats and sides. The seat ``you`` (the one human at the table, if any)
    is addressed in the second person: "You play 7♦", "your crib"; every other seat by its name."""

    names: tuple[str, ...]
    side_names: tuple[str, ...]
    sides_of: tuple[int, ...]
    """The side each seat plays for."""
    you: int | None = None

    @classmethod
    def for_game(cls, names: Sequence[str], rules: RuleSet, you: int | None = None) -> Voice:
        sides: list[list[str]] = [[] for _ in range(rules.sides)]
        for seat, name in enumerate(names):
            sides[rules.side_of(seat)].append(name)
        sides_of = tuple(rules.side_of(seat) for seat in range(len(names)))
        return cls(tuple(names), tuple(" & ".join(side) for side in sides), sides_of, you)

    def subject(self, seat: int | None) -> str:
        """``You`` for the addressed seat, else the seat's name."""
        if seat is None:
            return "The table"
        return "You" if seat == self.you else self.names[seat]

    def does(self, seat: int | None, verb: str) -> str:
        """Subject and verb agreeing: ``You play`` / ``Computer plays``."""
        third = verb if seat == self.you else f"{verb}es" if verb.endswith(("s", "sh")) else f"{verb}s"
        return f"{self.subject(seat)} {third}"

    def side_does(self, side: int, verb: str) -> str:
        """Subject and verb for a side: ``You win``, ``Computer wins``, ``Ann & Cy win``."""
        members = [seat for seat, s in enumerate(self.sides_of) if s == side]
        if len(members) == 1:
            return self.does(members[0], verb)
        if self.you in members:
            return f"Your side {verb}s"
        return f"{self.side_names[side]} {verb}"

    def owner(self, seat: int) -> str:
        """Possessive: ``your`` / ``Computer's``."""
        return "your" if seat == self.you else f"{self.names[seat]}'s"

    def result(self, side: int, scores: Sequence[int]) -> str:
        """Who won and by how much: ``Computer wins, 121 to 98`` (the margin only for two sides)."""
        text = self.side_does(side, "win")
        if len(scores) == 2:
            text += f", {scores[side]} to {scores[1 - side]}"
        return text

    def goal(self, rules: RuleSet) -> str:
        """What ends the game: ``first to 121``, or with a target per side ``Ann to 61, Bo & Cy to 121``."""
        targets = tuple(rules.target_of(side) for side in range(rules.sides))
        if len(set(targets)) == 1:
            return f"first to {targets[0]}"
        pairs = zip(self.side_names, targets, strict=False)
        return ", ".join(f"{name} to {target}" for name, target in pairs)

    def scores(self, scores: Sequence[int]) -> str:
        """The score per side: ``You 12 · Computer 18``."""
        return " · ".join(f"{name} {points}" for name, points in zip(self.side_names, scores, strict=False))
