"""The third-party example in examples/toss-fives: installed as its own package, listed by
``cribbage plugins``, and enabled only by a profile that names it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import PluginSite


@pytest.fixture(scope="module")
def installed(plugin_site: PluginSite) -> dict[str, str]:
    """The example installed (really, with pip) into a folder of its own; the environment that sees it."""
    return {**os.environ, "PYTHONPATH": str(plugin_site.site), "NO_COLOR": "1"}


def cribbage(env: dict[str, str], *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cribcore.cli", *args], env=env, cwd=cwd, capture_output=True, text=True
    )


def test_plugins_lists_the_installed_example(installed: dict[str, str], tmp_path: Path) -> None:
    done = cribbage(installed, "plugins", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    entry = next(p for p in json.loads(done.stdout) if p["name"] == "toss-fives")
    assert entry["version"] == "1.0.0"
    assert entry["distribution"] == "cribcore-toss-fives"
    assert entry["hooks"] == ["cribcore_check_discard"]
    assert entry["options"]["rank"]["default"] == "5"


def test_profiles_list_shows_the_profiles_the_installed_examples_ship(
    installed: dict[str, str], tmp_path: Path
) -> None:
    """Installed with pip, every example adds its profile to the list."""
    done = cribbage({**installed, "COLUMNS": "200"}, "profiles", "list", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    for name, package in (
        ("joker-cribbage", "cribcore-joker-cribbage"),
        ("captains", "cribcore-captains"),
        ("auction", "cribcore-auction"),
        ("one-eyed-jacks", "cribcore-one-eyed-jacks"),
        ("toss-fives", "cribcore-toss-fives"),
    ):
        assert f"{name} (from {package})" in done.stdout
    shown = cribbage(installed, "profiles", "show", "captains", "--json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["rules"]["targets"] == [61, 121]


def test_a_game_on_a_profile_naming_it_follows_the_house_rule(
    installed: dict[str, str], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    done = cribbage(
        installed,
        "play",
        "--profile",
        "toss-fives",  # the profile the package ships, by name
        "--players",
        "computer,computer",
        "--seed",
        "12",
        "--record",
        str(record),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["profile"]["plugins"] == ["standard", "toss-fives"]
    assert data["profile"]["options"] == {"toss-fives": {"rank": "5"}}
    fives_dealt = 0
    for deal in data["deals"]:
        for hand, discard in zip(deal["hands"], deal["discards"], strict=False):
            fives = [card for card in hand if card.startswith("5")]
            fives_dealt += len(fives)
            if discard:
                assert sum(card in discard for card in fives) == min(len(fives), 2), deal
    assert fives_dealt > 0
    replayed = cribbage(installed, "replay", str(record), "--json", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr


def test_installing_it_changes_no_other_game(installed: dict[str, str], tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from cribcore import Game\n"
        "from cribcore.players import RandomPlayer\n"
        "game = Game(seed=3)\n"
        "players = [RandomPlayer(1), RandomPlayer(2)]\n"
        "while not game.is_over:\n"
        "    seat = game.to_act[0]\n"
        "    game.apply(seat, players[seat].choose(game.view(seat)))\n"
        "assert 'cribcore_toss_fives' not in sys.modules\n"
        "print(game.scores)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=installed, cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
