"""Shared fixtures: games on stacked (chosen) deals."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

import pytest
from hypothesis import HealthCheck, settings

from cribcore import Game, Profile, RuleSet, parse_card, parse_cards
from cribcore.deals import DealCards, RecordedDeals

FUZZ_LONG = os.environ.get("CRIBCORE_FUZZ") == "long"
"""``CRIBCORE_FUZZ=long``: run the hypothesis profile "long" (many examples, no deadline) instead of the
default suite's few examples, for a fuzzing campaign."""

settings.register_profile(
    "long",
    max_examples=3_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
if FUZZ_LONG:
    settings.load_profile("long")


def fuzz_settings(examples: int) -> settings:
    """Settings for a fuzz test: ``examples`` examples in the default suite (kept to a few seconds), the
    "long" profile under ``CRIBCORE_FUZZ=long``."""
    if FUZZ_LONG:
        return settings.get_profile("long")
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


DealSpec = tuple[Sequence[str], str]
"""One stacked deal: each seat's cards as dealt (text, seat by seat) and the starter."""

StackedGame = Callable[..., Game]


def make_stacked_game(
    *deals: DealSpec,
    dealer: int = 0,
    rules: RuleSet | None = None,
    crib_cards: str = "",
    profile: Profile | None = None,
) -> Game:
    """A game whose deals are exactly ``deals`` (then it waits), first dealt by ``dealer``, under
    ``profile`` (or the standard rules, or ``rules`` with no variant plugin)."""
    cards = [
        DealCards(
            hands=tuple(parse_cards(hand) for hand in hands),
            crib_cards=parse_cards(crib_cards),
            starter=parse_card(starter),
        )
        for hands, starter in deals
    ]
    if profile is None and rules is not None:
        profile = Profile(name="stacked", rules=rules)
    return Game(profile, seed=0, deals=RecordedDeals([dealer], cards))


@pytest.fixture
def stacked() -> StackedGame:
    """``stacked(((hand0, hand1), starter), ..., dealer=0, rules=None, profile=None)``: a game on
    chosen deals."""
    return make_stacked_game
