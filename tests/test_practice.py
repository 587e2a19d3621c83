"""Practice: the worked sequences of the play score as docs/rules.md says, the practice opponent follows its
stated rule, and a practice round runs through the real program with every card explained."""

from __future__ import annotations

import pytest

from cribcore import Card, Play
from cribcore.cli.practice import EXAMPLES, OPPONENT, YOU, Example, RulePlayer, example_points, practice_game
from cribcore.scoring import play_items

from .terminal import run_cribbage

# Seed 002, card by card: the points each card scores, the last card's point included.
SEED_002 = [
    [0, 2, 3],  # 7S 8D 8H: fifteen 2; pair 2 + last card 1
    [0, 0, 6],  # 4C 6D 5H: fifteen 2 + run of three 3 + last card 1
    [0, 0, 0, 0, 2, 0, 1],  # KC 9D TH, go, 2S (31 for 2, no go point), 7C, 6S (last card 1)
]


@pytest.mark.parametrize(("example", "expected"), list(zip(EXAMPLES, SEED_002, strict=True)))
def test_examples_score_as_the_seed_says(example: Example, expected: list[int]) -> None:
    points = [sum(i.points for i in items) + last for _, _, items, last in example_points(example)]
    assert points == expected


def test_the_third_example_counts_to_31_and_starts_again() -> None:
    counts = [count for _, count, _, _ in example_points(EXAMPLES[2])]
    assert counts == [10, 19, 29, 29, 31, 7, 13]


def test_opponent_follows_its_rule() -> None:
    for seed in range(30):
        game = practice_game(seed)
        assert game.to_act == (YOU,)  # you lead
        assert all(len(hand) == 4 for hand in game.deal_logs()[0].hands)
        rule = RulePlayer()
        while game.phase == "play" and game.to_act:
            seat = game.to_act[0]
            view = game.view(seat)
            if seat == OPPONENT:
                action = rule.choose(view)
                assert isinstance(action, Play)
                pile = [card for _, card in view.pile]

                def points(card: Card, pile: list[Card] = pile) -> int:
                    return sum(i.points for i in play_items([*pile, card]))

                best = max(points(a.card) for a in view.legal_actions if isinstance(a, Play))
                assert points(action.card) == best
                if best == 0:
                    highest = max(a.card.value for a in view.legal_actions if isinstance(a, Play))
                    assert action.card.value == highest
            else:
                action = view.legal_actions[0]
            game.apply(seat, action)


def test_practice_round_through_the_program() -> None:
    answers = "xyz\n\n" + "1\n" * 4 + "n\n"
    result = run_cribbage("practice", "pegging", "--seed", "4", stdin=answers)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "The opponent plays the card that scores the most points now" in out
    assert "'xyz' is not a card" in out and "Type a card" in out
    laid = out.count("You lay ") + out.count("The opponent lays ")
    assert laid == 8  # every card of both is laid and explained
    assert "You pegged " in out and "The opponent held " in out


def test_examples_through_the_program() -> None:
    result = run_cribbage("practice", "examples", "--ascii")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.isascii()
    assert "You lay 8H. Count 23: twenty-three and a pair is two, and 1 for the last card (3 points)." in out
    assert "You lay 5H. Count 15: fifteen two and a run of three is five" in out
    assert "You lay 2S. Count 31: thirty-one for two (2 points)." in out
    assert "You lay 6S. Count 13: 1 for the last card (1 point)." in out
