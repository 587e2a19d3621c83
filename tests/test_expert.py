"""The expert level and its win table: it plays whole games, its table is sound, other profiles get
their own table (cached by fingerprint) or a one-line notice, and it plays for the game near the end."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from benchmarks import make_win_table
from cribcore import FULL_DECK, Discard, Play, Profile, SeatView, load_profile, parse_card, parse_cards
from cribcore.cli.entry import main
from cribcore.players import wintable, wintable_build
from cribcore.players.expert import ExpertPlayer, Judgement
from cribcore.players.registry import LEVELS, make_player
from cribcore.rulebook import rulebook_for

from .conftest import make_stacked_game


@pytest.fixture(autouse=True)
def _private_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables and saves go to a temporary data directory, never the real home."""
    monkeypatch.setenv("CRIBCORE_DATA_DIR", str(tmp_path / "data"))


def discard_view(hand: str, *, dealer: int = 0, scores: tuple[int, int] = (0, 0)) -> SeatView:
    taken = set(parse_cards(hand))
    other = [c for c in FULL_DECK if c not in taken][:6]
    starter = next(c for c in reversed(FULL_DECK) if c not in taken)
    game = make_stacked_game(((hand, " ".join(map(str, other))), str(starter)), dealer=dealer)
    return dataclasses.replace(game.view(0), scores=scores)


def play_view(hand: str, pile: str, *, scores: tuple[int, int], dealer: int = 0, held: int = 2) -> SeatView:
    """Seat 0 holds ``hand``; seat 1 laid ``pile`` on this count and holds ``held``."""
    base = discard_view("AC 2C 3C 4C 6C 7C", scores=scores, dealer=dealer)
    cards = parse_cards(hand)
    laid = parse_cards(pile)
    count = sum(c.value for c in laid)
    return dataclasses.replace(
        base,
        phase="play",
        hand=tuple(sorted(cards)),
        kept=tuple(sorted(cards)),
        discarded=(),
        held=(len(cards), held),
        starter=parse_card("KD"),
        count=count,
        pile=tuple((1, c) for c in laid),
        laid=((), laid),
        legal_actions=tuple(Play(c) for c in sorted(cards) if count + c.value <= 31),
        events=(),
    )


class TestLevel:
    def test_expert_is_the_strongest_level(self) -> None:
        assert LEVELS[-1] == "expert" and LEVELS.index("expert") == LEVELS.index("hard") + 1
        assert isinstance(make_player("expert", 1), ExpertPlayer)

    def test_level_expert_plays_a_game_to_the_end(self, capsys: pytest.CaptureFixture[str]) -> None:
        # One game covers both ways to ask for the level: by kind, and as the level of computer seats.
        argv = ["play", "--players", "expert,computer", "--level", "expert", "--seed", "3", "--no-save"]
        assert main(argv) == 0
        assert "Game over" in capsys.readouterr().out

    def test_judge_ranks_every_legal_discard_with_a_win_chance(self) -> None:
        view = discard_view("5H 5D JC QS 2C 8S", dealer=1, scores=(30, 40))
        judged = ExpertPlayer(1).judge(view)
        assert {j.action for j in judged} == set(view.legal_actions)
        assert all(isinstance(j, Judgement) and j.win is not None and 0 <= j.win <= 1 for j in judged)
        wins = [j.win or 0.0 for j in judged]
        assert wins == sorted(wins, reverse=True)
        best = ExpertPlayer(1).decide(view)
        assert best == judged[0] and isinstance(best.action, Discard)
        assert {"kept", "discard", "expected_hand", "expected_crib", "crib"} <= set(best.facts)


class TestTable:
    def test_the_shipped_table_is_consistent(self) -> None:
        table = wintable.shipped_table()
        w = table.dealer
        t = table.target
        assert t == 121 and len(w) == t
        for a in range(t):
            for b in range(t):
                assert 0.0 <= w[a][b] <= 1.0
                if a + 1 < t:
                    assert w[a + 1][b] >= w[a][b] - 1e-4  # more points for the dealer never hurt it
                if b + 1 < t:
                    assert w[a][b + 1] <= w[a][b] + 1e-4
        # Dealing is an advantage at equal scores far from the end (near it, the pone counts first).
        assert all(w[a][a] > 0.5 for a in range(80))
        assert 0.53 < w[0][0] < 0.59  # the first dealer's edge

    def test_the_shipped_table_names_the_default_command(self) -> None:
        # make_win_table without options must remake the shipped file, so its defaults track the file.
        shipped = json.loads((Path(wintable.__file__).parent / "win_table.json").read_text(encoding="utf-8"))
        defaults = make_win_table.build_parser().parse_args([])
        assert shipped["command"] == make_win_table.command_line(defaults)
        assert shipped["source"].endswith(f"made by: {shipped['command']}")

    def test_the_shipped_table_solves_its_own_deal_statistics(self) -> None:
        table = wintable.shipped_table()
        again = wintable.solve(table.stats, table.target)
        for row, solved in zip(table.dealer, again.dealer, strict=True):
            assert row == pytest.approx(solved, abs=2 / wintable.SCALE)

    def test_another_target_gets_its_table_cached_by_fingerprint(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(wintable, "FIRST_USE_DEALS", 8)
        standard = load_profile("standard")
        book = rulebook_for(Profile(name="short", rules=standard.rules.model_copy(update={"target": 61})))
        monkeypatch.setattr(wintable, "_BY_FINGERPRINT", {})
        table = wintable_build.win_table_for(book)
        assert table is not None and table.target == 61
        path = tmp_path / "data" / "win-tables" / f"{book.fingerprint}.json"
        assert path.is_file()
        monkeypatch.setattr(wintable, "_BY_FINGERPRINT", {})
        monkeypatch.setattr(wintable_build, "compute_table", lambda *a, **k: pytest.fail("computed again"))
        again = wintable_build.win_table_for(book)
        assert again is not None and again.dealer == table.dealer

    def test_three_seats_fall_back_to_points_with_one_line(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(wintable, "_BY_FINGERPRINT", {})
        monkeypatch.setattr(wintable, "_NOTICED", set())
        book = rulebook_for(load_profile("three-players"))
        assert wintable_build.win_table_for(book) is None
        assert wintable_build.win_table_for(book) is None
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "three-players" in err and "points" in err

    def test_the_notice_is_said_in_the_players_language(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from cribcore.i18n import current_language, set_language

        monkeypatch.setattr(wintable, "_BY_FINGERPRINT", {})
        monkeypatch.setattr(wintable, "_NOTICED", set())
        before = current_language()
        set_language("es")
        try:
            assert wintable_build.win_table_for(rulebook_for(load_profile("three-players"))) is None
        finally:
            set_language(before)
        err = capsys.readouterr().err
        assert err == (
            "experto: no hay tabla de victorias para el perfil 'three-players' (3 puestos); "
            "juega por puntos\n"
        )


class TestPeggingOut:
    def test_takes_the_peg_out(self) -> None:
        # Both need 2 (the pone would count first): the 5 on a 10 makes fifteen and wins at once.
        view = play_view("5C 9S", "TD", scores=(119, 119))
        judged = ExpertPlayer(1).judge(view)
        assert judged[0].action == Play(parse_card("5C"))
        assert judged[0].win == pytest.approx(1.0)
        assert judged[1].win is not None and judged[1].win < 1.0

    def test_does_not_hand_the_opponent_the_game(self) -> None:
        # Both need 2, the dealer's 2 more likely from its show: the ace leaves 21 (a ten-card makes
        # 31, another ace a pair), the nine leaves 29 (only a 2 makes 31, and the ace may make it next).
        view = play_view("AC 9D", "KH QS", scores=(119, 119), dealer=1)
        judged = ExpertPlayer(1).judge(view)
        assert judged[0].action == Play(parse_card("9D"))
        assert judged[0].win is not None and judged[1].win is not None and judged[0].win > judged[1].win


class TestAnswersThatCannotWait:
    """A hint, a review and a computer seat on the server never stop for a new profile's first table."""

    def test_without_a_table_at_hand_they_judge_by_points_and_compute_nothing(
        self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        from cribcore.engine import Game
        from cribcore.players.hints import hint
        from cribcore.server.rooms import Room

        monkeypatch.setenv("CRIBCORE_DATA_DIR", str(tmp_path))

        computed: list[object] = []

        def no_table(*args: object, **kwargs: object) -> object:
            computed.append(args)
            raise RuntimeError("not in this test")

        monkeypatch.setattr(wintable_build, "compute_table", no_table)
        profile = load_profile("muggins")
        game = Game(profile, seed=4)
        assert hint(game.view(0)).action in game.view(0).legal_actions
        room, _, _ = Room.create(
            mode="computer", profile=profile, names=["Ann"], level="expert", seed=2, now=0
        )
        player = room._player(1)
        assert isinstance(player, ExpertPlayer)
        assert player.table_of(room.game.view(1)) is None
        assert computed == []
