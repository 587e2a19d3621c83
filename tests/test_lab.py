"""The variant lab (`cribcore.lab`, ``cribbage lab``): paired figures with intervals, the same figures on
every backend, a partial run after Ctrl-C, the JSON schema, the HTML page, and the done-when checks of
the issue on small runs. The full-size checks (2,000 paired games) run with ``CRIBCORE_LAB_LONG=1``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from _pytest.capture import CaptureFixture

from cribcore import lab
from cribcore.cli.main import main
from cribcore.lab import FIGURES, LabResult, LabSetup, run_lab, t_quantile
from cribcore.profiles import load_profile

from .house_rules import data_dir, ten_pairs  # noqa: F401  (fixtures)

LONG = os.environ.get("CRIBCORE_LAB_LONG") == "1"
SEED = 5


def numbers(result: LabResult) -> dict[str, object]:
    data = result.to_json()
    del data["backend"]
    return data


@pytest.fixture(scope="module")
def itself() -> LabResult:
    standard = load_profile("standard")
    return run_lab(LabSetup(standard, standard, seed=SEED), 8, jobs=1)


def test_every_figure_has_both_sides_and_the_difference(itself: LabResult) -> None:
    data = itself.to_json()
    for key in ("profile", "reference", "games", "seed", "figures"):
        assert key in data
    assert data["profile"] == data["reference"] == "standard"
    assert data["games"] == 8 and data["seed"] == SEED and data["partial"] is False
    figures = data["figures"]
    assert isinstance(figures, dict)
    for name in FIGURES:
        for side in ("profile", "reference", "difference"):
            estimate = figures[name][side]
            assert estimate["low"] <= estimate["value"] <= estimate["high"], (name, side)


def test_against_itself_the_reference_plays_seeds_of_its_own(itself: LabResult) -> None:
    # Identical seeds would make every difference exactly 0; independent ones make it a real check.
    assert itself.to_json()["paired_seeds"] is False
    assert itself.figure("deals_per_game").difference.value != 0
    # The difference intervals are simultaneous: with nothing different, all of them hold 0.
    out = [f.name for f in itself.figures() if not f.difference.contains(0)]
    assert out == []


def test_difference_intervals_are_simultaneous_over_the_figures(itself: LabResult) -> None:
    data = itself.to_json()
    figures = data["figures"]
    assert isinstance(figures, dict)
    m = len(figures)
    assert m == len(FIGURES) == 19
    assert data["confidence"] == 0.95
    assert data["difference_level"] == pytest.approx(1 - 0.05 / 19)
    # Each side keeps its 95 % interval; a difference's is wider than a 95 % one by the ratio of the
    # quantiles.
    dof = itself.tally.games - 1
    widen = t_quantile(1 - 0.05 / 19, dof) / t_quantile(0.95, dof)
    for name in ("deals_per_game", "points_per_deal", "crib_per_deal"):
        simultaneous = itself.figure(name)
        alone = lab._estimate(itself.tally.figures[name], name, 0.95)
        assert simultaneous.profile == alone.profile and simultaneous.reference == alone.reference
        half = simultaneous.difference.high - simultaneous.difference.value
        assert half == pytest.approx((alone.difference.high - alone.difference.value) * widen)


@pytest.mark.parametrize(
    ("level", "dof", "quantile"),
    # Student's t two-sided quantiles as printed in tables.
    [(0.95, 1, 12.706), (0.95, 10, 2.228), (0.99, 5, 4.032), (0.999, 20, 3.850), (0.95, 1000, 1.962)],
)
def test_t_quantile(level: float, dof: int, quantile: float) -> None:
    assert t_quantile(level, dof) == pytest.approx(quantile, abs=1e-3)


def test_chunks_processes_and_dask_give_the_same_figures(itself: LabResult) -> None:
    standard = load_profile("standard")
    setup = LabSetup(standard, standard, seed=SEED)
    assert numbers(run_lab(setup, 8, jobs=2)) == numbers(itself)
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        result = run_lab(setup, 8, dask=cluster.scheduler_address)
    assert result.backend.startswith("dask ")
    assert numbers(result) == numbers(itself)


def test_ctrl_c_keeps_the_figures_so_far_marked_partial() -> None:
    standard = load_profile("standard")
    seen: list[int] = []

    def interrupt(done: int) -> None:
        seen.append(done)
        raise KeyboardInterrupt

    result = run_lab(LabSetup(standard, standard, seed=1), 40, jobs=1, progress=interrupt)
    assert result.partial and result.to_json()["partial"] is True
    assert 0 < result.tally.games == seen[0] < 40


def test_stats_and_the_lab_agree_on_the_average_hand_and_crib(itself: LabResult) -> None:
    exact = itself.to_json()["exact"]
    assert isinstance(exact, dict)
    assert itself.figure("dealt_hand").profile.contains(exact["profile"]["hand"]["mean"])
    assert itself.figure("dealt_crib").profile.contains(exact["profile"]["crib"]["mean"])


def test_ten_pairs_raises_hand_points_and_shortens_games(ten_pairs: Path, data_dir: Path) -> None:  # noqa: F811
    result = run_lab(LabSetup(load_profile(ten_pairs), load_profile("standard"), seed=2), 10, jobs=1)
    assert result.to_json()["paired_seeds"] is True
    hands = result.figure("hands_per_deal").difference
    deals = result.figure("deals_per_game").difference
    assert hands.low > 0, hands
    assert deals.high < 0, deals
    # ten-pairs changes the points of a standard kind, so it adds no kind of its own
    assert not [name for name in result.tally.figures if name.startswith("kind:")]


def test_cribbage_lab_json(capsys: CaptureFixture[str], tmp_path: Path) -> None:
    page = tmp_path / "lab.html"
    assert (
        main(["lab", "standard", "--games", "4", "--seed", "3", "--jobs", "1", "--json", "--html", str(page)])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert set(data["figures"]) >= {
        "deals_per_game",
        "first_dealer_wins",
        "points_per_deal",
        "play_per_deal",
        "hands_per_deal",
        "crib_per_deal",
        "skunk_rate",
        "skill",
        "knowing_the_rule",
    }
    assert set(data["figures"]["skill"]) >= {"profile", "reference", "difference"}
    assert set(data["figures"]["skill"]["difference"]) >= {"value", "low", "high"}
    text = page.read_text(encoding="utf-8")
    assert text.count("<svg") >= 5 and "http://" not in text.replace("http://www.w3.org/2000/svg", "")


def test_cribbage_lab_text_puts_the_largest_difference_first(capsys: CaptureFixture[str]) -> None:
    assert main(["lab", "standard", "--games", "4", "--seed", "3", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "4 paired games: standard against standard, hard on both seats" in out
    assert "--seed 3" in out and "deals per game" in out and "knowing the rule" in out
    assert "95 percent for each side; 99.74% for each difference, so that the 19 differences hold" in out


def test_cribbage_lab_in_spanish(capsys: CaptureFixture[str]) -> None:
    assert main(["lab", "standard", "--games", "2", "--seed", "3", "--jobs", "1", "--lang", "es"]) == 0
    out = capsys.readouterr().out
    assert "partidas emparejadas" in out and "manos por partida" in out
    assert "del 99,74 % para cada diferencia" in out


@pytest.mark.parametrize(
    ("argv", "status", "needle"),
    [
        (["lab", "standard", "--games", "0"], 2, "at least 1"),
        (["lab", "standard", "--quick", "--games", "5"], 2, "--quick"),
        (["lab", "standard", "--jobs", "2", "--dask", "tcp://localhost:8786"], 2, "--jobs"),
        (["lab", "standard", "--level", "medium"], 2, "--level"),
        (["lab", "no-such-profile", "--games", "1"], 2, "unknown profile"),
        (["lab", "standard", "--against", "no-such-profile", "--games", "1"], 2, "unknown profile"),
        (["lab", "standard", "--games", "1", "--html", "/no/such/dir/lab.html"], 1, "lab.html"),
    ],
)
def test_lab_errors_are_one_line(
    capsys: CaptureFixture[str], argv: list[str], status: int, needle: str
) -> None:
    assert main(argv) == status
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and needle in lines[0], captured.err


@pytest.mark.skipif(not LONG, reason="2,000 paired games: set CRIBCORE_LAB_LONG=1")
def test_standard_2000_games_first_dealer_share(capsys: CaptureFixture[str]) -> None:
    assert main(["lab", "standard", "--games", "2000", "--seed", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    share = data["figures"]["first_dealer_wins"]["profile"]
    assert share["low"] <= 0.56 and share["high"] >= 0.555
    # Against itself the reference plays seeds of its own; the difference intervals are simultaneous
    # (95 % for the whole table), so every one of them holds 0.
    missed = [
        name
        for name, figure in data["figures"].items()
        if not figure["difference"]["low"] <= 0 <= figure["difference"]["high"]
    ]
    assert missed == []
    exact = data["exact"]["profile"]
    for figure, name in (("dealt_hand", "hand"), ("dealt_crib", "crib")):
        found = data["figures"][figure]["profile"]
        assert found["low"] <= exact[name]["mean"] <= found["high"]


@pytest.mark.skipif(not LONG, reason="2,000 paired games: set CRIBCORE_LAB_LONG=1")
def test_ten_pairs_2000_games_knowing_the_rule(ten_pairs: Path, data_dir: Path) -> None:  # noqa: F811
    result = run_lab(LabSetup(load_profile(ten_pairs), load_profile("standard"), seed=1), 2000)
    assert result.figure("hands_per_deal").difference.low > 0
    assert result.figure("deals_per_game").difference.high < 0
    assert result.figure("knowing_the_rule").profile.low > 0.5
