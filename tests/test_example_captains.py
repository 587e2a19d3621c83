"""The third-party example in examples/captains-cribbage: installed with pip as its own package, it
plays captain's cribbage (seat 0 alone to 61, two partners sharing a score to 121) in the real CLI."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pexpect
import pytest

from .examples import EXAMPLES, cribbage
from .terminal import leave_table

EXAMPLE = EXAMPLES / "captains-cribbage"
PROFILE = str(EXAMPLE / "captains.toml")

DISCARD = r"Choose 1 card for (your|[\w ]+'s) crib: "
PLAY = r"Play a card \(count (\d+)\): "
PAUSE = r"Press Enter for the next deal"
OVER = r"Game over: "


@pytest.fixture
def installed(examples_env: dict[str, str]) -> dict[str, str]:
    return examples_env


def test_a_human_plays_captains_cribbage_to_the_end(installed: dict[str, str], tmp_path: Path) -> None:
    env = {**installed, "CRIBCORE_DATA_DIR": str(tmp_path / "data")}
    argv = ["-m", "cribcore.cli", "play", "--profile", PROFILE, "--players", "human,computer,computer"]
    child = pexpect.spawn(
        sys.executable,
        [*argv, "--seed", "4"],
        env=env,
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=30,
    )
    child.delaybeforesend = None
    child.expect(r"You to 61, Computer 1 & Computer 2\s+to 121\.")
    prompts = 0
    while True:
        which = child.expect([DISCARD, PLAY, PAUSE, OVER])
        if which == 3:
            break
        # Cards are sorted by rank, so the first is playable whenever any is.
        child.sendline("" if which == 2 else "1")
        prompts += 1
    # Issue 17: a colon tells a side name ending in a digit from its score.
    child.expect(r"Final scores: You: (\d+) · Computer 1 & Computer 2: (\d+)")
    captain, partners = int(child.match.group(1)), int(child.match.group(2))
    leave_table(child)
    assert "Traceback" not in (child.before or "")
    assert prompts > 5
    assert captain >= 61 or partners >= 121
    assert not (captain >= 61 and partners >= 121)


def test_computers_play_it_out_and_the_record_replays(installed: dict[str, str], tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    players = ("--players", "computer,computer,computer", "--seed", "9", "--record", str(record))
    done = cribbage(installed, "play", "--profile", PROFILE, *players, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads(record.read_text(encoding="utf-8"))
    rules = data["profile"]["rules"]
    assert (rules["sides_of_seats"], rules["targets"]) == ([0, 1, 1], [61, 121])
    scores, winner = data["result"]["scores"], data["result"]["winner"]
    assert len(scores) == 2 and scores[winner] >= rules["targets"][winner]
    dealers = [deal["dealer"] for deal in data["deals"]]
    assert dealers == [(dealers[0] + k) % 3 for k in range(len(dealers))]
    replayed = cribbage(installed, "replay", str(record), "--json", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    result = json.loads(replayed.stdout)
    assert (result["scores"], result["winner"]) == (scores, winner)
    assert (result["sides"], result["targets"]) == ([[0], [1, 2]], [61, 121])


def test_the_plugin_refuses_a_table_it_does_not_fit(installed: dict[str, str], tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('name = "wrong"\nextends = "standard"\nplugins = ["captains"]\n', encoding="utf-8")
    done = cribbage(
        installed, "play", "--profile", str(wrong), "--players", "computer,computer", cwd=tmp_path
    )
    assert done.returncode != 0
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
