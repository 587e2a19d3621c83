"""The pack a plugin defines (``cribcore_pack``), extra cards such as jokers (`Card.extra`), and the words
of a plugin's own score kinds (``cribcore_score_kinds``), proven with the joker-cribbage example loaded
in this process."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from cribcore import pluginmanager
from cribcore.actions import Discard
from cribcore.cards import FULL_DECK, Card, CardParseError, Rank, Suit, parse_card, parse_cards
from cribcore.engine import Game
from cribcore.hookspecs import hookimpl
from cribcore.players import make_player
from cribcore.profiles import ProfileError, load_profile
from cribcore.records import game_record, replay
from cribcore.rulebook import rulebook_for
from cribcore.rules import RuleSet
from cribcore.scoring import ScoreItem
from cribcore.speech import ScoreKind, reasons, register_kinds, spoken_play, spoken_show, spoken_starter

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "joker-cribbage"
PLUGIN = "joker-cribbage"


def _load_example() -> object:
    name = "cribcore_joker_cribbage"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, EXAMPLE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def jokers(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """The joker-cribbage example installed in this process; yields a folder with its profile."""
    _load_example()
    real = pluginmanager.available()
    fake = EntryPoint(
        name=PLUGIN, value="cribcore_joker_cribbage:JokerCribbage", group=pluginmanager.ENTRY_POINT_GROUP
    )
    monkeypatch.setattr(pluginmanager, "available", lambda: {**real, PLUGIN: fake})
    pluginmanager.clear_caches()
    (tmp_path / "joker.toml").write_text((EXAMPLE / "joker-cribbage.toml").read_text(), encoding="utf-8")
    (tmp_path / "two.toml").write_text(
        'name = "two-jokers"\nextends = "joker.toml"\n[options.joker-cribbage]\njokers = 2\n',
        encoding="utf-8",
    )
    yield tmp_path
    pluginmanager.clear_caches()


def _plain(action: Discard) -> bool:
    return all(card.standard for card in action.cards)


def _x(text: str) -> Card:
    return parse_card(text)


class TestExtraCards:
    def test_an_extra_card_is_a_value_with_its_own_text(self) -> None:
        card = Card.extra("Z9", rank=Rank.FIVE, suit=Suit.HEARTS, value=0)
        assert str(card) == "Z9" and not card.standard and card.index >= 52
        assert card.value == 0 and card.rank is Rank.FIVE
        assert Card.extra("Z9", rank=Rank.FIVE, suit=Suit.HEARTS, value=0) is card
        assert parse_card("z9") is card and parse_cards("5H Z9") == (parse_card("5H"), card)
        assert card != parse_card("5H") and card > parse_card("KS")
        assert len({card, parse_card("5H")}) == 2

    def test_standing_for_is_gone_wild_cards_are_the_rulebooks(self) -> None:
        # Card.standing_for scored a standard wild card as itself; `cribcore_wild_cards` replaced it.
        assert not hasattr(Card, "standing_for")

    @pytest.mark.parametrize("text", ["5H", "TS", "10S", "x1", "", "ABCDE", "J♣"])
    def test_a_text_that_is_not_allowed_is_refused(self, text: str) -> None:
        with pytest.raises(ValueError, match="cannot name an extra card"):
            Card.extra(text, rank=Rank.ACE, suit=Suit.CLUBS)

    def test_a_redefinition_is_refused(self) -> None:
        Card.extra("Z7", rank=Rank.ACE, suit=Suit.CLUBS)
        with pytest.raises(ValueError, match="already defined"):
            Card.extra("Z7", rank=Rank.TWO, suit=Suit.CLUBS)

    def test_unknown_text_is_still_not_a_card(self) -> None:
        with pytest.raises(CardParseError, match="not a card: Q1"):
            parse_card("Q1")

    def test_the_rules_check_the_deal_against_the_pack_size(self) -> None:
        big = {"seats": 4, "cards_dealt": 12, "discards": 1, "crib_from_pack": 4}
        with pytest.raises(ValueError, match="too few cards"):
            RuleSet.model_validate(big)
        assert RuleSet.model_validate(big, context={"pack_size": 54}).cards_needed == 53


class TestJokerCribbage:
    def test_the_pack_has_the_jokers_and_the_standard_pack_is_unchanged(self, jokers: Path) -> None:
        one = rulebook_for(load_profile(jokers / "joker.toml")).pack
        two = rulebook_for(load_profile(jokers / "two.toml")).pack
        assert one == (*FULL_DECK, _x("X1")) and two == (*FULL_DECK, _x("X1"), _x("X2"))
        assert rulebook_for(load_profile()).pack == FULL_DECK
        # The same seed deals the standard game it always dealt.
        assert Game(seed=5).deal_logs()[0].hands == Game(load_profile(), seed=5).deal_logs()[0].hands

    def test_a_joker_is_wild_in_the_show(self, jokers: Path) -> None:
        book = rulebook_for(load_profile(jokers / "joker.toml"))
        hand = parse_cards("5H 5D 5S X1")
        items = book.show_items(hand, _x("JC"), crib=False)
        assert sum(i.points for i in items) == 28  # the joker is the fourth five
        assert all(str(c) != "5C" for i in items for c in i.cards)
        starter_wild = book.show_items(parse_cards("5H 5D 5S JC"), _x("X1"), crib=False)
        assert sum(i.points for i in starter_wild) == 29  # a five of clubs turned up, and his nobs

    def test_two_jokers_choose_together(self, jokers: Path) -> None:
        book = rulebook_for(load_profile(jokers / "two.toml"))
        items = book.show_items(parse_cards("5H 5D X1 X2"), _x("JS"), crib=False)
        assert sum(i.points for i in items) == 28  # the jokers are the other two fives

    def test_a_joker_in_the_play_counts_ten_and_pairs_as_it_suits(self, jokers: Path) -> None:
        book = rulebook_for(load_profile(jokers / "joker.toml"))
        pile = parse_cards("QH X1")
        assert [(i.kind, i.points) for i in book.play_items(pile, seat=0, dealer=1)] == [("pair", 2)]
        run = parse_cards("9H JD X1")
        assert [(i.kind, i.points) for i in book.play_items(run, seat=0, dealer=1)] == [("run", 3)]
        fifteen = parse_cards("5H X1")
        assert [(i.kind, i.points) for i in book.play_items(fifteen, seat=0, dealer=1)] == [("fifteen", 2)]

    def test_a_joker_turned_up_scores_its_own_kind_with_its_words(self, jokers: Path) -> None:
        book = rulebook_for(load_profile(jokers / "joker.toml"))
        items = book.starter_items(_x("X1"), dealer=0)
        assert [(i.kind, i.points) for i in items] == [("joker-turned-up", 2)]
        assert reasons(items) == "joker turned up 2"
        assert spoken_starter(items) == "the joker turned up"
        assert book.starter_items(_x("JC"), dealer=0)[0].kind == "heels"

    def test_games_with_jokers_play_to_the_end_and_replay(self, jokers: Path) -> None:
        profile = load_profile(jokers / "two.toml")
        seen_joker = False
        for seed in range(2):
            game = Game(profile, seed=seed, players=("A", "B"))
            players = [make_player(kind, seed) for kind in ("hard", "easy")]
            while not game.is_over:
                seat = game.to_act[0]
                view = game.view(seat)
                action = players[seat].choose(view)
                theirs = view.rules.side_of(view.dealer) != view.side
                plain = [a for a in view.legal_actions if isinstance(a, Discard) and _plain(a)]
                if isinstance(action, Discard) and theirs and plain:
                    # Never a joker to the opponent's crib when another discard is legal.
                    assert _plain(action)
                game.apply(seat, action)
            seen_joker |= any(not c.standard for log in game.deal_logs() for h in log.hands for c in h)
            again = replay(game_record(game))
            assert again.scores == game.scores
        assert seen_joker

    def test_a_record_with_a_joker_is_refused_under_a_standard_profile(self, jokers: Path) -> None:
        game = Game(load_profile(jokers / "joker.toml"), seed=3)
        record = game_record(game)
        record["profile"] = load_profile().model_dump(mode="json")
        deal = record["deals"][0]
        deal["hands"][0][0] = "X1"
        with pytest.raises(Exception, match="not in this profile's pack"):
            replay(record)


class TestScoreKinds:
    def test_standard_kinds_keep_their_words(self) -> None:
        with pytest.raises(ValueError, match="standard kind"):
            register_kinds({"heels": ScoreKind("nibs")})

    def test_a_kind_is_named_and_spoken_everywhere(self) -> None:
        register_kinds({"play-flush": ScoreKind("play flush", "a play flush is {total}")})
        with pytest.raises(ValueError, match="already named"):
            register_kinds({"play-flush": ScoreKind("flush in the play")})
        cards = parse_cards("2H 4H 9H")
        item = ScoreItem("play-flush", cards, 3)
        fifteen = ScoreItem("fifteen", cards, 2)
        assert reasons([fifteen, item]) == "fifteen 2, play flush 3"
        assert spoken_play(15, [fifteen, item]) == "fifteen two and a play flush is five"
        assert spoken_show([fifteen, item]) == "fifteen two, and a play flush is five"

    def test_a_profile_whose_plugin_renames_a_standard_kind_fails_to_load(self, jokers: Path) -> None:
        module = sys.modules["cribcore_joker_cribbage"]
        original = module.JokerCribbage.cribcore_score_kinds
        try:
            module.JokerCribbage.cribcore_score_kinds = hookimpl(lambda self: {"go": ScoreKind("went")})
            pluginmanager.clear_caches()
            with pytest.raises(ProfileError, match="joker-cribbage: score kind 'go' is a standard kind"):
                load_profile(jokers / "joker.toml")
        finally:
            module.JokerCribbage.cribcore_score_kinds = original
            pluginmanager.clear_caches()
