"""``cribbage plugins new NAME``: write a ready plugin package to start from.

The package has a ``pyproject.toml`` registering the plugin in the ``cribcore.plugins`` entry-point
group, a module with one hook (a starter of one rank scores for the dealer: change it to your rule), a
profile naming the plugin, and pytest tests written with `cribcore.testing`. It installs as it is
(``pip install DIR``) and its tests pass. Everything is written in a temporary folder beside the
target and moved into place at the end, so a failure leaves nothing behind.

The package ships its profile the way the examples do: the module's ``PROFILE`` is the text of
``NAME.toml``, registered in the ``cribcore.profiles`` group (`cribcore.packaged_profiles`), so once
installed ``cribbage profiles list`` shows it and ``--profile NAME`` plays it. The text, not the file: a
flit package of one module installs that module alone, and a file beside it would not be installed.
A generated test checks that the two say the same.
"""

from __future__ import annotations

import keyword
import os
import re
import shutil
import tempfile
from pathlib import Path

from ..i18n import _
from ..profiles import builtin_names

__all__ = ["NAME_PATTERN", "PluginNameError", "write_plugin_package"]

NAME_PATTERN = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
"""A plugin name: lower-case words of letters and digits joined by single dashes (``no-kings``)."""


class PluginNameError(ValueError):
    """The name cannot be a plugin's, or the package folder cannot be written."""


_PYPROJECT = """\
[build-system]
# flit builds a one-module package from [project] alone: the module is named after the package.
requires = ["flit_core>=3.4,<5"]
build-backend = "flit_core.buildapi"

[project]
name = "cribcore-{name}"
version = "0.1.0"
description = "A cribcore plugin: {name}."
requires-python = ">=3.11"
dependencies = ["cribcore"]

[project.entry-points."cribcore.plugins"]
{name} = "{module}:{cls}"

# Its profile, loadable by name once the package is installed (cribbage profiles list).
[project.entry-points."cribcore.profiles"]
{name} = "{module}:PROFILE"

[project.optional-dependencies]
test = ["pytest>=8"]
"""

_MODULE = '''\
"""{cls}: a starter of one rank scores points for the dealer (a house rule to start from)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cribcore.cards import Card, parse_card
from cribcore.hookspecs import hookimpl
from cribcore.scoring import ScoreItem

RankText = Literal["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]


class {cls}:
    """A starter of one rank (sevens by default) scores points for the dealer."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

        rank: RankText = Field("7", description="The rank of starter that scores.")
        points: int = Field(1, ge=1, le=10, description="What it scores for the dealer.")

    def __init__(self, options: Options) -> None:
        self.options = options
        self.rank = parse_card(f"{{options.rank}}C").rank

    @hookimpl
    def cribcore_starter_items(self, starter: Card) -> Sequence[ScoreItem]:
        if starter.rank != self.rank:
            return ()
        return (ScoreItem("{name}", (starter,), self.options.points),)


PROFILE = """\\
{profile_body}"""
"""The profile {name}.toml as this package ships it (its ``cribcore.profiles`` entry
point): once the package is installed, ``cribbage profiles list`` shows it and
``--profile {name}`` plays it. Keep it the same as {name}.toml (a test checks)."""
'''

_PROFILE_HEAD = """\
# The standard game with the {name} plugin, as the package ships it: the module's
# PROFILE is this text (change both). Once installed (pip install .), it is in
# 'cribbage profiles list', and:
#   cribbage play --profile {name}
"""

_PROFILE = """\
name = "{name}"
description = "Six-card cribbage with the {name} house rule."
extends = "standard"
plugins = ["{name}"]

[options.{name}]
rank = "7"
points = 1
"""

_TEST = '''\
"""Tests of the {name} plugin, with cribcore's helper for plugin authors. They test the package
installed (pip install DIR, or pip install -e DIR while you work on it)."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from {module} import PROFILE, {cls}

from cribcore.profiles import Profile, load_profile
from cribcore.testing import one_plugin_profile, play_script, stacked_game

HANDS = ("5H 5D JC QS 4H 6C", "2S 7D 8C KH AD 9S")
PROFILE_FILE = Path(__file__).resolve().parents[1] / "{name}.toml"


@pytest.fixture
def profile(register_plugin: Callable[[str, object], None]) -> Profile:
    register_plugin("{name}", {cls})
    return one_plugin_profile("{name}", {{"points": 2}})


def test_the_starter_of_the_rank_scores_for_the_dealer(profile: Profile) -> None:
    game = stacked_game((HANDS, "7S"), dealer=1, profile=profile)
    play_script(game, "discard JC QS", "discard KH AD")
    assert game.scores == (0, 2)


def test_another_starter_scores_nothing(profile: Profile) -> None:
    game = stacked_game((HANDS, "8S"), dealer=1, profile=profile)
    play_script(game, "discard JC QS", "discard KH AD")
    assert game.scores == (0, 0)


def test_the_shipped_profile_is_the_profile_file() -> None:
    assert tomllib.loads(PROFILE) == tomllib.loads(PROFILE_FILE.read_text(encoding="utf-8"))


def test_the_installed_package_ships_its_profile_by_name() -> None:
    """Once installed, 'cribbage profiles list' shows "{name} (from cribcore-{name})" and
    'cribbage play --profile {name}' plays it."""
    assert load_profile("{name}") == load_profile(PROFILE_FILE)
'''


_CONFTEST = '''\
"""The tests' fixtures for plugin authors (`register_plugin`, `hook_recorder`), from cribcore.

Named here, before any test module imports `cribcore.testing`: pytest rewrites the assertions of a
plugin only when it imports it first, and warns on every run otherwise."""

pytest_plugins = ["cribcore.testing"]
'''


def _files(name: str) -> dict[str, str]:
    module = "cribcore_" + name.replace("-", "_")
    cls = "".join(part.capitalize() for part in name.split("-"))
    if keyword.iskeyword(cls):  # "true" would make the class True, which Python cannot define
        cls += "Plugin"
    fields = {"name": name, "module": module, "cls": cls}
    profile = _PROFILE.format(**fields)
    return {
        "pyproject.toml": _PYPROJECT.format(**fields),
        f"{module}.py": _MODULE.format(**fields, profile_body=profile),
        f"{name}.toml": _PROFILE_HEAD.format(**fields) + profile,
        f"tests/test_{module.removeprefix('cribcore_')}.py": _TEST.format(**fields),
        "tests/conftest.py": _CONFTEST,
    }


def write_plugin_package(name: str, output: Path | None = None) -> Path:
    """Write the package of plugin ``name`` to ``output`` (default: ``cribcore-NAME`` here); return it.

    Raises `PluginNameError` (one line) for a name that is not a plugin name or is a built-in
    profile's, an ``output`` that exists or whose folder does not; nothing is written then.
    """
    if not NAME_PATTERN.match(name) or name.startswith("cribcore"):
        raise PluginNameError(
            _(
                "{name} is not a plugin name: use lower-case letters and digits, words joined by dashes "
                "(for example no-kings)"
            ).format(name=repr(name))
        )
    if name in builtin_names():
        raise PluginNameError(
            _(
                "{name} is a built-in profile's name, which a package's profile cannot take; choose another"
            ).format(name=repr(name))
        )
    target = output if output is not None else Path(f"cribcore-{name}")
    if target.exists():
        raise PluginNameError(_("{folder} exists; choose another --output").format(folder=target))
    parent = target.resolve().parent
    if not parent.is_dir():
        raise PluginNameError(
            _("--output: the folder {folder} does not exist").format(folder=repr(str(target.parent)))
        )
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=parent))
    try:
        umask = os.umask(0)
        os.umask(umask)
        staging.chmod(0o777 & ~umask)  # mkdtemp makes it private; the package is an ordinary folder
        for relative, text in _files(name).items():
            path = staging / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        os.rename(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target
