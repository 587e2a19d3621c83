"""The optional compiled engine (docs/speed.md): with ``CRIBCORE_COMPILE=1`` in the environment,
``pip install .`` compiles the engine and the play search (`COMPILED`) with mypyc (mypy's compiler,
fetched into the build environment); without it (the default) the build is pure Python. Everything else
about the package is in ``pyproject.toml``."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from setuptools import setup

COMPILED = (
    "cribcore/engine.py",
    "cribcore/game/state.py",
    "cribcore/game/deal.py",
    "cribcore/game/play.py",
    "cribcore/game/show.py",
    "cribcore/game/claims.py",
    "cribcore/game/plugin_phases.py",
    "cribcore/players/pegging.py",
)
"""The modules compiled: the engine (the coordinator and its phases, `cribcore.game`), which holds the
time of a game, and the play search, which holds most of the hard level's (docs/speed.md)."""

compiling = os.environ.get("CRIBCORE_COMPILE", "0") not in ("", "0")
ext_modules = []
setup_requires: list[str] = []
if compiling:
    # mypyc type-checks the modules with everything they import, so the build needs the package's own
    # dependencies as well as mypy.
    project = tomllib.loads((Path(__file__).parent / "pyproject.toml").read_text(encoding="utf-8"))
    setup_requires = ["mypy>=1.8", *project["project"]["dependencies"]]
    try:
        from mypyc.build import mypycify
    except ImportError:
        # The build's first pass, which asks for the requirements above, runs before mypy is installed.
        pass
    else:
        # One shared library for the compiled modules, named for the package (``cribcore__mypyc``).
        ext_modules = mypycify(list(COMPILED), opt_level="3", group_name="cribcore")

setup(ext_modules=ext_modules, setup_requires=setup_requires)
