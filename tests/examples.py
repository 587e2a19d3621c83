"""The third-party example plugins under examples/, installed really (with pip) for the end-to-end tests,
and the real ``cribbage`` program run where it sees them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
INSTALLED_TOGETHER = ("captains-cribbage", "auction-cribbage")
"""Installed by one pip run (each pip run pays for its build environment)."""


def pip_install(names: Sequence[str], site: Path, build: Path) -> dict[str, str]:
    """The examples ``names`` installed into ``site`` (built from copies under ``build``, so setuptools
    leaves nothing in the checkout); the environment in which a program sees them."""
    sources = [str(shutil.copytree(EXAMPLES / name, build / name)) for name in names]
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site)]
    subprocess.run([*pip, *sources], check=True, cwd=build, capture_output=True)
    return {**os.environ, "PYTHONPATH": str(site), "NO_COLOR": "1", "TERM": "dumb"}


def cribbage(env: dict[str, str], *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``cribbage ARGS`` with its output piped, where ``env`` says."""
    return subprocess.run(
        [sys.executable, "-m", "cribcore.cli", *args], env=env, cwd=cwd, capture_output=True, text=True
    )
