"""Every command takes ``--profile`` and obeys a house rule: under a profile whose show pairs score 10,
``score`` counts them, ``analyze`` ranks discards by the exact expected hand under that rule, ``stats``
counts it, and the JSON outputs name the profile."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cribcore import FULL_DECK, load_profile, parse_cards
from cribcore.cli.main import main
from cribcore.cli.practice import EXAMPLES, example_points, practice_game
from cribcore.rulebook import rulebook_for
from cribcore.scoring import PAIR

from .house_rules import PAIR_POINTS, data_dir, ten_pairs

__all__ = ["data_dir", "ten_pairs"]

CaptureFixture = pytest.CaptureFixture[str]


def run_json(capsys: CaptureFixture, *argv: str) -> object:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_score_counts_the_house_rule(ten_pairs: Path, capsys: CaptureFixture) -> None:
    data = run_json(
        capsys, "score", "5H", "5D", "9C", "KS", "--starter", "2C", "--profile", str(ten_pairs), "--json"
    )
    assert isinstance(data, dict)
    assert data["profile"] == "ten-pairs"
    assert data["total"] == 4 + PAIR_POINTS
    assert [item["points"] for item in data["items"] if item["kind"] == PAIR] == [PAIR_POINTS]


def test_analyze_ranks_by_the_exact_expected_hand_under_the_house_rule(
    ten_pairs: Path, data_dir: Path, capsys: CaptureFixture
) -> None:
    argv = ["analyze", "5H", "5D", "9C", "KS", "2D", "7H", "--json"]
    data = run_json(capsys, *argv, "--profile", str(ten_pairs))
    assert isinstance(data, dict)
    assert data["profile"] == "ten-pairs"
    book = rulebook_for(load_profile(ten_pairs))
    for option in data["options"]:
        kept = parse_cards(" ".join(option["keep"]))
        starters = [card for card in FULL_DECK if card not in parse_cards("5H 5D 9C KS 2D 7H")]
        exact = sum(book.show_total(kept, cut, crib=False) for cut in starters) / len(starters)
        assert option["expected_hand"] == pytest.approx(exact, abs=1e-4)
    nets = [option["net"] for option in data["options"]]
    assert nets == sorted(nets, reverse=True)
    # Keeping the pair is worth far more under the house rule than under the standard count.
    standard = run_json(capsys, *argv)
    assert isinstance(standard, dict) and standard["profile"] == "standard"
    pair_kept = [o for o in data["options"] if {"5H", "5D"} <= set(o["keep"])]
    standard_kept = [o for o in standard["options"] if {"5H", "5D"} <= set(o["keep"])]
    assert pair_kept[0]["expected_hand"] > standard_kept[0]["expected_hand"] + 7


def test_peg_and_stats_name_the_profile(ten_pairs: Path, capsys: CaptureFixture) -> None:
    data = run_json(capsys, "peg", "5H", "5D", "--json", "--profile", "five-card")
    assert isinstance(data, list) and {entry["profile"] for entry in data} == {"five-card"}
    stats = run_json(capsys, "stats", "--profile", str(ten_pairs), "--hand", "--json")
    standard = run_json(capsys, "stats", "--hand", "--json")
    assert isinstance(stats, dict) and isinstance(standard, dict)
    assert stats["profile"] == "ten-pairs"
    assert stats["hand"]["combinations"] == standard["hand"]["combinations"]
    assert stats["hand"]["mean"] > standard["hand"]["mean"]


def test_a_bad_profile_is_a_usage_error(capsys: CaptureFixture) -> None:
    for argv in (
        ["score", "5H", "--starter", "2C"],
        ["peg", "5H"],
        ["analyze", *["5H", "5D", "9C", "KS", "2D", "7H"]],
    ):
        assert main([*argv, "--profile", "no-such-profile"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "unknown profile 'no-such-profile'" in err


def test_practice_follows_the_profile(ten_pairs: Path) -> None:
    profile = load_profile("five-card")
    game = practice_game(1, profile)
    assert game.rulebook.profile_name == "five-card" and not game.play_continues
    book = rulebook_for(profile)
    assert example_points(EXAMPLES[0], book) == example_points(EXAMPLES[0])
