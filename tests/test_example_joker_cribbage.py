"""The third-party example in examples/joker-cribbage, installed with pip as its own package: its jokers
are dealt, shown, laid, counted wild and named in the terminal, a human plays it to the end, and its
records replay."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from .conftest import PluginSite
from .terminal import leave_table

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "joker-cribbage"
PROFILE = EXAMPLE / "joker-cribbage.toml"


@pytest.fixture(scope="module")
def installed(plugin_site: PluginSite) -> dict[str, str]:
    """The environment that sees the example installed (really, with pip, with the other examples)."""
    env = {k: v for k, v in plugin_site.env.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE")}
    return {**env, "TERM": os.environ.get("TERM", "dumb")}


def cribbage(env: dict[str, str], *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cribcore.cli", *args], env=env, cwd=cwd, capture_output=True, text=True
    )


def test_plugins_lists_its_hooks(installed: dict[str, str], tmp_path: Path) -> None:
    done = cribbage(installed, "plugins", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    entry = next(p for p in json.loads(done.stdout) if p["name"] == "joker-cribbage")
    assert {"cribcore_pack", "cribcore_score_kinds", "cribcore_wild_cards"} <= set(entry["hooks"])
    assert entry["options"]["jokers"]["default"] == 1


def test_a_computer_game_deals_shows_and_names_the_joker_and_replays(
    installed: dict[str, str], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    # Seed 3 turns a joker up in its eighth deal and has one counted wild in a hand and a crib.
    args = ("play", "--profile", str(PROFILE), "--players", "computer,computer", "--seed", "3")
    done = cribbage(installed, *args, "--record", str(record), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Game over: " in out
    assert "The starter is X1." in out
    assert re.search(r"scores 2 for the joker turned up\.", out)
    assert "his heels" not in out.split("The starter is X1.")[1].split("\n")[1]
    assert re.search(r"hand .*X1.*\n(.*\n)*? +run of", out)
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["profile"]["options"] == {"joker-cribbage": {"jokers": 1, "turned_up": 2}}
    assert any("X1" in hand for deal in data["deals"] for hand in deal["hands"])
    replayed = cribbage(installed, "replay", str(record), cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    assert "starter X1: joker turned up 2" in replayed.stdout
    # Without the plugin the record cannot be replayed, and says why in one line.
    bare = {k: v for k, v in installed.items() if k != "PYTHONPATH"}
    refused = cribbage(bare, "replay", str(record), cwd=tmp_path)
    assert refused.returncode == 1 and "unknown plugin 'joker-cribbage'" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1


def test_a_human_plays_a_joker_game_to_the_end(installed: dict[str, str], tmp_path: Path) -> None:
    # A short game (to 31) on seed 14, where the human is dealt the joker in the first deal.
    profile = tmp_path / "short.toml"
    profile.write_text(
        f'name = "joker-short"\nextends = "{PROFILE}"\n[rules]\ntarget = 31\n', encoding="utf-8"
    )
    env = {**installed, "TERM": "dumb", "CRIBCORE_DATA_DIR": str(tmp_path / "data")}
    argv = ["-m", "cribcore.cli", "play", "--profile", str(profile), "--seed", "14", "--ascii"]
    child = pexpect.spawn(sys.executable, argv, encoding="utf-8", dimensions=(40, 120), env=env, timeout=30)
    log: list[str] = []
    try:
        child.expect(r"Your hand")
        child.expect(r"Choose 2 cards for Computer's crib: ")
        log.append(child.before)
        child.sendline("1 2")  # the two lowest cards: the joker is kept
        while True:
            which = child.expect(
                [
                    r"Choose 2 cards for \S+ crib: ",
                    r"Play a card \(count \d+\): ",
                    "Press Enter",
                    "Game over: ",
                ]
            )
            log.append(child.before)
            if which == 3:
                break
            child.sendline("" if which == 2 else "1 2" if which == 0 else "1")
        leave_table(child)
        log.append(child.before)
    finally:
        child.close(force=True)
    out = "".join(log)
    assert "Traceback" not in out, out[-3000:]
    assert child.exitstatus == 0
    assert "X1" in out
