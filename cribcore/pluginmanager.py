"""Finding and loading plugins: the ``cribcore.plugins`` entry-point group, loaded only on request.

Installing a package never changes a game: a plugin is imported only when a profile names it. The
built-in ``standard`` plugin is registered in the same group as third-party plugins and is loaded first
for every game.

An entry point names either a module of hook functions, or a class. A class may declare its options as
a pydantic model in a class attribute ``Options``; a profile's ``[options.<plugin>]`` table is validated
against it (unknown keys rejected) and the class is instantiated with the result, so its hook methods
read ``self.options``. A plugin's summary is the first line of its docstring.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Literal, get_args, get_origin

import pluggy
from pydantic import BaseModel

from . import hookspecs

__all__ = [
    "BASE_PLUGIN",
    "ENTRY_POINT_GROUP",
    "PluginInfo",
    "UnknownPlugin",
    "available",
    "clear_caches",
    "describe",
    "load_plugin",
    "options_model",
    "plugin_manager",
]

ENTRY_POINT_GROUP = "cribcore.plugins"
BASE_PLUGIN = "standard"


class UnknownPlugin(ValueError):
    """A profile names a plugin that is not installed, or that fails to load."""


def available() -> dict[str, EntryPoint]:
    """The installed plugins by name, without importing any of them."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


@functools.lru_cache(maxsize=64)
def load_plugin(name: str) -> object:
    """Import the plugin registered as ``name`` (a module or a class).

    Raises `UnknownPlugin` naming the installed plugins when ``name`` is not one of them, or the error
    when it fails to import (a broken third-party plugin must not crash the program).
    """
    found = available()
    entry = found.get(name)
    if entry is None:
        known = ", ".join(sorted(found)) or "none"
        raise UnknownPlugin(f"unknown plugin {name!r} (installed: {known})")
    try:
        plugin: object = entry.load()
    except Exception as exc:
        raise UnknownPlugin(f"plugin {name!r} failed to load: {exc}") from exc
    return plugin


def options_model(plugin: object) -> type[BaseModel] | None:
    """The plugin's options model, or ``None`` when it takes no options."""
    model = getattr(plugin, "Options", None)
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def _instance(name: str, plugin: object, options: Mapping[str, Any]) -> object:
    if not isinstance(plugin, type):
        return plugin
    model = options_model(plugin)
    return plugin(model.model_validate(options)) if model is not None else plugin()


@functools.lru_cache(maxsize=64)
def _cached_manager(names: tuple[str, ...], options_json: str) -> pluggy.PluginManager:
    options: dict[str, dict[str, Any]] = json.loads(options_json)
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    for name in (BASE_PLUGIN, *(n for n in names if n != BASE_PLUGIN)):
        plugin = _instance(name, load_plugin(name), options.get(name, {}))
        try:
            pm.register(plugin, name=name)
        except (ValueError, pluggy.PluginValidationError) as exc:
            raise UnknownPlugin(f"plugin {name!r} cannot be registered: {exc}") from exc
    pm.check_pending()
    return pm


def plugin_manager(
    names: tuple[str, ...] = (), options: Mapping[str, Mapping[str, Any]] | None = None
) -> pluggy.PluginManager:
    """A plugin manager with the hookspecs, the standard plugin and the named plugins, in that order,
    each plugin class instantiated with its (already validated) ``options``.

    Managers are cached per names and options: they hold no game state, so games share them.
    Raises `UnknownPlugin` when a name is not installed or fails to import.
    """
    return _cached_manager(names, json.dumps(options or {}, sort_keys=True))


def clear_caches() -> None:
    """Forget loaded plugins and managers (after plugins are installed or removed in this process)."""
    load_plugin.cache_clear()
    _cached_manager.cache_clear()


@dataclass(frozen=True, slots=True)
class PluginInfo:
    """What ``cribbage plugins`` shows of an installed plugin (importing it)."""

    name: str
    version: str
    distribution: str
    summary: str
    hooks: tuple[str, ...]
    options: Mapping[str, tuple[str, object, str]]
    """Each option: its type, its default and its description."""


def describe(name: str) -> PluginInfo:
    """Import the plugin ``name`` and describe it; raises `UnknownPlugin` as `load_plugin` does."""
    plugin = load_plugin(name)
    entry = available()[name]
    dist = entry.dist
    doc = inspect.getdoc(plugin) or ""
    hooks = tuple(
        sorted(
            attr
            for attr in dir(plugin)
            if attr.startswith("cribcore_") and callable(getattr(plugin, attr, None))
        )
    )
    fields: dict[str, tuple[str, object, str]] = {}
    model = options_model(plugin)
    if model is not None:
        for field, info in model.model_fields.items():
            choices = get_args(info.annotation) if get_origin(info.annotation) is Literal else ()
            kind = " or ".join(map(repr, choices)) or getattr(
                info.annotation, "__name__", str(info.annotation)
            )
            fields[field] = (kind, info.default, info.description or "")
    return PluginInfo(
        name=name,
        version=dist.version if dist is not None else "?",
        distribution=dist.metadata["Name"] if dist is not None else "?",
        summary=doc.splitlines()[0] if doc else "",
        hooks=hooks,
        options=fields,
    )
