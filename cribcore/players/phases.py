"""How every computer player decides in a plugin's phase: it asks the plugin (see `cribcore.phases`)."""

from __future__ import annotations

from ..actions import Action, PluginAction
from ..views import SeatView

__all__ = ["choose_plugin_action"]


def choose_plugin_action(view: SeatView, level: str) -> Action:
    """The action a computer player of ``level`` takes in the plugin phase of ``view``: the plugin's
    choice for that level (``cribcore_phase_choose``), or the first legal action when it has none."""
    legal = [action for action in view.legal_actions if isinstance(action, PluginAction)]
    if view.plugin_phase is None or not legal:
        return view.legal_actions[0]
    texts = [action.text for action in legal]
    chosen = view.rulebook.phase_choose(view.plugin_phase, view.seat, level, texts)
    return legal[texts.index(chosen)]
