"""Player actions: small immutable values with a canonical text form, and the illegal-action errors.

Text forms: ``discard JC QS``, ``play 7S``, and under muggins ``count 6``, ``muggins 2`` and ``pass``. A
plugin's phase adds its own actions (`PluginAction`), whose text the plugin defines (``bid 3``).
Applying an action that is not legal raises a subclass of `IllegalAction` (itself a `ValueError`) and
leaves the game exactly as it was. Text that is not an action at all raises `ActionParseError` (also a
`ValueError`), so a caller can tell a typo from a move the rules refuse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import Card, CardParseError, format_cards, parse_cards

__all__ = [
    "CLAIM_LIMIT",
    "Action",
    "ActionCardParseError",
    "ActionParseError",
    "BadClaim",
    "BadDiscard",
    "CardNotHeld",
    "Count",
    "Discard",
    "GameOver",
    "IllegalAction",
    "MalformedAction",
    "Muggins",
    "NotYourTurn",
    "OverThirtyOne",
    "Pass",
    "Play",
    "PluginAction",
    "WrongPhase",
    "check_form",
    "parse_action",
]


class ActionParseError(ValueError):
    """Text that `parse_action` cannot read as an action; the message says what an action looks like.
    Unlike `IllegalAction`, it says nothing about the game: the text is not an action anywhere."""


class ActionCardParseError(ActionParseError, CardParseError):
    """An action's text that names something that is not a card (``play 7X``): both an
    `ActionParseError` and a `cribcore.cards.CardParseError`, whose message names the bad token."""


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


class BadClaim(IllegalAction):
    """A declared count or a muggins call outside the allowed range."""


class MalformedAction(IllegalAction):
    """An action whose fields have the wrong types (a card that is not a `Card`, a count that is not a
    whole number)."""


CLAIM_LIMIT = 99
"""The largest number a seat may declare or call for (counts and calls are 0 to this, calls at least 1)."""


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


@dataclass(frozen=True, slots=True)
class Count:
    """Declare ``points`` for one's own play card, hand or crib (muggins)."""

    points: int

    def __str__(self) -> str:
        return f"count {self.points}"


@dataclass(frozen=True, slots=True)
class Muggins:
    """Call muggins on the count just declared, claiming ``points`` missed."""

    points: int

    def __str__(self) -> str:
        return f"muggins {self.points}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Let the count just declared stand (no muggins call)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class PluginAction:
    """An action of a plugin's phase (see `cribcore.phases`): ``text`` is its canonical text form, as the
    plugin lists it in ``cribcore_phase_actions`` (``"bid 3"``, ``"pass"``), and ``phase`` the phase it
    belongs to. Records keep the text; a terminal shows and accepts it as it is."""

    phase: str
    text: str

    def __str__(self) -> str:
        return self.text


Action = Discard | Play | Count | Muggins | Pass | PluginAction
"""Any action a seat may take (`Game.apply` takes one; `parse_action` reads one from its text form)."""


def _is_whole(value: object) -> bool:
    # bool is an int subclass, but True is no count of points.
    return isinstance(value, int) and not isinstance(value, bool)


def check_form(action: object) -> None:
    """Raise `IllegalAction` when ``action`` is not an `Action`, and `MalformedAction` when its fields
    do not have their declared types: what a caller outside Python's type checks (a server, a fuzzer)
    may still send."""
    if isinstance(action, Discard):
        cards = action.cards
        if not isinstance(cards, tuple) or not all(isinstance(card, Card) for card in cards):
            raise MalformedAction("a discard names cards")
    elif isinstance(action, Play):
        if not isinstance(action.card, Card):
            raise MalformedAction("a play names one card")
    elif isinstance(action, Count | Muggins):
        if not _is_whole(action.points):
            raise MalformedAction(f"{type(action).__name__.lower()} takes a whole number of points")
    elif isinstance(action, PluginAction):
        if not (isinstance(action.phase, str) and isinstance(action.text, str)):
            raise MalformedAction("a plugin's action names its phase and its text")
    elif not isinstance(action, Pass):
        raise IllegalAction(f"not an action: a {type(action).__name__}")


_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
"""A count as an action's text writes it (a sign is read, and the game refuses a negative count)."""


def parse_action(text: str) -> Action:
    """Parse ``discard C C…``, ``play C``, ``count N``, ``muggins N`` or ``pass``.

    Raises `ActionParseError` on anything else (an `ActionCardParseError` for a bad card). Whether
    the action is legal is the game's to say (`cribcore.engine.Game.apply`).

    >>> parse_action("play 7S")
    Play(card=Card(7S))
    >>> str(parse_action("discard jc qs"))
    'discard JC QS'
    >>> parse_action("pass")
    Pass()
    >>> parse_action("play 7X")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cribcore.actions.ActionCardParseError: not a card: 7X (write a rank A 2-9 T J Q K and a suit C D H S, ...)
    >>> parse_action("fold")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cribcore.actions.ActionParseError: unknown action 'fold': use 'discard C C', 'play C', ... or 'pass'
    """
    verb, _, rest = text.strip().partition(" ")
    verb = verb.lower()
    if verb == "discard":
        cards = _cards_of(rest)
        if not cards:
            raise ActionParseError("discard needs cards, e.g. 'discard JC QS'")
        return Discard(cards)
    if verb == "play":
        cards = _cards_of(rest)
        if len(cards) != 1:
            raise ActionParseError("play takes exactly one card, e.g. 'play 7S'")
        return Play(cards[0])
    if verb in ("count", "muggins"):
        number = rest.strip()
        try:
            # Written in ASCII digits: `int` alone would also read "1_0" and other scripts' digits.
            if not _WHOLE_NUMBER.fullmatch(number):
                raise ValueError(number)
            points = int(number)
        except ValueError:  # not a number, or more digits than `int` reads
            raise ActionParseError(f"{verb} takes a whole number, e.g. '{verb} 2'") from None
        return Count(points) if verb == "count" else Muggins(points)
    if verb == "pass" and not rest.strip():
        return Pass()
    raise ActionParseError(
        f"unknown action {text.strip()!r}: use 'discard C C', 'play C', 'count N', 'muggins N' or 'pass'"
    )


def _cards_of(text: str) -> tuple[Card, ...]:
    """The cards an action's text names; a bad one raises `ActionCardParseError` with the card's message."""
    try:
        return parse_cards(text)
    except CardParseError as exc:
        raise ActionCardParseError(str(exc)) from None
