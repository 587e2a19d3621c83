"""Game records (docs/records.md): the JSON shape, replay round trips, unfinished records, the errors
a broken record gives (naming the deal and the card), and atomic writing."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest

from cribcore import Game, Phase, RecordError, RuleSet, game_record, replay
from cribcore.engine import standard_profile
from cribcore.players import RandomPlayer
from cribcore.profiles import BUILTIN_DIRECTORY
from cribcore.records import FORMAT, VERSION, read_record, write_record

from .terminal import run_cribbage, run_in_process

SEED = 5
Record = dict[str, Any]


@pytest.fixture(scope="module")
def finished() -> Game:
    game = Game(seed=SEED, players=["Ann", "Bob"])
    players = [RandomPlayer(1), RandomPlayer(2)]
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
    return game


@pytest.fixture
def record(finished: Game) -> Record:
    """A fresh JSON copy of the finished game's record, free to be spoiled by a test."""
    data: Record = json.loads(json.dumps(game_record(finished)))
    return data


def replay_error(record: Record) -> str:
    with pytest.raises(RecordError) as excinfo:
        replay(record)
    return str(excinfo.value)


# A literal record: the pone (seat 1) leads KC, the dealer QD, the pone JC (30); the dealer holds AH, so
# it is the dealer's turn, and KD would pass 31.
LITERAL: Record = {
    "format": "cribbage-record",
    "version": 1,
    "profile": "standard",
    "players": ["Ann", "Bob"],
    "deals": [
        {
            "dealer": 0,
            "hands": [["QD", "AH", "KD", "4C", "2C", "2D"], ["KC", "JC", "5S", "6S", "3H", "3D"]],
            "crib_cards": [],
            "discards": [["2C", "2D"], ["3H", "3D"]],
            "starter": "7H",
            "plays": ["KC", "QD", "JC"],
        }
    ],
}


# ----------------------------------------------------------------------------- shape and round trip


def test_record_has_the_documented_shape(record: Record, finished: Game) -> None:
    assert set(record) == {"format", "version", "profile", "players", "seed", "deals", "result"}
    assert record["format"] == FORMAT == "cribbage-record"
    assert record["version"] == VERSION == 2
    assert record["profile"] == {
        "name": "standard",
        "description": standard_profile().description,
        "plugins": ["standard"],
        "rules": RuleSet().model_dump(),
        "options": {},
    }
    assert record["players"] == ["Ann", "Bob"]
    assert record["seed"] == SEED
    assert record["result"] == {"scores": list(finished.scores), "winner": finished.winner, "game_points": 1}
    assert len(record["deals"]) == finished.deal_number + 1
    for deal in record["deals"]:
        assert set(deal) == {"dealer", "hands", "crib_cards", "discards", "starter", "plays"}
        assert [len(hand) for hand in deal["hands"]] == [6, 6]
        assert deal["crib_cards"] == []
        assert isinstance(deal["starter"], str)
    complete = record["deals"][:-1]
    assert all(len(deal["plays"]) == 8 for deal in complete)
    assert all([len(d) for d in deal["discards"]] == [2, 2] for deal in complete)


def test_record_cards_are_canonical_text(record: Record) -> None:
    first = record["deals"][0]
    texts = [*first["hands"][0], *first["hands"][1], first["starter"], *first["plays"]]
    assert all(len(text) == 2 and text == text.upper() and text[0] != "1" for text in texts)


def test_replay_reproduces_every_event_score_and_the_winner(record: Record, finished: Game) -> None:
    replayed = replay(record)
    assert replayed.events == finished.events
    assert replayed.scores == finished.scores
    assert replayed.winner == finished.winner
    assert replayed.is_over
    assert replayed.players == ("Ann", "Bob")
    assert replayed.seed == SEED


def test_record_of_a_replay_is_the_same_record(record: Record) -> None:
    assert game_record(replay(record)) == record


def test_unknown_keys_are_ignored(record: Record, finished: Game) -> None:
    record["comment"] = "from the club night"
    record["deals"][0]["table"] = 4
    record["result"]["duration"] = "40 min"
    assert replay(record).events == finished.events


def test_seed_is_optional(record: Record, finished: Game) -> None:
    del record["seed"]
    # Without its seed a record cannot give back the cut for deal, only who dealt first.
    assert replay(record).events == tuple(event for event in finished.events if event.kind != "cut")


def test_a_seedless_record_stays_seedless(record: Record) -> None:
    del record["seed"]
    assert game_record(replay(record)).get("seed") is None


def test_result_is_optional(record: Record, finished: Game) -> None:
    del record["result"]
    replayed = replay(record)
    assert replayed.is_over
    assert replayed.winner == finished.winner
    assert replayed.scores == finished.scores


def test_cards_in_any_accepted_spelling_replay_alike(record: Record, finished: Game) -> None:
    first = record["deals"][0]
    first["hands"] = [[text.lower().replace("t", "10") for text in hand] for hand in first["hands"]]
    first["plays"] = [text.replace("C", "♣") for text in first["plays"]]
    assert replay(record).events == finished.events


# ----------------------------------------------------------------------------- unfinished records


def test_record_with_fewer_deals_replays_up_to_where_it_stops(record: Record, finished: Game) -> None:
    del record["result"]
    record["deals"] = record["deals"][:3]
    replayed = replay(record)
    assert replayed.phase is Phase.WAITING
    assert not replayed.is_over
    assert replayed.deal_number == 2
    assert replayed.events == tuple(e for e in finished.events if e.deal <= 2)


def test_record_stopping_mid_play_replays_up_to_the_last_card(record: Record, finished: Game) -> None:
    del record["result"]
    record["deals"] = record["deals"][:2]
    record["deals"][1]["plays"] = record["deals"][1]["plays"][:5]
    replayed = replay(record)
    assert replayed.phase is Phase.PLAY
    assert replayed.deal_number == 1
    events = replayed.events
    assert events == finished.events[: len(events)]
    plays = [e for e in events if e.kind == "play" and e.deal == 1]
    assert [str(e.cards[0]) for e in plays] == record["deals"][1]["plays"]
    assert replayed.to_act


def test_record_stopping_mid_discard_waits_for_the_other_discard(record: Record) -> None:
    del record["result"]
    record["deals"] = record["deals"][:1]
    record["deals"][0]["discards"][1] = []
    record["deals"][0]["plays"] = []
    replayed = replay(record)
    assert replayed.phase is Phase.DISCARD
    assert replayed.to_act == (1,)


def test_unfinished_record_with_a_seed_resumes_with_the_same_cards(record: Record, finished: Game) -> None:
    del record["result"]
    record["deals"] = record["deals"][:3]
    resumed = replay(record, continue_dealing=True)
    assert resumed.phase is Phase.DISCARD
    assert resumed.deal_number == 3
    dealt = [e for e in finished.events if e.kind == "dealt" and e.deal == 3]
    assert [e for e in resumed.events if e.kind == "dealt" and e.deal == 3] == dealt


def test_last_deal_records_the_cards_laid_until_the_win(record: Record, finished: Game) -> None:
    last = len(record["deals"]) - 1
    laid = [str(e.cards[0]) for e in finished.events if e.kind == "play" and e.deal == last]
    assert record["deals"][last]["plays"] == laid


# ----------------------------------------------------------------------------- errors


def test_card_played_out_of_turn(record: Record) -> None:
    plays = record["deals"][0]["plays"]
    plays[0], plays[1] = plays[1], plays[0]
    message = replay_error(record)
    assert message.startswith(f"deal 1, card 1 ({plays[0]}): it is seat ")
    assert "turn" in message


def test_card_no_seat_was_dealt(record: Record) -> None:
    deal = record["deals"][0]
    deal["plays"][2] = deal["starter"]
    assert replay_error(record) == f"deal 1, card 3 ({deal['starter']}): no seat was dealt this card"


def test_card_dealt_twice(record: Record) -> None:
    hands = record["deals"][1]["hands"]
    hands[1][0] = hands[0][0]
    assert replay_error(record) == f"deal 2: {hands[0][0]} is dealt twice"


def test_card_that_passes_31() -> None:
    spoiled = copy.deepcopy(LITERAL)
    spoiled["deals"][0]["plays"].append("KD")
    message = replay_error(spoiled)
    assert message == "deal 1, card 4 (KD): KD would take the count to 40, past 31"


def test_literal_record_replays_to_the_dealers_turn() -> None:
    game = replay(LITERAL)
    assert game.count == 30
    assert game.to_act == (0,)
    assert game.scores == (0, 3)


def test_card_discarded_then_played(record: Record) -> None:
    deal = record["deals"][0]
    discarded = deal["discards"][1][0]
    deal["plays"][0] = discarded
    assert "do not hold" in replay_error(record)


def test_wrong_dealer(record: Record) -> None:
    record["deals"][1]["dealer"] = record["deals"][0]["dealer"]
    message = replay_error(record)
    assert message.startswith("deal 2: dealer should be seat ")


def test_dealer_that_is_not_a_seat(record: Record) -> None:
    record["deals"][0]["dealer"] = 5
    assert replay_error(record) == "deal 1: dealer 5 is not a seat"


def test_result_scores_that_disagree(record: Record, finished: Game) -> None:
    record["result"]["scores"][0] += 1
    message = replay_error(record)
    assert message.startswith("result: the record says scores")
    assert str(list(finished.scores)) in message


def test_result_winner_that_disagrees(record: Record) -> None:
    record["result"]["winner"] = 1 - record["result"]["winner"]
    assert replay_error(record).startswith("result: the record says winner")


def test_bad_card_text_names_deal_seat_and_token(record: Record) -> None:
    record["deals"][0]["hands"][1][2] = "5X"
    message = replay_error(record)
    assert message.startswith("deal 1, seat 1 hand: ")
    assert "5X" in message


def test_discard_of_a_card_not_held(record: Record) -> None:
    deal = record["deals"][0]
    deal["discards"][0] = [deal["hands"][1][0], deal["hands"][0][0]]
    message = replay_error(record)
    assert message.startswith("deal 1, seat 0 discard ")
    assert f"you do not hold {deal['hands'][1][0]}" in message


def test_plays_before_every_discard(record: Record) -> None:
    record["deals"][0]["discards"][1] = []
    assert replay_error(record) == "deal 1: cards are played before every seat has discarded"


def test_deal_that_stops_before_the_next_one(record: Record) -> None:
    record["deals"][0]["plays"] = record["deals"][0]["plays"][:3]
    assert replay_error(record) == "deal 1: the record stops before the deal is over"


def test_deal_after_the_game_was_won(record: Record) -> None:
    record["deals"].append(copy.deepcopy(record["deals"][0]))
    number = len(record["deals"])
    assert replay_error(record) == f"deal {number}: the game was already won in the deal before"


def test_card_after_the_play_is_over(record: Record) -> None:
    plays = record["deals"][0]["plays"]
    plays.append(plays[0])
    assert replay_error(record).startswith(f"deal 1, card 9 ({plays[0]}): the play is already over")


def test_wrong_number_of_cards_dealt(record: Record) -> None:
    record["deals"][0]["hands"][0].pop()
    assert replay_error(record) == "deal 1: seat 0 was dealt 5 cards, not 6"


def test_wrong_number_of_players(record: Record) -> None:
    record["players"] = ["Ann"]
    assert replay_error(record).startswith("players: ")


def test_unknown_profile(record: Record) -> None:
    record["profile"] = "no-such-profile"
    message = replay_error(record)
    assert message.startswith("profile: ")
    assert "no-such-profile" in message


def test_newer_version_is_refused(record: Record) -> None:
    record["version"] = 3
    assert replay_error(record) == "record version 3 is newer than this cribcore reads (2)"


@pytest.mark.parametrize("version", [0, -1])
def test_version_below_one_is_refused(record: Record, version: int) -> None:
    record["version"] = version
    replay_error(record)


@pytest.mark.parametrize("value", ["chess-record", "", None])
def test_wrong_format_string_is_refused(record: Record, value: object) -> None:
    record["format"] = value
    assert replay_error(record).startswith("format: ")


def test_missing_format_is_refused(record: Record) -> None:
    del record["format"]
    assert replay_error(record).startswith("format: ")


def test_record_errors_are_value_errors() -> None:
    assert issubclass(RecordError, ValueError)


# ----------------------------------------------------------------------------- files


def test_read_record_reads_what_write_record_wrote(tmp_path: Path, record: Record) -> None:
    path = tmp_path / "game.json"
    write_record(path, record)
    assert read_record(path) == record
    assert read_record(str(path)) == record


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"format": "cribbage-record",', "not valid JSON"),
        (b"hello", "not valid JSON"),
        (b"\xff\xfe\x00\x01garbage", "cannot read"),
        (b"[1, 2, 3]", "a record is a JSON object"),
        (b"", "not valid JSON"),
    ],
)
def test_read_record_refuses_a_file_that_is_not_a_record(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "broken.json"
    path.write_bytes(content)
    with pytest.raises(RecordError) as excinfo:
        read_record(path)
    assert str(excinfo.value).startswith(f"{path}: ")
    assert message in str(excinfo.value)


def test_read_record_names_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    with pytest.raises(RecordError, match="no such file"):
        read_record(path)


def test_write_record_writes_the_whole_file_and_no_temporary_files(tmp_path: Path, record: Record) -> None:
    path = tmp_path / "game.json"
    write_record(path, record)
    assert json.loads(path.read_text(encoding="utf-8")) == record
    assert path.read_text(encoding="utf-8").endswith("}\n")
    assert os.listdir(tmp_path) == ["game.json"]


def test_write_record_replaces_an_existing_file(tmp_path: Path, record: Record) -> None:
    path = tmp_path / "game.json"
    path.write_text("old and much longer content " * 1000, encoding="utf-8")
    write_record(path, record)
    assert read_record(path) == record
    assert os.listdir(tmp_path) == ["game.json"]


def test_failed_write_leaves_the_old_file_and_no_temporary_files(
    tmp_path: Path, record: Record, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    write_record(path, LITERAL)

    def failing_replace(src: str, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk full"):
        write_record(path, record)
    monkeypatch.undo()
    assert read_record(path) == LITERAL
    assert os.listdir(tmp_path) == ["game.json"]


def test_unserialisable_record_leaves_no_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    with pytest.raises(TypeError):
        write_record(path, {"format": FORMAT, "bad": object()})
    assert os.listdir(tmp_path) == []


def test_the_cut_for_deal_comes_back_only_from_the_seed_that_made_the_deals(record: Record) -> None:
    assert [e.kind for e in replay(record).events[:2]] == ["cut", "cut"]
    unseeded = {key: value for key, value in record.items() if key != "seed"}
    assert replay(unseeded).events[0].kind == "deal"  # who dealt first is all a record keeps
    other_seed = dict(record, seed=record["seed"] + 1)
    assert replay(other_seed).events[0].kind == "deal"  # that seed did not deal these cards


def test_the_order_of_discards_is_kept_when_it_is_not_seat_order() -> None:
    game = Game(seed=5, players=("Ann", "Bob"))
    for seat in (1, 0):
        game.apply(seat, game.legal_actions(seat)[0])
    record = json.loads(json.dumps(game_record(game)))
    assert record["deals"][0]["discard_order"] == [1, 0]
    assert replay(record).events == game.events
    record["deals"][0]["discard_order"] = [1, 1]
    with pytest.raises(RecordError, match=r"deal 1: discard_order \[1, 1\] should name each seat"):
        replay(record)


def test_seat_order_needs_no_discard_order(record: Record) -> None:
    assert all("discard_order" not in deal for deal in record["deals"])


# ----------------------------------------------------------------------------- hardening (issue 13)


@pytest.mark.parametrize("where", ["local file", "/dev/zero", "/dev/stdin", "five-card.toml", "../standard"])
def test_a_record_names_a_profile_and_never_opens_a_path(
    record: Record, tmp_path: Path, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A valid profile file: reading it would replay the record under rules of the file's choosing.
    local = tmp_path / "house.toml"
    local.write_text('name = "house"\nextends = "standard"\n', encoding="utf-8")
    real_read_text = Path.read_text

    def guarded(self: Path, *args: Any, **kwargs: Any) -> str:
        # Refuse before reading: /dev/zero would fill memory, /dev/stdin would wait forever.
        if not self.resolve().is_relative_to(BUILTIN_DIRECTORY.resolve()):
            raise AssertionError(f"the record made its reader open {self}")
        return real_read_text(self, *args, **kwargs)

    record.update(version=1, profile=str(local) if where == "local file" else where)
    monkeypatch.setattr(Path, "read_text", guarded)
    assert replay_error(record).startswith("profile: unknown built-in profile")


def test_a_version_1_record_still_names_a_built_in_profile(record: Record, finished: Game) -> None:
    record.update(version=1, profile="standard")
    assert replay(record).events == finished.events


def deep(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def test_json_nested_a_thousand_deep_is_one_line_from_replay(record: Record, tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    text = json.dumps(record)
    path.write_text(text[:-1] + ', "x": ' + "[" * 1000 + "]" * 1000 + "}", encoding="utf-8")
    before = path.read_bytes()
    result = run_cribbage("replay", str(path))
    assert result.returncode == 1
    assert result.stderr == f"cribbage: error: {path}: not a record: nested more than 32 levels deep\n"
    assert path.read_bytes() == before


def test_deep_data_given_to_replay_is_refused(record: Record) -> None:
    record["deals"][0]["extra"] = deep(1000)
    assert replay_error(record) == "not a record: nested more than 32 levels deep"


def test_an_integer_of_thousands_of_digits_is_one_line(record: Record, tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps(record).replace(f'"seed": {SEED}', '"seed": ' + "9" * 5000), encoding="utf-8")
    result = run_in_process("replay", str(path))
    assert result.returncode == 1
    assert result.stderr == f"cribbage: error: {path}: not a record: a number has too many digits\n"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(seed=float(SEED)), "seed: Input should be a valid integer"),
        (lambda r: r.update(seed=True), "seed: Input should be a valid integer"),
        (lambda r: r.update(seed=str(SEED)), "seed: Input should be a valid integer"),
        (lambda r: r.update(seed=-1), "seed: Input should be greater than or equal to 0"),
        (lambda r: r.update(seed=2**256), "seed: Input should be less than"),
        (lambda r: r["deals"][0].update(dealer=False), "deals.0.dealer: Input should be a valid integer"),
        (lambda r: r["deals"][0].update(dealer=0.0), "deals.0.dealer: Input should be a valid integer"),
        (lambda r: r["result"].update(scores=[float(s) for s in r["result"]["scores"]]), "result.scores.0"),
        (lambda r: r["result"].update(winner=float(r["result"]["winner"])), "result.winner"),
        (lambda r: r.update(players=["Ann", "Ann"]), "players: two seats are both called 'Ann'"),
        (lambda r: r.update(players=["Ann", 7]), "players.1: Input should be a valid string"),
        (lambda r: r["result"].update(game_points=2), "result: the record says game_points 2 but the replay"),
        (
            lambda r: r["result"].update(game_points=1.0),
            "result.game_points: Input should be a valid integer",
        ),
    ],
)
def test_records_are_checked_strictly(record: Record, change: Any, message: str) -> None:
    change(record)
    assert message in replay_error(record)


def test_a_large_seed_is_a_seed(record: Record, finished: Game) -> None:
    record["seed"] = 2**256 - 1
    del record["result"]
    record["deals"] = record["deals"][:1]
    assert replay(record).seed == 2**256 - 1


def test_texts_from_a_record_are_shown_on_one_line(record: Record) -> None:
    record["deals"][0]["plays"][0] = "5\nH"
    record["profile"]["options"] = {"x\ny": {}}
    assert replay_error(record) == "profile: options.x\\ny: plugin 'x\\ny' is not enabled here"
    del record["profile"]["options"]
    assert "\n" not in replay_error(record)
