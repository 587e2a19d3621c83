"""`cribbage simulate` loads what its run uses: the computer kinds seated, and local processes' machinery
only for local processes (start-up is part of every run's time)."""

from __future__ import annotations

import subprocess
import sys


def _loaded_after(argv: list[str]) -> set[str]:
    code = (
        "import sys, contextlib, io\n"
        "from cribcore.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main({argv!r}) == 0\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    return set(out.stdout.split())


LEVEL_MODULES = {f"cribcore.players.{name}" for name in ("easy", "medium", "hard", "expert", "hints")}


def test_random_players_load_no_level_and_no_process_pool() -> None:
    loaded = _loaded_after(["simulate", "2", "--players", "random", "--jobs", "1", "--seed", "1"])
    assert "cribcore.players.simple" in loaded
    assert not loaded & LEVEL_MODULES
    assert "concurrent.futures" not in loaded


def test_a_level_seated_is_loaded_when_its_first_player_is_made() -> None:
    loaded = _loaded_after(["simulate", "1", "--players", "easy,random", "--jobs", "1", "--seed", "1"])
    assert "cribcore.players.easy" in loaded
    assert "cribcore.players.hard" not in loaded
