"""Shared fixtures: games on stacked (chosen) deals; the hypothesis profile ``long`` for fuzzing."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

import pytest
from hypothesis import HealthCheck, settings

from cribcore import Game, Profile, RuleSet, parse_card, parse_cards
from cribcore.deals import DealCards, RecordedDeals

# CRIBCORE_FUZZ=long runs the fuzz tests (tests/test_fuzz_*.py) for many more examples than the
# default suite can afford; those tests take their example count from the loaded profile.
settings.register_profile(
    "long", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
if os.environ.get("CRIBCORE_FUZZ") == "long":
    settings.load_profile("long")

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


@pytest.fixture(scope="session")
def examples_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a program that sees the example plugins (captains, auction) installed."""
    from .examples import INSTALLED_TOGETHER, pip_install

    return pip_install(INSTALLED_TOGETHER, tmp_path_factory.mktemp("site"), tmp_path_factory.mktemp("build"))
