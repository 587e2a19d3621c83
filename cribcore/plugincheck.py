"""Trying a profile's plugins before anyone plays: load them and play one short seeded game unattended.

``cribbage profiles validate FILE`` and ``cribbage plugins --check NAME`` use this, so that a plugin
that raises, returns the wrong type or names a hook that does not exist shows its one-line error there
rather than in the middle of somebody's game.
"""

from __future__ import annotations

from .engine import Game
from .players import SimplePlayer
from .profiles import Profile, resolved_profile

__all__ = ["CHECK_SEED", "plugin_profile", "try_profile"]

CHECK_SEED = 0
"""The seed of the trial game, so that a failure is the same each time it is checked."""


def try_profile(profile: Profile, seed: int = CHECK_SEED) -> Game:
    """Play one whole game under ``profile`` with simple computer players in every seat; return it.

    Raises `cribcore.pluginmanager.PluginError` when a plugin's hook fails, and `ProfileError` (or
    `UnknownPlugin`) when its plugins cannot be loaded.
    """
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
