"""Cards typed in Spanish, turned into the text form `cribcore.cards.parse_card` reads.

The English form (``7S``, ``10h``, ``K♦``) stays as it is. Spanish suit *letters* would clash with it
(P picas is fine, but C corazones is C clubs), so Spanish suits are written as words: ``picas``,
``corazones``, ``diamantes``, ``tréboles`` (or ``treboles``), after the rank, with or without a space
or ``de`` between: ``7picas``, ``7 picas``, ``7 de picas``. The rank is a number (``2``–``10``), a
letter shared with English (``A`` as, ``J`` jota, ``Q`` reina, ``K`` rey, ``T`` diez), ``R`` for rey,
or a word (``as``, ``jota`` or ``sota``, ``reina`` or ``dama``, ``rey``): ``rey de corazones``, ``R♥``,
``Rcorazones``. Other
Spanish letters are not read (``D`` dama would be diamonds, ``C`` caballo clubs), so nothing typed in
the English form ever means another card.
"""

from __future__ import annotations

import re

__all__ = ["from_spanish"]

_SUITS = {"picas": "S", "corazones": "H", "diamantes": "D", "tréboles": "C", "treboles": "C"}
_RANKS = {"as": "A", "jota": "J", "sota": "J", "reina": "Q", "dama": "Q", "rey": "K", "r": "K"}

_SPANISH = re.compile(
    r"(?<![\w])(10|[2-9]|[atjqkr]|as|jota|sota|reina|dama|rey)\s*(?:de\s+)?(picas|corazones|diamantes|tr[eé]boles)(?![\w])",
    re.IGNORECASE,
)
_KING_SYMBOL = re.compile(r"(?<![\w])r([♣♦♥♠])(?![\w])", re.IGNORECASE)


def from_spanish(text: str) -> str:
    """``text`` with every card written in Spanish replaced by its English text form (``7 de picas``
    -> ``7S``, ``R♥`` -> ``K♥``); everything else is left as it is."""

    def card(match: re.Match[str]) -> str:
        rank = match.group(1).lower()
        return _RANKS.get(rank, rank.upper()) + _SUITS[match.group(2).lower()]

    return _KING_SYMBOL.sub(lambda m: "K" + m.group(1), _SPANISH.sub(card, text))
