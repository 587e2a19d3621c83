"""Cards: ranks, suits, the immutable `Card` value type, its text form, and the deck.

Text form (docs/rules.md): a rank `A 2 3 4 5 6 7 8 9 T J Q K` (``10`` is accepted for ten) followed by a
suit `C D H S` (the symbols ``♣ ♦ ♥ ♠`` are accepted), in any case. The canonical form is upper case with
``T`` for ten: ``5H``, ``TS``, ``JC``.

A plugin's pack may add cards that are not among the standard 52 (jokers): `Card.extra` makes one, with
the text form the plugin chooses (``X1``) and the rank, suit and count value it has where no plugin
says otherwise. Once made, its text parses like any card's in this process.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "FULL_DECK",
    "STANDARD_CARDS",
    "Card",
    "CardParseError",
    "Rank",
    "Suit",
    "format_cards",
    "parse_card",
    "parse_cards",
]


class CardParseError(ValueError):
    """Raised when a text token is not a card; the message names the bad token."""


class Rank(enum.IntEnum):
    """Card rank, ace low: ``Rank.ACE == 1`` … ``Rank.KING == 13``."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def count_value(self) -> int:
        """Count value: ace 1, two to ten at face value, jack, queen and king 10."""
        return min(int(self), 10)

    @property
    def symbol(self) -> str:
        """One-character text form: ``A 2 … 9 T J Q K``."""
        return _RANK_SYMBOLS[self]


class Suit(enum.Enum):
    """Card suit; the value is the canonical letter."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        """The suit's Unicode symbol, for display."""
        return _SUIT_GLYPHS[self]

    @property
    def is_red(self) -> bool:
        """Whether the suit is red (diamonds, hearts)."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_RANK_SYMBOLS = {rank: "A23456789TJQK"[rank - 1] for rank in Rank}
_SUIT_GLYPHS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_ORDER = {suit: i for i, suit in enumerate(Suit)}

_RANK_BY_TEXT: dict[str, Rank] = {sym: rank for rank, sym in _RANK_SYMBOLS.items()}
_RANK_BY_TEXT["10"] = Rank.TEN
_SUIT_BY_TEXT: dict[str, Suit] = {suit.value: suit for suit in Suit}
_SUIT_BY_TEXT.update({glyph: suit for suit, glyph in _SUIT_GLYPHS.items()})
# The outline symbols are common in fonts and keyboards; accept them as the same suits.
_SUIT_BY_TEXT.update({"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES})


STANDARD_CARDS = 52
"""How many standard cards there are: `Card.index` below this is a standard card's."""

_EXTRA_TEXT = re.compile(r"[A-Z0-9*+]{1,4}")


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Immutable and hashable; ``str(card)`` is the canonical text form.

    Cards order by rank, then suit (clubs, diamonds, hearts, spades), which is the order hands are shown in;
    a plugin's extra cards (`Card.extra`) come after the standard 52. Two cards are equal when they are
    the same card of the pack (the same `index`).
    """

    rank: Rank = field(compare=False)
    suit: Suit = field(compare=False)
    value: int = field(init=False, repr=False, compare=False)
    """Count value used for fifteens and the running count."""
    index: int = field(init=False, repr=False)
    """A dense index: 0..51 (rank-major) for the standard cards, stable across versions; 52 and up for
    a plugin's extra cards, in the order this process first made them. Equality and hashing use it."""
    text: str = field(init=False, repr=False, compare=False)
    """The canonical text form (``str(card)``)."""

    def __post_init__(self) -> None:
        # Derived once: scoring and the engine read these millions of times, the server's messages
        # write the text form hundreds of times a move.
        object.__setattr__(self, "value", self.rank.count_value)
        object.__setattr__(self, "index", (self.rank - 1) * 4 + _SUIT_ORDER[self.suit])
        object.__setattr__(self, "text", f"{self.rank.symbol}{self.suit.value}")

    @classmethod
    def extra(cls, text: str, *, rank: Rank, suit: Suit, value: int | None = None) -> Card:
        """A card outside the standard 52, such as a joker, for a plugin's pack (see ``cribcore_pack``).

        ``text`` is its canonical text form: one to four of ``A-Z 0-9 * +``, upper case, and not the text
        of a standard card (``X1``, ``X2`` for jokers). ``rank``, ``suit`` and ``value`` (the count value,
        by default the rank's) are what the card is wherever no plugin says otherwise: the standard
        scoring, the running count and the computer players read them. A plugin makes it wild in the
        show with ``cribcore_wild_cards`` (`cribcore.wild`). The same text always makes the same card;
        asking for a known text with a different rank, suit or value raises `ValueError`, as does a text
        that is not allowed.
        """
        known = _EXTRA_BY_TEXT.get(text)
        count = rank.count_value if value is None else value
        if known is not None:
            if (known.rank, known.suit, known.value) != (rank, suit, count):
                raise ValueError(f"card {text} is already defined as another card")
            return known
        if not _EXTRA_TEXT.fullmatch(text) or _is_standard_text(text):
            raise ValueError(f"{text!r} cannot name an extra card (1-4 of A-Z 0-9 * +, not a standard card)")
        if not 0 <= count <= 31:
            raise ValueError(f"card {text}: a count value is 0 to 31, not {count}")
        card = cls(rank, suit)
        object.__setattr__(card, "value", count)
        object.__setattr__(card, "index", STANDARD_CARDS + len(_EXTRA_BY_TEXT))
        object.__setattr__(card, "text", text)
        _EXTRA_BY_TEXT[text] = card
        return card

    @property
    def standard(self) -> bool:
        """Whether this is one of the standard 52 cards (not a plugin's extra card)."""
        return self.index < STANDARD_CARDS

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card such as ``5H``, ``10s``, ``j♣``; raise `CardParseError` naming the token."""
        return parse_card(text)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index


FULL_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in Rank for suit in Suit)
"""All 52 cards, in `Card` order."""

_CARD_BY_CANONICAL = {str(card): card for card in FULL_DECK}
_EXTRA_BY_TEXT: dict[str, Card] = {}
"""The extra cards made so far in this process (`Card.extra`), by text."""


def _is_standard_text(key: str) -> bool:
    if key in _CARD_BY_CANONICAL:
        return True
    return len(key) >= 2 and key[:-1] in _RANK_BY_TEXT and key[-1] in _SUIT_BY_TEXT


def parse_card(text: str) -> Card:
    """Parse one card token; the result is one of the shared `FULL_DECK` instances, or an extra card
    (a joker) that a plugin's pack has made in this process (`Card.extra`).

    Raises `CardParseError` with a message naming the token when it is not a card.

    >>> parse_card("10s")
    Card(TS)
    >>> parse_card("j♣") is parse_card("JC")
    True
    >>> parse_card("11S")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cribcore.cards.CardParseError: not a card: 11S (write a rank A 2-9 T J Q K and a suit C D H S, ...)
    """
    token = text.strip()
    key = token.upper()
    card = _CARD_BY_CANONICAL.get(key)
    if card is not None:
        return card
    if len(key) >= 2:
        rank = _RANK_BY_TEXT.get(key[:-1])
        suit = _SUIT_BY_TEXT.get(key[-1])
        if rank is not None and suit is not None:
            return _CARD_BY_CANONICAL[f"{rank.symbol}{suit.value}"]
    extra = _EXTRA_BY_TEXT.get(key)
    if extra is not None:
        return extra
    shown = token if token else repr(text)
    raise CardParseError(
        f"not a card: {shown!s} (write a rank A 2-9 T J Q K and a suit C D H S, e.g. 5H, TS, 10s, J♣)"
    )


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse cards from a string (separated by spaces or commas) or from an iterable of tokens."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(parse_card(token) for token in tokens)


def format_cards(cards: Sequence[Card] | Iterable[Card]) -> str:
    """Canonical text of several cards, separated by single spaces, in the order given."""
    return " ".join(str(card) for card in cards)
