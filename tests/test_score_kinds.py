"""A plugin's score kinds (`cribcore.speech.ScoreKind`): singular and plural labels in each language,
spoken forms per language with the English one as the fallback, and silent informational items that are
listed but never spoken nor given as reasons (in the terminal and on the wire alike)."""

from __future__ import annotations

import json

from cribcore.cards import parse_cards
from cribcore.cli.render import Painter, items_lines
from cribcore.events import Event
from cribcore.scoring import ScoreItem
from cribcore.server.jsontext import compact
from cribcore.server.wire import event_from_json, event_text, event_to_json
from cribcore.speech import ScoreKind, is_silent, reasons, register_kinds, spoken_play, spoken_show

register_kinds(
    {
        "kinds-test-stand-in": ScoreKind(
            "one-eyed jack stands for",
            plural="one-eyed jacks stand for",
            translations={"es": ScoreKind("jota tuerta hace de", plural="jotas tuertas hacen de")},
        ),
        "kinds-test-bonus": ScoreKind(
            "wild bonus",
            "{points} for the wild bonus",
            translations={"es": ScoreKind("premio del comodín")},  # no Spanish spoken form
        ),
        "kinds-test-plain": ScoreKind("wild bonus thing", translations={"es": ScoreKind("cosa del comodín")}),
        "kinds-test-note": ScoreKind(
            "stood for", silent=True, translations={"es": ScoreKind("hizo de", plural="hicieron de")}
        ),
    }
)
CARDS = parse_cards("JS JH")
FIFTEEN = ScoreItem("fifteen", parse_cards("5H TD"), 2)


def test_several_items_of_a_kind_take_its_plural() -> None:
    one = ScoreItem("kinds-test-stand-in", CARDS[:1], 2)
    two = ScoreItem("kinds-test-stand-in", CARDS[1:], 2)
    assert reasons([one], lang="en") == "one-eyed jack stands for 2"
    assert reasons([one, two], lang="en") == "two one-eyed jacks stand for 4"  # never "stands fors"
    assert reasons([one, two], lang="es") == "dos jotas tuertas hacen de 4"


def test_a_kind_without_a_plural_keeps_the_old_ending() -> None:
    item = ScoreItem("kinds-test-bonus", (), 1)
    assert reasons([item, item], lang="en") == "two wild bonuses 2"


def test_a_language_without_a_spoken_form_says_the_english_one() -> None:
    bonus = ScoreItem("kinds-test-bonus", (), 2)
    assert spoken_show([FIFTEEN, bonus], lang="en") == "fifteen two, and two for the wild bonus"
    # Not "premio del comodín son cuatro": the English spoken form, as written.
    assert spoken_show([FIFTEEN, bonus], lang="es") == "quince dos y two for the wild bonus"
    plain = ScoreItem("kinds-test-plain", (), 2)
    # Neither language has a spoken form: each says the label its own way.
    assert spoken_show([FIFTEEN, plain], lang="es") == "quince dos y cosa del comodín son cuatro"
    assert spoken_show([FIFTEEN, plain], lang="en") == "fifteen two, and a wild bonus thing is four"


def test_a_silent_item_is_listed_but_never_spoken_nor_a_reason() -> None:
    note = ScoreItem("kinds-test-note", CARDS[:1], 0)
    assert is_silent(note) and not is_silent(FIFTEEN)
    for lang in ("en", "es"):
        assert reasons([FIFTEEN, note, note], lang=lang) == reasons([FIFTEEN], lang=lang)
        assert spoken_show([FIFTEEN, note], lang=lang) == spoken_show([FIFTEEN], lang=lang)
        assert spoken_play(15, [FIFTEEN, note], lang=lang) == spoken_play(15, [FIFTEEN], lang=lang)
    lines = [line.plain for line in items_lines([FIFTEEN, note], Painter(symbols=False))]
    assert lines[0].split()[-1] == "2"
    assert lines[1].split() == ["stood", "for", "JS"]  # listed, without points


def test_the_wire_marks_a_silent_item() -> None:
    note = ScoreItem("kinds-test-note", CARDS[:1], 0)
    event = Event(kind="hand", deal=0, seat=0, cards=CARDS, points=2, items=(FIFTEEN, note))
    data = event_to_json(event, "es")
    assert [item.get("silent", False) for item in data["items"]] == [False, True]
    assert data["items"][1]["name"] == "hizo de"
    assert json.loads(event_text(event, "es")) == json.loads(compact(data))
    assert event_from_json(data).items == (FIFTEEN, note)
