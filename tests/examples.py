"""The real ``cribbage`` program run where it sees the example plugins (installed by the ``plugin_site``
fixture of conftest.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def cribbage(env: dict[str, str], *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``cribbage ARGS`` with its output piped, where ``env`` says."""
    return subprocess.run(
        [sys.executable, "-m", "cribcore.cli", *args], env=env, cwd=cwd, capture_output=True, text=True
    )
