"""`cribbage stats` for any rule (issue 31): exact where the rules allow, otherwise sampled with 95 %
intervals and labelled so, seeded, in both languages, never refused."""

from __future__ import annotations

import json
import math
import sys
import types
from collections.abc import Iterator, Sequence
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from cribcore import FULL_DECK, Card, load_profile, pluginmanager
from cribcore.cards import Rank, Suit
from cribcore.cli.main import main
from cribcore.hookspecs import hookimpl
from cribcore.i18n import set_language
from cribcore.rulebook import rulebook_for
from cribcore.stats import Distribution, FlushRules, SuitsSeen, show_distribution
from cribcore.stats_any_rule import DEFAULT_SAMPLES, SampledDistribution, show_statistics

from .house_rules import FOUR_SUITS_POINTS, fifteens_four, four_suits

__all__ = ["fifteens_four", "four_suits"]

CaptureFixture = pytest.CaptureFixture[str]

# Five cards of a standard pack hold all four suits as 2-1-1-1: 4 x C(13,2) x 13^3 of C(52,5) sets.
FOUR_SUITS_OF_FIVE = 4 * math.comb(13, 2) * 13**3 / math.comb(52, 5)
# Four cards do as 1-1-1-1: 13^4 of C(52,4).
FOUR_SUITS_OF_FOUR = 13**4 / math.comb(52, 4)


def run_json(capsys: CaptureFixture, *argv: str) -> dict[str, object]:
    assert main(list(argv)) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, dict)
    return data


def test_a_rule_scoring_suits_is_sampled_with_intervals_not_refused(
    four_suits: Path, capsys: CaptureFixture
) -> None:
    data = run_json(capsys, "stats", "--profile", str(four_suits), "--samples", "3000", "--json")
    hand, crib = data["hand"], data["crib"]
    assert isinstance(hand, dict) and isinstance(crib, dict)
    for kind, exact_mean in ((hand, show_distribution(4).mean), (crib, show_distribution(4, crib=True).mean)):
        assert kind["method"] == "sampled"
        assert kind["sampled_because"] == "suits"
        assert kind["samples"] == sum(kind["counts"]) == 3000
        assert kind["combinations"] == 12_994_800
        assert kind["seed"] == 0
        # The true mean: the standard one plus 2 for every combination holding all four suits.
        true_mean = exact_mean + FOUR_SUITS_POINTS * FOUR_SUITS_OF_FIVE
        low, high = kind["mean_ci95"]
        assert low < kind["mean"] < high
        assert low < true_mean < high
        assert len(kind["share_ci95"]) == len(kind["counts"])
        for (share_low, share_high), count in zip(kind["share_ci95"], kind["counts"], strict=True):
            assert 0 <= share_low <= count / 3000 <= share_high <= 1
        assert kind["std_ci95"][0] < kind["std"] < kind["std_ci95"][1]
        assert kind["median_ci95"][0] <= kind["median"] <= kind["median_ci95"][1]
        assert kind["mode"] in kind["mode_candidates"]
        assert kind["above_max_at_most"] == pytest.approx(3 / 3000)


def test_the_same_seed_gives_the_same_sampled_table(four_suits: Path, capsys: CaptureFixture) -> None:
    args = ("stats", "--profile", str(four_suits), "--hand", "--samples", "500", "--json")
    first = run_json(capsys, *args, "--seed", "7")
    again = run_json(capsys, *args, "--seed", "7")
    other = run_json(capsys, *args, "--seed", "8")
    assert first == again
    assert first["hand"] != other["hand"]
    crib_too = run_json(
        capsys, "stats", "--profile", str(four_suits), "--samples", "500", "--json", "--seed", "7"
    )
    assert crib_too["hand"] == first["hand"]  # hands and cribs draw from streams of their own


def test_the_terminal_labels_every_sampled_figure(four_suits: Path, capsys: CaptureFixture) -> None:
    assert main(["stats", "--profile", str(four_suits), "--hand", "--samples", "800", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "sampled where they cannot be counted" in out
    assert "hands: 4 cards + starter, 800 of 12,994,800 combinations sampled (seed 3)" in out
    assert "the rules tell suits apart beyond flushes and nobs" in out
    assert "hands (sampled)" in out and "95% interval" in out
    rows = {line.split()[0]: line for line in out.splitlines() if line.split()}
    for label in ("mean", "std", "median"):
        assert " – " in rows[label], rows[label]
    assert "(more: under 0.375%)" in rows["highest"]
    table = out.split("Histogram")[0]
    assert "none drawn" in table
    assert not any(line.endswith("never") for line in table.splitlines())  # it may yet occur


def test_the_sampled_table_speaks_spanish(four_suits: Path, capsys: CaptureFixture) -> None:
    try:
        assert (
            main(["stats", "--profile", str(four_suits), "--hand", "--samples", "800", "--lang", "es"]) == 0
        )
    finally:
        set_language("en")
    out = capsys.readouterr().out
    assert "800 de 12 994 800 combinaciones al azar (semilla 0)" in out
    assert "manos (muestreo)" in out and "intervalo del 95%" in out
    assert "las reglas distinguen los palos" in out


def test_the_class_count_catches_a_rule_scoring_suits(four_suits: Path) -> None:
    book = rulebook_for(load_profile(four_suits))
    with pytest.raises(SuitsSeen, match="scores suits apart beyond flushes and nobs"):
        show_distribution(4, rulebook=book)


def test_a_rule_that_sees_ranks_only_stays_exact(fifteens_four: Path, capsys: CaptureFixture) -> None:
    data = run_json(capsys, "stats", "--profile", str(fifteens_four), "--hand", "--json")
    hand = data["hand"]
    assert isinstance(hand, dict)
    assert hand["method"] == "exact"
    assert hand["combinations"] == sum(hand["counts"]) == 12_994_800
    # 5-5-5-J with the five of the jack's suit: eight fifteens at 4, six pairs and nobs.
    assert hand["max"] == 45
    assert hand["counts"][45] == 4
    assert "samples" not in hand


def test_few_combinations_are_counted_one_by_one_under_any_rule(four_suits: Path) -> None:
    book = rulebook_for(load_profile(four_suits))
    # Two cards and a starter never hold four suits, so the count is the standard one, every combination.
    small = show_statistics(book, 2, crib=False, rules=FlushRules(), samples=DEFAULT_SAMPLES)
    assert isinstance(small, Distribution)
    assert small == show_distribution(2)
    # Three cards and a starter do, 1,082,900 combinations: more than these samples, so sampled.
    sampled = show_statistics(book, 3, crib=False, rules=FlushRules(), samples=2000, seed=1)
    assert isinstance(sampled, SampledDistribution)
    true_mean = show_distribution(3).mean + FOUR_SUITS_POINTS * FOUR_SUITS_OF_FOUR
    low, high = sampled.mean_interval
    assert low < true_mean < high


JOKER = Card.extra("ZZ5", rank=Rank.FIVE, suit=Suit.CLUBS)


@pytest.fixture
def extra_card(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A plugin whose pack holds one card beyond the 52 (scored as the five of clubs it stands for)."""
    module = types.ModuleType("cribcore_test_stats_extra_card")

    @hookimpl(tryfirst=True)
    def cribcore_pack() -> Sequence[Card]:
        return (*FULL_DECK, JOKER)

    module.cribcore_pack = cribcore_pack  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    real = pluginmanager.available()
    entry = EntryPoint(name="extra-card", value=module.__name__, group=pluginmanager.ENTRY_POINT_GROUP)
    monkeypatch.setattr(pluginmanager, "available", lambda: {**real, "extra-card": entry})
    pluginmanager.clear_caches()
    path = tmp_path / "extra-card.toml"
    path.write_text('name = "extra-card"\nextends = "standard"\nplugins = ["extra-card"]\n', encoding="utf-8")
    yield path
    pluginmanager.clear_caches()


def test_a_pack_with_extra_cards_is_sampled_from_that_pack(extra_card: Path, capsys: CaptureFixture) -> None:
    data = run_json(capsys, "stats", "--profile", str(extra_card), "--hand", "--samples", "400", "--json")
    hand = data["hand"]
    assert isinstance(hand, dict)
    assert hand["method"] == "sampled"
    assert hand["sampled_because"] == "pack"
    assert hand["combinations"] == math.comb(53, 4) * 49


def test_interval_arithmetic() -> None:
    # 100 draws: 50 score 0, 30 score 2, 20 score 4.
    sample = Distribution(cards=4, crib=False, rules=FlushRules(), counts=(50, 0, 30, 0, 20))
    sampled = SampledDistribution(sample, combinations=12_994_800, seed=0, reason="suits")
    assert sampled.samples == 100
    mean, std = 1.4, math.sqrt((50 * 1.4**2 + 30 * 0.6**2 + 20 * 2.6**2) / 100)
    assert sample.mean == pytest.approx(mean)
    low, high = sampled.mean_interval
    assert (high - low) / 2 == pytest.approx(1.959964 * std / 10)
    none_low, none_high = sampled.share_interval(1)
    assert none_low == 0.0
    assert none_high == pytest.approx(0.037, abs=0.001)
    share_low, share_high = sampled.share_interval(0)
    assert share_low < 0.5 < share_high
    assert sampled.median_interval == (0, 2)
    assert sampled.mode_candidates == (0,)
    assert sampled.above_maximum == pytest.approx(0.03)
    std_low, std_high = sampled.std_interval
    assert std_low < sample.std < std_high


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["stats", "--samples", "0"], "must be at least 1"),
        (["stats", "--samples", "many"], "not a whole number"),
        (["stats", "--seed", "-1"], "must be at least 0"),
    ],
)
def test_bad_samples_and_seeds_are_one_line(capsys: CaptureFixture, argv: list[str], needle: str) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and needle in lines[0], captured.err


def test_the_standard_profile_stays_exact(capsys: CaptureFixture) -> None:
    data = run_json(capsys, "stats", "--hand-size", "2", "--json", "--samples", "10")
    hand = data["hand"]
    assert isinstance(hand, dict)
    assert hand["method"] == "exact"
    assert hand["combinations"] == 1_326 * 50
