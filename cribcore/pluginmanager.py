"""Finding and loading plugins: the ``cribcore.plugins`` entry-point group, loaded only on request.

Installing a package never changes a game: a plugin is imported only when a profile names it. The
built-in ``standard`` plugin is registered in the same group as third-party plugins and is loaded first
for every game.

An entry point names either a module of hook functions, or a class. A class may declare its options as
a pydantic model in a class attribute ``Options``; a profile's ``[options.<plugin>]`` table is validated
against it (unknown keys rejected) and the class is instantiated with the result, so its hook methods
read ``self.options``. A plugin's summary is the first line of its docstring.

Third-party plugins fail cleanly. At load, a plugin attribute named ``cribcore_*`` must be a hook of
cribcore marked with ``hookimpl`` (a misspelt hook, or a hook without the marker, would silently never
be called): otherwise the plugin is refused with one line naming the closest real hook. In a game, each
hook implementation of a plugin that is not built in runs guarded (the plugin is wrapped before it is
registered, so pluggy holds and calls the guarded implementations): an exception it raises, or a result
that is not of the hookspec's return type, becomes a `PluginError` naming the plugin, the hook and the
error. The built-in plugins (``cribcore_plugins``) are not guarded, so the standard game pays nothing.
A new-style wrapper (``wrapper=True``) is guarded around its own code only: what the implementations it
wraps raise comes out of its ``yield`` and passes through unchanged. Old-style ``hookwrapper=True``
implementations are not guarded.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import json
import types
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import pluggy
from pydantic import BaseModel

from . import hookspecs
from .problems import PluginError

__all__ = [
    "BASE_PLUGIN",
    "ENTRY_POINT_GROUP",
    "PluginError",
    "PluginInfo",
    "UnknownPlugin",
    "available",
    "clear_caches",
    "describe",
    "distribution_versions",
    "each_plugin",
    "generation",
    "load_plugin",
    "options_model",
    "plugin_manager",
    "plugin_versions",
]

ENTRY_POINT_GROUP = "cribcore.plugins"
"""The entry-point group plugins are registered in, built-in and third-party alike."""
BASE_PLUGIN = "standard"
"""The built-in plugin of the standard rules, loaded first for every game."""


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


HOOK_NAMES: frozenset[str] = frozenset(
    name for name, _ in inspect.getmembers(hookspecs, inspect.isfunction) if name.startswith("cribcore_")
)
"""Every hook a plugin may implement."""

_BUILT_IN = "cribcore_plugins"


def _check_hook_names(name: str, plugin: object) -> None:
    """Refuse a plugin with a ``cribcore_*`` function that is not a marked hook implementation."""
    marker = f"{hookspecs.PROJECT}_impl"
    for attr in sorted(dir(plugin)):
        if not attr.startswith("cribcore_"):
            continue
        value = getattr(plugin, attr, None)
        if not inspect.isroutine(value):
            continue
        if attr not in HOOK_NAMES:
            close = difflib.get_close_matches(attr, sorted(HOOK_NAMES), n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise UnknownPlugin(f"plugin {name!r}: {attr} is not a cribcore hook{hint}")
        if getattr(value, marker, None) is None:
            raise UnknownPlugin(
                f"plugin {name!r}: {attr} is not marked with @hookimpl (from cribcore.hookspecs), "
                "so it would never be called"
            )


def _is_built_in(plugin: object) -> bool:
    where = plugin.__name__ if isinstance(plugin, types.ModuleType) else type(plugin).__module__
    return where == _BUILT_IN or where.startswith(f"{_BUILT_IN}.")


def _checker(kind: Any) -> Callable[[object], bool]:
    """A cheap test that a value is of the type ``kind`` (the forms hookspecs use: None, unions,
    ``Sequence[X]``, ``Mapping[K, V]``, ``tuple[X, Y]``, ``list[X]`` and classes)."""
    origin, args = get_origin(kind), get_args(kind)
    if kind is None or kind is type(None):
        return lambda value: value is None
    if kind is object or kind is Any:
        return lambda value: True
    if origin in (Union, types.UnionType):
        parts = [_checker(arg) for arg in args]
        return lambda value: any(part(value) for part in parts)
    if origin is tuple:
        items = [_checker(arg) for arg in args]
        return lambda value: (
            isinstance(value, tuple)
            and len(value) == len(items)
            and all(check(v) for check, v in zip(items, value, strict=True))
        )
    if origin in (Sequence, list):
        item = _checker(args[0]) if args else _checker(object)
        return lambda value: (
            isinstance(value, (list, tuple)) and all(item(v) for v in value)  # not str: a hook never means it
        )
    if origin is Mapping:
        key, val = (_checker(args[0]), _checker(args[1])) if args else (_checker(object),) * 2
        return lambda value: isinstance(value, Mapping) and all(key(k) and val(v) for k, v in value.items())
    if kind is int:
        return lambda value: isinstance(value, int) and not isinstance(value, bool)
    if isinstance(kind, type):
        return lambda value: isinstance(value, kind)
    raise TypeError(f"no check for {kind!r}")  # pragma: no cover - a new form in hookspecs


@dataclass(frozen=True, slots=True)
class _Contract:
    """What a hook's implementations must return: as an implementation and as a wrapper."""

    text: str
    check: Callable[[object], bool]
    wrapper_text: str
    wrapper_check: Callable[[object], bool]


@functools.cache
def _contracts() -> dict[str, _Contract]:
    contracts = {}
    for name in HOOK_NAMES:
        spec = getattr(hookspecs, name)
        kind = get_type_hints(spec)["return"]
        text = str(inspect.signature(spec).return_annotation)
        if spec.cribcore_spec.get("firstresult"):
            wrapper_kind, wrapper_text = kind, text
        else:
            wrapper_kind, wrapper_text = list[kind], f"a list of ({text})"  # type: ignore[valid-type]
        contracts[name] = _Contract(text, _checker(kind), wrapper_text, _checker(wrapper_kind))
    return contracts


def _wrong_type(value: object, expected: str) -> str:
    shown = repr(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return f"returned {shown} ({type(value).__name__}), not {expected}"


def _failure(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"raised {type(exc).__name__}" + (f": {text}" if text else "")


def _guard(
    function: Callable[..., Any], plugin: str, hook: str, contract: _Contract, *, wrapper: bool
) -> Callable[..., Any]:
    """``function``, the implementation of ``hook`` by ``plugin``, guarded: its exceptions and wrong
    results become `PluginError`. It keeps the function's signature (pluggy reads the arguments it
    names from it) and hookimpl marker."""

    def guarded(*args: Any, **kwargs: Any) -> Any:
        try:
            result = function(*args, **kwargs)
        except PluginError:
            raise
        except Exception as exc:
            raise PluginError(plugin, hook, _failure(exc)) from exc
        if not contract.check(result):
            raise PluginError(plugin, hook, _wrong_type(result, contract.text))
        return result

    def guarded_wrapper(*args: Any, **kwargs: Any) -> Generator[None, Any, Any]:
        # The inner implementations run at our ``yield``: what they raise is theirs, and passes
        # through the plugin's generator unchanged; only what the plugin's own code raises is its.
        try:
            generator = function(*args, **kwargs)
            next(generator)
        except StopIteration:
            raise PluginError(plugin, hook, "is a wrapper but did not yield") from None
        except Exception as exc:
            raise PluginError(plugin, hook, _failure(exc)) from exc
        try:
            inner = yield
        except Exception as exc:
            try:
                generator.throw(exc)
            except StopIteration as stop:
                result = stop.value
            except Exception as raised:
                if raised is exc:
                    raise
                raise PluginError(plugin, hook, _failure(raised)) from raised
            else:
                raise PluginError(plugin, hook, "is a wrapper and yielded twice") from None
        else:
            try:
                generator.send(inner)
            except StopIteration as stop:
                result = stop.value
            except Exception as raised:
                raise PluginError(plugin, hook, _failure(raised)) from raised
            else:
                raise PluginError(plugin, hook, "is a wrapper and yielded twice")
        if not contract.wrapper_check(result):
            raise PluginError(plugin, hook, _wrong_type(result, contract.wrapper_text))
        return result

    chosen = guarded_wrapper if wrapper else guarded
    functools.update_wrapper(chosen, function)
    return chosen


class _GuardedPlugin:
    """What is registered for a third-party plugin: its hook implementations guarded, as attributes of
    their own, and every other attribute read from the plugin itself (its ``options``, say)."""

    def __init__(self, name: str, plugin: object) -> None:
        self.__plugin = plugin
        marker = f"{hookspecs.PROJECT}_impl"
        contracts = _contracts()
        for attr in dir(plugin):
            value = getattr(plugin, attr, None)
            opts = getattr(value, marker, None) if inspect.isroutine(value) else None
            if not isinstance(opts, dict) or opts.get("hookwrapper"):  # old-style wrappers: not guarded
                continue
            hook = opts.get("specname") or attr
            contract = contracts.get(hook)
            if contract is None:  # not a hook: pluggy refuses it when it is registered
                continue
            assert value is not None
            guarded = _guard(value, name, hook, contract, wrapper=bool(opts.get("wrapper")))
            setattr(guarded, marker, opts)
            setattr(self, attr, guarded)

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.__plugin, attr)

    def __repr__(self) -> str:
        return f"<guarded {self.__plugin!r}>"


@functools.lru_cache(maxsize=64)
def _cached_manager(names: tuple[str, ...], options_json: str) -> pluggy.PluginManager:
    options: dict[str, dict[str, Any]] = json.loads(options_json)
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    for name in (BASE_PLUGIN, *(n for n in names if n != BASE_PLUGIN)):
        try:
            plugin = _instance(name, load_plugin(name), options.get(name, {}))
        except UnknownPlugin:
            raise
        except Exception as exc:  # a third-party constructor must not crash the program
            raise UnknownPlugin(f"plugin {name!r} failed to start: {_failure(exc)}") from exc
        _check_hook_names(name, plugin)
        if not _is_built_in(plugin):
            plugin = _GuardedPlugin(name, plugin)
        try:
            pm.register(plugin, name=name)
        except (ValueError, pluggy.PluginValidationError) as exc:
            raise UnknownPlugin(f"plugin {name!r} cannot be registered: {exc}") from exc
    pm.check_pending()
    return pm


def each_plugin(pm: pluggy.PluginManager, hook: str, **kwargs: Any) -> list[tuple[str, list[Any]]]:
    """Call the list hook ``hook`` plugin by plugin, in the order pluggy holds its implementations:
    each plugin's name and the results of its implementations alone (a wrapper's answer included), so
    that an answer can be told apart by the plugin that gave it. The calls go through pluggy, like
    every other hook call: an implementation receives just the arguments it names."""
    impls = getattr(pm.hook, hook).get_hookimpls()
    answers = []
    for name in dict.fromkeys(impl.plugin_name for impl in impls):
        others = [impl.plugin for impl in impls if impl.plugin_name != name]
        answers.append((name, list(pm.subset_hook_caller(hook, others)(**kwargs))))
    return answers


def plugin_manager(
    names: tuple[str, ...] = (), options: Mapping[str, Mapping[str, Any]] | None = None
) -> pluggy.PluginManager:
    """A plugin manager with the hookspecs, the standard plugin and the named plugins, in that order,
    each plugin class instantiated with its (already validated) ``options``.

    Managers are cached per names and options: they hold no game state, so games share them.
    Raises `UnknownPlugin` when a name is not installed or fails to import.
    """
    return _cached_manager(names, json.dumps(options or {}, sort_keys=True))


def plugin_versions(names: Sequence[str]) -> dict[str, str]:
    """The installed distribution version of each third-party plugin in ``names`` (those whose
    distribution is known), without importing any of them. The built-in plugins are left out: they
    are part of cribcore, whose version they share."""
    return {name: version for name, version, built_in in _versions(tuple(names)) if version and not built_in}


def distribution_versions(names: Sequence[str]) -> dict[str, str]:
    """The installed distribution version of every plugin in ``names``, the built-in ones included
    (cribcore's), and ``"?"`` for one without a distribution (a plugin registered by a test)."""
    return {name: version or "?" for name, version, _ in _versions(tuple(names))}


@functools.lru_cache(maxsize=64)
def _versions(names: tuple[str, ...]) -> tuple[tuple[str, str | None, bool], ...]:
    """(name, its distribution's version or ``None``, whether it is built in) for each of ``names``."""
    # Cached: records are written after every move of a saved game, and scanning entry points is slow.
    found = available()
    versions = []
    for name in names:
        entry = found.get(name)
        dist = entry.dist if entry is not None else None
        built_in = entry is not None and entry.module.partition(".")[0] == _BUILT_IN
        versions.append((name, dist.version if dist is not None else None, built_in))
    return tuple(versions)


def clear_caches() -> None:
    """Forget loaded plugins and managers (after plugins are installed or removed in this process)."""
    load_plugin.cache_clear()
    _cached_manager.cache_clear()
    _versions.cache_clear()
    _generation[0] += 1


_generation = [0]


def generation() -> int:
    """How many times `clear_caches` has run in this process: a cache of anything built from the
    managers is stale once this changes."""
    return _generation[0]


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
