"""`cribbage stats` and `cribcore.stats`: the published distribution of the standard show, the class
counting checked card by card, other sizes and flush rules, and the command line."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, product
from pathlib import Path

import pytest

from cribcore import FULL_DECK, Card, load_profile
from cribcore.cli.main import main
from cribcore.scoring import show_total
from cribcore.stats import (
    Distribution,
    FlushRules,
    _rank_multisets,
    _suit_classes,
    flush_rules,
    show_distribution,
)

CaptureFixture = pytest.CaptureFixture[str]

ALL_RULES = [FlushRules(h, c) for h in (False, True) for c in (True, False)]


def test_standard_hands_match_the_published_table() -> None:
    hands = show_distribution(4)
    assert hands.combinations == 12_994_800
    assert hands.counts[0] == 1_009_008
    assert hands.counts[29] == 4
    assert hands.counts[28] == 76
    assert hands.maximum == 29
    assert [hands.counts[p] for p in (19, 25, 26, 27)] == [0, 0, 0, 0]
    assert round(hands.mean, 4) == 4.7692


def test_standard_cribs_match_the_published_figures() -> None:
    cribs = show_distribution(4, crib=True)
    assert cribs.combinations == 12_994_800
    assert cribs.counts[0] == 1_022_208
    assert round(cribs.mean, 4) == 4.7348


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
@pytest.mark.parametrize("crib", [False, True])
def test_two_card_hands_match_a_card_by_card_count(rules: FlushRules, crib: bool) -> None:
    tally: Counter[int] = Counter()
    for hand in combinations(FULL_DECK, 2):
        for starter in FULL_DECK:
            if starter not in hand:
                tally[
                    show_total(
                        hand,
                        starter,
                        crib=crib,
                        hand_flush_needs_starter=rules.hand_needs_starter,
                        crib_flush_needs_starter=rules.crib_needs_starter,
                    )
                ] += 1
    counted = show_distribution(2, crib=crib, rules=rules).counts
    assert counted == tuple(tally.get(p, 0) for p in range(max(tally) + 1))


@pytest.mark.parametrize(
    ("size", "samples", "special"), [(1, 13, 1), (3, 30, 3), (4, 30, 3), (5, 6, 2), (6, 1, 1)]
)
def test_suit_classes_match_every_suit_assignment(size: int, samples: int, special: int) -> None:
    """For sampled hand ranks and starter ranks, the classes weigh exactly what scoring every real
    combination of those ranks gives, under every flush rule."""
    rng = random.Random(size)
    multisets = list(_rank_multisets(size))
    # Jacks (nobs) and distinct ranks (flushes) matter most: always include some.
    with_jack = [m for m in multisets if 11 in m]
    distinct = [m for m in multisets if len(set(m)) == size]
    chosen = [
        *rng.sample(multisets, samples),
        *rng.sample(with_jack, min(special, len(with_jack))),
        *rng.sample(distinct, special),
    ]
    for hand_ranks in chosen:
        for starter_rank in {*rng.sample(range(1, 14), 3), 11, hand_ranks[0]}:
            for rules in ALL_RULES:
                for crib in (False, True):
                    assert classes_count(hand_ranks, starter_rank, rules, crib) == brute_count(
                        hand_ranks, starter_rank, rules, crib
                    ), (hand_ranks, starter_rank, rules, crib)


def score(hand: Sequence[Card], starter: Card, rules: FlushRules, crib: bool) -> int:
    return show_total(
        hand,
        starter,
        crib=crib,
        hand_flush_needs_starter=rules.hand_needs_starter,
        crib_flush_needs_starter=rules.crib_needs_starter,
    )


def classes_count(
    hand_ranks: tuple[int, ...], starter_rank: int, rules: FlushRules, crib: bool
) -> Counter[int]:
    tally: Counter[int] = Counter()
    for weight, hand, starter in _suit_classes(hand_ranks, starter_rank):
        tally[score(hand, starter, rules, crib)] += weight
    return tally


def brute_count(
    hand_ranks: tuple[int, ...], starter_rank: int, rules: FlushRules, crib: bool
) -> Counter[int]:
    by_rank = Counter(hand_ranks)
    choices = [list(combinations([c for c in FULL_DECK if c.rank == r], m)) for r, m in by_rank.items()]
    tally: Counter[int] = Counter()
    for parts in product(*choices):
        hand = tuple(card for part in parts for card in part)
        for starter in FULL_DECK:
            if starter.rank == starter_rank and starter not in hand:
                tally[score(hand, starter, rules, crib)] += 1
    return tally


def test_seven_card_hands_cover_every_combination() -> None:
    hands = show_distribution(5)
    assert hands.combinations == 2_598_960 * 47
    assert hands.maximum == 46  # 5-5-5-J-5 with a five or 5-5-5-5-J … the best six cards score 46
    assert hands.mean > show_distribution(4).mean


def test_a_hand_flush_needing_the_starter_lowers_the_mean_by_the_four_card_flushes() -> None:
    standard = show_distribution(4)
    strict = show_distribution(4, rules=FlushRules(hand_needs_starter=True))
    # 4 suits x C(13, 4) hands x 39 starters of another suit lose their 4 points.
    lost = 4 * 715 * 39 * 4
    assert standard.combinations * (standard.mean - strict.mean) == pytest.approx(lost)


def test_summary_figures() -> None:
    dist = Distribution(cards=1, crib=False, rules=FlushRules(), counts=(2, 0, 1, 1))
    assert dist.combinations == 4
    assert dist.mean == pytest.approx(1.25)
    assert dist.std == pytest.approx(
        (sum((p - 1.25) ** 2 * n for p, n in enumerate((2, 0, 1, 1))) / 4) ** 0.5
    )
    assert dist.median == 0
    assert dist.mode == 0
    assert dist.maximum == 3
    assert dist.share(2) == 0.25
    assert dist.share(99) == 0


@pytest.mark.parametrize("cards", [0, 7])
def test_sizes_outside_the_range_are_refused(cards: int) -> None:
    with pytest.raises(ValueError, match="1 to 6 cards"):
        show_distribution(cards)


def test_flush_rules_come_from_the_profile(tmp_path: Path) -> None:
    assert flush_rules(load_profile("standard")) == FlushRules()
    house = tmp_path / "house.toml"
    house.write_text(
        'name = "house"\nextends = "standard"\nplugins = ["hand-flush"]\n'
        "[options.hand-flush]\nhand_min = 5\ncrib_min = 4\n",
        encoding="utf-8",
    )
    assert flush_rules(load_profile(house)) == FlushRules(hand_needs_starter=True, crib_needs_starter=False)


# ----------------------------------------------------------------------------- the command


def test_stats_json_gives_the_published_figures(capsys: CaptureFixture) -> None:
    assert main(["stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["profile"] == "standard"
    assert data["flush"] == {"hand_needs_starter": False, "crib_needs_starter": True}
    hand, crib = data["hand"], data["crib"]
    assert hand["combinations"] == crib["combinations"] == 12_994_800
    assert hand["counts"][0] == 1_009_008
    assert hand["counts"][28:30] == [76, 4]
    assert round(hand["mean"], 4) == 4.7692
    assert crib["counts"][0] == 1_022_208
    assert round(crib["mean"], 4) == 4.7348
    assert crib["flush_needs_starter"] is True


def test_stats_table_and_histogram(capsys: CaptureFixture) -> None:
    assert main(["stats", "--crib"]) == 0
    out = capsys.readouterr().out
    assert "cribs: 4 cards + starter, 12,994,800 combinations" in out
    assert "hands" not in out
    table = out.split("Histogram")[0]
    rows = {line.split()[0]: line.split() for line in table.splitlines() if line.strip()}
    assert rows["0"][1:3] == ["1,022,208", "7.866"]
    assert rows["19"][1:] == ["0", "never"]
    assert "Histogram" in out
    assert any(line.split() and line.split()[0] == "mean" and "4.7348" in line for line in out.splitlines())


def test_stats_for_a_profile_uses_its_hand_size(capsys: CaptureFixture) -> None:
    assert main(["stats", "--profile", "five-card", "--hand", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "crib" not in data
    assert data["hand"]["cards"] == 3
    assert data["hand"]["combinations"] == 22_100 * 49


def test_stats_hand_size_option(capsys: CaptureFixture) -> None:
    assert main(["stats", "--hand-size", "2", "--hand", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["hand"]["combinations"] == 1_326 * 50


@pytest.mark.parametrize(
    ("argv", "status", "needle"),
    [
        (["stats", "--hand-size", "9"], 2, "1 to 6"),
        (["stats", "--hand-size", "x"], 2, "not a whole number"),
        (["stats", "--hand", "--crib"], 2, "not allowed with"),
        (["stats", "--profile", "no-such-profile"], 2, "unknown profile"),
    ],
)
def test_stats_errors_are_one_line(capsys: CaptureFixture, argv: list[str], status: int, needle: str) -> None:
    assert main(argv) == status
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and needle in lines[0], captured.err
