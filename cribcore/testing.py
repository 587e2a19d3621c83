"""Helpers for testing a cribcore plugin with pytest: games on chosen deals, one-plugin profiles,
scripted games, a plugin registered in-process for the length of a test, and a recorder of hook calls.

Everything here is plain functions and context managers, usable from any test. To get the fixtures
as well, opt in from a test module (nothing is loaded into projects that do not ask)::

    pytest_plugins = ["cribcore.testing"]

    def test_my_rule(register_plugin, hook_recorder):
        register_plugin("my-rule", MyRule)
        profile = one_plugin_profile("my-rule", level=2)
        calls = hook_recorder(profile)
        game = play_script(Game(profile, seed=1), "discard 5H 5D", ...)
        assert calls.getcalls("cribcore_check_discard")

Registering in-process changes only this process, and is undone when the test (or the ``with``
block) ends; the plugin's distribution need not be installed.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint
from typing import Any

import pluggy
import pytest

from . import pluginmanager
from .actions import parse_action
from .cards import parse_card, parse_cards
from .deals import DealCards, RecordedDeals
from .engine import Game
from .players import RandomPlayer
from .profiles import Profile, load_profile, resolved_profile
from .rulebook import recording
from .rules import RuleSet

__all__ = [
    "DealSpec",
    "HookCall",
    "HookRecorder",
    "hook_recorder",
    "one_plugin_profile",
    "play_out",
    "play_script",
    "record_hooks",
    "register_plugin",
    "registered",
    "stacked_game",
    "variant",
]

DealSpec = tuple[Sequence[str], str]
"""One stacked deal: each seat's cards as dealt (text, seat by seat) and the starter."""


def stacked_game(
    *deals: DealSpec,
    dealer: int = 0,
    rules: RuleSet | None = None,
    crib_cards: str = "",
    profile: Profile | None = None,
) -> Game:
    """A game whose deals are exactly ``deals`` (then it waits, in `Phase.WAITING`), first dealt by
    ``dealer``, under ``profile`` (or the standard rules, or ``rules`` with no variant plugin).

    >>> game = stacked_game((("5H 5D JC QS 4H 6C", "2S 7D 8C KH AD 9S"), "5S"))
    >>> sorted(str(card) for card in game.view(0).hand)
    ['4H', '5D', '5H', '6C', 'JC', 'QS']
    """
    cards = [
        DealCards(
            hands=tuple(parse_cards(hand) for hand in hands),
            crib_cards=parse_cards(crib_cards),
            starter=parse_card(starter),
        )
        for hands, starter in deals
    ]
    if profile is None and rules is not None:
        profile = Profile(name="stacked", rules=rules)
    return Game(profile, seed=0, deals=RecordedDeals([dealer], cards))


def variant(name: str, *, rules: Mapping[str, Any] | None = None, **options: Mapping[str, Any]) -> Profile:
    """A built-in (or file) profile with some rules or plugin options changed, checked as a record's
    profile is (``variant("five-card", five_card={"target": 31})``: underscores in a plugin's name
    stand for dashes)."""
    data = load_profile(name).model_dump(mode="json")
    data["rules"].update(rules or {})
    for plugin, values in options.items():
        data["options"][plugin.replace("_", "-")].update(values)
    return resolved_profile(data, f"{name} (test)")


def one_plugin_profile(
    plugin: str, options: Mapping[str, Any] | None = None, *, rules: Mapping[str, Any] | None = None
) -> Profile:
    """The standard game with the one plugin ``plugin`` (installed, or `registered`) and its
    ``options``, resolved and checked as a profile file naming it would be."""
    data: dict[str, Any] = {"name": plugin, "plugins": [plugin], "rules": dict(rules or {})}
    if options:
        data["options"] = {plugin: dict(options)}
    return resolved_profile(data, f"profile with {plugin}")


def play_script(game: Game, *actions: str) -> Game:
    """Apply ``actions`` (text forms: ``discard 5H 5D``, ``play 7S``, ``count 6``, ``muggins 2``,
    ``pass``), each by the seat whose turn it is; return the game. An illegal action raises the
    engine's `IllegalAction`, so a test can expect it.

    Discards are taken in seat order: the seat to act is the first that has not discarded."""
    for text in actions:
        game.apply(game.to_act[0], parse_action(text))
    return game


def play_out(game: Game, seed: int = 0) -> Game:
    """Play ``game`` with random (legal) players seeded from ``seed`` until it is over, or until it waits
    for a deal that is not there (a `stacked_game` after its last deal); return it."""
    players = [RandomPlayer(seed + seat) for seat in range(game.rules.seats)]
    while not game.is_over and game.to_act:
        seat = game.to_act[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
    return game


_MODULE_PREFIX = "cribcore_testing_registered_"


@contextmanager
def registered(name: str, plugin: object) -> Iterator[None]:
    """Make ``plugin`` (a module, a class, or an object with hook methods) the plugin called ``name``
    in this process until the block ends, as if a distribution registered it in the
    ``cribcore.plugins`` entry-point group. It replaces an installed plugin of that name."""
    module_name = _MODULE_PREFIX + "".join(c if c.isalnum() else "_" for c in name)
    module = types.ModuleType(module_name)
    module.plugin = plugin  # type: ignore[attr-defined]
    entry = EntryPoint(name=name, value=f"{module_name}:plugin", group=pluginmanager.ENTRY_POINT_GROUP)
    before = pluginmanager.available
    previous_module = sys.modules.get(module_name)

    def available() -> dict[str, EntryPoint]:
        return {**before(), name: entry}

    sys.modules[module_name] = module
    pluginmanager.available = available
    pluginmanager.clear_caches()
    try:
        yield
    finally:
        pluginmanager.available = before
        if previous_module is None:
            sys.modules.pop(module_name, None)
        else:
            sys.modules[module_name] = previous_module
        pluginmanager.clear_caches()


@dataclass(frozen=True, slots=True)
class HookCall:
    """One call of a hook: its name, its keyword arguments, and what it returned (``None`` when it
    raised: see ``error``)."""

    name: str
    kwargs: Mapping[str, Any]
    result: Any
    error: BaseException | None = None


@dataclass
class HookRecorder:
    """Every hook call made by games under one profile while it records (in the style of pytest's
    ``HookRecorder``)."""

    calls: list[HookCall] = field(default_factory=list)

    def getcalls(self, name: str) -> list[HookCall]:
        """The calls of the hook ``name`` (``cribcore_show_items`` or just ``show_items``), in order."""
        full = name if name.startswith("cribcore_") else f"cribcore_{name}"
        return [call for call in self.calls if call.name == full]

    def clear(self) -> None:
        """Forget the calls recorded so far."""
        self.calls.clear()


@contextmanager
def record_hooks(profile: Profile) -> Iterator[HookRecorder]:
    """Record every hook call of the games played under ``profile`` (pluggy's call monitoring on the
    profile's plugin manager, which every game of that profile shares) until the block ends.

    While it records, the profile's rules authority keeps no answers (`cribcore.rulebook.recording`):
    every question a game asks reaches the hooks, so the same seeded game records the same calls
    each time it is played, whatever ran before. Hooks that only the standard plugin implements are
    answered without a hook call, and tables the computer players build once per profile are not
    built again."""
    pm = pluginmanager.plugin_manager(profile.plugins, profile.options)
    recorder = HookRecorder()
    pending: list[tuple[str, Mapping[str, Any]]] = []

    def before(hook_name: str, hook_impls: Sequence[Any], kwargs: Mapping[str, Any]) -> None:
        pending.append((hook_name, dict(kwargs)))

    def after(outcome: pluggy.Result[Any], hook_name: str, hook_impls: Sequence[Any], kwargs: Any) -> None:
        name, given = pending.pop()
        error = outcome.exception
        result = None if error is not None else outcome.get_result()
        recorder.calls.append(HookCall(name, given, result, error))

    undo = pm.add_hookcall_monitoring(before, after)
    try:
        with recording(profile):
            yield recorder
    finally:
        undo()


# ---------------------------------------------------------------- fixtures (opt in: see above)


@pytest.fixture
def register_plugin() -> Iterator[Callable[[str, object], None]]:
    """``register_plugin(name, plugin)``: `registered` for the rest of the test."""
    with ExitStack() as stack:

        def register(name: str, plugin: object) -> None:
            stack.enter_context(registered(name, plugin))

        yield register


@pytest.fixture
def hook_recorder() -> Iterator[Callable[[Profile], HookRecorder]]:
    """``hook_recorder(profile)``: a `HookRecorder` of the hook calls under ``profile`` for the rest of
    the test."""
    with ExitStack() as stack:

        def start(profile: Profile) -> HookRecorder:
            return stack.enter_context(record_hooks(profile))

        yield start
