"""The plugins' phases before a deal (an auction, say): opened in the order the rulebook gives, each
seat acting with the plugin's actions in turn, awards scored as they come; when the last one closes,
the deal starts (`cribcore.game.deal.start_deal`).
"""

from __future__ import annotations

from ..actions import Action, IllegalAction, NotYourTurn, PluginAction, WrongPhase
from ..events import make_event
from ..phases import PhaseState
from .deal import start_deal
from .state import PLUGIN, GameState

__all__ = ["before_deal", "check_plugin_action", "legal_plugin_actions", "plugin_act"]


def legal_plugin_actions(game: GameState, state: PhaseState) -> tuple[PluginAction, ...]:
    """The actions the open phase ``state`` allows its seat to act now."""
    return tuple(PluginAction(state.name, text) for text in game.rulebook.phase_actions(state))


def check_plugin_action(game: GameState, seat: int, action: Action) -> None:
    """Raise the `IllegalAction` that ``seat``'s ``action`` would meet in (or for) a plugin phase."""
    state = game._plugin_phase
    if state is None:
        raise WrongPhase(f"there is no {getattr(action, 'phase', 'plugin')} phase now")
    if not isinstance(action, PluginAction) or action.phase != state.name:
        raise WrongPhase(f"the {state.name} comes first: {', '.join(game.rulebook.phase_actions(state))}")
    if seat != state.to_act:
        raise NotYourTurn(f"it is {game.players[state.to_act]}'s turn")
    legal = game.rulebook.phase_actions(state)
    if action.text not in legal:
        raise IllegalAction(f"{action.text!r} is not allowed now: {', '.join(legal)}")


def before_deal(game: GameState) -> None:
    """Run the plugins' phases for the coming deal (if any), then start it."""
    index = game._deal_index + 1
    game._phase_texts = []
    if game.rulebook.has_phases and game._source.deal(index, game._dealer, game.rules) is not None:
        game._phases_left = list(game.rulebook.phase_openings(index, game._dealer, tuple(game._scores)))
    _open_next_phase(game)


def _open_next_phase(game: GameState) -> None:
    if not game._phases_left:
        game._plugin_phase = None
        start_deal(game)
        return
    name, seat = game._phases_left.pop(0)
    index = game._deal_index + 1
    game._plugin_phase = PhaseState(name, index, game._dealer, seat, tuple(game._scores))
    game._phase = PLUGIN
    game._emit(make_event("phase", index, seat=seat, note=name))


def plugin_act(game: GameState, seat: int, text: str) -> None:
    """Apply ``seat``'s (checked) action ``text`` in the open phase: score its awards, then the phase
    goes on (its next seat), or the next phase opens (or the deal starts)."""
    state = game._plugin_phase
    assert state is not None
    step = game.rulebook.phase_apply(state, seat, text)
    game._phase_texts.append(text)
    game._emit(make_event(state.name, state.deal, seat=seat, note=text))
    for who, item in step.awards:
        # No side goes below 0: a price is cut to the points the side has.
        points = max(item.points, -game._scores[game.rules.side_of(who)])
        note = step.note
        if game._award(make_event(item.kind, state.deal, seat=who, items=(item,), note=note), points):
            game._plugin_phase = None
            return
    if step.dealer is not None:
        game._dealer = step.dealer % game.rules.seats
    if step.to_act is not None:
        actions = (*state.actions, (seat, text))
        game._plugin_phase = PhaseState(
            state.name, state.deal, game._dealer, step.to_act, tuple(game._scores), actions
        )
        return
    _open_next_phase(game)
