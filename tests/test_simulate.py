"""`cribbage simulate` and `cribcore.simulate`: the same numbers for the same seed whatever the backend
or split (this process, local processes, a Dask cluster), tallies that add up, the intervals, and the
command line."""

from __future__ import annotations

import json

import pytest

from cribcore import load_profile
from cribcore.cli.main import main
from cribcore.simulate import (
    SOURCES,
    Matchup,
    Simulation,
    Tally,
    game_seed,
    play_chunk,
    play_game,
    simulate,
    wilson_interval,
)

CaptureFixture = pytest.CaptureFixture[str]

KINDS = ("random", "random")


def numbers(result: Simulation) -> dict[str, object]:
    """Everything a run reports except which backend ran it."""
    data = result.to_json()
    del data["backend"]
    return data


@pytest.fixture(scope="module")
def reference() -> Simulation:
    return simulate(24, KINDS, seed=11, jobs=1)


def test_the_same_seed_gives_the_same_numbers(reference: Simulation) -> None:
    assert numbers(simulate(24, KINDS, seed=11, jobs=1)) == numbers(reference)
    assert numbers(simulate(24, KINDS, seed=12, jobs=1)) != numbers(reference)


def test_local_processes_give_the_same_numbers(reference: Simulation) -> None:
    result = simulate(24, KINDS, seed=11, jobs=2)
    assert result.backend == "2 processes"
    assert numbers(result) == numbers(reference)


def test_any_split_of_the_games_gives_the_same_tally(reference: Simulation) -> None:
    matchup = reference.matchup
    tally = Tally(matchup.sides)
    for start, stop in ((0, 5), (5, 6), (6, 24)):
        tally.merge(play_chunk(matchup, start, stop))
    assert tally == reference.tally


def test_a_dask_cluster_gives_the_same_numbers(reference: Simulation) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        result = simulate(24, KINDS, seed=11, dask=cluster.scheduler_address)
    assert result.backend.startswith("dask ")
    assert numbers(result) == numbers(reference)


def test_the_tally_adds_up(reference: Simulation) -> None:
    tally = reference.tally
    assert tally.games == 24
    assert sum(tally.wins) == sum(tally.first_deals) == 24
    assert tally.double_skunks <= tally.skunks <= 24
    assert sum(tally.game_points) >= 24
    # Every point scored comes from exactly one source.
    for side in range(2):
        assert sum(tally.points[source][side] for source in SOURCES) == tally.final_scores[side]
    assert tally.points["other"] == [0, 0]


def test_a_game_is_reproducible_from_its_index() -> None:
    matchup = Matchup(load_profile(), KINDS, 3)
    first, again = play_game(matchup, 7), play_game(matchup, 7)
    assert first.seed == again.seed == game_seed(3, 7)
    assert first.events == again.events
    assert game_seed(3, 7) != game_seed(3, 8) != game_seed(4, 7)


@pytest.mark.parametrize("name", ["five-card", "partners", "three-players", "skunk-match"])
def test_other_profiles(name: str) -> None:
    profile = load_profile(name)
    result = simulate(4, ["random"] * profile.rules.seats, profile=profile, seed=1, jobs=1)
    tally = result.tally
    assert len(tally.wins) == profile.rules.sides
    assert sum(tally.wins) == 4
    for side in range(profile.rules.sides):
        assert sum(tally.points[s][side] for s in SOURCES) == tally.final_scores[side]


def test_partnership_sides_are_labelled_with_both_seats() -> None:
    result = simulate(1, ["random"] * 4, profile=load_profile("partners"), seed=1, jobs=1)
    assert result.side_label(0) == "seats 1+3 (random, random)"


@pytest.mark.parametrize(
    ("kinds", "message"),
    [(("random",), "seats 2 players"), (("random", "human"), "unknown computer kind 'human'")],
)
def test_bad_matchups_are_refused(kinds: tuple[str, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        simulate(1, kinds, jobs=1)


def test_zero_games_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        simulate(0, KINDS)


def test_a_malformed_dask_address_is_refused_at_once() -> None:
    pytest.importorskip("distributed")
    with pytest.raises(ValueError, match="not a scheduler address"):
        simulate(1, KINDS, dask="no-port-here")


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [(5, 10, 0.2366, 0.7634), (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (81, 263, 0.2553, 0.3662)],
)
def test_wilson_interval(successes: int, trials: int, low: float, high: float) -> None:
    assert wilson_interval(successes, trials) == pytest.approx((low, high), abs=5e-5)


# ----------------------------------------------------------------------------- the command


def test_simulate_json(capsys: CaptureFixture, reference: Simulation) -> None:
    assert main(["simulate", "24", "--players", "random", "--seed", "11", "--jobs", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = numbers(reference)
    del data["backend"]
    assert data == json.loads(json.dumps(expected))


def test_simulate_text(capsys: CaptureFixture) -> None:
    assert main(["simulate", "6", "--players", "random,random", "--seed", "5", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "6 games of standard: random vs random" in out
    assert "--seed 5" in out
    assert "seat 1 (random) wins" in out
    assert "the first dealer wins" in out
    assert "skunks (loser below 91)" in out
    assert "points per deal" in out and "heels" in out


@pytest.mark.parametrize(
    ("argv", "status", "needle"),
    [
        (["simulate", "0"], 2, "at least 1"),
        (["simulate", "ten"], 2, "not a whole number"),
        (["simulate", "5", "--players", "human"], 2, "unknown computer kind"),
        (["simulate", "5", "--players", "random,random,random"], 2, "seats 2 players"),
        (["simulate", "5", "--jobs", "2", "--dask", "tcp://localhost:8786"], 2, "--jobs"),
        (["simulate", "5", "--profile", "no-such-profile"], 2, "unknown profile"),
    ],
)
def test_simulate_errors_are_one_line(
    capsys: CaptureFixture, argv: list[str], status: int, needle: str
) -> None:
    assert main(argv) == status
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and needle in lines[0], captured.err
