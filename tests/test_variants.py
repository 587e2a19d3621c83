"""One class per variant of docs/rules.md, each on literal (stacked) deals with the exact points expected."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cribcore import Game, Profile, load_profile, parse_card, parse_cards
from cribcore.actions import BadClaim, Count, Discard, Muggins, Pass, Play, WrongPhase
from cribcore.events import Event
from cribcore.pluginmanager import plugin_manager
from cribcore.records import game_record, replay
from cribcore.scoring import FLUSH, ScoreItem, score_show
from cribcore.testing import variant

from .conftest import StackedGame


def discard(game: Game, seat: int, cards: str) -> None:
    game.apply(seat, Discard(parse_cards(cards)))


def play(game: Game, *cards: str) -> None:
    """Lay ``cards`` in order, each by the seat whose turn it is (which must hold it)."""
    for text in cards:
        game.apply(game.to_act[0], Play(parse_card(text)))


def kinds(events: tuple[Event, ...]) -> list[tuple[str, int | None, int]]:
    return [(e.kind, e.seat, e.points) for e in events if e.kind != "cut"]


def flush_points(profile: Profile, hand: str, starter: str, *, crib: bool) -> int:
    hook = plugin_manager(profile.plugins, profile.options).hook
    results = hook.cribcore_show_items(
        rules=profile.rules,
        cards=parse_cards(hand),
        starter=parse_card(starter),
        crib=crib,
        seat=0,
        dealer=0 if crib else 1,  # outside a game, as the hookspec says
    )
    return sum(item.points for result in results for item in result or () if item.kind == FLUSH)


class TestFiveCard:
    """Five cards, two to the crib, hands of three, one count in the play, 3 for last, to 61."""

    DEALS = (
        (("5S 5D 9C 2H 3H", "KC QD JH 4C 6C"), "AS"),
        (("2S 3S 4S 5C 6S", "7D 8D 9D TD JD"), "KH"),
    )

    def test_profile_rules(self) -> None:
        rules = load_profile("five-card").rules
        assert (rules.seats, rules.cards_dealt, rules.discards, rules.hand_size, rules.target) == (
            2,
            5,
            2,
            3,
            61,
        )

    def test_three_for_last_once_then_a_single_count(self, stacked: StackedGame) -> None:
        game = stacked(*self.DEALS, dealer=0, profile=load_profile("five-card"))
        assert kinds(game.events)[0] == ("compensation", 1, 3)
        assert game.scores == (0, 3)
        discard(game, 0, "2H 3H")
        discard(game, 1, "4C 6C")
        play(game, "KC", "5S", "QD", "5D")
        # 5S makes fifteen (2); at 30 nobody can lay: 1 for the go, and the play is over, JH and 9C unplayed.
        assert game_record(game)["deals"][0]["plays"] == ["KC", "5S", "QD", "5D"]
        shown = [(e.kind, e.seat, e.points) for e in game.events if e.kind in ("go", "hand", "crib")]
        assert shown == [("go", 0, 1), ("hand", 1, 3), ("hand", 0, 6), ("crib", 0, 6)]
        assert game.scores == (2 + 1 + 6 + 6, 3 + 3)
        discard(game, 1, "7D 8D")
        discard(game, 0, "2S 3S")
        assert [e.kind for e in game.events].count("compensation") == 1

    def test_views_say_the_play_is_one_count(self) -> None:
        assert Game(load_profile("five-card"), seed=1).view(0).play_continues is False
        assert Game(load_profile("standard"), seed=1).view(0).play_continues is True

    def test_a_three_card_hand_flush(self) -> None:
        flushes = [i for i in score_show(parse_cards("2H 4H 9H"), parse_card("KC")).items if i.kind == FLUSH]
        assert flushes == [ScoreItem(FLUSH, parse_cards("2H 4H 9H"), 3)]
        assert score_show(parse_cards("2H 4H 9H"), parse_card("KH")).total == 2 + 4

    def test_compensation_can_be_changed(self) -> None:
        game = Game(variant("five-card", five_card={"compensation": 2}), seed=1)
        pone = (game.dealer + 1) % 2
        assert game.scores[pone] == 2


class TestSevenCard:
    """Seven cards, two to the crib, hands of five, to 151."""

    def test_profile_rules(self) -> None:
        rules = load_profile("seven-card").rules
        assert (rules.cards_dealt, rules.hand_size, rules.crib_size, rules.target) == (7, 5, 4, 151)

    def test_five_card_hand_flush_and_six_with_the_starter(self) -> None:
        hand = parse_cards("2H 4H 6H 8H QH")
        assert [i.points for i in score_show(hand, parse_card("KS")).items if i.kind == FLUSH] == [5]
        assert [i.points for i in score_show(hand, parse_card("KH")).items if i.kind == FLUSH] == [6]
        assert score_show(parse_cards("2H 4H 6H 8H"), parse_card("KS"), crib=True).total == 0

    def test_a_game_is_dealt_seven_each(self) -> None:
        game = Game(load_profile("seven-card"), seed=3)
        assert [len(game.view(seat).hand) for seat in (0, 1)] == [7, 7]


class TestThreePlayers:
    """One card from the pack to the crib; after a go, play passes round; counting from the dealer's left."""

    DEAL = (("9C KS QS JS TS", "TC QH JD KH 4D", "TD AC 8H 7H 6H"), "3S")

    def test_profile_rules(self) -> None:
        rules = load_profile("three-players").rules
        assert (rules.seats, rules.cards_dealt, rules.discards, rules.crib_from_pack, rules.crib_size) == (
            3,
            5,
            1,
            1,
            4,
        )

    def test_a_go_passes_round_and_the_last_to_lay_scores_it(self, stacked: StackedGame) -> None:
        game = stacked(self.DEAL, dealer=0, crib_cards="2D", profile=load_profile("three-players"))
        for seat, card in ((0, "TS"), (1, "4D"), (2, "6H")):
            discard(game, seat, card)
        assert game.to_act == (1,)  # the dealer's left leads
        start = len(game.events)
        play(game, "TC", "TD", "9C", "AC")
        assert kinds(game.events[start:]) == [
            ("play", 1, 0),
            ("play", 2, 2),  # pair of tens
            ("play", 0, 0),  # 29
            ("says-go", 1, 0),
            ("play", 2, 0),  # seat 2 can still lay the ace: 30
            ("says-go", 0, 0),
            ("go", 2, 1),
            ("reset", 2, 0),
        ]
        assert game.to_act == (0,)  # the seat after the last to lay leads the next count
        assert game.scores == (0, 0, 3)
        assert sorted(game.view(2).held) == [2, 3, 3]

    def test_counting_goes_from_the_dealers_left_then_the_crib(self) -> None:
        game = Game(load_profile("three-players"), seed=5)
        while game.deal_number == 0 and not game.is_over:
            seat = game.to_act[0]
            game.apply(seat, game.legal_actions(seat)[0])
        dealer = next(e.seat for e in game.events if e.kind == "deal")
        shown = [(e.kind, e.seat) for e in game.events if e.kind in ("hand", "crib") and e.deal == 0]
        assert dealer is not None
        assert shown == [
            ("hand", (dealer + 1) % 3),
            ("hand", (dealer + 2) % 3),
            ("hand", dealer),
            ("crib", dealer),
        ]


class TestFourPlayers:
    """Four players each for themselves: five cards, one each to the crib, four scores."""

    def test_profile_rules(self) -> None:
        profile = load_profile("four-players")
        assert (profile.rules.seats, profile.rules.partnerships, profile.rules.sides) == (4, False, 4)

    def test_each_seat_scores_for_itself(self, stacked: StackedGame) -> None:
        deal = (("AC 2C 3C 4C 6D", "5C 7D 8D 9D KD", "TD JH QH KH 2D", "3D 4D 6C 7C 8C"), "9S")
        game = stacked(deal, dealer=0, profile=load_profile("four-players"))
        for seat, card in enumerate(("6D", "KD", "2D", "8C")):
            discard(game, seat, card)
        play(game, "5C", "TD")
        assert game.scores == (0, 0, 2, 0)
        assert game.to_act == (3,)


class TestPartners:
    """Four players as two partnerships, seats 0+2 against 1+3, one score per side."""

    DEAL = (("AC 2C 3C 4C 6D", "5C 7D 8D 9D KD", "TD JH QH KH 2D", "3D 4D 6C 7C 8C"), "9S")

    def test_profile_rules(self) -> None:
        profile = load_profile("partners")
        assert (profile.rules.seats, profile.rules.partnerships, profile.rules.sides) == (4, True, 2)

    def test_a_partner_scores_for_the_side_and_wins_it_the_game(self, stacked: StackedGame) -> None:
        game = stacked(self.DEAL, dealer=0, profile=variant("partners", rules={"target": 2}))
        for seat, card in enumerate(("6D", "KD", "2D", "8C")):
            discard(game, seat, card)
        play(game, "5C", "TD")  # seat 2 makes fifteen: 2 for seats 0 and 2
        assert game.is_over
        assert game.scores == (2, 0)
        assert game.winner == 0
        assert game.events[-1] == Event("win", 0, seat=2, scores=(2, 0), side=0)
        assert game.view(0).scores == game.view(2).scores == (2, 0)


class TestMuggins:
    """Players declare counts; overcounts are corrected; muggins takes missed points; false calls cost."""

    # Pone (seat 1) keeps 4C 5D 6H KC: 16 with the 5S starter (docs/rules.md). Dealer keeps 7S 8S 9S TS.
    DEAL = (("7S 8S 9S TS 3D QD", "4C 5D 6H KC AH 2H"), "5S")

    def show_game(self, stacked: StackedGame, **muggins: Any) -> Game:
        profile = variant("muggins", muggins={"apply_to_play": False, **muggins})
        game = stacked(self.DEAL, dealer=0, profile=profile)
        discard(game, 0, "3D QD")
        discard(game, 1, "AH 2H")
        play(game, "4C", "7S", "5D", "8S", "6H", "9S", "KC", "TS")
        assert game.phase.value == "show"
        assert (game.claim_stage, game.counting, game.to_act) == ("count", 1, (1,))
        return game

    def test_profile_options(self) -> None:
        assert load_profile("muggins").options["muggins"] == {
            "penalty_for_false_call": True,
            "apply_to_play": True,
        }

    def test_an_undercount_stands_and_muggins_takes_the_missed_points(self, stacked: StackedGame) -> None:
        game = self.show_game(stacked)
        before = game.scores
        game.apply(1, Count(12))
        assert game.scores == (before[0], before[1] + 12)
        assert (game.claim_stage, game.to_act) == ("call", (0,))
        called = game.apply(0, Muggins(6))[0]  # 4 were missed: the caller scores the lesser, 4
        assert (called.kind, called.seat, called.points, called.note) == (
            "muggins",
            0,
            4,
            "called 6; 4 missed",
        )
        assert game.scores == (before[0] + 4, before[1] + 12)
        assert (game.claim_stage, game.counting) == ("count", 0)  # the dealer's hand is next

    def test_a_false_call_gives_its_points_to_the_other_side(self, stacked: StackedGame) -> None:
        game = self.show_game(stacked)
        before = game.scores
        game.apply(1, Count(16))
        assert kinds(game.apply(0, Muggins(3))[:2]) == [("muggins", 0, 0), ("penalty", 1, 3)]
        assert game.scores == (before[0], before[1] + 16 + 3)

    def test_a_false_call_costs_nothing_without_the_penalty(self, stacked: StackedGame) -> None:
        game = self.show_game(stacked, penalty_for_false_call=False)
        before = game.scores
        game.apply(1, Count(16))
        game.apply(0, Muggins(3))
        assert game.scores == (before[0], before[1] + 16)

    def test_an_overcount_is_corrected_openly_with_no_call(self, stacked: StackedGame) -> None:
        game = self.show_game(stacked)
        before = game.scores
        counted = game.apply(1, Count(20))[0]
        assert (counted.kind, counted.points, counted.note) == ("count", 16, "declared 20, corrected to 16")
        assert sum(item.points for item in counted.items) == 16
        assert game.scores == (before[0], before[1] + 16)
        assert (game.claim_stage, game.counting) == ("count", 0)

    def test_a_pass_leaves_missed_points_unclaimed(self, stacked: StackedGame) -> None:
        game = self.show_game(stacked)
        game.apply(1, Count(10))
        missed = game.apply(0, Pass())[0]
        assert (missed.kind, missed.seat, missed.points, missed.note) == ("missed", 1, 0, "6 missed")

    def test_wrong_claim_actions_are_refused_and_change_nothing(self, stacked: StackedGame) -> None:
        game = self.show_game(stacked)
        events = game.events
        with pytest.raises(WrongPhase):
            game.apply(1, Pass())
        with pytest.raises(BadClaim):
            game.apply(1, Count(-1))
        game.apply(1, Count(16))
        with pytest.raises(BadClaim):
            game.apply(0, Muggins(0))
        with pytest.raises(WrongPhase):
            game.apply(0, Play(parse_card("7S")))
        assert game.events[: len(events)] == events

    def test_play_points_are_declared_too(self, stacked: StackedGame) -> None:
        game = stacked(self.DEAL, dealer=0, profile=load_profile("muggins"))
        discard(game, 0, "3D QD")
        discard(game, 1, "AH 2H")
        play(game, "4C")
        assert (game.claim_stage, game.to_act) == ("count", (1,))
        game.apply(1, Count(0))
        game.apply(0, Pass())
        play(game, "TS")
        game.apply(0, Count(0))
        game.apply(1, Pass())
        play(game, "KC")  # 24, no points
        game.apply(1, Count(0))
        game.apply(0, Pass())
        play(game, "7S")  # 31 for the dealer: 2
        game.apply(0, Count(1))
        game.apply(1, Muggins(1))
        assert game.scores == (1, 1)

    def test_a_muggins_game_replays_from_its_record(self, stacked: StackedGame) -> None:
        game = self.show_game(stacked)
        game.apply(1, Count(12))
        game.apply(0, Muggins(4))
        game.apply(0, Count(7))
        record = game_record(game)
        assert record["deals"][0]["claims"] == ["count 12", "muggins 4", "count 7"]
        again = replay(record)
        assert again.events == tuple(event for event in game.events if event.kind != "cut")
        assert (again.scores, again.claim_stage, again.to_act) == (game.scores, "call", (1,))


class TestHandFlush:
    """Which flushes count: the four-card hand flush on or off, the four-card crib flush."""

    def test_seed_001_base_rule_needs_the_starter(self) -> None:
        profile = load_profile("flush-with-starter")
        assert flush_points(profile, "4H 6H 8H TH", "KS", crib=False) == 0
        assert flush_points(profile, "4H 6H 8H TH", "KH", crib=False) == 5

    def test_standard_counts_the_four_card_hand_flush(self) -> None:
        assert flush_points(load_profile("standard"), "4H 6H 8H TH", "KS", crib=False) == 4

    def test_a_four_card_crib_flush_can_be_allowed(self) -> None:
        profile = variant("flush-with-starter", hand_flush={"crib_min": 4})
        assert flush_points(profile, "4H 6H 8H TH", "KS", crib=True) == 4
        assert flush_points(load_profile("standard"), "4H 6H 8H TH", "KS", crib=True) == 0

    def test_in_a_game_the_hand_scores_no_flush(self, stacked: StackedGame) -> None:
        deal = (("4H 6H 8H TH 2C 3C", "AS AD 2S 3D 7C 9C"), "KS")
        game = stacked(deal, dealer=1, profile=load_profile("flush-with-starter"))
        discard(game, 0, "2C 3C")
        discard(game, 1, "7C 9C")
        play(game, "4H", "AS", "6H", "AD", "8H", "2S", "3D", "TH")  # 4H … 2S 3D is 25, then TH leads
        hand = next(e for e in game.events if e.kind == "hand" and e.seat == 0)
        assert hand.points == 0


class TestSkunk:
    """Game points: 2 for a skunk (loser below 91), 3 for a double skunk (below 61), else 1."""

    DEAL = (("AC 2C 3C 4C 6D 6S", "5C 7D 8D 9D KD QS"), "9S")

    @pytest.mark.parametrize(
        ("scores", "points"), [((121, 91), 1), ((121, 90), 2), ((121, 61), 2), ((121, 60), 3), ((125, 0), 3)]
    )
    def test_game_points_by_the_losers_score(self, scores: tuple[int, int], points: int) -> None:
        profile = load_profile("skunk-match")
        hook = plugin_manager(profile.plugins, profile.options).hook
        assert hook.cribcore_game_points(rules=profile.rules, scores=scores, winner=0) == points

    def test_a_double_skunk_ends_a_game_worth_three(self, stacked: StackedGame) -> None:
        game = stacked(self.DEAL, dealer=0, profile=variant("skunk-match", rules={"target": 2}))
        discard(game, 0, "6D 6S")
        discard(game, 1, "KD QS")
        play(game, "5C", "AC", "9D")  # 15 for the pone: 2, and the game
        assert game.scores == (0, 2)
        assert (game.winner, game.game_points) == (1, 3)
        assert game_record(game)["result"]["game_points"] == 3

    def test_single_skunk_only(self) -> None:
        profile = variant("skunk-match", skunk={"double_skunk_line": 0})
        hook = plugin_manager(profile.plugins, profile.options).hook
        assert hook.cribcore_game_points(rules=profile.rules, scores=(121, 10), winner=0) == 2

    def test_without_skunk_a_game_is_one_point(self) -> None:
        game = Game(load_profile("standard"), seed=1)
        assert game.game_points == 0  # not over yet


class TestLowball:
    """The first to reach the target loses, at that moment."""

    def test_reaching_the_target_loses(self, stacked: StackedGame) -> None:
        deal = (("AC 2C 3C 4C TD 6S", "5C 7D 8D 9D KD QS"), "9S")
        game = stacked(deal, dealer=0, profile=variant("lowball", rules={"target": 2}))
        discard(game, 0, "2C 6S")
        discard(game, 1, "KD QS")
        play(game, "5C", "TD")  # the dealer makes fifteen, reaches 2, and loses
        assert game.is_over
        assert game.scores == (2, 0)
        assert game.winner == 1
        assert game.events[-1] == Event("win", 0, seat=0, scores=(2, 0), side=1)


class TestOtherTarget:
    """Any profile may set the target."""

    def test_a_profile_sets_the_target(self, tmp_path: Path) -> None:
        path = tmp_path / "to-91.toml"
        path.write_text('name = "to-91"\nextends = "standard"\n[rules]\ntarget = 91\n', encoding="utf-8")
        profile = load_profile(path)
        assert (profile.rules.target, profile.plugins) == (91, ("standard",))
        game = Game(profile, seed=4)
        while not game.is_over:
            seat = game.to_act[0]
            game.apply(seat, game.legal_actions(seat)[-1])
        assert max(game.scores) >= 91 > min(game.scores)
