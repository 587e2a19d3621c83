"""Issue 17, the coach's last English words: `cribbage review`'s help and output in Spanish (the CLI's
"contra" and "puesto", numbers with a decimal comma), a save that can no longer be written during a
game, and `analyze`'s refusal of a single card; English byte-identical."""

from __future__ import annotations

import errno
import io
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from cribcore import Game
from cribcore.actions import Discard
from cribcore.cards import parse_cards
from cribcore.cli.render import Painter, make_console
from cribcore.cli.review import print_review, thresholds_help
from cribcore.cli.session import Seating, Session
from cribcore.i18n import current_language, set_language
from cribcore.review import Review, ReviewedDecision
from cribcore.saves import SaveConflict, SaveSlot
from cribcore.speech_messages import say

from .terminal import run_in_process


@pytest.fixture
def language() -> Iterator[None]:
    before = current_language()
    yield
    set_language(before)


def _review() -> Review:
    cards = parse_cards("AC 3S 5D 5H 9D KC")
    decision = ReviewedDecision(
        deal=0,
        kind="discard",
        scores=(0, 0),
        hand=tuple(cards),
        count=0,
        chosen=Discard(tuple(parse_cards("5D 5H"))),
        best=Discard(tuple(parse_cards("AC 9D"))),
        points_lost=12.125,
        win_lost=0.217,
        mark="blunder",
        reason="",
    )
    return Review(0, ("Ann", "Computer"), "standard", (decision,), 1, {"blunder": 1})


def _printed(review: Review) -> str:
    out = io.StringIO()
    console = make_console(out)
    print_review(review, console, Painter.for_console(console))
    return out.getvalue()


def test_review_help_in_spanish_and_english() -> None:
    spanish = " ".join(run_in_process("review", "--help", "--lang", "es").stdout.split())
    assert "Recorre las decisiones de un puesto en un registro de partida" in spanish
    assert "RECORD el registro de partida (JSON); - lee la entrada estándar" in spanish
    assert "--seat N el puesto que se revisa, contado desde 1 como en el tablero (por" in spanish
    assert "--json imprime la revisión como JSON" in spanish
    assert (
        "Marcas: imprecisión desde 1,0 puntos esperados perdidos (o 2,0 % de probabilidad de ganar" in spanish
    )
    assert "error grave desde 4,0 puntos esperados perdidos (o 8,0 %" in spanish
    for english in ("Go through", "the seat to review", "Marks:", "at least", "1.0"):
        assert english not in spanish
    english = " ".join(run_in_process("review", "--help").stdout.split())
    assert "RECORD the game record (JSON); - reads standard input" in english
    assert "--seat N the seat to review, counted from 1 as the board counts them" in english
    assert (
        "Marks: inaccuracy at least 1.0 expected points lost (or 2.0% winning chances, where the expert "
        "has a win table); mistake at least 2.0 expected points lost (or 4.0% winning chances, where the "
        "expert has a win table); blunder at least 4.0 expected points lost (or 8.0% winning chances, where "
        "the expert has a win table). JSON (--json): {seat, player, players, profile, thresholds:"
    ) in english


def test_review_output_says_contra_and_puesto_with_decimal_commas(language: None) -> None:
    set_language("es")
    spanish = _printed(_review())
    assert spanish.startswith("Revisión de Ann (puesto 1), Ann contra Computer, perfil estándar\n")
    assert "pierdes 12,1 puntos, 21,7 % de probabilidad de ganar" in spanish
    assert "asiento" not in spanish and " vs " not in spanish and "21.7" not in spanish
    assert thresholds_help().endswith(
        "error grave desde 4,0 puntos esperados perdidos (o 8,0 % de probabilidad de "
        "ganar, donde el experto tiene una tabla de victorias)"
    )
    set_language("en")
    english = _printed(_review())
    assert english.startswith("Review of Ann (seat 1), Ann vs Computer, profile standard\n")
    assert "lost 12.1 points, 21.7% winning chances   BLUNDER" in english


def test_review_refusals_in_spanish(tmp_path: Path) -> None:
    assert run_in_process("review", "x.json", "--seat", "-1", "--lang", "es").stderr.startswith(
        "cribbage review: error: --seat cuenta desde 1, no -1"
    )
    assert run_in_process("review", "x.json", "--seat", "-1").stderr.startswith(
        "cribbage review: error: --seat counts from 1, not -1"
    )
    refusals = {
        "seat 4: the record has seats 0 to 1": "puesto 4: el registro tiene los puestos 0 a 1",
        "profile lowball: the coach judges games of the standard pack only": (
            "perfil lowball: el entrenador solo juzga partidas con la baraja estándar"
        ),
    }
    for english, spanish in refusals.items():
        assert say(english, "es") == spanish and say(english, "en") == english


class _FailingSlot(SaveSlot):
    """A save slot whose every write fails with ``error``."""

    def __init__(self, path: Path, error: Exception) -> None:
        super().__init__(path)
        self.error = error

    def write(self, data: Mapping[str, Any]) -> None:
        raise self.error


@pytest.mark.parametrize(
    ("lang", "conflict", "disk"),
    [
        (
            "es",
            "cribbage: error: {path}: otro programa cambió el archivo de la partida guardada; se deja como "
            "está. La partida sigue sin guardarse.",
            "cribbage: error: no se puede guardar la partida en {path}: No space left on device. La partida "
            "sigue sin guardarse.",
        ),
        (
            "en",
            "cribbage: error: {path}: the save file was changed by something else; it is left as it is. The "
            "game goes on without being saved.",
            "cribbage: error: cannot save the game to {path}: No space left on device. The game goes on "
            "without being saved.",
        ),
    ],
)
def test_a_save_that_cannot_be_written_is_said_in_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], language: None, lang: str, conflict: str, disk: str
) -> None:
    set_language(lang)
    game = Game(seed=1, players=("Ann", "Computer"))
    seating = Seating(("human", "computer"), ("Ann", "Computer"), game.profile)
    console = make_console(io.StringIO())
    path = tmp_path / "computer.json"
    errors = (
        (SaveConflict(f"{path}: the save file was changed by something else"), conflict),
        (OSError(errno.ENOSPC, "No space left on device"), disk),
    )
    for error, expected in errors:
        session = Session(console, seating, reader=None, slot=_FailingSlot(path, error), mode="computer")
        session._save(game)
        assert session.slot is None  # the game goes on unsaved
        assert capsys.readouterr().err == expected.format(path=path) + "\n"


def test_analyze_refuses_one_card_in_the_singular() -> None:
    assert run_in_process("analyze", "5H", "--lang", "es").stderr.startswith(
        "cribbage: error: no se puede analizar 1 carta descartando 2: usa 5 cartas descartando 2, "
    )
    assert run_in_process("analyze", "5H", "5D", "--lang", "es").stderr.startswith(
        "cribbage: error: no se pueden analizar 2 cartas descartando 2: usa 5 cartas"
    )
    assert run_in_process("analyze", "5H").stderr.startswith(
        "cribbage: error: cannot analyze 1 card laying away 2: use 5 cards laying away 2, "
    )


def test_the_board_says_puesto_as_the_terminal_does() -> None:
    from babel.messages.pofile import read_po

    locale = Path(__file__).resolve().parent.parent / "cribcore" / "locale" / "es" / "LC_MESSAGES"
    with (locale / "board.po").open("rb") as board:
        catalog = read_po(board)
    spanish = {str(m.id): str(m.string) for m in catalog if m.id and m.string}
    assert [text for text in spanish.values() if "asiento" in text.lower()] == []
    assert spanish["Seat {n}"] == "Puesto {n}"
    # The coach's panel uses the terminal's words for the same things.
    assert spanish["blunder"] == "error grave" and spanish["inaccuracy"] == "imprecisión"
