"""The computer plays the profile: discards, the play search, hints and the crib table follow a house
rule through the game's rulebook, and a player can be told other rules than the game's."""

from __future__ import annotations

from pathlib import Path

import pytest

from cribcore import Discard, Game, Play, Profile, load_profile, parse_card, parse_cards
from cribcore.players import crib, hint
from cribcore.players.counting import counting_for
from cribcore.players.crib import crib_cache_path, crib_table, crib_table_for
from cribcore.players.hard import HardPlayer
from cribcore.rulebook import rulebook_for, standard_rulebook
from cribcore.turns import next_able, next_holding, passed_over, scores_go

from .conftest import make_stacked_game
from .house_rules import data_dir, play_flush, ten_pairs

__all__ = ["data_dir", "play_flush", "ten_pairs"]  # fixtures


def house_profile(plugin: str) -> Profile:
    base = load_profile()
    return Profile(name=plugin, rules=base.rules, plugins=(plugin,))


# The pone's six cards: under the standard count the kings are split (keep 7C 8D 9D and a king); with
# pairs worth 10 the pair of kings is kept.
PONE = "3C 7C 8D 9D KD KH"
DEALER = "AS 2S 4H 5C 6H TS"


class TestPairsWorthTen:
    def test_the_hard_level_keeps_a_pair_it_would_break(self, ten_pairs: Path, data_dir: Path) -> None:
        game = make_stacked_game(((DEALER, PONE), "QS"), dealer=0, profile=load_profile(ten_pairs))
        view = game.view(1)
        knows = HardPlayer(0).choose(view)
        told = HardPlayer(0, rulebook=standard_rulebook()).choose(view)
        assert isinstance(knows, Discard) and isinstance(told, Discard)
        assert set(parse_cards("KD KH")).isdisjoint(knows.cards)
        assert len(set(parse_cards("KD KH")) & set(told.cards)) == 1

    def test_a_hint_says_what_it_says_under_the_profile(self, ten_pairs: Path, data_dir: Path) -> None:
        game = make_stacked_game(((DEALER, PONE), "QS"), dealer=0, profile=load_profile(ten_pairs))
        suggestion = hint(game.view(1))
        assert suggestion.action == Discard(parse_cards("3C 9D"))
        # The kept hand holds a pair worth 10 with every starter.
        expected = float(suggestion.reason.split("expected ")[1].split(" ")[0])
        assert suggestion.reason.startswith("keeps 7C 8D KD KH: expected ")
        assert expected > 10
        assert "to the opponent's crib" in suggestion.reason


class TestFlushesInThePlay:
    def test_the_hard_level_lays_the_flush_card(self, play_flush: str) -> None:
        """On 2H 3H AH (count 6) the dealer holds 9C and 9H: both make fifteen; 9H also a flush of
        four. Told the standard rules the two are equal (the lower card, 9C, wins the tie)."""
        hands = ("3H 9H 9C KS 6D 7D", "2H AH QS TD 4C 8C")
        game = make_stacked_game((hands, "5S"), dealer=0, profile=house_profile(play_flush))
        game.apply(0, Discard(parse_cards("6D 7D")))
        game.apply(1, Discard(parse_cards("4C 8C")))
        for seat, card in ((1, "2H"), (0, "3H"), (1, "AH")):
            game.apply(seat, Play(parse_card(card)))
        view = game.view(0)
        assert HardPlayer(0).choose(view) == Play(parse_card("9H"))
        assert HardPlayer(0, rulebook=standard_rulebook()).choose(view) == Play(parse_card("9C"))

    def test_the_play_scorer_asks_the_rulebook(self, play_flush: str) -> None:
        book = rulebook_for(house_profile(play_flush))
        peg = counting_for(book).pegger(dealer=0)
        pile = [card.index for card in parse_cards("2H 3H AH")]
        assert peg(pile, 6, 1) == 6  # a run of three and a flush of three
        assert counting_for(standard_rulebook()).pegger(dealer=0)(pile, 6, 1) == 3


class TestCribTable:
    def test_written_once_then_read(
        self, ten_pairs: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        book = rulebook_for(load_profile(ten_pairs))
        table = crib_table_for(book)
        path = crib_cache_path(book.fingerprint)
        assert path.parent.parent == data_dir and path.is_file()
        assert table.random["KK"] > crib_table().random["KK"] + 8  # the pair alone gains 8
        monkeypatch.setattr(crib, "_BY_FINGERPRINT", {})

        def refuse(*args: object) -> None:
            raise AssertionError("the table was computed again")

        monkeypatch.setattr(crib, "estimate_crib_table", refuse)
        assert crib_table_for(book) == table

    def test_a_damaged_file_is_computed_again(self, ten_pairs: Path, data_dir: Path) -> None:
        book = rulebook_for(load_profile(ten_pairs))
        path = crib_cache_path(book.fingerprint)
        path.parent.mkdir(parents=True)
        path.write_text('{"version": 1, "fingerprint": "', encoding="utf-8")
        table = crib_table_for(book)
        assert table.random["KK"] > crib_table().random["KK"]
        assert '"KK"' in path.read_text(encoding="utf-8")

    @pytest.mark.parametrize("name", ["standard", "flush-with-starter", "muggins"])
    def test_a_standard_crib_keeps_the_shipped_table(self, name: str, data_dir: Path) -> None:
        assert crib_table_for(rulebook_for(load_profile(name))) is crib_table()
        assert not data_dir.exists()


class TestRulebookOverride:
    def test_a_player_told_other_rules_reckons_with_them(self) -> None:
        view = Game(seed=5).view(0)
        told = HardPlayer(1, rulebook=standard_rulebook())
        assert told.rulebook_of(view) is standard_rulebook()
        assert HardPlayer(1).rulebook_of(view) is view.rulebook
        assert "rulebook=" in repr(told)

    def test_counting_follows_a_flush_variant(self) -> None:
        book = rulebook_for(load_profile("flush-with-starter"))
        counting = counting_for(book)
        hand = parse_cards("2H 4H 6H 8H")
        starters = parse_cards("KS KH")
        values = counting.hand_values([c.index for c in hand], [c.index for c in starters])
        assert values == [book.show_total(hand, s, crib=False) for s in starters] == [0, 5]


class TestTurns:
    """The engine's turn rules as pure functions (three seats; card values in brackets)."""

    def test_whose_turn(self) -> None:
        hands = [[c.index for c in parse_cards(cards)] for cards in ("KS", "", "2C 9D")]
        assert next_able(hands, 0, 28) == 2  # seat 1 holds nothing; seat 2 has the 2
        assert next_able(hands, 2, 30) is None
        assert passed_over(hands, 2, None) == (0,)  # seat 0 says go; seat 1 holds nothing
        assert passed_over(hands, 2, 2) == (0,)
        assert scores_go(None, 30) and not scores_go(None, 31) and not scores_go(2, 28)
        assert next_holding(hands, 0) == 2
        assert next_holding([[], [], []], 0) is None


@pytest.mark.parametrize("profile", ["standard", "three-players", "five-card"])
def test_the_turn_rules_are_the_engines(profile: str) -> None:
    """After every card of a few random games, `cribcore.turns` names the seat the engine asks next,
    the seats that say go, and whether the go is scored."""
    from cribcore.players import RandomPlayer

    game = Game(load_profile(profile), seed=7)
    seats = game.rules.seats
    players = [RandomPlayer(seat) for seat in range(seats)]
    plays = 0
    while game.to_act and game.deal_number < 4:
        seat = game.to_act[0]
        action = players[seat].choose(game.view(seat))
        if not isinstance(action, Play):
            game.apply(seat, action)
            continue
        plays += 1
        deal = game.deal_number
        hands = [[c.index for c in game.view(s).hand] for s in range(seats)]
        hands[seat].remove(action.card.index)
        events = game.apply(seat, action)
        count = next(e.count for e in events if e.kind == "play")
        assert count is not None
        able = next_able(hands, seat, count)
        kinds = [e.kind for e in events]
        assert ("go" in kinds) == scores_go(able, count)
        said = tuple(e.seat for e in events if e.kind == "says-go")
        assert set(said) <= set(passed_over(hands, seat, able))
        if able is not None:
            assert game.to_act == (able,)
        elif game.deal_number == deal and game.to_act and game.view(seat).phase == "play":
            assert game.to_act == (next_holding(hands, seat),)
    assert plays > 20


def test_an_unwritable_data_directory_keeps_the_table_in_memory(ten_pairs: Path, data_dir: Path) -> None:
    data_dir.write_text("a file where the data directory should be", encoding="utf-8")
    book = rulebook_for(load_profile(ten_pairs))
    assert crib_table_for(book).random["KK"] > crib_table().random["KK"]
    assert crib_table_for(book) is crib_table_for(book)
