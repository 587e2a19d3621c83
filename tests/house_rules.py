"""House rules for tests and benchmarks, installed in-process as third-party plugins would be.

- ``ten-pairs`` makes every pair in the show worth 10. It wraps the show's items, so whatever obeys
  it (the engine, `score`, `analyze`, the players) proves it asks the rulebook and not a private copy of
  the standard count.
- ``play-flush`` scores flushes in the play: when the card just laid makes the last three or more cards
  of the current count (laid one after another, by any seats) all of one suit, the seat that laid it
  scores one point per card of the longest such run of suits, as a hand flush does (three hearts laid in
  a row: 3; a fourth heart next: 4). A count's cards are those laid since it last closed.
- ``fifteens-four`` makes each fifteen in the show worth 4 (a wrapper, like ``ten-pairs``); its profile
  file is ``tests/data/fifteens-four.toml``, for the benchmark of what knowing a rule is worth. Both
  declare that they see suits only as the standard count does (``cribcore_show_suits_as_standard``),
  so that the rulebook keeps their show totals by class.
- ``four-suits``: a hand or crib whose cards with the starter hold all four suits scores 2 in the show,
  an item of its own kind. It tells suits apart beyond flushes and nobs, so ``cribbage stats`` samples it.
- ``pairs-six`` changes the play's pairs and runs: a pair laid in the play scores 6 (three times the
  standard: a pair royal 18, a double pair royal 36) and a run in the play scores double (a run of three:
  6). The show is the standard one; its profile file is
  ``tests/data/pairs-six.toml``.

- ``one-eyed-jacks`` makes J♠ and J♥ wild in the show, on the wild-card hook: the example package
  examples/one-eyed-jacks, loaded from its source (its profile file,
  examples/one-eyed-jacks/one-eyed-jacks.toml, names it ``one-eyed-jacks``).

`install` registers them for a plain script; the fixtures do it for one test.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from collections.abc import Generator, Iterator, Sequence
from dataclasses import replace
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from cribcore import pluginmanager
from cribcore.cards import Card
from cribcore.hookspecs import hookimpl
from cribcore.scoring import FIFTEEN, FLUSH, PAIR, RUN, ScoreItem

PLUGIN = "ten-pairs"
PAIR_POINTS = 10

PLAY_FLUSH = "play-flush"
PLAY_FLUSH_MIN = 3
"""The fewest cards of one suit laid in a row that score in the play."""

FIFTEENS_FOUR = "fifteens-four"
FIFTEEN_POINTS = 4
FIFTEENS_FOUR_PROFILE = Path(__file__).parent / "data" / "fifteens-four.toml"
"""A profile file enabling ``fifteens-four``, loaded by path as a user would."""

FOUR_SUITS = "four-suits"
FOUR_SUITS_POINTS = 2

PROFILE_TOML = f"""\
name = "ten-pairs"
description = "Every pair in the show scores {PAIR_POINTS}."
extends = "standard"
plugins = ["{PLUGIN}"]
"""


def _module() -> types.ModuleType:
    module = types.ModuleType("cribcore_test_ten_pairs")

    @hookimpl(wrapper=True)
    def cribcore_show_items() -> Generator[
        None, list[Sequence[ScoreItem] | None], list[Sequence[ScoreItem] | None]
    ]:
        results = yield
        return [
            [replace(item, points=PAIR_POINTS) if item.kind == PAIR else item for item in result or ()]
            for result in results
        ]

    module.cribcore_show_items = cribcore_show_items  # type: ignore[attr-defined]
    module.cribcore_show_suits_as_standard = _suits_as_standard  # type: ignore[attr-defined]
    return module


@hookimpl
def _suits_as_standard() -> bool:
    # ten-pairs and fifteens-four rewrite the points of ranks only: suits are seen as the standard sees them.
    return True


def play_flush_items(pile: Sequence[Card]) -> list[ScoreItem]:
    """The ``play-flush`` item of the last card of ``pile`` (the current count, in the order laid)."""
    suit = pile[-1].suit
    length = 0
    for card in reversed(pile):
        if card.suit != suit:
            break
        length += 1
    if length < PLAY_FLUSH_MIN:
        return []
    return [ScoreItem(FLUSH, tuple(pile[-length:]), length)]


def _play_flush_module() -> types.ModuleType:
    module = types.ModuleType("cribcore_test_play_flush")

    @hookimpl
    def cribcore_play_items(pile: tuple[Card, ...]) -> Sequence[ScoreItem]:
        return play_flush_items(pile)

    module.cribcore_play_items = cribcore_play_items  # type: ignore[attr-defined]
    return module


def _fifteens_four_module() -> types.ModuleType:
    module = types.ModuleType("cribcore_test_fifteens_four")

    @hookimpl(wrapper=True)
    def cribcore_show_items() -> Generator[
        None, list[Sequence[ScoreItem] | None], list[Sequence[ScoreItem] | None]
    ]:
        results = yield
        return [
            [replace(item, points=FIFTEEN_POINTS) if item.kind == FIFTEEN else item for item in result or ()]
            for result in results
        ]

    module.cribcore_show_items = cribcore_show_items  # type: ignore[attr-defined]
    module.cribcore_show_suits_as_standard = _suits_as_standard  # type: ignore[attr-defined]
    return module


def four_suits_items(cards: Sequence[Card], starter: Card) -> list[ScoreItem]:
    """The ``four-suits`` item of a hand or crib with its starter: 2 when all four suits are there."""
    shown = (*cards, starter)
    if len({card.suit for card in shown}) < 4:
        return []
    return [ScoreItem(FOUR_SUITS, shown, FOUR_SUITS_POINTS)]


def _four_suits_module() -> types.ModuleType:
    module = types.ModuleType("cribcore_test_four_suits")

    @hookimpl
    def cribcore_show_items(cards: tuple[Card, ...], starter: Card) -> Sequence[ScoreItem]:
        return four_suits_items(cards, starter)

    module.cribcore_show_items = cribcore_show_items  # type: ignore[attr-defined]
    return module


PAIRS_SIX = "pairs-six"
PAIRS_SIX_TIMES = {PAIR: 3, RUN: 2}
"""How many times its standard points each kind of play item scores under ``pairs-six``."""
PAIRS_SIX_PROFILE = Path(__file__).parent / "data" / "pairs-six.toml"
"""A profile file enabling ``pairs-six``, loaded by path as a user would."""


def _pairs_six_module() -> types.ModuleType:
    module = types.ModuleType("cribcore_test_pairs_six")

    @hookimpl(wrapper=True)
    def cribcore_play_items() -> Generator[
        None, list[Sequence[ScoreItem] | None], list[Sequence[ScoreItem] | None]
    ]:
        results = yield
        return [
            [replace(item, points=item.points * PAIRS_SIX_TIMES.get(item.kind, 1)) for item in result or ()]
            for result in results
        ]

    module.cribcore_play_items = cribcore_play_items  # type: ignore[attr-defined]
    return module


ONE_EYED_JACKS = "one-eyed-jacks"
ONE_EYED_JACKS_DIR = Path(__file__).resolve().parents[1] / "examples" / "one-eyed-jacks"
ONE_EYED_JACKS_PROFILE = ONE_EYED_JACKS_DIR / "one-eyed-jacks.toml"
"""The profile file that enables ``one-eyed-jacks`` (for scripts and benchmarks: ``--profile`` it)."""


def _one_eyed_jacks_module() -> types.ModuleType:
    name = "cribcore_one_eyed_jacks"
    spec = importlib.util.spec_from_file_location(name, ONE_EYED_JACKS_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_MODULES = {PLUGIN: _module, PLAY_FLUSH: _play_flush_module, ONE_EYED_JACKS: _one_eyed_jacks_module}
_MODULES.update({FIFTEENS_FOUR: _fifteens_four_module, FOUR_SUITS: _four_suits_module})
_MODULES[PAIRS_SIX] = _pairs_six_module
_VALUES = {ONE_EYED_JACKS: "cribcore_one_eyed_jacks:OneEyedJacks"}
"""The entry point of a house rule that is a class rather than its module."""


def install(names: Sequence[str] | None = None) -> None:
    """Register these house rules (``names``, default all) in this process for good (for a script;
    tests use the fixtures)."""
    names = list(_MODULES) if names is None else names
    real = pluginmanager.available()
    added = {}
    for name in names:
        module = _MODULES[name]()
        sys.modules[module.__name__] = module
        value = _VALUES.get(name, module.__name__)
        added[name] = EntryPoint(name=name, value=value, group=pluginmanager.ENTRY_POINT_GROUP)
    pluginmanager.available = lambda: {**real, **added}
    pluginmanager.clear_caches()


def _register(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    module = _MODULES[name]()
    monkeypatch.setitem(sys.modules, module.__name__, module)
    real = pluginmanager.available()
    fake = EntryPoint(
        name=name, value=_VALUES.get(name, module.__name__), group=pluginmanager.ENTRY_POINT_GROUP
    )
    monkeypatch.setattr(pluginmanager, "available", lambda: {**real, name: fake})
    pluginmanager.clear_caches()


@pytest.fixture
def ten_pairs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """Install ``ten-pairs`` in this process and yield a profile file enabling it."""
    _register(monkeypatch, PLUGIN)
    path = tmp_path / "ten-pairs.toml"
    path.write_text(PROFILE_TOML, encoding="utf-8")
    yield path
    pluginmanager.clear_caches()


@pytest.fixture
def one_eyed_jacks(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Install ``one-eyed-jacks`` in this process and yield its profile file."""
    _register(monkeypatch, ONE_EYED_JACKS)
    yield ONE_EYED_JACKS_PROFILE
    pluginmanager.clear_caches()


@pytest.fixture
def play_flush(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Install ``play-flush`` in this process and yield its name."""
    _register(monkeypatch, PLAY_FLUSH)
    yield PLAY_FLUSH
    pluginmanager.clear_caches()


@pytest.fixture
def fifteens_four(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Install ``fifteens-four`` in this process and yield its profile file."""
    _register(monkeypatch, FIFTEENS_FOUR)
    yield FIFTEENS_FOUR_PROFILE
    pluginmanager.clear_caches()


@pytest.fixture
def four_suits(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """Install ``four-suits`` in this process and yield a profile file enabling it."""
    _register(monkeypatch, FOUR_SUITS)
    path = tmp_path / "four-suits.toml"
    path.write_text(
        f'name = "four-suits"\nextends = "standard"\nplugins = ["{FOUR_SUITS}"]\n', encoding="utf-8"
    )
    yield path
    pluginmanager.clear_caches()


@pytest.fixture
def pairs_six(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Install ``pairs-six`` in this process and yield its name."""
    _register(monkeypatch, PAIRS_SIX)
    yield PAIRS_SIX
    pluginmanager.clear_caches()


@pytest.fixture
def data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A fresh data directory, no crib or pegging table in memory, and few samples (the tables are
    rough): for tests in which a house rule makes the computer (or `analyze`) compute the profile's crib
    or pegging table."""
    from cribcore.players import crib, pegtable
    from cribcore.saves import DATA_DIR_ENV

    directory = tmp_path / "data"
    monkeypatch.setenv(DATA_DIR_ENV, str(directory))
    monkeypatch.setattr(crib, "_BY_FINGERPRINT", {})
    monkeypatch.setattr(crib, "CRIB_SAMPLES", 2000)
    monkeypatch.setattr(pegtable, "_BY_FINGERPRINT", {})
    monkeypatch.setattr(pegtable, "STRIDE", 97)
    yield directory
