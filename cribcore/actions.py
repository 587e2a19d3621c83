"""Player actions: small immutable values with a canonical text form, and the illegal-action errors.

Text forms: ``discard JC QS`` and ``play 7S``. Applying an action that is not legal raises a subclass of
`IllegalAction` (itself a `ValueError`) and leaves the game exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, format_cards, parse_cards

__all__ = [
    "Action",
    "BadDiscard",
    "CardNotHeld",
    "Discard",
    "GameOver",
    "IllegalAction",
    "NotYourTurn",
    "OverThirtyOne",
    "Play",
    "WrongPhase",
    "parse_action",
]


class IllegalAction(ValueError):
    """An action that the rules do not allow now. The game is unchanged."""


class NotYourTurn(IllegalAction):
    """The seat may not act now."""


class WrongPhase(IllegalAction):
    """The action belongs to another phase of the deal (a discard during the play, …)."""


class GameOver(IllegalAction):
    """The game has ended; no action is legal."""


class CardNotHeld(IllegalAction):
    """A card named by the action is not in the seat's hand."""


class OverThirtyOne(IllegalAction):
    """The card would take the running count past 31."""


class BadDiscard(IllegalAction):
    """The discard has the wrong number of cards, repeats a card, or a rule forbids it."""


@dataclass(frozen=True, slots=True)
class Discard:
    """Lay ``cards`` away to the crib. Cards are kept sorted so equal discards compare equal."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))

    def __str__(self) -> str:
        return f"discard {format_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class Play:
    """Lay ``card`` on the running count."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card}"


Action = Discard | Play


def parse_action(text: str) -> Action:
    """Parse ``discard C C…`` or ``play C``.

    Raises `ValueError` (a `CardParseError` for a bad card) on anything else.
    """
    verb, _, rest = text.strip().partition(" ")
    verb = verb.lower()
    if verb == "discard":
        cards = parse_cards(rest)
        if not cards:
            raise ValueError("discard needs cards, e.g. 'discard JC QS'")
        return Discard(cards)
    if verb == "play":
        cards = parse_cards(rest)
        if len(cards) != 1:
            raise ValueError("play takes exactly one card, e.g. 'play 7S'")
        return Play(cards[0])
    raise ValueError(f"unknown action {text.strip()!r}: use 'discard C C' or 'play C'")
