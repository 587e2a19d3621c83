"""The plugins' phases before a deal (`cribcore.game.plugin_phases`), with a small phase registered in
this process: before every deal after the first the dealer may keep the deal or hand it on, which
costs nothing and earns the other seat a point."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from cribcore import Discard, Game, Phase, parse_cards
from cribcore.actions import IllegalAction, NotYourTurn, PluginAction, WrongPhase
from cribcore.game.plugin_phases import check_plugin_action, plugin_act
from cribcore.game.show import show
from cribcore.hookspecs import hookimpl
from cribcore.phases import PhaseState, PhaseStep
from cribcore.rules import RuleSet
from cribcore.scoring import ScoreItem
from cribcore.testing import one_plugin_profile, stacked_game

pytest_plugins = ["cribcore.testing"]


class HandOn:
    @hookimpl
    def cribcore_phase_before_deal(self, dealer: int) -> tuple[str, int]:
        return ("hand-on", dealer)

    @hookimpl
    def cribcore_phase_actions(self, state: PhaseState) -> Sequence[str] | None:
        return ("keep", "hand on") if state.name == "hand-on" else None

    @hookimpl
    def cribcore_phase_apply(
        self, rules: RuleSet, state: PhaseState, seat: int, text: str
    ) -> PhaseStep | None:
        if state.name != "hand-on":
            return None
        if text == "keep":
            return PhaseStep()
        other = (seat + 1) % rules.seats
        return PhaseStep(dealer=other, awards=((other, ScoreItem("hand-on", (), 1)),), note="handed on")


DEAL = (("5H 5D JC QS 4H 6C", "2S 7D 8C KH AD 9S"), "5S")
SECOND = (("AS 2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H 6H"), "KD")


def at_the_phase(register_plugin: Callable[[str, object], None]) -> Game:
    register_plugin("hand-on", HandOn())
    game = stacked_game(DEAL, SECOND, dealer=0, profile=one_plugin_profile("hand-on"))
    game.apply(0, Discard(parse_cards("4H 6C")))
    game.apply(1, Discard(parse_cards("AD 9S")))
    show(game)  # the first deal is over: the phase opens before the second
    return game


def test_the_phase_opens_before_the_next_deal_with_its_seat_to_act(
    register_plugin: Callable[[str, object], None],
) -> None:
    game = at_the_phase(register_plugin)
    assert game.phase is Phase.PLUGIN and game.dealer == 1 and game.to_act == (1,)
    assert game.legal_actions(1) == (PluginAction("hand-on", "keep"), PluginAction("hand-on", "hand on"))
    assert game.events[-1].kind == "phase" and game.events[-1].note == "hand-on"


def test_an_action_outside_the_phase_or_its_list_is_refused(
    register_plugin: Callable[[str, object], None],
) -> None:
    game = at_the_phase(register_plugin)
    with pytest.raises(WrongPhase, match="the hand-on comes first: keep, hand on"):
        check_plugin_action(game, 1, Discard(parse_cards("AS 2S")))
    with pytest.raises(NotYourTurn):
        check_plugin_action(game, 0, PluginAction("hand-on", "keep"))
    with pytest.raises(IllegalAction, match="'swap' is not allowed now: keep, hand on"):
        check_plugin_action(game, 1, PluginAction("hand-on", "swap"))


def test_an_action_scores_its_awards_chooses_the_dealer_and_the_deal_starts(
    register_plugin: Callable[[str, object], None],
) -> None:
    game = at_the_phase(register_plugin)
    before = game.scores
    plugin_act(game, 1, "hand on")
    assert game.scores == (before[0] + 1, before[1])
    assert game.dealer == 0 and game.phase is Phase.DISCARD and game.deal_number == 1
    assert game.deal_logs()[-1].phase_actions == ("hand on",)
