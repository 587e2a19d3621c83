"""The muggins claim on its own (`cribcore.claims.Claim`): each action's events, points and settling."""

from __future__ import annotations

import pytest

from cribcore.actions import BadClaim, Count, Muggins, Pass, WrongPhase
from cribcore.cards import parse_cards
from cribcore.claims import CALLS, COUNTS, Claim
from cribcore.rules import RuleSet
from cribcore.scoring import score_show

HAND = tuple(parse_cards("5H 5D JS QC"))
STARTER = parse_cards("4C")[0]


def claim(seat: int = 0) -> Claim:
    items = tuple(score_show(HAND, STARTER).items)
    return Claim(seat, HAND, items, then=lambda: None)


class TestClaim:
    def test_a_count_is_declared_first_then_answered_by_the_opponent(self) -> None:
        open_claim = claim()
        assert open_claim.stage == "count" and open_claim.to_act == (0,)
        assert open_claim.legal_actions == COUNTS
        with pytest.raises(WrongPhase):
            open_claim.check(Pass())
        step = open_claim.declare(open_claim.points - 2, RuleSet(), 3)
        assert not step.settled and open_claim.missed == 2
        [(event, points)] = step.events
        assert (event.kind, event.seat, event.deal, points) == ("count", 0, 3, open_claim.points - 2)
        assert open_claim.stage == "call" and open_claim.to_act == (1,) and open_claim.legal_actions == CALLS
        with pytest.raises(WrongPhase):
            open_claim.check(Count(1))
        with pytest.raises(BadClaim):
            open_claim.check(Muggins(0))

    def test_an_overcount_is_corrected_and_settles_the_count(self) -> None:
        open_claim = claim()
        step = open_claim.declare(open_claim.points + 5, RuleSet(), 0)
        [(event, points)] = step.events
        assert step.settled and points == open_claim.points and event.items == open_claim.items
        assert event.note == f"declared {open_claim.points + 5}, corrected to {open_claim.points}"

    def test_a_pass_tells_what_was_missed_and_awards_nothing(self) -> None:
        open_claim = claim()
        open_claim.declare(open_claim.points - 4, RuleSet(), 0)
        step = open_claim.pass_(0)
        [(event, points)] = step.events
        assert step.settled and points is None and (event.kind, event.note) == ("missed", "4 missed")

    def test_a_false_call_pays_its_penalty_to_the_counting_seat(self) -> None:
        open_claim = claim()
        open_claim.declare(open_claim.points, RuleSet(), 0)
        step = open_claim.call(1, 2, (0, 2), "Bob", 0)
        [(call, to_caller), (penalty, to_counter)] = step.events
        assert step.settled and (call.kind, call.seat, to_caller) == ("muggins", 1, 0)
        assert (penalty.kind, penalty.seat, to_counter) == ("penalty", 0, 2)
        assert penalty.note == "false muggins call by Bob"
