"""A plugin for the tests of plugin failures: it implements every hook, and the hook named by its
``hook`` option raises (or, with ``wrong``, returns a value of the wrong type) on its ``after``-th call.
Every other call answers ``None``, which changes nothing in a game."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from cribcore.hookspecs import hookimpl


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
