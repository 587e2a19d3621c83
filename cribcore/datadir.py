"""Where cribcore keeps its data on this machine: the user data directory and the table caches in it.

A low module (it imports nothing of cribcore) so that every layer can find the data directory: the
computer's tables (`cribcore.players.tablefiles`), the saves (`cribcore.saves`, which re-exports
`data_dir` and `DATA_DIR_ENV`), the game history and the terminal's files.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

__all__ = ["DATA_DIR_ENV", "data_dir", "table_dir"]

DATA_DIR_ENV = "CRIBCORE_DATA_DIR"
"""When set, the directory that holds cribcore's data instead of the platform's user data directory."""


def data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """cribcore's user data directory: ``$CRIBCORE_DATA_DIR`` when set; otherwise, on Linux and other
    Unix systems, ``$XDG_DATA_HOME/cribcore`` (an absolute ``XDG_DATA_HOME`` only, as the XDG base
    directory specification says) or ``~/.local/share/cribcore``; ``~/Library/Application
    Support/cribcore`` on macOS; ``%LOCALAPPDATA%\\cribcore`` on Windows."""
    env = os.environ if environ is None else environ
    override = env.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    if sys.platform == "win32":
        base = env.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "cribcore"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "cribcore"
    xdg = env.get("XDG_DATA_HOME", "")
    base_dir = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base_dir / "cribcore"


def table_dir(kind: str) -> Path:
    """The folder of the data directory that caches the computer's tables of this kind (``crib``,
    ``peg``, ``win``): ``KIND-tables/``."""
    return data_dir() / f"{kind}-tables"
