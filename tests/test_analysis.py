"""The discard analysis: numbers worked out by hand, the brute-force scorer on every option, the crib
sign, the shapes it accepts, and the ``cribbage analyze`` command."""

from __future__ import annotations

import json
import random

import pytest

from cribcore import FULL_DECK, parse_cards
from cribcore.analysis import SHAPES, DiscardOption, analyze
from cribcore.cli.main import main
from cribcore.players.crib import crib_table, expected_crib, pair_key
from tests.reference_scorer import reference_total

CaptureFixture = pytest.CaptureFixture[str]


def option_keeping(options: list[DiscardOption], kept: str) -> DiscardOption:
    cards = parse_cards(kept)
    return next(option for option in options if option.kept == tuple(sorted(cards)))


class TestByHand:
    def test_four_fives(self) -> None:
        # 5-5-5-5 scores 20 (four fifteens, six pairs); a ten-card starter adds four fifteens (28).
        # Of the 46 starters, 14 are ten-cards (16 less the KC and QD laid away): (14*28 + 32*20) / 46.
        option = option_keeping(analyze(parse_cards("5C 5D 5H 5S KC QD"), dealer=True), "5C 5D 5H 5S")
        assert option.expected_hand == pytest.approx(1032 / 46)
        assert (option.min_hand, option.max_hand) == (20, 28)
        assert option.discard == parse_cards("QD KC")

    def test_four_aces(self) -> None:
        # Six pairs whatever the starter: no fifteen (4 + a card < 15) and no run (one card cannot
        # fill 2 and 3).
        option = option_keeping(analyze(parse_cards("AC AD AH AS 9C KD"), dealer=False), "AC AD AH AS")
        assert option.expected_hand == 12
        assert (option.min_hand, option.max_hand) == (12, 12)

    def test_a_heart_flush_with_nobs(self) -> None:
        # 2H 4H 6H JH, with 9C KS laid away. Per starter rank (how many of the 46; points before the
        # flush and nobs): A 4 (2: one fifteen), 2 3 (pair), 3 4 (two fifteens and a run: 7), 4 3 (pair),
        # 5 4 (7), 6 3 (pair), 7 4 (2), 8 4 (0), 9 3 (two fifteens: 4), T 4 (0), J 3 (pair), Q 4 (0),
        # K 3 (0): 108 in all. The flush is 4 with every starter and 5 with the 9 hearts left (193),
        # and the 9 heart starters give his nobs (9): 310 over 46 starters; 4 at least (an 8, ten,
        # queen or king not of hearts), 13 at most (the 3 or 5 of hearts).
        option = option_keeping(analyze(parse_cards("2H 4H 6H JH 9C KS"), dealer=True), "2H 4H 6H JH")
        assert option.expected_hand == pytest.approx(310 / 46)
        assert (option.min_hand, option.max_hand) == (4, 13)


class TestEveryOption:
    def test_expected_hands_match_the_brute_force_scorer(self) -> None:
        rng = random.Random(9)
        for _ in range(2):
            hand = rng.sample(FULL_DECK, 6)
            options = analyze(hand, dealer=True)
            assert len(options) == 15
            for option in options[:5]:
                starters = [c for c in FULL_DECK if c not in hand]
                values = [reference_total(option.kept, starter) for starter in starters]
                assert option.expected_hand == pytest.approx(sum(values) / 46)
                assert (option.min_hand, option.max_hand) == (min(values), max(values))

    def test_net_adds_or_subtracts_the_crib_and_sorts_best_first(self) -> None:
        hand = parse_cards("5H 5D JC QS 4H 6C")
        for dealer in (True, False):
            options = analyze(hand, dealer=dealer)
            table = crib_table().dealer if dealer else crib_table().pone
            for option in options:
                a, b = (card.index for card in option.discard)
                assert option.expected_crib == table[pair_key(a, b)]
                sign = 1 if dealer else -1
                assert option.net == pytest.approx(option.expected_hand + sign * option.expected_crib)
            nets = [option.net for option in options]
            assert nets == sorted(nets, reverse=True)
        # Keep the fives and the run as dealer; as pone too, but the fives in the crib look better as dealer.
        assert analyze(hand, dealer=True)[0].kept == parse_cards("4H 5D 5H 6C")
        dealer_55 = option_keeping(analyze(hand, dealer=True), "4H 6C JC QS")
        pone_55 = option_keeping(analyze(hand, dealer=False), "4H 6C JC QS")
        assert dealer_55.net - pone_55.net == pytest.approx(dealer_55.expected_crib + pone_55.expected_crib)

    def test_the_crib_tables_are_complete(self) -> None:
        table = crib_table()
        assert len(table.dealer) == len(table.pone) == len(table.random) == 13 + 78 * 2
        assert len(table.one) == 13
        # Fives and pairs help a crib; a king and a queen of different suits are among the worst.
        assert table.dealer["55"] > table.dealer["5T"] > table.dealer["QK"]
        # A dealer's crib gets more than a random one from the pone's cards, the pone's throws less.
        assert table.pone["55"] > table.dealer["55"]
        assert expected_crib([parse_cards("5S")[0].index], own=True) == table.one["5"]

    @pytest.mark.parametrize(("shape", "count"), [((5, 2), 10), ((5, 1), 5), ((6, 2), 15), ((7, 2), 21)])
    def test_shapes(self, shape: tuple[int, int], count: int) -> None:
        size, discards = shape
        hand = random.Random(size * 10 + discards).sample(FULL_DECK, size)
        options = analyze(hand, dealer=False, discards=discards)
        assert len(options) == count
        assert all(len(option.kept) == size - discards for option in options)
        assert shape in SHAPES

    @pytest.mark.parametrize(
        ("cards", "discards", "message"),
        [
            ("5H 5H JC QS 4H 6C", 2, "named twice"),
            ("5H JC QS 4H", 2, "cannot analyze 4 cards"),
            ("5H 5D JC QS 4H 6C", 1, "laying away 1"),
        ],
    )
    def test_refusals(self, cards: str, discards: int, message: str) -> None:
        with pytest.raises(ValueError, match=message):
            analyze(parse_cards(cards), dealer=True, discards=discards)


HAND = ["5H", "5D", "JC", "QS", "4H", "6C"]


class TestCommand:
    def test_table(self, capsys: CaptureFixture) -> None:
        assert main(["analyze", *HAND, "--dealer"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert "your crib" in lines[0] and "46 possible starters" in lines[0]
        assert lines[1].split() == ["keep", "discard", "hand", "crib", "net", "min", "max"]
        assert len(lines) == 2 + 15
        assert lines[2].split()[:6] == ["4H", "5D", "5H", "6C", "JC", "QS"]

    def test_json(self, capsys: CaptureFixture) -> None:
        assert main(["analyze", *HAND, "--pone", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["dealer"] is False and len(data["options"]) == 15
        best = data["options"][0]
        assert best["keep"] == ["4H", "5D", "5H", "6C"] and best["crib"] == "opponent's"
        assert best["net"] == pytest.approx(best["expected_hand"] - best["expected_crib"], abs=1e-3)
        assert best["min_hand"] == 12 and best["max_hand"] == 24

    @pytest.mark.parametrize(
        ("argv", "code"),
        [
            (["analyze", "5H", "5D", "JC", "QS", "4H", "XX"], 1),
            (["analyze", "5H", "5D", "JC", "QS"], 1),
            (["analyze", "5H", "5H", "JC", "QS", "4H", "6C"], 1),
            (["analyze", *HAND, "--dealer", "--pone"], 2),
            (["analyze", *HAND, "--discards", "3"], 2),
        ],
    )
    def test_errors_are_one_line(self, argv: list[str], code: int, capsys: CaptureFixture) -> None:
        assert main(argv) == code
        captured = capsys.readouterr()
        assert captured.err.count("\n") == 1 and "error:" in captured.err
        assert "Traceback" not in captured.err
