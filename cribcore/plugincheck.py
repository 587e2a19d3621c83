"""Trying a profile's plugins before anyone plays: load them, check what they declare, and play one
short seeded game unattended.

``cribbage profiles validate FILE`` and ``cribbage plugins --check NAME`` use this, so that a plugin
that raises, returns the wrong type, names a hook that does not exist or declares what its show does not
do shows its one-line error there rather than in the middle of somebody's game (or, for a wrong
declaration, in scores that are silently wrong).
"""

from __future__ import annotations

import random

from .cards import FULL_DECK, Card, format_cards
from .engine import Game
from .players import SimplePlayer
from .pluginmanager import PluginError, plugin_manager
from .profiles import Profile, resolved_profile
from .rulebook import recording, rulebook_for, show_class

__all__ = ["CHECK_SEED", "SUIT_SAMPLES", "check_show_classes", "plugin_profile", "try_profile"]

CHECK_SEED = 0
"""The seed of the trial game, so that a failure is the same each time it is checked."""

SUIT_SAMPLES = 500
"""Hands `check_show_classes` tries: enough to catch a show that sees a suit of its own, or three
cards of one suit, in every run (a hand of four and a starter holds such a thing about half the time)."""

_TRIES = 200
"""Suit assignments tried for each hand before another member of its class is given up (a flush's
class is built directly; the others are found within a few tries)."""


def try_profile(profile: Profile, seed: int = CHECK_SEED) -> Game:
    """Play one whole game under ``profile`` with simple computer players in every seat; return it.

    Raises `cribcore.pluginmanager.PluginError` when a plugin's hook fails or its declaration does not
    hold (`check_show_classes`), and `ProfileError` (or `UnknownPlugin`) when its plugins cannot be
    loaded.
    """
    check_show_classes(profile, seed)
    game = Game(profile, seed=seed)
    players = [SimplePlayer() for _ in range(game.rules.seats)]
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
    _ = game.game_points  # asked once the game is over
    return game


def plugin_profile(name: str) -> Profile:
    """The standard game with the one plugin ``name`` at its default options (what ``plugins --check``
    tries)."""
    return resolved_profile({"name": "check", "plugins": [name]}, f"plugin {name!r}")


def check_show_classes(profile: Profile, seed: int = CHECK_SEED, samples: int = SUIT_SAMPLES) -> None:
    """When the profile's show plugins declare that they see suits only as the standard count does
    (``cribcore_show_suits_as_standard``, so that the rules authority keeps show totals by
    `cribcore.rulebook.show_class`), check it on ``samples`` seeded hands and cribs: each, with its
    starter, must score what another member of its class scores, both asked of the hooks. Raises
    `PluginError` naming the declaring plugins, the hook and the two hands that differ; does nothing for
    a profile that declares nothing."""
    book = rulebook_for(profile)
    if not book.shows_by_class:
        return
    rng = random.Random(seed)
    pack = list(book.pack)
    size = profile.rules.hand_size
    with recording(profile) as asked:  # every total from the hooks, none from the class cache
        for sample in range(samples):
            crib = sample % 2 == 1
            size_now = profile.rules.crib_size if crib else size
            *cards, starter = rng.sample(pack, size_now + 1)
            other = _class_mate(cards, starter, rng)
            if other is None:
                continue
            dealer = 0 if crib else 1
            scored = asked.show_total(cards, starter, crib=crib, seat=0, dealer=dealer)
            mate = asked.show_total(other[0], other[1], crib=crib, seat=0, dealer=dealer)
            if scored != mate:
                kind = "crib" if crib else "hand"
                manager = plugin_manager(profile.plugins, profile.options)
                declaring = manager.hook.cribcore_show_suits_as_standard.get_hookimpls()
                raise PluginError(
                    ", ".join(dict.fromkeys(impl.plugin_name for impl in declaring)),
                    "cribcore_show_suits_as_standard",
                    f"declares that the show sees suits only through flushes and nobs, but the {kind} "
                    f"{format_cards(cards)} with {starter} scores {scored} and "
                    f"{format_cards(other[0])} with {other[1]} scores {mate}",
                )


def _class_mate(cards: list[Card], starter: Card, rng: random.Random) -> tuple[list[Card], Card] | None:
    """Another hand and starter of the same ranks and `show_class` with the suits drawn anew (``None``
    when no other suits were found)."""
    wanted = show_class(cards, starter)
    ranks = [card.index >> 2 for card in cards]
    cut = starter.index >> 2
    for _ in range(_TRIES):
        if wanted[2] <= 1:  # a flush: one suit for the hand, the starter's by the class
            suit = rng.randrange(4)
            suits = [suit] * len(ranks)
            cut_suit = suit if wanted[2] == 0 else rng.choice([s for s in range(4) if s != suit])
        else:
            suits = [rng.randrange(4) for _ in ranks]
            cut_suit = rng.randrange(4)
        indices = [rank << 2 | suit for rank, suit in zip(ranks, suits, strict=True)]
        indices.append(cut << 2 | cut_suit)
        if len(set(indices)) < len(indices):
            continue
        hand = [FULL_DECK[index] for index in indices[:-1]]
        cut_card = FULL_DECK[indices[-1]]
        if show_class(hand, cut_card) == wanted and (hand, cut_card) != (cards, starter):
            return hand, cut_card
    return None
