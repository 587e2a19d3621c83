"""Words for scores and seats: how the table refers to each seat (`Voice`), and the words for scores
from `cribcore.speech` (what each item is called, a score's reasons, the show counted aloud).

Everything here is pure text; colour and card drawing live in `cribcore.cli.render`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..i18n import LANGUAGES, _, gettext
from ..speech import item_name, number_words, reasons, spoken_play, spoken_show, spoken_starter

if TYPE_CHECKING:  # only a hint: the rules are pydantic models, which describing a score never needs
    from ..rules import RuleSet

__all__ = [
    "Voice",
    "is_default_you",
    "item_name",
    "local_name",
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
            return _("The table")
        return _("You") if seat == self.you else self.names[seat]

    def pick(self, seat: int | None, you: str, other: str) -> str:
        """The template for ``seat``: ``you`` (second person, already translated) for the addressed
        seat, else ``other`` with ``{name}`` filled in (braces in a name stay as they are). Whole
        sentences per person, so that each language conjugates its own verbs."""
        if seat is not None and seat == self.you:
            return you
        name = self.subject(seat).replace("{", "{{").replace("}", "}}")
        return other.replace("{name}", name)

    def tell(self, seat: int | None, you: str, other: str, **fields: object) -> str:
        """`pick` with the fields filled in: ``tell(s, _("You play {card}"), _("{name} plays {card}"),
        card="7♦")``."""
        return self.pick(seat, you, other).format(**fields)

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

    def side_wins(self, side: int) -> str:
        """``You win``, ``Computer wins``, ``Your side wins``, ``Ann & Cy win``, in the language."""
        members = [seat for seat, s in enumerate(self.sides_of) if s == side]
        if len(members) == 1:
            return self.tell(members[0], _("You win"), _("{name} wins"))
        if self.you in members:
            return _("Your side wins")
        return _("{names} win").format(names=self.side_names[side])

    def result(self, side: int, scores: Sequence[int], target: int | None = None) -> str:
        """Who won and by how much: ``Computer wins, 121 to 98`` (the margin only for two sides). A
        winner whose last count went past the game hole ``target`` pegged out there: ``Ann wins, 121
        (122 counted) to 98``."""
        text = self.side_wins(side)
        if len(scores) == 2:
            winner = str(scores[side])
            if target is not None and scores[side] > target:
                winner = _("{target} ({points} counted)").format(target=target, points=scores[side])
            text = _("{result}, {winner} to {loser}").format(
                result=text, winner=winner, loser=scores[1 - side]
            )
        return text

    def goal(self, rules: RuleSet) -> str:
        """What ends the game: ``first to 121``, or with a target per side ``Ann to 61, Bo & Cy to 121``."""
        targets = tuple(rules.target_of(side) for side in range(rules.sides))
        if len(set(targets)) == 1:
            return _("first to {target}").format(target=targets[0])
        pairs = zip(self.side_names, targets, strict=False)
        return ", ".join(_("{name} to {target}").format(name=name, target=target) for name, target in pairs)

    def scores(self, scores: Sequence[int]) -> str:
        """The score per side: ``You 12 · Computer 18``. When a name ends in a digit (``Computer 1``,
        ``Player 2``) a colon tells the name from the score: ``Computer 1: 3 · Computer 2: 0``."""
        pairs = list(zip(self.side_names, scores, strict=False))
        if any(name[-1:].isdigit() for name, _points in pairs):
            return " · ".join(f"{name}: {points}" for name, points in pairs)
        return " · ".join(f"{name} {points}" for name, points in pairs)


def _defaults(lang: str) -> dict[str, str]:
    """The names the table gives seats that were not named (`cribcore.cli.play.seat_names`) in
    ``lang``, each with its English form."""
    names = {gettext("You", lang): "You", gettext("Computer", lang): "Computer"}
    for number in range(1, 5):
        names[gettext("Computer {number}", lang).format(number=number)] = f"Computer {number}"
        names[gettext("Player {number}", lang).format(number=number)] = f"Player {number}"
    return names


def is_default_you(name: str) -> bool:
    """Whether ``name`` is the name a lone human gets when not named ("You", in Spanish "Tú"), in any
    language: a sentence cannot take it as a name ("Review of You")."""
    return any(_defaults(lang).get(name) == "You" for lang in LANGUAGES)


def local_name(name: str) -> str:
    """``name`` in the current language when it is a default name given in another ("You" in an
    English save, shown in a Spanish question as "Tú"); a name a person chose is never changed."""
    for lang in LANGUAGES:
        english = _defaults(lang).get(name)
        if english is None:
            continue
        word, _space, number = english.partition(" ")
        if word == "You":
            return _("You")
        if not number:
            return _("Computer")
        if word == "Computer":
            return _("Computer {number}").format(number=number)
        return _("Player {number}").format(number=number)
    return name
