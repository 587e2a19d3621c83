"""The faster hard level and the play search kernel: same choices as before, and the kernel's contract."""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import replace

import pytest

from cribcore import Game, Play, load_profile
from cribcore.players import make_player
from cribcore.players.pegging import (
    _RANK_COUNT,
    Unseen,
    _draws,
    _draws_one,
    _keep_weight,
    _keep_weights_of,
    _pairs_runs,
    _pile_key,
    draw_unseen,
    search_play,
    unseen_of,
)
from cribcore.players.tally import VALUE, peg_points
from cribcore.views import SeatView

from .hard_golden import GAMES, QUICK, load, record

LONG = os.environ.get("CRIBCORE_GOLDEN") == "long"


@pytest.mark.parametrize("game", GAMES if LONG else GAMES[:QUICK], ids=lambda g: f"{g[0]}-{g[2]}")
def test_hard_makes_the_recorded_choices_for_the_same_draws(
    game: tuple[str, tuple[str, ...], int, int],
) -> None:
    """Every action of the recorded games and every play ranking of the hard level (cards, values,
    samples), as the code before the speed-up produced them (`CRIBCORE_GOLDEN=long`: all games)."""
    golden = {(g["profile"], tuple(g["kinds"]), g["seed"], g["index"]): g for g in load()}
    expected = golden[game]
    got = record(*game)
    assert got["actions"] == expected["actions"]
    assert got["rankings"] == expected["rankings"]


def _play_view(profile: str = "standard", seed: int = 3) -> SeatView:
    """The first view of a seeded game where a seat has a choice of cards in the play."""
    game = Game(load_profile(profile), seed=seed)
    players = [make_player("medium", s) for s in range(game.rules.seats)]
    while True:
        seat = game.to_act[0]
        view = game.view(seat)
        actions = view.legal_actions
        if isinstance(actions[0], Play) and len(actions) > 1 and view.pile:
            return view
        game.apply(seat, players[seat].choose(view))


def test_draw_unseen_is_consistent_with_the_view() -> None:
    view = _play_view()
    unseen = unseen_of(view)
    seen = {c.index for c in (*view.hand, *view.kept, *view.discarded)} | {view.starter.index}  # type: ignore[union-attr]
    seen |= {c.index for cards in view.laid for c in cards}
    assert set(unseen.pool) == set(range(52)) - seen
    rng = random.Random(1)
    for _ in range(200):
        hands, crib = draw_unseen(unseen, rng)
        drawn = [c for hand in hands for c in hand] + crib
        assert len(set(drawn)) == len(drawn) and set(drawn) <= set(unseen.pool)
        assert [len(h) for h in hands] == [0 if s == view.seat else n for s, n in enumerate(view.held)]
        assert len(crib) == view.rules.crib_size - len(view.discarded)


def test_draw_unseen_respects_a_go_and_is_uniform() -> None:
    unseen = Unseen(seat=0, pool=tuple(range(52)), held=(0, 2), floors=(1, 10), order=(1,), crib_unknown=1)
    rng = random.Random(2)
    counts = Counter[int]()
    for _ in range(600):
        hands, _ = draw_unseen(unseen, rng)
        assert all(VALUE[c] >= 10 for c in hands[1])
        counts.update(hands[1])
    assert set(counts) == {c for c in range(52) if VALUE[c] >= 10}
    assert max(counts.values()) < 2.5 * min(counts.values())


def test_a_leaf_sees_the_scores_after_the_play_and_show_and_the_winner() -> None:
    view = _play_view()
    seen: list[tuple[tuple[int, ...], int | None]] = []

    def leaf(scores: tuple[int, ...], winner: int | None) -> float:
        seen.append((scores, winner))
        return float(scores[view.side] - scores[1 - view.side])

    candidates = [a.card.index for a in view.legal_actions if isinstance(a, Play)]
    estimates = search_play(view, candidates, random.Random(0), leaf=leaf, rollouts=40, min_samples=10)
    assert sorted(e.card for e in estimates) == sorted(candidates)
    assert [e.value for e in estimates] == sorted((e.value for e in estimates), reverse=True)
    assert seen and all(winner is None for _, winner in seen)  # far from the target: nobody wins
    # Every play-out counted at least the hands' and crib's show on top of the scores before it.
    assert all(s[0] >= view.scores[0] and s[1] >= view.scores[1] for s, _ in seen)
    assert any(sum(s) - sum(view.scores) >= 6 for s, _ in seen)


def test_a_leaf_is_told_who_reached_the_target_first() -> None:
    view = _play_view()
    near = replace(view, scores=(120, 120))
    winners: set[int | None] = set()

    def leaf(scores: tuple[int, ...], winner: int | None) -> float:
        assert winner is not None and scores[winner] >= 121
        winners.add(winner)
        return 1.0 if winner == view.side else 0.0

    candidates = [a.card.index for a in view.legal_actions if isinstance(a, Play)]
    estimates = search_play(near, candidates, random.Random(0), leaf=leaf, rollouts=20, min_samples=5)
    assert all(0.0 <= e.value <= 1.0 for e in estimates)
    assert winners


def test_the_pile_key_scores_every_count_as_the_standard_play() -> None:
    """The play-outs' pairs and runs, read off the last seven ranks, agree with the standard play's
    scorer on random counts that a pack allows (up to 31, at most four of a rank), low ranks favoured
    so that long counts and long runs come up."""
    rng = random.Random(5)
    checked = 0
    while checked < 3000:
        top = rng.choice((4, 7, 13))
        ranks = [rng.randint(1, top) for _ in range(rng.randint(1, 13))]
        if sum(min(r, 10) for r in ranks) > 31 or max(ranks.count(r) for r in ranks) > 4:
            continue
        assert _pairs_runs(_pile_key(ranks)) == peg_points(ranks, 0), ranks
        checked += 1


def test_the_keep_weight_looked_up_by_ranks_and_suits_is_the_weight() -> None:
    """The sampled draws weigh a kept hand by its ranks' code and whether it is one suit; that is the
    `KEEP_WEIGHT` the hand has (fifteens, pairs, runs and a flush counted)."""
    rng = random.Random(9)
    for _ in range(2000):
        kept = rng.sample(range(52), 4)
        ranks = sum(_RANK_COUNT[c] for c in kept)
        suits = 0
        for c in kept:
            suits |= 1 << (c % 4)
        flush = suits & (suits - 1) == 0
        assert _keep_weights_of(ranks, kept)[flush] == _keep_weight(kept)


def test_the_hard_levels_sampled_draws_are_consistent_with_the_view() -> None:
    """The draws the hard level now searches with (one of a few sampled draws, kept in proportion to
    their keep weight) give the other seat exactly its held number of unseen cards, and the crib the
    rest of its cards, none seen and none twice."""
    view = _play_view()
    unseen = set(unseen_of(view).pool)
    mine = [c.index for c in view.hand]
    other = 1 - view.seat
    for hands, crib, weight in _draws(view, random.Random(4), 300, True, True, True, False, mine):
        assert hands[view.seat] == mine and weight == 1.0
        assert len(hands[other]) == view.held[other]
        assert len(crib) == view.rules.crib_size - len(view.discarded)
        drawn = [*hands[other], *crib]
        assert len(set(drawn)) == len(drawn) and set(drawn) <= unseen


def test_the_two_seat_draws_respect_a_go() -> None:
    """A seat that said go on 21 holds nothing below ten: the sampled draws (proposals kept in
    proportion to their weight, one laid card known) give it tens only, the crib any unseen card."""
    unseen = Unseen(seat=0, pool=tuple(range(4, 52)), held=(3, 3), floors=(1, 10), order=(1,), crib_unknown=2)
    hands_seen = set()
    for hands, crib, _ in _draws_one(unseen, [[], [0]], random.Random(6), 300, True, True, [1, 2, 3]):
        assert all(VALUE[c] >= 10 for c in hands[1]) and len(hands[1]) == 3
        assert len(set(crib) | set(hands[1])) == 5 and set(crib) <= set(unseen.pool)
        hands_seen.update(hands[1])
    assert hands_seen == {c for c in unseen.pool if VALUE[c] >= 10}
