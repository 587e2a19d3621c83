"""A plugin for the tests of plugin failures: it implements every hook, and the hook named by its
``hook`` option raises (or, with ``wrong``, returns a value of the wrong type) on its ``after``-th call.
Every other call answers ``None``, which changes nothing in a game."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from cribcore.hookspecs import hookimpl
from cribcore.phases import PhaseState, PhaseStep

PHASE_HOOKS = frozenset({"cribcore_phase_actions", "cribcore_phase_apply", "cribcore_phase_choose"})


class BoomError(RuntimeError):
    """What the failing hook raises."""


class Boom:
    """Fails in one hook, on purpose."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

        hook: str = "cribcore_play_items"
        after: int = 1
        wrong: bool = False

    def __init__(self, options: Options) -> None:
        self.options = options
        self.calls = 0

    def _answer(self, hook: str) -> object:
        if hook != self.options.hook:
            return None
        self.calls += 1
        if self.calls < self.options.after:
            return None
        if self.options.wrong:
            return object()
        raise BoomError(f"boom in {hook}")

    @hookimpl
    def cribcore_rules(self) -> object:
        return self._answer("cribcore_rules")

    @hookimpl
    def cribcore_check_rules(self, rules: object) -> object:  # profiles pass ``rules`` by name
        return self._answer("cribcore_check_rules")

    @hookimpl
    def cribcore_wild_cards(self) -> object:
        return self._answer("cribcore_wild_cards")

    @hookimpl
    def cribcore_game_start(self) -> object:
        return self._answer("cribcore_game_start")

    @hookimpl
    def cribcore_check_discard(self) -> object:
        return self._answer("cribcore_check_discard")

    @hookimpl
    def cribcore_starter_items(self) -> object:
        return self._answer("cribcore_starter_items")

    @hookimpl
    def cribcore_play_items(self) -> object:
        return self._answer("cribcore_play_items")

    @hookimpl(tryfirst=True)
    def cribcore_play_continues(self) -> object:
        return self._answer("cribcore_play_continues")

    @hookimpl
    def cribcore_show_items(self) -> object:
        return self._answer("cribcore_show_items")

    @hookimpl(tryfirst=True)
    def cribcore_flush_rules(self) -> object:
        return self._answer("cribcore_flush_rules")

    @hookimpl
    def cribcore_show_suits_as_standard(self) -> object:
        return self._answer("cribcore_show_suits_as_standard")

    @hookimpl(tryfirst=True)
    def cribcore_skunk_lines(self) -> object:
        return self._answer("cribcore_skunk_lines")

    @hookimpl(tryfirst=True)
    def cribcore_declared(self) -> object:
        return self._answer("cribcore_declared")

    @hookimpl(tryfirst=True)
    def cribcore_muggins(self) -> object:
        return self._answer("cribcore_muggins")

    @hookimpl(tryfirst=True)
    def cribcore_counting_order(self) -> object:
        return self._answer("cribcore_counting_order")

    @hookimpl(tryfirst=True)
    def cribcore_winner(self) -> object:
        return self._answer("cribcore_winner")

    @hookimpl(tryfirst=True)
    def cribcore_game_points(self) -> object:
        return self._answer("cribcore_game_points")

    @hookimpl(tryfirst=True)
    def cribcore_pack(self) -> object:
        return self._answer("cribcore_pack")

    @hookimpl
    def cribcore_score_kinds(self) -> object:
        return self._answer("cribcore_score_kinds")

    def _in_phase(self) -> bool:
        """Whether the failing hook is one that is only called inside a phase: then every deal after the
        first opens one (two actions, so that the computer chooses), so that the hook is called."""
        return self.options.hook in PHASE_HOOKS

    @hookimpl
    def cribcore_phase_before_deal(self, dealer: int) -> object:
        if self._in_phase():
            return ("boom", dealer)
        return self._answer("cribcore_phase_before_deal")

    @hookimpl(tryfirst=True)
    def cribcore_phase_actions(self, state: PhaseState) -> object:
        if state.name != "boom":
            return None
        return self._answer("cribcore_phase_actions") or ["go on", "go on at once"]

    @hookimpl(tryfirst=True)
    def cribcore_phase_apply(self, state: PhaseState) -> object:
        if state.name != "boom":
            return None
        return self._answer("cribcore_phase_apply") or PhaseStep()

    @hookimpl(tryfirst=True)
    def cribcore_phase_choose(self, state: PhaseState) -> object:
        if state.name != "boom":
            return None
        return self._answer("cribcore_phase_choose") or "go on"
