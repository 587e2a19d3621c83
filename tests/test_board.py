"""The pegging board: pegs follow the scores (front at the score, back at the score before), the tracks
fit the width, the game hole takes a finished score, and --ascii draws with ASCII alone."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.text import Text

from cribcore import Game
from cribcore.cli.board import PegKeeper, Pegs, board_lines, pegs
from cribcore.cli.describe import Voice
from cribcore.cli.narrate import Narrator
from cribcore.cli.render import Painter, make_console
from cribcore.events import Event


def scored(*scores: int) -> Event:
    return Event("play", 0, seat=0, scores=scores, scored=True, points=1)


def test_pegs_leapfrog() -> None:
    events = [scored(2, 0), scored(2, 3), scored(7, 3), Event("reset", 0), scored(7, 3)]
    assert pegs(events, 2) == (Pegs(front=7, back=2), Pegs(front=3, back=0))
    assert pegs([], 2) == (Pegs(), Pegs())
    assert Pegs(7, 2).moved == 5


def test_keeper_knows_when_to_redraw() -> None:
    keeper = PegKeeper(2)

    def moved() -> bool:
        return keeper.moved_since_drawn

    assert moved()
    keeper.mark_drawn()
    keeper.feed([Event("reset", 0)])
    assert not moved()
    keeper.feed([scored(0, 2)])
    assert moved()
    keeper.mark_drawn()
    keeper.forget_drawn()
    assert moved()


def plain(lines: list[Text]) -> list[str]:
    return [line.plain for line in lines]


@pytest.mark.parametrize("target", [61, 121, 151])
@pytest.mark.parametrize("width", [40, 60, 80, 120])
def test_fits_the_width(target: int, width: int) -> None:
    lines = plain(board_lines(["Ann", "Computer"], [Pegs(23, 18), Pegs(50, 40)], target, width=width))
    assert all(len(line) <= width for line in lines), lines
    tracks = [line for line in lines if line.startswith(" ")]
    holes = sum(line.count("·") + line.count("●") + line.count("○") for line in tracks)
    assert holes == 2 * target  # every hole, the game hole included, once per side


def test_pegs_stand_in_their_holes() -> None:
    lines = plain(board_lines(["Ann", "Bob"], [Pegs(23, 18), Pegs(0, 0)], 121, width=80))
    assert lines[0] == "Ann 23  (+5 from 18)"
    first_row = lines[1].replace(" ", "")
    assert first_row.index("●") == 22 and first_row.index("○") == 17
    assert lines[1].endswith(" 60") and lines[2].endswith(" 121")
    assert lines[3] == "Bob 0"
    assert "●" not in "".join(lines[4:]) and "○" not in "".join(lines[4:])


def test_a_finished_score_stands_in_the_game_hole() -> None:
    lines = plain(board_lines(["Ann"], [Pegs(127, 115)], 121, width=80))
    last_row = lines[-1]
    assert last_row.rstrip("0123456789 ").endswith("●")
    assert lines[0].startswith("Ann 127")


def test_ascii() -> None:
    lines = plain(board_lines(["Ann"], [Pegs(23, 18)], 121, width=80, ascii_only=True))
    assert all(line.isascii() for line in lines)
    assert "@" in lines[1] and "o" in lines[1] and "." in lines[1]


def test_narrator_draws_the_board_at_the_end_of_each_deal() -> None:
    game = Game(seed=4, players=("Ann", "Bob"))
    while game.deal_number < 2:
        seat = game.to_act[0]
        game.apply(seat, game.legal_actions(seat)[0])
    out = io.StringIO()
    console = Console(file=out, width=80)
    narrator = Narrator(console, Painter(), Voice.for_game(game.players, game.rules), rules=game.rules)
    narrator.tell(game.view(0).events)
    text = out.getvalue()
    assert text.count("Ann ") >= 2 and text.count(" 121\n") == 2 * 2  # two deals ended, two tracks each
    assert narrator.keeper.pegs[0].front == game.scores[0]


def test_ascii_console_writes_ascii() -> None:
    out = io.StringIO()
    console = make_console(out, ascii_only=True)
    console.print(Text("10♦ — · ● ○ …"))
    assert out.getvalue() == "10D - | @ o ...\n"
    assert not Painter.for_console(console).symbols
