"""Issue 17, what the first session left: "play again?" at the end of a game, the same-device recap
spoken to the player who reads it, and the terminal's last English-only texts in Spanish."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pexpect
from rich.console import Console

from cribcore import Game
from cribcore.cli.play import seat_names
from cribcore.cli.prompt import Reader
from cribcore.cli.session import Seating, Session
from cribcore.profiles import load_profile

from .terminal import cribbage_pty, run_in_process

SHORT = 'name = "short"\ndescription = "A 31."\nextends = "standard"\n\n[rules]\ntarget = 31\n'
"""A game to 31: over in a deal or two, so a whole game at a terminal is quick."""

PROMPTS = {
    "en": (r"Choose 2 cards for (your|\S+ )crib: ", r"Play a card \(count \d+\): ", r"Press Enter"),
    "es": (
        r"Elige .+ para (tu cuna|la cuna de [^:\n]+): ",
        r"Juega una carta \(cuenta \d+\): ",
        r"Pulsa Enter",
    ),
}
AGAIN = {"en": r"Play again\? \[y/N\] ", "es": r"¿Otra partida\? \[s/N\] "}
REVIEW = {
    "en": r"Review this game with the coach\? \[y/N\] ",
    "es": r"¿Revisar esta partida con el entrenador\? \[s/N\] ",
}
"""The coach's offer comes first, after a game against the computer: these tests decline it."""


def _short_profile(tmp_path: Path) -> str:
    path = tmp_path / "short.toml"
    path.write_text(SHORT, encoding="utf-8")
    return str(path)


def _play_until_asked(child: pexpect.spawn, lang: str) -> None:
    """Answer every prompt (the first card that fits) until the game asks whether to play again."""
    discard, play, pause = PROMPTS[lang]
    position = 1
    while True:
        which = child.expect([discard, play, pause, AGAIN[lang], REVIEW[lang]])
        if which == 3:
            return
        if which == 4:
            child.sendline("")
            continue
        if which == 1:
            # A card past 31 is explained and the prompt comes again: try the next position.
            child.sendline(str(position))
            position = 1 if position >= 4 else position + 1
            continue
        child.sendline("1 2" if which == 0 else "")
        position = 1


def test_the_end_of_a_game_offers_another_with_a_new_seed(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    argv = (
        "play",
        "--seed",
        "5",
        "--no-save",
        "--profile",
        _short_profile(tmp_path),
        "--record",
        str(record),
    )
    with cribbage_pty(tmp_path, *argv) as (child, log):
        _play_until_asked(child, "en")
        child.sendline("y")
        child.expect_exact("A new game.")
        child.expect(r"Game seed (\d+) — replay it with --seed")
        assert child.match.group(1) != "5"
        child.expect(PROMPTS["en"][0])  # the same table: you against the computer, to 31
        child.sendline("quit")
        child.expect(pexpect.EOF)
        child.close()
    assert child.exitstatus == 0
    # The first game's record is kept; the game played again (and quit) has its own.
    assert json.loads(record.read_text())["seed"] == 5
    assert json.loads((tmp_path / "game-2.json").read_text())["seed"] != 5
    out = log.getvalue()
    assert out.count("Game over: ") == 1 and out.count("You vs Computer (short), first to 31.") == 2


def test_enter_at_the_offer_ends_and_it_is_asked_in_spanish(tmp_path: Path) -> None:
    argv = ("play", "--seed", "5", "--no-save", "--profile", _short_profile(tmp_path), "--lang", "es")
    with cribbage_pty(tmp_path, *argv) as (child, log):
        _play_until_asked(child, "es")
        child.sendline("")
        child.expect(pexpect.EOF)
        child.close()
    assert child.exitstatus == 0
    assert "Fin de la partida: " in log.getvalue() and "Play again" not in log.getvalue()


def test_no_offer_without_a_terminal_or_a_human() -> None:
    profile = load_profile("standard")
    names = seat_names(("human", "computer"))
    seating = Seating(("human", "computer"), names, profile)
    console = Console(file=open("/dev/null", "w"))  # noqa: SIM115
    piped = Session(console, seating, reader=Reader(console, interactive=False))
    assert piped._play_again() is False  # piped input: nothing is read, the command ends
    computers = Seating(("computer", "computer"), seat_names(("computer", "computer")), profile)
    assert Session(console, computers, reader=None)._play_again() is False


def _recaps(output: str) -> dict[str, list[str]]:
    """Each recap told while the device is passed, by the name of the player taking it."""
    found: dict[str, list[str]] = {}
    for block in re.findall(
        r"(?:Pass the device to|Pasa el dispositivo a) (\w+).*?\n(.*?)\1, p", output, re.S
    ):
        found.setdefault(block[0], []).append(block[1])
    return found


def test_the_same_device_recap_speaks_to_the_player_taking_the_device(tmp_path: Path) -> None:
    argv = ("play", "--players", "human,human", "--name", "Ann", "--name", "Bob", "--seed", "8", "--no-save")
    answers = "\n1 2\n\n1 2\n\n1\nquit\n"  # Ann lays away, Bob lays away, Ann plays, and Bob quits
    done = run_in_process(*argv, stdin=answers, data=tmp_path)
    recaps = _recaps(done.stdout)
    ann, bob = recaps["Ann"], recaps["Bob"]
    assert "Ann lays away two cards to Bob's crib." in done.stdout  # as it happened, to both
    assert "You lay away two cards to Bob's crib." in ann[1] and "Ann lays away" not in "".join(ann)
    assert "Ann lays away two cards to your crib." in bob[0] and "Bob deals first" not in bob[0]
    assert "You deal first, with the lower card." in bob[0]
    assert "You lay away two cards to your own crib." in bob[1] and "Bob lays away" not in "".join(bob)
    assert not re.search(r"lay away [0-9AJQK]", done.stdout)  # no card in a recap, nor anywhere here
    spanish = run_in_process(*argv, "--lang", "es", stdin=answers, data=tmp_path)
    assert "Descartas dos cartas a la cuna de Bob." in _recaps(spanish.stdout)["Ann"][1]


def _refusals() -> list[str]:
    """The engine's refusals of a game's usual mistakes, as it words them (English)."""
    from cribcore import Discard, Game, IllegalAction, Play, parse_cards
    from cribcore.actions import Count, parse_action

    found: list[str] = []

    def refused(check: object, *args: object) -> None:
        try:
            check(*args)  # type: ignore[operator]
        except (IllegalAction, ValueError) as exc:
            found.append(str(exc))
        else:
            raise AssertionError(f"accepted: {args}")

    game = Game(seed=3, players=("Ann", "Bob"))
    hand = game.view(0).hand
    refused(game.check, 0, Play(hand[0]))
    refused(game.check, 0, Discard(hand[:1]))
    refused(game.check, 0, Discard((hand[0], hand[0])))
    refused(game.check, 0, Discard(tuple(c for c in parse_cards("AS 2S 3S AH 2H") if c not in hand)[:2]))
    refused(game.check, 0, Count(3))
    game.apply(0, Discard(hand[:2]))
    refused(game.check, 0, Discard(hand[2:4]))
    game.apply(1, Discard(game.view(1).hand[:2]))
    refused(game.check, game.to_act[0], Discard(hand[2:4]))
    waiting = 1 - game.to_act[0]
    refused(game.check, waiting, Play(game.view(waiting).hand[0]))
    refused(parse_action, "discard")
    refused(parse_action, "play 7S 8S")
    return found


def test_the_engines_refusals_are_said_in_spanish_and_english_is_unchanged() -> None:
    from cribcore.speech_messages import say

    refusals = _refusals()
    assert len(set(refusals)) == len(refusals) >= 10
    for message in refusals:
        assert say(message, "en") == message
        spanish = say(message, "es")
        assert spanish != message, message
    assert (
        say("7S would take the count to 36, past 31", "es") == "7♠ llevaría la cuenta a 36, por encima de 31"
    )
    assert say("discard exactly 1 card, not 2", "es") == "descarta exactamente 1 carta, no 2"
    assert say("action: play takes exactly one card, e.g. 'play 7S'", "es").startswith("jugada: para jugar")
    assert say("a plugin's own reason", "es") == "a plugin's own reason"  # no shape: as it is
    assert say("names.0: a name must not be empty", "es") == "names.0: un nombre no puede estar vacío"
    assert say("mode: Input should be 'computer'", "es") == "mode: Input should be 'computer'"


def test_every_message_shape_names_the_fields_its_catalog_entry_fills() -> None:
    from cribcore.speech_messages import SHAPES

    for shape in SHAPES:
        fields = set(re.findall(r"\{(\w+)\}", shape.message))
        assert fields == set(shape.pattern.groupindex), shape.message
        if shape.plural is not None:
            assert set(re.findall(r"\{(\w+)\}", shape.plural)) == fields and "n" in fields


def test_a_refusal_at_the_prompt_and_an_error_line_are_in_spanish() -> None:
    done = run_in_process("peg", "KS", "QS", "JS", "7S", "--lang", "es")
    assert done.returncode == 1
    assert done.stderr == "cribbage: error: 7♠ llevaría la cuenta a 37, por encima de 31\n"
    english = run_in_process("peg", "KS", "QS", "JS", "7S")
    assert english.stderr == "cribbage: error: 7S would take the count to 37, past 31\n"
    played = run_in_process("play", "--seed", "3", "--no-save", "--lang", "es", stdin="1\nquit\n")
    assert "Descarta exactamente 2 cartas, no 1." in played.stdout


def test_help_and_usage_errors_are_in_spanish_and_english_is_unchanged() -> None:
    spanish = run_in_process("play", "--help", "--lang", "es")
    assert spanish.stdout.startswith("uso: cribbage play [-h]")
    assert "opciones:" in spanish.stdout and "muestra esta ayuda y termina" in spanish.stdout
    assert "fija los barajados para repetir una partida" in spanish.stdout
    assert re.search(r"\(por\s+defecto:\s+medium\)", spanish.stdout)
    english = run_in_process("play", "--help")
    assert english.stdout.startswith("usage: cribbage play [-h]") and "options:" in english.stdout
    assert "fix the shuffles to replay a game" in english.stdout
    refused = run_in_process("play", "--bogus", "--lang", "es")
    assert refused.returncode == 2
    assert refused.stderr == "cribbage: error: argumentos no reconocidos: --bogus (véase 'cribbage --help')\n"
    assert run_in_process("play", "--bogus").stderr == (
        "cribbage: error: unrecognized arguments: --bogus (see 'cribbage --help')\n"
    )
    assert "órdenes:" in run_in_process("--help", "--lang", "es").stdout
    seats = run_in_process("play", "--players", "human,computer,computer", "--lang", "es").stderr
    assert "--players necesita 2 tipos de puesto para el perfil 'standard', no 3" in seats


def test_profile_descriptions_are_in_the_language() -> None:
    listed = run_in_process("profiles", "list", "--lang", "es")
    assert "Cribbage de seis cartas para" in listed.stdout and "descripción" in listed.stdout
    assert "Six-card cribbage for two players" in run_in_process("profiles", "list").stdout


def test_the_server_says_its_errors_and_descriptions_in_the_seats_language() -> None:
    from starlette.testclient import TestClient

    from cribcore.server.app import Limits, create_app

    with TestClient(create_app(limits=Limits(messages_per_second=1000, burst=1000))) as client:
        listed = client.get("/api/profiles").json()["profiles"]
        standard = next(p for p in listed if p["name"] == "standard")
        assert standard["descriptions"]["es"].startswith("Cribbage de seis cartas para dos jugadores")
        assert standard["descriptions"]["en"] == standard["description"]
        bad = {"mode": "computer", "names": ["Ann"], "profile": "nope"}
        refused = client.post("/api/rooms", json=bad, headers={"Accept-Language": "es"}).json()
        assert refused["error"].startswith("perfil: perfil desconocido 'nope'")
        assert client.post("/api/rooms", json=bad).json()["error"].startswith("profile: unknown profile")
        room = client.post("/api/rooms", json={"mode": "computer", "names": ["Ann"], "seed": 11}).json()
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "key": room["keys"][0]["key"], "lang": "es"})
            state = ws.receive_json()
            while state["type"] != "state":
                state = ws.receive_json()
            ws.send_json({"type": "action", "action": "play " + state["view"]["hand"][0]})
            error = ws.receive_json()
            assert error == {"type": "error", "code": "illegal", "message": "ahora toca descartar, no jugar"}
            ws.send_json({"type": "lang", "lang": "en"})
            while ws.receive_json()["type"] != "state":
                pass
            ws.send_json({"type": "action", "action": "play " + state["view"]["hand"][0]})
            assert ws.receive_json()["message"] == "it is time to discard, not to play"


def test_replay_and_the_saves_list_in_spanish(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    played = run_in_process("play", "--players", "computer,computer", "--seed", "4", "--record", str(record))
    assert played.returncode == 0
    spanish = run_in_process("replay", str(record), "--lang", "es")
    assert spanish.stdout.startswith("Computer 1 contra Computer 2 (perfil standard, semilla 4)")
    assert "mano  1  " in spanish.stdout and re.search(r"juega \S+ en \d+: ", spanish.stdout)
    assert "Resultado: " in spanish.stdout and "deal" not in spanish.stdout
    english = run_in_process("replay", str(record))
    assert english.stdout.startswith("Computer 1 vs Computer 2 (profile standard, seed 4)")
    assert "Result: " in english.stdout
    data = tmp_path / "data"
    empty = run_in_process("saves", "list", "--lang", "es", data=data)
    assert "Partidas guardadas (en " in empty.stdout and "ninguna" in empty.stdout
    run_in_process("play", "--seed", "3", "--lang", "es", stdin="quit\n", data=data)
    listed = run_in_process("saves", "list", "--lang", "es", data=data)
    assert "Tú vs Ordenador, sin repartir aún" in listed.stdout or "mano 1" in listed.stdout
    assert "guardada el " in listed.stdout
    deleted = run_in_process("saves", "delete", "computer", "--lang", "es", data=data)
    assert deleted.stdout.startswith("Borrada la partida guardada contra el ordenador")
    again = run_in_process("saves", "delete", "computer", "--lang", "es", data=data)
    assert "no hay ninguna partida guardada contra el ordenador" in again.stderr


def test_the_practice_round_in_spanish() -> None:
    done = run_in_process("practice", "pegging", "--seed", "3", "--lang", "es", stdin="1\n1\n1\n1\nn\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("Practica el juego: cuatro cartas cada uno, sales tú.")
    assert "Juegas 3♠. Cuenta 3: tres, no se marca nada." in out
    assert "El rival dice Go" in out or "Dices Go" in out
    assert "Has marcado " in out and "¿Otra ronda? [s/N]" in out
    for english in ("You lay", "The opponent", "Count ", "nothing scores", "You pegged"):
        assert english not in out, english


def test_joins_own_lines_in_spanish() -> None:
    from cribcore.cli.join_seat import refusal_line as _refusal_line
    from cribcore.cli.join_table import _and_list, _waiting_for_move
    from cribcore.i18n import set_language
    from cribcore.netclient import Refused, parse_link

    link = parse_link("http://127.0.0.1:8000/#join=abc")
    full = Refused("full", "this room is full: every seat is taken")
    view = Game(seed=3, players=("Ann", "Bob")).view(0)
    assert _refusal_line(full, link).startswith(
        "the room at http://127.0.0.1:8000 is full: this room is full"
    )
    set_language("es")
    try:
        line = _refusal_line(full, link)
        assert line.startswith("la sala de http://127.0.0.1:8000 está llena: esta sala está llena")
        assert _waiting_for_move(view).format(names=_and_list(["Ann", "Bob", "Cy"])) == (
            "Esperando a Ann, Bob y Cy para descartar 2 cartas."
        )
    finally:
        set_language("en")
    assert _waiting_for_move(view).format(names="Bob") == "Waiting for Bob to lay away 2 cards."
    assert _refusal_line(full, link).startswith(
        "the room at http://127.0.0.1:8000 is full: this room is full"
    )


def test_a_plugins_phase_and_price_are_told_in_spanish() -> None:
    import io

    from cribcore.cli.describe import Voice
    from cribcore.cli.narrate import Narrator
    from cribcore.cli.render import Painter
    from cribcore.events import Event
    from cribcore.i18n import set_language

    game = Game(seed=3, players=("Ann", "Bob"))
    events = [
        Event(kind="phase", deal=0, seat=1, note="auction"),
        Event(kind="bid", deal=0, seat=0, points=-2, scores=(0, 0), scored=True, note="bid 2"),
    ]

    def told(lang: str) -> str:
        out = io.StringIO()
        set_language(lang)
        try:
            console = Console(file=out, width=100, color_system=None)
            voice = Voice.for_game(game.players, game.rules, you=0)
            Narrator(console, Painter(), voice, rules=game.rules).tell(events)
        finally:
            set_language("en")
        return out.getvalue()

    assert "Before deal 1: the auction. Bob first.\nYou pay 2 (bid: bid 2)." in told("en")
    assert "Antes de la mano 1: auction. Empieza Bob.\nPagas 2 (bid: bid 2)." in told("es")
