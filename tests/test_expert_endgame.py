"""The expert's end-of-game discard: whole deals simulated from each candidate keep."""

from __future__ import annotations

import random

import pytest

from cribcore.cards import parse_cards
from cribcore.players import endgame, pegging
from cribcore.players.expert import ExpertPlayer
from cribcore.players.inference import keep_model
from cribcore.players.wintable import shipped_table
from cribcore.profiles import load_profile
from cribcore.rulebook import rulebook_for

from .test_expert import _private_data, discard_view  # noqa: F401  (the fixture is autouse there only)


class TestRace:
    @pytest.mark.parametrize(
        ("dealer", "pone"),
        [((1, 2, 3, 4), (5, 5, 10, 13)), ((7, 8, 8, 9), (6, 6, 9, 12)), ((10,) * 4, (10,) * 4)],
    )
    def test_without_a_need_it_is_the_whole_play_out(
        self, dealer: tuple[int, ...], pone: tuple[int, ...]
    ) -> None:
        far = 10**6
        assert pegging.race_ranks(dealer, pone, far, far) == (*pegging.play_out_ranks(dealer, pone), 0)

    def test_the_first_to_reach_its_need_stops_the_play(self) -> None:
        # Tens only: the pone leads, the dealer pairs it (2), the pone makes three of a kind on 30 (6)
        # and the go (1).
        assert pegging.race_ranks((10,) * 4, (10,) * 4, 2, 50) == (2, 0, 1)
        assert pegging.race_ranks((10,) * 4, (10,) * 4, 3, 6) == (2, 7, 2)


def _keeps(hand: str, *throws: str) -> list[tuple[list[int], list[int]]]:
    cards = [c.index for c in parse_cards(hand)]
    out = []
    for throw in throws:
        thrown = [c.index for c in parse_cards(throw)]
        out.append(([c for c in cards if c not in thrown], thrown))
    return out


class TestSimulation:
    def test_values_are_chances_and_the_same_draws_give_the_same_values(self) -> None:
        view = discard_view("5H 5D JC QS 2C 8S", dealer=1, scores=(100, 108))
        keeps = _keeps("5H 5D JC QS 2C 8S", "2C 8S", "5H 5D", "JC QS")
        model = keep_model(True)
        first = endgame.simulate_keeps(
            view, keeps, shipped_table(), model, random.Random(3), 60, view.rulebook
        )
        again = endgame.simulate_keeps(
            view, keeps, shipped_table(), model, random.Random(3), 60, view.rulebook
        )
        assert first == again
        assert all(0.0 <= v <= 1.0 for v in first)

    def test_the_pone_one_point_from_home_keeps_what_counts_first(self) -> None:
        # The pone at 119 counts its hand before the dealer (at 119 too) counts anything: a kept pair
        # is 2 points whatever the starter, four odd cards may show nothing.
        hand = "3S 3H AC 9D KC 7S"
        view = discard_view(hand, dealer=1, scores=(119, 119))
        pair, loose = endgame.simulate_keeps(
            view,
            _keeps(hand, "9D 7S", "3S 3H"),
            shipped_table(),
            keep_model(True),
            random.Random(1),
            200,
            view.rulebook,
        )
        assert pair > loose

    def test_a_given_deal_replaces_the_draws(self) -> None:
        # The dealer, at 119, kept two kings, a four and a six (the other cards its own).
        hand = "3S 3H AC 9D KC 7S"
        view = discard_view(hand, dealer=1, scores=(117, 119))
        theirs = [c.index for c in parse_cards("KD KH 4C 6D")]
        laid = [c.index for c in parse_cards("2D 8H")]
        seen = {c.index for c in parse_cards(hand)} | set(theirs) | set(laid)
        starters = [c for c in range(52) if c not in seen]
        values = [
            endgame.simulate_keeps(
                view,
                _keeps(hand, "9D 7S", "3S 3H"),
                shipped_table(),
                keep_model(True),
                random.Random(seed),
                draws,
                view.rulebook,
                deals=[(theirs, laid, starters)],
            )
            for seed, draws in ((1, 0), (2, 50))
        ]
        assert values[0] == values[1]  # neither the random numbers nor the draws count
        pair, loose = values[0]
        assert 0.0 <= loose < pair <= 1.0


class TestExpert:
    def test_only_the_end_of_the_game_is_simulated(self) -> None:
        player = ExpertPlayer(1, endgame_draws=100)
        assert player._simulates(discard_view("5H 5D JC QS 2C 8S", scores=(95, 40)))
        assert not player._simulates(discard_view("5H 5D JC QS 2C 8S", scores=(60, 70)))
        assert not ExpertPlayer(1, endgame_draws=0)._simulates(
            discard_view("5H 5D JC QS 2C 8S", scores=(95, 40))
        )

    def test_a_house_rule_s_show_keeps_the_averages(self) -> None:
        # The keep model reads the other seat's split by the standard show.
        view = discard_view("5H 5D JC QS 2C 8S", scores=(95, 40))
        assert endgame.fits(view, view.rulebook)
        assert not endgame.fits(view, rulebook_for(load_profile("flush-with-starter")))

    def test_the_simulated_discard_is_one_of_the_best_by_the_averages(self) -> None:
        view = discard_view("2H 3H 6D 8C 8D QC", dealer=0, scores=(100, 105))
        plain = ExpertPlayer(1, endgame_draws=0).judge(view)
        chosen = ExpertPlayer(1, endgame_draws=200).decide(view)
        assert chosen.action in [j.action for j in plain[: ExpertPlayer(1).endgame_top]]
