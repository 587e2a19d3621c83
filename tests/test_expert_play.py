"""The expert's play search: what the other seat's discard says about its hand (`KeepModel`) and the
draws weighed by it."""

from __future__ import annotations

import random
from itertools import combinations

from cribcore import Play, parse_cards
from cribcore.engine import Game, standard_profile
from cribcore.players.expert import ExpertPlayer
from cribcore.players.inference import KeepModel, PlaysSeen, plays_seen
from cribcore.players.pegging import Unseen, _draws_inferred, search_play
from cribcore.players.registry import make_player
from cribcore.players.tally import RANK, VALUE
from cribcore.profiles import load_profile

from .test_expert import play_view


def indices(text: str) -> list[int]:
    return [c.index for c in parse_cards(text)]


def split_chances(model: KeepModel, six: list[int]) -> dict[tuple[int, ...], float]:
    return {keep: model(list(keep), [c for c in six if c not in keep]) for keep in combinations(six, 4)}


def test_the_chances_of_the_fifteen_splits_add_up_to_one() -> None:
    six = indices("5H 5S JD KC 2C 9D")
    for own in (True, False):
        assert abs(sum(split_chances(KeepModel(own), six).values()) - 1.0) < 1e-9


def test_a_pone_keeps_its_fives_and_a_dealer_may_lay_them_away() -> None:
    six = indices("5H 5S 7D 8C 9D KC")
    fives = set(indices("5H 5S"))
    laid_a_five = {}
    for own in (True, False):
        chances = split_chances(KeepModel(own), six)
        laid_a_five[own] = sum(p for keep, p in chances.items() if fives - set(keep))
    assert laid_a_five[True] > 0.5  # the dealer likes two fives in its own crib
    assert laid_a_five[False] < 0.01  # a pone never gives the dealer's crib a five


def test_inferred_draws_hold_only_what_the_model_and_the_go_allow() -> None:
    pool = tuple(range(8, 52))
    unseen = Unseen(seat=0, pool=pool, held=(3, 3), floors=(1, 5), order=(1,), crib_unknown=2)

    def no_kept_fives(kept: object, thrown: object) -> float:
        assert isinstance(kept, list) and isinstance(thrown, list)
        return 0.0 if any(RANK[c] == 5 for c in kept) else 1.0

    laid = indices("KH")
    mine = [0, 1, 2]
    draws = list(_draws_inferred(unseen, laid, random.Random(3), 200, mine, no_kept_fives))
    assert len(draws) == 200
    thrown_fives = 0
    for hands, crib, weight in draws:
        held = hands[1]
        assert hands[0] == mine and len(held) == 3 and len(crib) == 2
        assert not set(held) & set(crib) and set(held) | set(crib) <= set(pool)
        if weight < 1e-6:  # no split of a few redraws fit: the draw counts for (almost) nothing
            continue
        assert all(VALUE[c] >= 5 and RANK[c] != 5 for c in held)  # the go's floor, and the model
        assert weight <= 10.0  # the sum of the allowed splits' chances
        thrown_fives += sum(RANK[c] == 5 for c in crib)
    assert thrown_fives > 0  # fives drawn go to the crib


def test_a_hand_that_passed_a_pair_is_less_likely() -> None:
    led = indices("7C")
    seen = PlaysSeen([(tuple(led), 7, indices("KH")[0])])
    with_a_seven = seen(indices("KH 7D 2S 3S"))
    without = seen(indices("KH 9D 2S 3S"))
    assert with_a_seven < 0.2 < without  # the pair was there for the taking
    assert PlaysSeen([])(indices("KH 7D 2S 3S")) == 1.0


def test_plays_seen_reads_the_other_seats_cards_from_the_events() -> None:
    game = Game(standard_profile(), seed=11, players=["a", "b"])
    players = [make_player("hard", 1), make_player("hard", 2)]
    while game.phase != "play" or len(game.view(0).laid[1]) < 2:
        seat = game.to_act[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
    view = game.view(0)
    plays = plays_seen(view, 1).plays
    assert [card for _, _, card in plays] == [c.index for c in view.laid[1]]
    for pile, count, _ in plays:
        assert sum(VALUE[c] for c in pile) == count


def test_distinct_shares_the_play_outs_among_the_ranks() -> None:
    view = play_view("5H 5S KD", "", scores=(0, 0), held=3)
    candidates = [a.card.index for a in view.legal_actions if isinstance(a, Play)]
    assert len(candidates) == 3

    def leaf(scores: tuple[int, ...], winner: int | None) -> float:
        return float(scores[0] - scores[1])

    for distinct, samples in ((False, 100), (True, 150)):
        ranked = search_play(
            view, candidates, random.Random(1), leaf=leaf, rollouts=300, min_samples=1, distinct=distinct
        )
        assert {e.samples for e in ranked} == {samples}
        fives = [e.value for e in ranked if RANK[e.card] == 5]
        assert fives[0] == fives[1]  # one play-out serves both fives


def test_the_other_seats_keep_is_inferred_only_under_the_standard_show() -> None:
    expert = ExpertPlayer(1)
    for profile, inferred in ((standard_profile(), True), (load_profile("flush-with-starter"), False)):
        game = Game(profile, seed=3, players=["a", "b"])
        players = [make_player("hard", 1), make_player("hard", 2)]
        while game.phase != "play":
            seat = game.to_act[0]
            game.apply(seat, players[seat].choose(game.view(seat)))
        assert (expert._keep_model(game.view(game.to_act[0])) is not None) is inferred
