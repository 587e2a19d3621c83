"""Issue 17: a whole game in Spanish in a terminal, from the cut to the winner, chosen by the locale
(``LANG=es_ES.UTF-8``) with every count spoken in Spanish. A short target keeps it quick."""

from __future__ import annotations

import re
from pathlib import Path

import pexpect

from .terminal import cribbage_pty, leave_table

DISCARD = r"Elige .+ para (tu cuna|la cuna de [^:\n]+): "
PLAY = r"Juega una carta \(cuenta \d+\): "
PAUSE = r"Pulsa Enter para la mano siguiente"
PROBLEM = r"\n  [A-ZÁÉÍÓÚa-z¿¡].*(pasa|No tienes|no es una carta)[^\n]*\n"
OVER = r"Fin de la partida: ([^\n]+)\."

ENGLISH = ("fifteen", "pair", "run of", "You play", "Computer", "starter", "Your hand", "Press Enter")


def test_a_whole_game_in_spanish(tmp_path: Path) -> None:
    profile = tmp_path / "corta.toml"
    profile.write_text(
        'name = "corta"\ndescription = "A 31."\nextends = "standard"\n\n[rules]\ntarget = 31\n'
    )
    locale = {"LANG": "es_ES.UTF-8", "LC_ALL": None, "LC_MESSAGES": None, "CRIBCORE_LANG": None}
    with cribbage_pty(
        tmp_path, "play", "--seed", "5", "--no-save", "--profile", str(profile), env_changes=locale
    ) as (child, log):
        child.expect("Corte para repartir: ")
        position = 1
        while True:
            which = child.expect([DISCARD, PLAY, PAUSE, OVER, pexpect.EOF])
            if which == 0:
                child.sendline("1 2")
            elif which == 1:
                # The first card that fits: a card past 31 is explained, and the prompt comes again.
                child.sendline(str(position))
                position = 1 if position >= 4 else position + 1
                continue
            elif which == 2:
                child.sendline("")
            else:
                break
            position = 1
        assert which == 3, log.getvalue()[-2000:]
        winner = child.match.group(1)
        leave_table(child)
    out = log.getvalue()
    assert re.search(r"(Ganas tú|Gana Ordenador), ", winner), winner
    assert "La carta inicial es " in out and "Puntuación final: " in out
    # Every count is said in Spanish: the show counted aloud, the play's counts, the go.
    assert re.search(r"\d+: (quince|una pareja|un trío|una escalera|nada que contar)", out)
    assert "Juegas " in out and "Ordenador juega " in out
    for english in ENGLISH:
        assert english not in out, english
