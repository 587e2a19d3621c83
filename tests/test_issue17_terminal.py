"""Issue 17, the terminal half: each stumble a new player met, with its fix checked (the whole Spanish
game is in test_spanish_game.py; the catalogs and Spanish scores in test_i18n.py)."""

from __future__ import annotations

import functools
import itertools
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
from rich.console import Console

from cribcore import Game, parse_card, parse_cards
from cribcore.cli.describe import Voice
from cribcore.cli.narrate import Narrator
from cribcore.cli.prompt import parse_picks, prompt_help
from cribcore.cli.render import Painter, seat_table
from cribcore.cli.saves_cmd import local_time
from cribcore.cli.session import _nothing_to_call
from cribcore.players import make_player
from cribcore.profiles import load_profile
from cribcore.views import SeatView

from .terminal import cribbage_pty, run_in_process

ROOT = Path(__file__).resolve().parents[1]


def _views(profile: str, seed: int, seat: int = 0) -> Iterator[tuple[Game, SeatView]]:
    """Every view ``seat`` gets when it is to act, in a game the computer plays for everyone."""
    game = Game(load_profile(profile), seed=seed, players=("You", "Computer"))
    bots = [make_player("medium", seed), make_player("medium", seed + 1)]
    while not game.is_over:
        actor = game.to_act[0]
        view = game.view(actor)
        if actor == seat:
            yield game, view
        game.apply(actor, bots[actor].choose(view))


def _text(renderable: object, width: int = 100) -> str:
    console = Console(width=width, record=True, color_system=None, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


def test_muggins_count_panel_does_not_say_no_cards_left() -> None:
    for game, view in _views("muggins", 11):
        if view.claim_stage == "count" and view.phase != "play" and not view.hand:
            voice = Voice.for_game(game.players, game.rules, you=0)
            shown = _text(seat_table(view, voice, Painter()))
            assert "no cards left" not in shown
            assert "being counted" in shown
            return
    pytest.fail("no count of an emptied hand in this game")


def test_no_muggins_prompt_for_a_card_that_scored_nothing() -> None:
    asked = skipped = 0
    for _game, view in _views("muggins", 11):
        if view.claim_stage == "call" and view.phase == "play":
            if view.claim_points == 0:
                assert _nothing_to_call(view)
                skipped += 1
            else:
                assert not _nothing_to_call(view)
                asked += 1
    assert skipped and asked


def test_help_explains_muggins_under_a_muggins_profile() -> None:
    assert "Muggins" in prompt_help(muggins=True) and "Muggins" not in prompt_help()
    done = run_in_process("play", "--profile", "muggins", "--seed", "11", "--no-save", stdin="help\nquit\n")
    assert "type the points they missed" in done.stdout


def test_help_and_counts_fit_sixty_columns_without_breaking_a_phrase(tmp_path: Path) -> None:
    for line in (prompt_help(muggins=True)).splitlines():
        assert len(line) <= 60, line
    argv = ("play", "--players", "computer,computer", "--seed", "3")
    with cribbage_pty(tmp_path, *argv, columns=60, term="xterm") as (child, log):
        child.expect(pexpect.EOF)
    lines = re.sub(r"\x1b\[[0-9;]*m", "", log.getvalue()).replace("\r\n", "\n").splitlines()
    counted = [n for n, line in enumerate(lines) if re.match(r"  \d+: ", line)]
    assert counted
    for n in counted:
        # The count said aloud and its continuation lines fit, broken only after a comma.
        block = [lines[n]]
        while n + len(block) < len(lines) and lines[n + len(block)].startswith("    "):
            block.append(lines[n + len(block)])
        assert all(len(line) <= 60 for line in block), block
        for line, following in itertools.pairwise(block):
            assert following.startswith("    (") or line.rstrip().endswith(","), block


def test_score_lines_say_whose_number_is_whose() -> None:
    three = Voice(("You", "Computer 1", "Computer 2"), ("You", "Computer 1", "Computer 2"), (0, 1, 2), 0)
    assert three.scores([3, 1, 2]) == "You: 3 · Computer 1: 1 · Computer 2: 2"
    same_device = Voice(("Player 1", "Player 2"), ("Player 1", "Player 2"), (0, 1))
    assert same_device.scores([0, 5]) == "Player 1: 0 · Player 2: 5"
    two = Voice(("Ann", "Computer"), ("Ann", "Computer"), (0, 1), 0)
    assert two.scores([0, 5]) == "Ann 0 · Computer 5"  # unchanged where no name ends in a digit


def test_three_players_hear_of_the_card_from_the_pack() -> None:
    done = run_in_process(
        "play", "--profile", "three-players", "--players", "computer,computer,computer", "--seed", "2"
    )
    assert done.returncode == 0
    assert "One card from the pack goes face down to the crib." in done.stdout


def test_hints_and_refusals_draw_cards_as_the_screen_does() -> None:
    from cribcore.cli.prompt import _drawn

    assert _drawn("keeps 4C 4H 7C 8C: expected 6.9", Painter()) == "keeps 4♣ 4♥ 7♣ 8♣: expected 6.9"
    assert _drawn("keeps 4C TH", Painter(symbols=False)) == "keeps 4C TH"
    for game, view in _views("standard", 3):
        not_held = next(c for c in parse_cards("TH TS TD TC") if c not in view.hand)
        from cribcore.cli.prompt import ask_action

        from .test_cli import ScriptedReader

        reader = ScriptedReader([f"10{not_held.suit.value.lower()} 1", "1 2"])
        voice = Voice.for_game(game.players, game.rules, you=0)
        ask_action(reader, view, voice, Painter(), functools.partial(game.check, 0))
        assert reader.problems == [f"You do not hold {Painter().plain(not_held)}."]
        assert Painter().plain(not_held).startswith("10")
        return


def test_score_and_replay_draw_symbols_as_the_game_does(tmp_path: Path) -> None:
    done = run_in_process("score", "5H", "5D", "5C", "JS", "--starter", "5S")
    assert "5♥ 5♦ 5♣ J♠" in done.stdout
    record = tmp_path / "game.json"
    assert (
        run_in_process(
            "play", "--players", "computer,computer", "--seed", "4", "--record", str(record)
        ).returncode
        == 0
    )
    replayed = run_in_process("replay", str(record))
    assert re.search(r"plays \d*[A2-9JQK]?[♣♦♥♠] at", replayed.stdout) or "♠" in replayed.stdout


@pytest.mark.parametrize("width", [30, 31, 54, 55])
def test_board_hole_numbers_do_not_wrap_in_the_table(width: int) -> None:
    game = Game(seed=3, players=("You", "Computer"))
    console = Console(width=width, record=True, color_system=None, file=open(os.devnull, "w"))  # noqa: SIM115
    narrator = Narrator(console, Painter(), Voice.for_game(game.players, game.rules, you=0), rules=game.rules)
    for line in narrator.board(indent=2):
        assert line.cell_len <= width
        assert line.plain.startswith("  ")


def test_the_winner_pegs_out_at_the_game_hole() -> None:
    voice = Voice(("Ann", "Computer"), ("Ann", "Computer"), (0, 1), 0)
    assert voice.result(0, [122, 98], 121) == "You win, 121 (122 counted) to 98"
    assert voice.result(1, [98, 121], 121) == "Computer wins, 121 to 98"


def test_the_end_of_a_game_gives_its_seed_again() -> None:
    done = run_in_process("play", "--players", "computer,computer", "--seed", "7")
    tail = done.stdout[done.stdout.index("Game over") :]
    assert "replay it with --seed 7" in tail


def test_the_cut_names_the_player_by_name() -> None:
    done = run_in_process("play", "--seed", "3", "--name", "Ann", "--no-save", stdin="quit\n")
    assert "Cut for deal: Ann " in done.stdout
    unnamed = run_in_process("play", "--seed", "3", "--no-save", stdin="quit\n")
    assert "Cut for deal: You " in unnamed.stdout


def test_peg_last_says_last_card() -> None:
    done = run_in_process("peg", "4C", "6D", "5H", "--last")
    assert done.stdout.rstrip().endswith("last card 1")
    assert "go 1" not in done.stdout


def test_play_help_names_the_default_level() -> None:
    done = run_in_process("play", "--help")
    assert re.search(r"\(default:\s+medium\)", done.stdout)


def test_save_times_are_shown_in_local_time() -> None:
    old = os.environ.get("TZ")
    os.environ["TZ"] = "America/New_York"
    time.tzset()
    try:
        assert local_time("2026-01-15T17:30:00Z") == "2026-01-15 12:30:00 EST"
    finally:
        if old is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = old
        time.tzset()
    assert local_time("not a time") == "not a time"


def test_a_garbage_line_is_not_echoed_whole() -> None:
    hand = parse_cards("AS 2S 3S 4S 5S 6S")
    with pytest.raises(ValueError) as caught:
        parse_picks("x" * 5000, hand, 2)
    assert len(str(caught.value)) < 400
    done = run_in_process("play", "--seed", "3", "--no-save", stdin="y" * 5000 + "\nquit\n")
    assert max(len(line) for line in done.stdout.splitlines()) < 400


def test_every_readme_profile_example_loads(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", readme, flags=re.DOTALL)
    assert blocks
    for n, block in enumerate(blocks):
        path = tmp_path / f"example-{n}.toml"
        path.write_text(block, encoding="utf-8")
        done = run_in_process("profiles", "validate", str(path))
        assert done.returncode == 0, (block, done.stderr)


def test_spanish_card_input() -> None:
    hand = parse_cards("7S KH AC 10D 5H 2C")
    assert parse_picks("7 de picas, rey de corazones", hand, 2) == (parse_card("7S"), parse_card("KH"))
    assert parse_picks("7picas R♥", hand, 2) == (parse_card("7S"), parse_card("KH"))
    assert parse_picks("as de tréboles", hand, 1) == (parse_card("AC"),)
    assert parse_picks("10 diamantes", hand, 1) == (parse_card("TD"),)
    assert parse_picks("5h 2c", hand, 2) == (parse_card("5H"), parse_card("2C"))  # English unchanged
    done = run_in_process(
        "score", "5", "de", "corazones", "5D", "5C", "JS", "--starter", "5picas", "--lang", "es"
    )
    assert "son veintinueve" in done.stdout


def test_in_a_match_the_loser_deals_first_in_the_next_game(tmp_path: Path) -> None:
    from cribcore.records import read_record, replay

    record = tmp_path / "m.json"
    argv = ("play", "--players", "computer,computer", "--seed", "2", "--match", "2", "--record", str(record))
    done = run_in_process(*argv)
    assert done.returncode == 0, done.stderr
    first = replay(read_record(tmp_path / "m-1.json"))
    second_record = read_record(tmp_path / "m-2.json")
    second = replay(second_record)  # a game dealt without a cut still replays from its record
    assert first.winner is not None
    loser = 1 - first.winner
    assert second.events[0].kind == "deal" and second.events[0].seat == loser
    assert done.stdout.count("Cut for deal") == 1


def test_practice_examples_in_spanish() -> None:
    done = run_in_process("practice", "examples", "--lang", "es")
    assert done.returncode == 0
    assert "Ejemplo 1 de 3: Quincena, y luego pareja" in done.stdout
    assert "Go, treinta y uno y el reinicio" in done.stdout
    assert "quince dos" in done.stdout and "Tu rival dice Go" in done.stdout
    english = run_in_process("practice", "examples")
    assert "Example 1 of 3: Fifteen, then a pair" in english.stdout
