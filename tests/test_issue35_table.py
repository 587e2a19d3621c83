"""Issue 35, "the table and its words": what a Spanish-speaking newcomer stumbled on at the terminal,
each with the literal example from the issue (the browser's half is in test_browser.py)."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from cribcore import Game
from cribcore.actions import Count
from cribcore.cards import parse_card, parse_cards
from cribcore.cli.board import Pegs, board_lines
from cribcore.cli.describe import Voice
from cribcore.cli.narrate import Narrator
from cribcore.cli.prompt import ASKERS, parse_picks
from cribcore.cli.render import Painter
from cribcore.events import Event
from cribcore.i18n import current_language, set_language
from cribcore.players import hint, make_player
from cribcore.profiles import load_profile
from cribcore.records import replay
from cribcore.saves import read_save, save_path
from cribcore.scoring import score_show
from cribcore.speech import reasons, spoken_show

from .terminal import run_in_process


@pytest.fixture
def spanish() -> Iterator[None]:
    """The process speaks Spanish for one test (and what it spoke before, after)."""
    before = current_language()
    set_language("es")
    yield
    set_language(before)


FINISH = "1 2\n1\n" * 600
"""Answers that take a game at the terminal to its end: two positions for a discard (one card is
refused at a discard), one for a play (two are refused), any answer between deals."""


# ------------------------------------------------------------ 1, 2: a save keeps its language and its record


def test_resume_speaks_the_language_the_game_was_played_in(tmp_path: Path) -> None:
    started = run_in_process("play", "--lang", "es", "--seed", "3", stdin="q\n", data=tmp_path)
    assert "cribbage resume computer" in started.stdout
    resumed = run_in_process("resume", stdin="1 2\nq\n", data=tmp_path)
    assert "Ordenador plays" not in resumed.stdout and "Ordenador juega" in resumed.stdout
    assert "Partida detenida" in resumed.stdout
    overridden = run_in_process("resume", "--lang", "en", stdin="q\n", data=tmp_path)
    assert "Game stopped" in overridden.stdout


def test_record_survives_a_save_and_a_resume(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    run_in_process("play", "--seed", "3", "--record", str(record), stdin="1 2\nq\n", data=tmp_path)
    assert read_save(save_path("computer", tmp_path)).envelope.record == str(record)
    finished = run_in_process("resume", stdin=FINISH, data=tmp_path)
    assert finished.returncode == 0, finished.stderr
    assert f"Record written to {record}" in finished.stdout
    game = replay(json.loads(record.read_text(encoding="utf-8")))
    assert game.is_over


def test_resume_record_writes_where_it_is_told(tmp_path: Path) -> None:
    run_in_process("play", "--seed", "3", stdin="q\n", data=tmp_path)
    record = tmp_path / "later.json"
    stopped = run_in_process("resume", "--record", str(record), stdin="1 2\nq\n", data=tmp_path)
    assert f"Unfinished record written to {record}" in stopped.stdout
    assert read_save(save_path("computer", tmp_path)).envelope.record == str(record)
    refused = run_in_process("resume", "--record", str(tmp_path / "no" / "x.json"), data=tmp_path)
    assert refused.returncode == 2 and "does not exist" in refused.stderr


# ------------------------------------------------------------------ 3: the prompt's commands in Spanish


def test_spanish_commands_at_the_prompt() -> None:
    typed = "ayuda\npista\ntablero\nnueva\nn\nhint\nsalir\n"
    done = run_in_process("play", "--lang", "es", "--seed", "3", "--no-save", stdin=typed)
    assert "no es una carta" not in done.stdout, done.stdout
    assert "Órdenes: pista o ?" in done.stdout  # the Spanish help lists the Spanish words
    assert done.stdout.count("Pista: ") == 2  # pista, and hint still works
    assert "Tablero" in done.stdout or "Clavijas" in done.stdout or "clavijas" in done.stdout
    assert "¿Empezar una partida nueva?" in done.stdout and "La partida sigue." in done.stdout
    assert "Partida detenida" in done.stdout


def test_english_commands_still_work_in_english() -> None:
    done = run_in_process("play", "--seed", "3", "--no-save", stdin="help\nhint\nquit\n")
    assert "Commands: hint or ?" in done.stdout and "Hint: " in done.stdout
    assert "Game stopped" in done.stdout


# ------------------------------------------------------------------ 16: join's help and where one left


def test_leaving_during_the_first_deals_show_says_deal_one() -> None:
    from cribcore import Game
    from cribcore.cli.join_table import deal_on_the_table
    from cribcore.netclient import State

    game = Game(seed=5, players=("Ann", "Bob"))
    while game.deal_number < 1:
        seat = game.to_act[0]
        game.apply(seat, game.view(seat).legal_actions[0])
    view = game.view(1)
    between = State(room={"between_hands": {"deal": 0, "ready": []}}, view=view, added=(), full=True)
    assert deal_on_the_table(between) == 0
    playing = State(room={}, view=view, added=(), full=True)
    assert deal_on_the_table(playing) == view.deal == 1


def test_help_in_a_friend_game_offers_no_hint() -> None:
    from cribcore.cli.prompt import prompt_help

    assert "hint or ?" in prompt_help() and "hint" not in prompt_help(hints=False).split("No hints")[0]


# ------------------------------------------------------------------ 6: muggins in words


def _spanish_narration(*events: Event) -> str:
    game = Game(load_profile("muggins"), seed=11, players=("Ana", "Ordenador"))
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    voice = Voice.for_game(game.players, game.rules, you=0)
    Narrator(console, Painter(), voice, rules=game.rules, pause=None).tell(list(events))
    return out.getvalue()


def test_one_missed_point_is_singular(spanish: None) -> None:
    said = _spanish_narration(
        Event("muggins", 0, seat=1, points=1, note="called 1", scores=(0, 1)),
        Event("missed", 0, seat=0, note="1 missed", scores=(0, 1)),
    )
    assert "Ordenador se lleva 1 punto olvidado" in said
    assert "se olvidó 1 punto." in said and "puntos" not in said
    set_language("en")
    assert "takes 1 missed point (called 1)" in _spanish_narration(
        Event("muggins", 0, seat=1, points=1, note="called 1", scores=(0, 1))
    )


def test_the_count_of_a_laid_card_says_del_and_that_the_go_is_in_it(spanish: None) -> None:
    game = Game(load_profile("muggins"), seed=11, players=("Tú", "Ordenador"))
    bots = [make_player("medium", 11), make_player("medium", 12)]
    voice = Voice.for_game(game.players, game.rules, you=0)
    while not game.is_over:
        seat = game.to_act[0]
        view = game.view(seat)
        if seat == 0 and view.claim_stage == "count" and view.phase == "play":
            prompt = ASKERS[Count](view, voice, Painter()).prompt
            card = Painter().plain(view.pile[-1][1])
            assert prompt.startswith(f"Tu cuenta del {card} que echaste, con el go o la última carta")
            assert " de el " not in prompt
            return
        game.apply(seat, bots[seat].choose(view))
    pytest.fail("no count of a laid card in this game")


# ------------------------------------------------------------------ 9, 10: cards typed in Spanish, numbers


def test_sota_and_dama_are_cards() -> None:
    hand = parse_cards("JS QH 5C 6D 7S 8H")
    assert parse_picks("sota de picas", hand, 1) == (parse_card("JS"),)
    assert parse_picks("dama de corazones", hand, 1) == (parse_card("QH"),)
    assert parse_picks("Sota picas, dama corazones", hand, 2) == parse_cards("JS QH")


def test_a_wrong_suit_word_is_the_word_named(spanish: None) -> None:
    with pytest.raises(ValueError, match=r"^'copas' no es un palo: escribe picas, corazones") as raised:
        parse_picks("2 de copas", parse_cards("2S 5C 6D 7S 8H 9D"), 1)
    assert "'de'" not in str(raised.value)


def test_a_number_that_is_a_rank_held_says_which_card_was_meant(spanish: None) -> None:
    hand = parse_cards("6S TD JC")
    with pytest.raises(ValueError, match=r"de 1 a 3; para el 6 que tienes, escribe 6picas$"):
        parse_picks("6", hand, 1)
    set_language("en")
    with pytest.raises(ValueError, match=r"from 1 to 3; for the 10 you hold, type 10d$"):
        parse_picks("10", hand, 1)
    with pytest.raises(ValueError, match=r"from 1 to 3$"):
        parse_picks("9", hand, 1)


# ------------------------------------------------------------------ 7, 8, 11: words on the Spanish table


def test_review_heading_says_your_game_seat_one_and_the_profile_in_spanish(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    run_in_process("play", "--lang", "es", "--seed", "3", "--record", str(record), stdin="q\n", data=tmp_path)
    run_in_process("resume", "--record", str(record), stdin="1 2\n1\nq\n", data=tmp_path)
    spanish = run_in_process("review", str(record), "--lang", "es")
    assert spanish.stdout.startswith(
        "Revisión de tu partida (puesto 1), Tú contra Ordenador, perfil estándar\n"
    )
    english = run_in_process("review", str(record), "--seat", "2")
    assert english.stdout.startswith("Review of Ordenador (seat 2), Tú vs Ordenador, profile standard\n")
    wrong = run_in_process("review", str(record), "--seat", "3")
    assert wrong.stderr == "cribbage: error: --seat 3: the record has seats 1 to 2\n"


def test_resuming_says_la_partida(tmp_path: Path) -> None:
    run_in_process("play", "--lang", "es", "--seed", "3", stdin="q\n", data=tmp_path)
    resumed = run_in_process("resume", stdin="q\n", data=tmp_path)
    assert "Se reanuda la partida Tú contra Ordenador en la mano 1" in resumed.stdout
    assert "Se reanuda Tú" not in resumed.stdout


def test_a_spanish_question_about_an_english_save_is_all_spanish(tmp_path: Path) -> None:
    run_in_process("play", "--seed", "3", "--profile", "five-card", stdin="q\n", data=tmp_path)
    asked = run_in_process("play", "--lang", "es", "--seed", "4", "--profile", "five-card", data=tmp_path)
    assert "Tú contra Ordenador, perfil cinco cartas, mano 1" in asked.stderr, asked.stderr
    assert "You" not in asked.stderr and "Computer" not in asked.stderr and "five-card," not in asked.stderr
    other = run_in_process("play", "--lang", "es", "--profile", "seven-card", data=tmp_path)
    assert "(con las reglas cinco cartas, no siete cartas)" in other.stderr, other.stderr


def test_the_hint_says_what_the_discard_gives_away(spanish: None) -> None:
    game = Game(seed=3, players=("Tú", "Ordenador"))
    dealer = game.view(0).dealer
    pone = 1 - dealer
    said = hint(game.view(pone)).reason
    assert re.search(r", da \d+,\d a la cuna del rival \(neto ", said), said
    assert "-" not in said.split("(")[0]


# ------------------------------------------------------------------ 12: the replay says what was counted


def test_the_replay_of_a_muggins_game_says_whose_count_of_what(tmp_path: Path) -> None:
    record = tmp_path / "muggins.json"
    argv = (
        "play",
        "--profile",
        "muggins",
        "--players",
        "easy,medium",
        "--seed",
        "11",
        "--record",
        str(record),
    )
    assert run_in_process(*argv).returncode == 0
    said = run_in_process("replay", str(record)).stdout
    assert "count (declared" not in said
    assert re.search(r"  count of the hand 9♠ 10♥ J♣ K♥ \+ Q♣: declared 6 ", said), said
    assert re.search(r"  count of the crib \S+ \S+ \S+ \S+ \+ \S+: declared \d+", said)
    assert re.search(r"  count of the play of 2♦ at 31: declared 2 ", said)
    assert re.search(r"  muggins on the crib 3♠ 4♦ 6♥ J♣ \+ 2♠: called 3, 3 missed \(the count holds ", said)
    spanish = run_in_process("replay", str(record), "--lang", "es").stdout
    assert "cuenta de la mano 9♠ 10♥ J♣ K♥ + Q♣: declara 6" in spanish


def test_the_replay_names_a_pair_royal_as_the_game_does() -> None:
    items = score_show(parse_cards("4H 4D 4C 7S"), parse_card("8C")).items
    assert reasons(items, lang="es") == "cuatro quincenas 8, trío 6"
    assert reasons(items, lang="en") == "four fifteens 8, three of a kind 6"
    assert "un trío" in spoken_show(items, lang="es")
    two = score_show(parse_cards("4H 4D 7C 7S"), parse_card("8C")).items
    assert reasons(two, lang="es").endswith("dos parejas 4")


# ------------------------------------------------------------------ 14: practice with nothing named


def test_practice_alone_names_the_choices_in_the_language() -> None:
    spanish = run_in_process("practice", "--lang", "es")
    assert spanish.returncode == 2
    assert spanish.stderr.startswith("cribbage practice: error: elige qué practicar: pegging, examples")
    assert "WHAT" not in spanish.stderr
    english = run_in_process("practice")
    assert english.stderr.startswith("cribbage practice: error: choose what to practise: pegging")
    assert "WHAT" not in english.stderr


# ------------------------------------------------------------------ 17: auction cribbage at the terminal


def test_a_price_paid_is_a_minus_and_the_back_peg_never_stands_ahead() -> None:
    lines = board_lines(["Ann", "Bob"], [Pegs(front=7, back=12), Pegs(front=5, back=0)], 121)
    head = lines[0].plain
    assert head == "Ann 7  (-5 from 12)", head
    ann_track = "".join(
        line.plain for line in lines[1 : lines.index(next(x for x in lines if x.plain.startswith("Bob")))]
    )
    assert "○" not in ann_track and "●" in ann_track
    assert lines[[x.plain for x in lines].index("Bob 5  (+5 from 0)")].plain == "Bob 5  (+5 from 0)"


def test_a_phase_note_names_the_player() -> None:
    from cribcore.phases import name_seats

    assert name_seats("the crib goes to {seat 2} for 5", ("Ann", "Bob")) == "the crib goes to Bob for 5"
    assert name_seats("{seat 9} stays as written", ("Ann", "Bob")) == "{seat 9} stays as written"


def test_a_game_played_again_saves_its_own_record_file(tmp_path: Path) -> None:
    from cribcore.cli.session import Seating, Session
    from cribcore.saves import SaveSlot

    profile = load_profile("standard")
    seating = Seating(("human", "computer"), ("Ann", "Computer"), profile)
    path = save_path("computer", tmp_path)
    session = Session(
        Console(file=io.StringIO()),
        seating,
        reader=None,
        slot=SaveSlot(path),
        mode="computer",
        record=tmp_path / "game.json",
    )
    session._again = 1  # the table chose to play again once: this game's record is game-2.json
    session._save(Game(profile, seed=5, players=("Ann", "Computer")))
    assert read_save(path).envelope.record == str(tmp_path / "game-2.json")


def test_a_saved_record_path_never_writes_over_a_file_that_is_not_a_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    run_in_process("play", "--seed", "3", "--record", str(record), stdin="q\n", data=tmp_path)
    record.write_text("precious\n", encoding="utf-8")  # what the save names is someone's file now
    resumed = run_in_process("resume", stdin="q\n", data=tmp_path)
    assert f"{record} is not a game record: it is left as it is" in resumed.stderr
    assert record.read_text(encoding="utf-8") == "precious\n"
    assert "Game stopped" in resumed.stdout
