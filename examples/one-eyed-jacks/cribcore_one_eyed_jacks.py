"""One-eyed jacks: the jack of spades and the jack of hearts are wild in the show.

A house rule, and a complete third-party cribcore plugin on the wild-card hook. Its rules:

- In the show, each one-eyed jack (J♠, J♥) in a hand or the crib, or turned up as the starter, counts
  as whichever card gives that count the most points: any card not among its other cards and the
  starter (itself included, so a one-eyed jack may still score his nobs). Two in one count choose
  together.
- In the play and for his heels, a one-eyed jack is the jack it is.

The plugin only says which cards are wild and what they may stand for; the rules authority finds the
best substitution for every count and shows it ("J♠ as 4♦").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cribcore.cards import FULL_DECK, Card, parse_cards
from cribcore.hookspecs import hookimpl

ONE_EYED_JACKS = parse_cards("JS JH")
"""The jacks drawn in profile on the cards, showing one eye."""


class OneEyedJacks:
    """One-eyed jacks wild in the show."""

    @hookimpl
    def cribcore_wild_cards(self) -> Mapping[Card, Sequence[Card]]:
        return dict.fromkeys(ONE_EYED_JACKS, FULL_DECK)


PROFILE = """\
name = "one-eyed-jacks"
description = "Six-card cribbage with the one-eyed jacks (J♠ and J♥) wild in the show."
extends = "standard"
plugins = ["one-eyed-jacks"]
"""
"""The profile one-eyed-jacks.toml as this package ships it: its ``cribcore.profiles`` entry point
``one-eyed-jacks``, so that installing the package adds it to ``cribbage profiles list`` and
``--profile one-eyed-jacks`` loads it."""
