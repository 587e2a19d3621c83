"""Issue 17, what the first session left: "play again?" at the end of a game, the same-device recap
spoken to the player who reads it, and the terminal's last English-only texts in Spanish."""

from __future__ import annotations

import re
from pathlib import Path

import pexpect
from rich.console import Console

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


def _short_profile(tmp_path: Path) -> str:
    path = tmp_path / "short.toml"
    path.write_text(SHORT, encoding="utf-8")
    return str(path)


def _play_until_asked(child: pexpect.spawn, lang: str) -> None:
    """Answer every prompt (the first card that fits) until the game asks whether to play again."""
    discard, play, pause = PROMPTS[lang]
    position = 1
    while True:
        which = child.expect([discard, play, pause, AGAIN[lang]])
        if which == 3:
            return
        if which == 1:
            # A card past 31 is explained and the prompt comes again: try the next position.
            child.sendline(str(position))
            position = 1 if position >= 4 else position + 1
            continue
        child.sendline("1 2" if which == 0 else "")
        position = 1


def test_the_end_of_a_game_offers_another_with_a_new_seed(tmp_path: Path) -> None:
    argv = ("play", "--seed", "5", "--no-save", "--profile", _short_profile(tmp_path))
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
