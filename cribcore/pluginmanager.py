"""Finding and loading plugins: the ``cribcore.plugins`` entry-point group, loaded only on request.

Installing a package never changes a game: a plugin is imported only when a profile names it. The
built-in ``standard`` plugin is registered in the same group as third-party plugins and is loaded first
for every game.
"""

from __future__ import annotations

import functools
from importlib.metadata import EntryPoint, entry_points

import pluggy

from . import hookspecs

__all__ = ["BASE_PLUGIN", "ENTRY_POINT_GROUP", "UnknownPlugin", "available", "plugin_manager"]

ENTRY_POINT_GROUP = "cribcore.plugins"
BASE_PLUGIN = "standard"


class UnknownPlugin(ValueError):
    """A profile names a plugin that is not installed, or that fails to load."""


def available() -> dict[str, EntryPoint]:
    """The installed plugins by name, without importing any of them."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def _load(name: str, found: dict[str, EntryPoint]) -> object:
    entry = found.get(name)
    if entry is None:
        known = ", ".join(sorted(found)) or "none"
        raise UnknownPlugin(f"unknown plugin {name!r} (installed: {known})")
    try:
        plugin: object = entry.load()
    except Exception as exc:  # a broken third-party plugin must not crash the program
        raise UnknownPlugin(f"plugin {name!r} failed to load: {exc}") from exc
    return plugin


@functools.lru_cache(maxsize=32)
def plugin_manager(names: tuple[str, ...] = ()) -> pluggy.PluginManager:
    """A plugin manager with the hookspecs, the standard plugin and the named plugins, in that order.

    Managers are cached per tuple of names: they hold no game state, so games share them.
    Raises `UnknownPlugin` when a name is not installed or fails to import.
    """
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    found = available()
    for name in (BASE_PLUGIN, *(n for n in names if n != BASE_PLUGIN)):
        plugin = _load(name, found)
        try:
            pm.register(plugin, name=name)
        except (ValueError, pluggy.PluginValidationError) as exc:
            raise UnknownPlugin(f"plugin {name!r} cannot be registered: {exc}") from exc
    pm.check_pending()
    return pm
