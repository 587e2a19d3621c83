"""The discard trainer (``cribbage practice discards``): each answer's rank among the fifteen and its
figures equal ``analyze``'s for that hand and role, the expert's choice with its reason, the running
score, the long-run totals in the data directory, scriptable with ``--json`` and piped answers, and
its words in Spanish."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cribcore.engine import standard_profile
from cribcore.practice_discards import Score, deal_trials, judge, parse_answer

from .terminal import run_in_process

ANSWERS = "1 2\n3 4\n5 6\n1 6\n2 5\n"


def _lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def test_five_piped_answers_report_rank_figures_equal_to_analyze_and_the_running_score(
    tmp_path: Path,
) -> None:
    done = run_in_process(
        "practice", "discards", "--hands", "5", "--seed", "3", "--json", stdin=ANSWERS, data=tmp_path
    )
    assert done.returncode == 0, done.stderr
    lines = _lines(done.stdout)
    deals = [line for line in lines if line["type"] == "deal"]
    results = [line for line in lines if line["type"] == "result"]
    assert len(deals) == len(results) == 5
    best = 0
    lost = 0.0
    for n, (deal, result, answer) in enumerate(
        zip(deals, results, ANSWERS.splitlines(), strict=True), start=1
    ):
        assert deal["hand"] == result["hand"] == n
        cards = deal["cards"]
        chosen = {cards[int(i) - 1] for i in answer.split()}
        assert set(result["choice"]["discard"]) == chosen
        role = "--dealer" if deal["dealer"] else "--pone"
        analyzed = run_in_process("analyze", *cards, role, "--json")
        options = json.loads(analyzed.stdout)["options"]
        mine = next(o for o in options if set(o["discard"]) == chosen)
        figures = {k: v for k, v in result["choice"].items() if k != "rank"}
        assert figures == mine
        assert {k: v for k, v in result["best"].items() if k != "rank"} == options[0]
        assert result["choice"]["rank"] == 1 + sum(1 for o in options if o["net"] > mine["net"] + 1e-9)
        assert abs(result["points_lost"] - (options[0]["net"] - mine["net"])) < 1e-3
        best += result["choice"]["rank"] == 1
        lost += options[0]["net"] - mine["net"]
        assert result["score"]["hands"] == n and result["score"]["best"] == best
        assert abs(result["score"]["average_lost"] - lost / n) < 1e-3
        expert = result["expert"]
        assert expert["agrees"] == (set(expert["discard"]) == chosen)
        assert bool(expert["reason"]) == (not expert["agrees"])
    # The role alternates, dealer first.
    assert [d["dealer"] for d in deals] == [True, False, True, False, True]
    [summary] = [line for line in lines if line["type"] == "summary"]
    assert summary["score"] == results[-1]["score"] and summary["long_run"] == results[-1]["score"]


def test_the_long_run_totals_are_kept_and_add_up(tmp_path: Path) -> None:
    first = run_in_process(
        "practice", "discards", "--hands", "2", "--seed", "1", "--json", stdin="1 2\n1 2\n", data=tmp_path
    )
    again = run_in_process(
        "practice", "discards", "--hands", "1", "--seed", "2", "--json", stdin="3 4\n", data=tmp_path
    )
    one = _lines(first.stdout)[-1]["score"]
    two = _lines(again.stdout)[-1]
    assert two["long_run"]["hands"] == 3
    assert two["long_run"]["best"] == one["best"] + two["score"]["best"]
    kept = json.loads((tmp_path / "practice-discards.json").read_text())
    assert kept["hands"] == 3


def test_a_bad_answer_is_asked_again_and_ended_input_is_one_line(tmp_path: Path) -> None:
    done = run_in_process(
        "practice",
        "discards",
        "--hands",
        "2",
        "--seed",
        "3",
        "--pone",
        "--json",
        stdin="7 1\nAS KS\n1 2\n",
        data=tmp_path,
    )
    assert done.returncode == 1
    lines = _lines(done.stdout)
    errors = [line for line in lines if line["type"] == "error"]
    assert [e["message"] for e in errors] == [
        "no card at position 7: choose 1 to 6",
        "AS is not in your hand",
    ]
    assert all(line["dealer"] is False for line in lines if line["type"] == "deal")
    assert done.stderr.strip() == "cribbage: error: input ended after 1 of 2 hands"


def test_a_corrupt_totals_file_is_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "practice-discards.json"
    path.write_text("not json")
    done = run_in_process(
        "practice", "discards", "--hands", "1", "--seed", "3", "--json", stdin="1 2\n", data=tmp_path
    )
    assert done.returncode == 0
    assert "the long-run score is not kept" in done.stderr and len(done.stderr.splitlines()) == 1
    assert path.read_text() == "not json"


def test_the_terminal_trainer_in_spanish(tmp_path: Path) -> None:
    done = run_in_process(
        "--lang",
        "es",
        "practice",
        "discards",
        "--hands",
        "2",
        "--seed",
        "3",
        stdin="1 2\n1 2\nq\n",
        data=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "Mano 1: repartes tú: la cuna es tuya" in done.stdout
    assert "Puntuación: " in done.stdout


def test_a_profile_that_does_not_deal_six_is_refused(tmp_path: Path) -> None:
    done = run_in_process("practice", "discards", "--profile", "five-card", data=tmp_path)
    assert done.returncode == 2
    assert "does not deal six cards" in done.stderr


def test_answers_by_name_or_position_and_the_expert_reason() -> None:
    [trial] = deal_trials(3, 1, "pone")
    assert parse_answer("1 2", trial.hand) == trial.hand[:2]
    assert parse_answer("12", trial.hand) == trial.hand[:2]
    named = f"{trial.hand[4]} {trial.hand[5]}"
    assert parse_answer(named, trial.hand) == trial.hand[4:]
    answer = judge(trial, trial.hand[4:], standard_profile())
    assert answer.rank > 1 and answer.points_lost > 0 and not answer.expert_agrees and answer.reason
    assert Score().add(answer).share_best == 0.0


def test_the_servers_trainer_gives_the_same_numbers() -> None:
    from starlette.testclient import TestClient

    from cribcore.server.app import create_app

    [_first, trial] = deal_trials(3, 2)
    with TestClient(create_app()) as client:
        deal = client.post("/api/practice/discards", json={"seed": 3, "hand": 2}).json()
        assert deal == {"type": "deal", **trial.to_json()}
        chosen = [str(c) for c in trial.hand[:2]]
        result = client.post("/api/practice/discards", json={"seed": 3, "hand": 2, "discard": chosen}).json()
        assert result == {"type": "result", **judge(trial, trial.hand[:2], standard_profile()).to_json()}
        refused = client.post("/api/practice/discards", json={"seed": 3, "hand": 2, "discard": ["AS", "AS"]})
        assert refused.status_code == 400 and "two different cards of the hand" in refused.json()["error"]


def test_the_servers_trainer_is_limited_per_address() -> None:
    from starlette.testclient import TestClient

    from cribcore.server.app import Limits, create_app

    with TestClient(create_app(limits=Limits(state_reads_per_minute=1))) as client:
        assert client.post("/api/practice/discards", json={"seed": 3}).status_code == 200
        again = client.post("/api/practice/discards", json={"seed": 3})
        assert again.status_code == 429 and "slow down" in again.json()["error"]
