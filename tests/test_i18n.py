"""The language infrastructure: choosing the language, the catalogs (every message translated, the
shipped .mo the same as the .po), Spanish scores and cards, plugins' translated score kinds."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from cribcore import parse_card, parse_cards, score_show
from cribcore.i18n import LOCALE_DIR, language_from_env, set_language, take_lang_option
from cribcore.scoring import ScoreItem
from cribcore.speech import (
    ScoreKind,
    card_name,
    item_name,
    number_words,
    reasons,
    register_kinds,
    spoken_play,
    spoken_show,
    spoken_starter,
)
from tests.terminal import run_in_process

ROOT = Path(__file__).resolve().parents[1]
PO = LOCALE_DIR / "es" / "LC_MESSAGES" / "cribcore.po"
MO = PO.with_suffix(".mo")


def _catalog() -> dict[str, str | tuple[str, ...]]:
    with PO.open("rb") as f:
        catalog = read_po(f, locale="es")
    found: dict[str, str | tuple[str, ...]] = {}
    for m in catalog:
        if m.id and "fuzzy" not in m.flags:
            text = m.string if isinstance(m.string, str) else tuple(m.string or ())
            found[m.id if isinstance(m.id, str) else m.id[0]] = text
    return found


def test_every_message_in_the_sources_has_a_spanish_translation() -> None:
    found = {
        (message if isinstance(message, str) else message[0])
        for _, _, message, _, _ in extract_from_dir(
            str(ROOT / "cribcore"),
            method_map=[("**.py", "python")],
            keywords={"_": None, "N_": None, "gettext": None, "ngettext": (1, 2)},
        )
    }
    catalog = _catalog()
    untranslated = sorted(
        m
        for m in found
        if not (catalog.get(m) if isinstance(catalog.get(m), str) else all(catalog.get(m) or ()))
    )
    assert untranslated == []


def test_the_shipped_mo_holds_what_the_po_says() -> None:
    with MO.open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    for msgid, msgstr in _catalog().items():
        if isinstance(msgstr, str):
            assert compiled.gettext(msgid) == msgstr, msgid


def test_the_language_is_chosen_as_people_expect() -> None:
    assert language_from_env("es", {"CRIBCORE_LANG": "en", "LANG": "en_US.UTF-8"}) == "es"
    assert language_from_env(None, {"CRIBCORE_LANG": "es", "LANG": "en_US.UTF-8"}) == "es"
    assert language_from_env(None, {"LC_ALL": "es_AR.UTF-8", "LANG": "en_GB"}) == "es"
    assert language_from_env(None, {"LC_MESSAGES": "es_ES", "LANG": "en_GB"}) == "es"
    assert language_from_env(None, {"LANG": "es_ES.UTF-8"}) == "es"
    assert language_from_env(None, {"LANG": "fr_FR.UTF-8"}) == "en"
    assert language_from_env(None, {"LANG": "C.UTF-8"}) == "en"
    assert language_from_env(None, {}) == "en"
    with pytest.raises(ValueError, match="choose en or es"):
        language_from_env("fr", {})
    assert take_lang_option(["score", "5H", "--lang", "es", "--", "--lang"]) == (
        "es",
        ["score", "5H", "--", "--lang"],
    )
    assert take_lang_option(["--lang=en", "play"]) == ("en", ["play"])


def test_a_hand_is_counted_aloud_in_spanish() -> None:
    items = score_show(parse_cards("4H 4D 7S 8C"), parse_card("KS")).items
    assert spoken_show(items, lang="es") == "quince dos, quince cuatro y una pareja son seis"
    assert spoken_show(items, lang="en") == "fifteen two, fifteen four, and a pair is six"
    best = score_show(parse_cards("5H 5D 5C JS"), parse_card("5S")).items
    assert spoken_show(best, lang="es").endswith(
        "un póker son veintiocho y uno por la jota del palo de la inicial son veintinueve"
    )
    assert reasons(best, lang="es") == "ocho quincenas 16, póker 12, la jota del palo de la inicial 1"
    runs = score_show(parse_cards("4H 5D 6C 6S"), parse_card("2S")).items
    assert (
        spoken_show(runs, lang="es")
        == "quince dos, quince cuatro, una pareja son seis y una escalera doble de tres son doce"
    )
    assert spoken_show(score_show(parse_cards("2H 4D 6C 8S"), parse_card("QS")).items, lang="es").startswith(
        "nada"
    )


def test_the_play_and_the_starter_in_spanish() -> None:
    pair = ScoreItem("pair", tuple(parse_cards("8H 8D")), 2)
    go = ScoreItem("go", (), 1)
    assert (
        spoken_play(23, [pair, go], lang="es")
        == "veintitrés, y una pareja son dos y la última carta son tres"
    )
    assert spoken_play(7, [], lang="es") == "siete"
    assert spoken_play(31, [ScoreItem("thirty-one", (), 2)], lang="es") == "treinta y uno por dos"
    assert spoken_starter([ScoreItem("heels", (parse_card("JH"),), 2)], lang="es").startswith(
        "la jota inicial"
    )
    assert item_name(ScoreItem("pair", tuple(parse_cards("8H 8D 8S")), 6), lang="es") == "trío"
    assert item_name(ScoreItem("run", tuple(parse_cards("3H 4D 5S")), 3), lang="es") == "escalera de tres"
    assert item_name(go, lang="es") == "última carta"
    assert number_words(31, lang="es") == "treinta y uno" and number_words(29, lang="en") == "twenty-nine"
    assert card_name(parse_card("7S"), lang="es") == "el siete de picas"
    assert card_name(parse_card("QH"), lang="es") == "la reina de corazones"


def test_speech_follows_the_current_language_unless_told() -> None:
    items = score_show(parse_cards("4H 4D 7S 8C"), parse_card("KS")).items
    set_language("es")
    try:
        assert spoken_show(items).startswith("quince dos")
        assert spoken_show(items, lang="en").startswith("fifteen two")
    finally:
        set_language("en")


def test_a_plugin_kind_speaks_spanish_when_it_ships_a_translation() -> None:
    register_kinds(
        {
            "i18n-test-joker": ScoreKind(
                "joker turned up",
                "{points} for the joker",
                translations={"es": ScoreKind("comodín de salida", "{points} por el comodín")},
            ),
            "i18n-test-plain": ScoreKind("plain thing"),
        }
    )
    joker = ScoreItem("i18n-test-joker", (), 2)
    plain = ScoreItem("i18n-test-plain", (), 1)
    assert item_name(joker, lang="es") == "comodín de salida"
    assert spoken_starter([joker], lang="es") == "dos por el comodín"
    assert spoken_starter([joker], lang="en") == "two for the joker"
    assert item_name(plain, lang="es") == "plain thing"  # no translation: the plugin's own words
    with pytest.raises(ValueError, match="translation"):
        register_kinds({"i18n-test-bad": ScoreKind("bad", translations={"fr": ScoreKind("mauvais")})})


def test_score_itemizes_in_spanish() -> None:
    done = run_in_process("score", "5H", "5D", "5C", "JS", "--starter", "5S", "--lang", "es")
    assert done.returncode == 0, done.stderr
    assert (
        "quincena" in done.stdout
        and "pareja" in done.stdout
        and "la jota del palo de la inicial" in done.stdout
    )
    assert "quince dos, quince cuatro" in done.stdout and "son veintinueve" in done.stdout
    english = run_in_process("score", "5H", "5D", "5C", "JS", "--starter", "5S")
    assert "fifteen two" in english.stdout


def test_an_unknown_language_is_a_usage_error() -> None:
    done = run_in_process("--lang", "fr", "score", "5H", "--starter", "5S")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "choose en or es" in done.stderr


def test_every_message_babel_extracts_has_a_spanish_translation() -> None:
    """As `pybabel extract -F babel.cfg -k N_ -k Nn_:1,2 cribcore profiles` finds them (docs/i18n.md):
    the plural marks too, and the built-in profiles' descriptions; each translation keeps the
    message's placeholders, and a plural has every Spanish form."""
    import re

    from babel.messages.frontend import parse_mapping_cfg

    with (ROOT / "babel.cfg").open(encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)  # type: ignore[no-untyped-call]
    keywords = {"_": None, "N_": None, "Nn_": (1, 2), "gettext": None, "ngettext": (1, 2)}
    found: dict[str, tuple[str, ...]] = {}
    for folder in ("cribcore", "profiles"):
        for _name, _line, message, _comments, _context in extract_from_dir(
            str(ROOT / folder), method_map=method_map, options_map=options_map, keywords=keywords
        ):
            forms = (message,) if isinstance(message, str) else tuple(message)
            found[forms[0]] = forms
    assert "Six-card cribbage for two players, first to 121; automatic counting, no muggins." in found
    assert found["expected %s argument"] == ("expected %s argument", "expected %s arguments")
    catalog = _catalog()
    fields = re.compile(r"\{\w+\}|%\(\w+\)[sr]|%[sr]")
    missing: list[str] = []
    for msgid, forms in found.items():
        translated = catalog.get(msgid)
        texts = (translated,) if isinstance(translated, str) else tuple(translated or ())
        if not texts or not all(texts) or (len(forms) > 1) != (len(texts) > 1):
            missing.append(msgid)
            continue
        wanted = set(fields.findall(forms[-1]))
        for text in texts:
            used = set(fields.findall(text))
            # A plural's "one" form may say the number in words ("Una carta"); nothing else is dropped.
            assert used <= wanted if len(forms) > 1 else used == wanted, (msgid, text)
    assert missing == []
