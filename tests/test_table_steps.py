"""The steps both terminal tables share (`cribcore.cli.table_steps`): arriving at a game under way is
told from its last deal, exactly as a table that watched the whole game told that deal."""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.console import Console

from cribcore.cli.describe import Voice
from cribcore.cli.narrate import Narrator
from cribcore.cli.render import Painter
from cribcore.cli.table_steps import catch_up, table_title, tell_events, where_in_game
from cribcore.engine import Game
from cribcore.events import Event


def _game_in(deal: int, moves: int = 3) -> Game:
    """A seeded game a few moves into deal ``deal`` (counted from 0)."""
    game = Game(seed=4, players=("Ann", "Bob"))
    while game.deal_number < deal:
        seat = game.to_act[0]
        game.apply(seat, game.legal_actions(seat)[0])
    for _ in range(moves):
        seat = game.to_act[0]
        game.apply(seat, game.legal_actions(seat)[0])
    return game


class _Table:
    """A narrator printing to a string, as a table of seat 0 has it; counts the pauses."""

    def __init__(self, game: Game) -> None:
        self.out = io.StringIO()
        self.pauses = 0
        console = Console(file=self.out, width=80, color_system=None)
        voice = Voice.for_game(game.players, game.rules, you=0)
        self.narrator = Narrator(console, Painter(), voice, rules=game.rules, pause=self._pause)

    def _pause(self) -> None:
        self.pauses += 1

    def arrive(self, events: Sequence[Event], *, show_before: bool = False, with_cut: bool = False) -> str:
        start = catch_up(self.narrator, events, show_before=show_before, with_cut=with_cut)
        tell_events(self.narrator, events[start:], arriving=True)
        return self.out.getvalue()

    def watch(self, events: Sequence[Event]) -> str:
        self.narrator.tell(events, pause=False)
        return self.out.getvalue()


def test_arriving_mid_game_tells_the_last_deal_as_a_watching_table_did_for_both_tables() -> None:
    for deal in (1, 2):
        game = _game_in(deal)
        events = game.view(0).events
        watched = _Table(game).watch(events)
        resumed = _Table(game)  # the table of this device resuming a saved game
        rejoined = _Table(game)  # the table of a seat taken again at a server
        told = resumed.arrive(events)
        assert rejoined.arrive(events, with_cut=True) == told
        assert watched.endswith(told)
        assert f"Deal {deal + 1} ·" in told and f"Deal {deal} ·" not in told
        assert "Cut for deal" not in told and resumed.pauses == 0
        # What was taken in untold still stands: the pegs are where the scores are.
        assert [pegs.front for pegs in resumed.narrator.keeper.pegs] == list(game.scores)


def test_arriving_in_the_first_deal_tells_the_cut_with_it_only_when_asked() -> None:
    game = _game_in(0)
    events = game.view(0).events
    watched = _Table(game).watch(events)
    assert _Table(game).arrive(events, with_cut=True) == watched
    without = _Table(game).arrive(events)
    assert "Cut for deal" in watched and "Cut for deal" not in without and watched.endswith(without)


def test_arriving_between_hands_tells_the_show_again_and_pauses_only_before_the_next_deal() -> None:
    game = _game_in(2, moves=0)  # the show of deal 2 is over and deal 3 is dealt
    events = game.view(0).events
    table = _Table(game)
    told = table.arrive(events, show_before=True)
    assert "Deal 1 ·" not in told and "Deal 2 ·" in told and "Deal 3 ·" in told
    assert table.pauses == 1
    later = _Table(game)
    start = catch_up(later.narrator, events)
    tell_events(later.narrator, events[start:], arriving=False)  # news, not an arrival: the deal pauses
    assert later.pauses == 1


def test_the_title_names_a_profile_other_than_the_standard() -> None:
    assert table_title(["Ann", "Bob"]) == "Ann vs Bob"
    assert table_title(["Ann", "Bob"], "standard") == "Ann vs Bob"
    assert table_title(["Ann", "Bob", "Cy"], "three-players") == "Ann vs Bob vs Cy (three-players)"


def test_both_tables_take_the_exit_status_after_ctrl_c_from_the_entry_point() -> None:
    import inspect

    from cribcore.cli import entry, interrupts, main, session, table_driver

    assert entry.INTERRUPTED == interrupts.INTERRUPTED == 130
    # Both tables are run by the one driver, which ends a table after Ctrl-C.
    assert vars(table_driver)["INTERRUPTED"] is interrupts.INTERRUPTED
    assert session.INTERRUPTED is interrupts.INTERRUPTED
    assert vars(main)["INTERRUPTED"] is interrupts.INTERRUPTED
    # No circle: the command line never imports the entry point that imports it.
    assert "from .entry" not in inspect.getsource(main)


def test_where_a_game_was_left() -> None:
    assert where_in_game(-1) == "before the first deal"
    assert where_in_game(0) == "in deal 1"
