"""The faster hard level and the play search kernel: same choices as before, and the kernel's contract."""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import replace

import pytest

from cribcore import Game, Play, load_profile
from cribcore.players import make_player
from cribcore.players.pegging import Unseen, draw_unseen, search_play, unseen_of
from cribcore.players.tally import VALUE
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
