"""A small load run of the game server: `benchmarks/bench_server.py` with twelve rooms at once.

The real ``cribbage serve`` runs as a subprocess on loopback; twelve friend rooms are played to the end at
the same time over WebSockets, each seat driven by the easy computer player from the views it is sent.
These tests check behaviour only (never a timing): every game ends with no error message and no lost
message, both seats and the server agree, the database holds every finished game, and the games are the
very ones the same seeds give in process.
"""

from __future__ import annotations

import asyncio

import pytest

from benchmarks.bench_server import LoadRun, play_in_process, run_load, same_cards, text_lines
from cribcore.records import replay
from cribcore.server.wire import event_to_json

ROOMS = 12
KIND = "easy"


@pytest.fixture(scope="module")
def load(tmp_path_factory: pytest.TempPathFactory) -> LoadRun:
    run = asyncio.run(run_load(ROOMS, KIND, seed=7, timeout=120, directory=tmp_path_factory.mktemp("load")))
    run.reference_seconds, run.reference_actions = play_in_process(run.rooms, KIND)
    return run


def test_every_game_is_played_to_the_end_without_an_error(load: LoadRun) -> None:
    assert load.tally.errors == []
    assert load.timed_out == 0
    assert load.finished == ROOMS
    assert load.tally.syncs == 0
    assert load.server_exit == 0
    assert load.server_log.strip() == ""
    for run in load.rooms:
        assert len(run.bots) == 2
        for bot in run.bots:
            assert bot.over
            assert bot.state["room"]["id"] == run.id
            assert bot.state["room"]["you"] == bot.seat
            assert bot.pending is None


def test_every_move_is_answered_by_the_state_that_shows_it(load: LoadRun) -> None:
    assert load.tally.actions > 0
    assert load.tally.nexts > 0
    assert len(load.tally.action_latency) == load.tally.actions
    assert len(load.tally.next_latency) == load.tally.nexts
    assert len(load.ping_idle) > 0
    assert len(load.ping_load) > 0


def test_both_seats_agree_and_the_server_gives_each_what_it_was_sent(load: LoadRun) -> None:
    for run in load.rooms:
        first, second = (bot.state["view"] for bot in run.bots)
        assert first["phase"] == second["phase"] == "over"
        assert first["scores"] == second["scores"]
        assert first["winner"] == second["winner"] is not None
        assert max(first["scores"]) >= 121
        assert len(run.server_states) == 2
        for bot, state in zip(run.bots, run.server_states, strict=True):
            assert state["events_start"] == 0
            assert state["view"] == bot.state["view"]
            assert state["events"] == bot.raw_events
            assert state["room"]["game"] == 1
            assert state["room"]["history"] == []


def test_the_database_holds_every_finished_game(load: LoadRun) -> None:
    for run in load.rooms:
        final = run.bots[0].state["view"]
        assert run.record is not None
        assert run.record["result"]["scores"] == final["scores"]
        game = replay(run.record)
        assert game.is_over
        assert list(game.scores) == final["scores"]
        assert game.winner == final["winner"]
        for bot in run.bots:
            stored = [event_to_json(event) for event in game.view(bot.seat).events]
            assert stored == bot.raw_events  # the whole log, cut and discard order too


def test_the_games_are_the_ones_the_seeds_give_in_process(load: LoadRun) -> None:
    assert load.reference_actions == load.tally.actions
    for run in load.rooms:
        assert run.reference is not None and run.record is not None
        assert same_cards(run.reference) == same_cards(run.record)
        assert run.reference["result"] == run.record["result"]


def test_the_report_says_all_is_well(load: LoadRun) -> None:
    assert load.problems() == {}
    report = load.report()
    assert report["ok"] is True
    assert report["games_finished"] == report["rooms"] == ROOMS
    assert report["errors"] == report["rooms_with_problems"] == 0
    assert report["messages_sent"] + report["messages_received"] >= report["play_messages"] > 0
    assert list(text_lines(report))[-1] == "OK"


def test_a_lost_record_or_a_different_log_is_reported(load: LoadRun) -> None:
    run = load.rooms[0]
    record, run.record = run.record, None
    try:
        assert load.problems() == {run.id: ["the database has no such room"]}
        assert not load.ok()
    finally:
        run.record = record
    bot = run.bots[1]
    last = bot.raw_events.pop()
    try:
        problems = load.problems()[run.id]
        assert "seat 1: the server's log is not the one built from the messages" in problems
        assert "seat 1: the stored record's events are not the ones it was sent" in problems
    finally:
        bot.raw_events.append(last)
    assert load.problems() == {}
