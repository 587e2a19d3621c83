"""A house rule for tests, installed in-process: ``ten-pairs`` makes every pair in the show worth 10.

It wraps the show's items as a third-party plugin would, so whatever obeys it (the engine, `score`,
`analyze`, the players) proves it asks the rulebook and not a private copy of the standard count.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Generator, Iterator, Sequence
from dataclasses import replace
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from cribcore import pluginmanager
from cribcore.hookspecs import hookimpl
from cribcore.scoring import PAIR, ScoreItem

PLUGIN = "ten-pairs"
PAIR_POINTS = 10

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
    return module


@pytest.fixture
def ten_pairs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """Install ``ten-pairs`` in this process and yield a profile file enabling it."""
    module = _module()
    monkeypatch.setitem(sys.modules, module.__name__, module)
    real = pluginmanager.available()
    fake = EntryPoint(name=PLUGIN, value=module.__name__, group=pluginmanager.ENTRY_POINT_GROUP)
    monkeypatch.setattr(pluginmanager, "available", lambda: {**real, PLUGIN: fake})
    pluginmanager.clear_caches()
    path = tmp_path / "ten-pairs.toml"
    path.write_text(PROFILE_TOML, encoding="utf-8")
    yield path
    pluginmanager.clear_caches()
