"""Shared fixtures: games on stacked (chosen) deals; the third-party plugin packages really installed;
the hypothesis profile ``long`` for fuzzing."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from cribcore import Game
from cribcore.cli.plugin_new import write_plugin_package
from cribcore.testing import DealSpec, stacked_game

__all__ = ["DealSpec", "PluginSite", "StackedGame", "make_stacked_game"]

ROOT = Path(__file__).resolve().parents[1]

EXAMPLE_PACKAGES = ("toss-fives", "captains-cribbage", "auction-cribbage", "joker-cribbage", "one-eyed-jacks")
"""The example plugin packages under examples/, installed together by `plugin_site`."""

# The suite reads English whatever the developer's locale; tests of other languages say so themselves.
os.environ["CRIBCORE_LANG"] = "en"

# A shell starts a background job with Ctrl-C ignored, and a command inherits that: the tests that press
# Ctrl-C in a command would then wait for an interrupt that never comes. A handled signal is reset to
# the default in every command the tests start, so they get Ctrl-C as a user's terminal sends it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

FUZZ_LONG = os.environ.get("CRIBCORE_FUZZ") == "long"
"""``CRIBCORE_FUZZ=long``: run the hypothesis profile "long" (many examples, no deadline) instead of the
default suite's few examples, for a fuzzing campaign."""

settings.register_profile(
    "long",
    max_examples=3_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
if FUZZ_LONG:
    settings.load_profile("long")


def fuzz_settings(examples: int) -> settings:
    """Settings for a fuzz test: ``examples`` examples in the default suite (kept to a few seconds), the
    "long" profile under ``CRIBCORE_FUZZ=long``."""
    if FUZZ_LONG:
        return settings.get_profile("long")
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


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

    @property
    def env(self) -> dict[str, str]:
        """The environment of a program that sees the installed packages (plain output)."""
        return {**os.environ, "PYTHONPATH": str(self.site), "NO_COLOR": "1", "TERM": "dumb"}


@pytest.fixture(scope="session")
def plugin_site(tmp_path_factory: pytest.TempPathFactory) -> PluginSite:
    """Every example package under examples/, the failing test plugin (tests/plugin_boom) and a freshly
    generated plugin package, installed with one pip run (each pip run pays for its build environment;
    each package is built from a copy, so nothing is left in the checkout)."""
    site = tmp_path_factory.mktemp("site")
    build = tmp_path_factory.mktemp("build")
    sources = [shutil.copytree(ROOT / "examples" / name, build / name) for name in EXAMPLE_PACKAGES]
    sources.append(shutil.copytree(ROOT / "tests" / "plugin_boom", build / "boom"))
    generated = write_plugin_package("lucky-seven", build / "cribcore-lucky-seven")
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site)]
    subprocess.run([*command, *map(str, sources), str(generated)], check=True, cwd=build, capture_output=True)
    return PluginSite(site, generated)


@pytest.fixture(scope="session")
def examples_env(plugin_site: PluginSite) -> dict[str, str]:
    """The environment of a program that sees the example plugins installed."""
    return plugin_site.env
