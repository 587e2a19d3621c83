"""The coach (`cribbage review`) and the hints' reasons in words: a thrown-away pair of fives is a
blunder with its cost, the expert against itself is (almost) never marked, the JSON has its documented
shape, a bad record gets one line, and the words are English or Spanish."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file
from rich.console import Console
from starlette.testclient import TestClient

from cribcore import Discard, Game, load_profile, parse_cards
from cribcore.cli.main import main
from cribcore.cli.prompt import Reader
from cribcore.cli.render import Painter, make_console
from cribcore.cli.review import print_review
from cribcore.cli.session import Seating, Session
from cribcore.i18n import gettext
from cribcore.players import hint, make_player, wintable
from cribcore.players.reasons import cards_words, hand_features
from cribcore.records import RecordError, game_record
from cribcore.review import MARKS, Review, ReviewedDecision, mark_for, review_game
from cribcore.server.app import Limits, create_app
from cribcore.testing import stacked_game

from .server_client import connect
from .test_server import play_out, room_of

ROOT = Path(__file__).resolve().parents[1]


def fives_record() -> dict[str, Any]:
    """Seat 0, the pone, lays 5H 5D away into the dealer's crib and keeps A 3 9 K (nothing connects)."""
    game = stacked_game((("5H 5D AC 3S 9D KC", "2C 4D 7S 8H JC QD"), "6S"), dealer=1)
    game.apply(0, Discard(parse_cards("5H 5D")))
    game.apply(1, Discard(parse_cards("JC QD")))
    return game_record(game)


def expert_record() -> dict[str, Any]:
    """Two deals of the expert against itself."""
    game = Game(seed=5)
    players = [make_player("expert", 1), make_player("expert", 2)]
    while game.to_act and game.deal_number < 2:
        seat = game.to_act[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
    return game_record(game)


def test_laying_two_fives_into_the_opponents_crib_is_a_blunder_with_its_cost() -> None:
    review = review_game(fives_record(), 0)
    [decision] = review.decisions
    assert decision.kind == "discard"
    assert decision.chosen == Discard(parse_cards("5H 5D"))
    assert decision.best != decision.chosen
    assert decision.mark == "blunder"
    assert decision.points_lost >= MARKS[0].points
    assert "the two 5s would give the dealer's crib" in decision.reason
    assert review.discard_lost == pytest.approx(decision.points_lost)
    assert review.costliest == (decision,)


def test_a_profile_without_a_table_at_hand_is_reviewed_by_points_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Muggins has its own win table, computed on first use (minutes): the coach does not wait for it.
    monkeypatch.setenv("CRIBCORE_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(wintable, "_BY_FINGERPRINT", {})  # nor one an earlier test made in this process
    game = stacked_game(
        (("5H 5D AC 3S 9D KC", "2C 4D 7S 8H JC QD"), "6S"), dealer=1, profile=load_profile("muggins")
    )
    game.apply(0, Discard(parse_cards("5H 5D")))
    game.apply(1, Discard(parse_cards("JC QD")))
    [decision] = review_game(game_record(game), 0).decisions
    assert decision.mark == "blunder" and decision.win_lost is None
    assert not (tmp_path / "win-tables").exists()


def test_the_expert_against_itself_is_almost_never_marked() -> None:
    record = expert_record()
    reviews = [review_game(record, seat) for seat in (0, 1)]
    decisions = [d for review in reviews for d in review.decisions]
    assert len(decisions) >= 10
    marked = [d for d in decisions if d.mark is not None]
    assert len(marked) <= 1
    assert all(d.mark == "inaccuracy" for d in marked)


def test_marks_follow_the_thresholds() -> None:
    assert mark_for(0.9, None) is None
    assert mark_for(1.0, None) == "inaccuracy"
    assert mark_for(2.5, None) == "mistake"
    assert mark_for(4.0, None) == "blunder"
    # Where the winning chances are known they decide, not the points.
    assert mark_for(9.0, 0.0) is None
    assert mark_for(0.0, 0.09) == "blunder"


def test_review_json_has_the_documented_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fives.json"
    path.write_text(json.dumps(fives_record()))
    assert main(["review", str(path), "--seat", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {
        "seat",
        "player",
        "players",
        "profile",
        "thresholds",
        "decisions",
        "summary",
        "chances",
    }
    assert set(data["thresholds"]) == {"inaccuracy", "mistake", "blunder"}
    [decision] = data["decisions"]
    assert set(decision) == {
        "deal",
        "kind",
        "scores",
        "hand",
        "count",
        "chosen",
        "best",
        "points_lost",
        "win_lost",
        "mark",
        "reason",
    }
    assert decision["chosen"] == "discard 5D 5H" and decision["mark"] == "blunder"
    summary = data["summary"]
    assert set(summary) == {"deals", "discard_lost_per_deal", "play_lost_per_deal", "marks", "costliest"}
    assert summary["marks"]["blunder"] == 1 and summary["costliest"] == [0]
    # The text form marks it too.
    assert main(["review", str(path)]) == 0
    out = capsys.readouterr().out
    assert "BLUNDER" in out and "points lost per deal in the discard" in out


def test_a_choice_as_good_as_the_experts_is_said_so_without_a_loss_or_a_reason() -> None:
    # The pone at 117 counts first and keeps 6 points either way: the game is won whichever is kept.
    even = ReviewedDecision(
        deal=8,
        kind="discard",
        scores=(104, 117),
        hand=tuple(parse_cards("AC AD 4D 6H 6S TH")),
        count=0,
        chosen=Discard(parse_cards("6H 6S")),
        best=Discard(parse_cards("4D TH")),
        points_lost=0.01,
        win_lost=0.0,
        mark=None,
        reason="keeps two pairs; the two 6s would give the dealer's crib 2.6 more",
    )
    review = Review(seat=1, players=("Ann", "Bob"), profile="standard", decisions=(even,), deals=1)
    assert even.even and review.costliest == ()
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    print_review(review, console, Painter.for_console(console))
    text = out.getvalue()
    assert "just as good" in text
    assert "lost 0.0" not in text and "dealer's crib" not in text and "costliest" not in text
    # A loss the review shows is still a loss.
    assert not replace(even, points_lost=0.2).even and not replace(even, win_lost=0.001).even
    assert not replace(even, chosen=even.best).even


@pytest.mark.parametrize(
    ("text", "args"),
    [
        ("{not json", []),
        ('{"format": "cribbage-record"}', []),
        ("", ["--seat", "3"]),
    ],
)
def test_a_bad_record_gets_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, args: list[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text or json.dumps(fives_record()))
    assert main(["review", str(path), *args]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("cribbage: error: ")


def test_a_missing_record_and_a_bad_seat_get_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(tmp_path / "none.json")]) == 1
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["review", str(tmp_path / "none.json"), "--seat", "-1"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    with pytest.raises(RecordError):
        review_game({"format": "cribbage-record"}, 0)


def test_review_help_gives_the_thresholds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for mark in MARKS:
        assert f"{mark.name} at least {mark.points:.1f} expected points lost" in out


def test_a_hint_gives_its_reason_in_words_in_english_and_spanish() -> None:
    game = stacked_game((("5H 5D JC QS 4H 6C", "2C 3D 7S 8H 9C KD"), "AS"), dealer=0)
    english = hint(game.view(0), "en")
    assert english.words.startswith("keeps a double run of three and two fifteens")
    assert english.words in english.reason
    spanish = hint(game.view(0), "es")
    assert spanish.action == english.action
    assert spanish.words.startswith("se queda con una escalera doble de tres y dos quincenas")
    assert "cuna" in spanish.reason and "16,0" in spanish.reason


def test_hand_features_and_card_words() -> None:
    assert hand_features(parse_cards("5H 5D 5S JC"), "en") == ["three of a kind", "four fifteens"]
    assert hand_features(parse_cards("AC 3S 9D KC"), "en") == []
    assert hand_features(parse_cards("2H 3H 4H 7H"), "es") == ["una escalera de tres", "un color"]
    assert cards_words(parse_cards("5H JC"), "en") == "the 5 and the jack"
    assert cards_words(parse_cards("5H JC"), "es") == "el 5 y la jota"
    assert cards_words(parse_cards("JH JC"), "es") == "las dos jotas"
    assert cards_words(parse_cards("6H 7S KC KH"), "en") == "the 6, the 7 and the two kings"


def test_every_coach_and_hint_message_has_a_spanish_translation() -> None:
    sources = ("review.py", "players/reasons.py", "players/hints.py", "cli/review.py")
    keywords = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2)}
    messages = [
        message if isinstance(message, str) else message[0]
        for source in sources
        for _, message, _, _ in extract_from_file("python", ROOT / "cribcore" / source, keywords=keywords)
    ]
    assert len(messages) > 40
    assert [m for m in messages if gettext(m, "es") == m] == []


class _YesReader(Reader):
    """An interactive reader that says yes to every question and keeps them."""

    def __init__(self, console: Console) -> None:
        super().__init__(console, interactive=True)
        self.questions: list[str] = []

    def confirm(self, question: str) -> bool:
        self.questions.append(question)
        return True


def test_the_terminal_offers_the_review_after_a_game_against_the_computer() -> None:
    game = Game(seed=3, players=("You", "Computer"))
    players = [make_player("easy", 1), make_player("easy", 2)]
    while game.to_act and game.deal_number < 2:  # two deals are enough to review
        seat = game.to_act[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
    out = io.StringIO()
    console = make_console(out)
    reader = _YesReader(console)
    seating = Seating(("human", "computer"), ("You", "Computer"), game.profile)
    Session(console, seating, reader=reader)._offer_review(game)
    assert reader.questions == ["Review this game with the coach?"]
    text = out.getvalue()
    assert "Review of your game (seat 1)" in text and "points lost per deal in the discard" in text
    # Two people at one device, or no terminal: no offer.
    shared = Seating(("human", "human"), ("You", "Friend"), game.profile)
    Session(console, shared, reader=reader)._offer_review(game)
    Session(console, seating, reader=Reader(console, interactive=False))._offer_review(game)
    assert len(reader.questions) == 1


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(limits=Limits(messages_per_second=1000, burst=1000))) as test_client:
        yield test_client


def test_the_server_sends_the_same_review_after_a_game(client: TestClient) -> None:
    room = client.post("/api/rooms", json={"mode": "computer", "names": ["Ann"], "level": "easy", "seed": 9})
    data = room.json()
    with connect(client, data["keys"][0]["key"]) as ann:
        ann.send(type="review")
        refused = ann.receive()
        assert refused["type"] == "error" and "when the game is over" in refused["message"]
        play_out(client, data["room"], [ann])
        ann.send(type="review")
        answer = ann.receive()
    game = room_of(client, data["room"]).game
    assert answer["type"] == "review" and answer["seat"] == 0
    assert answer["review"] == review_game(game_record(game), 0).to_json()
    assert answer["review"]["decisions"]


def test_a_game_the_coach_cannot_judge_is_refused_in_one_line_by_the_server(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cribcore.review

    def cannot(*args: object, **kwargs: object) -> object:
        raise RecordError("profile jokers: the coach judges games of the standard pack only")

    room = client.post("/api/rooms", json={"mode": "computer", "names": ["Ann"], "level": "easy", "seed": 9})
    data = room.json()
    with connect(client, data["keys"][0]["key"]) as ann:
        play_out(client, data["room"], [ann])
        monkeypatch.setattr(cribcore.review, "review_game", cannot)
        ann.send(type="review")
        refused = ann.receive()
    assert refused["type"] == "error"
    assert refused["message"].startswith("no review: profile jokers")
    assert "\n" not in refused["message"]
    from cribcore.speech_messages import say

    assert say(refused["message"], "es") == (
        "sin revisión: perfil jokers: el entrenador solo juzga partidas con la baraja estándar"
    )
