"""Shared fixtures: games on stacked (chosen) deals; third-party plugin packages really installed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from cribcore import Game
from cribcore.cli.plugin_new import write_plugin_package
from cribcore.testing import DealSpec, stacked_game

__all__ = ["DealSpec", "PluginSite", "StackedGame", "make_stacked_game"]

ROOT = Path(__file__).resolve().parents[1]

StackedGame = Callable[..., Game]

make_stacked_game = stacked_game
"""Kept under its old name for the tests that import it; it lives in `cribcore.testing`."""


@pytest.fixture
def stacked() -> StackedGame:
    """``stacked(((hand0, hand1), starter), ..., dealer=0, rules=None, profile=None)``: a game on
    chosen deals."""
    return make_stacked_game


@dataclass(frozen=True)
class PluginSite:
    """A folder where the test plugin packages are installed (put it on ``PYTHONPATH``), and the
    package that ``cribbage plugins new lucky-seven`` wrote."""

    site: Path
    generated: Path


@pytest.fixture(scope="session")
def plugin_site(tmp_path_factory: pytest.TempPathFactory) -> PluginSite:
    """examples/toss-fives, the failing test plugin (tests/plugin_boom) and a freshly generated plugin
    package, installed with one pip run (each is built from a copy, so nothing is left in the checkout)."""
    site = tmp_path_factory.mktemp("site")
    build = tmp_path_factory.mktemp("build")
    sources = [
        shutil.copytree(ROOT / "examples" / "toss-fives", build / "toss-fives"),
        shutil.copytree(ROOT / "tests" / "plugin_boom", build / "boom"),
    ]
    generated = write_plugin_package("lucky-seven", build / "cribcore-lucky-seven")
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site)]
    subprocess.run([*command, *map(str, sources), str(generated)], check=True, cwd=build, capture_output=True)
    return PluginSite(site, generated)
