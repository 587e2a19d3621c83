"""Issue 17, the commands the first translation left English-only: simulate, stats, plugins, profiles
show/validate/new, analyze and serve in Spanish (English unchanged); a save file's faults and a
profile's pydantic errors said in the language at the display edge; the "interrupted" line said before
the command line has loaded."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cribcore.i18n import gettext
from cribcore.saves import FORMAT, SaveError, read_save
from cribcore.speech_messages import VALIDATION_TYPES, say_error, validation_reason
from cribcore.version import VERSION

from .terminal import run_in_process

BAD_PROFILE = 'name = "bad"\nextends = "standard"\ntarget = 91\n'
"""The README's old mistake: ``target`` belongs under ``[rules]``."""


def test_simulate_speaks_spanish_and_english_is_unchanged() -> None:
    argv = ("simulate", "2", "--players", "random", "--seed", "5", "--jobs", "1")
    spanish = run_in_process(*argv, "--lang", "es")
    assert spanish.returncode == 0, spanish.stderr
    out = spanish.stdout
    assert out.startswith("2 partidas de standard: random contra random\n")
    assert "Semilla 5 (repítelo con --seed 5) · este proceso" in out
    assert "intervalo del 95%" in out and "puesto 1 (random) gana" in out
    assert "gana el primer repartidor" in out and "palizas (el perdedor por debajo de 91)" in out
    assert re.search(r"puntos por mano +juego +mano +cuna +jota inicial +total", out)
    assert "por partida (los puntos por mano cuentan cada mano empezada)" in out
    english = run_in_process(*argv).stdout
    assert english.startswith("2 games of standard: random vs random\n")
    assert "Seed 5 (run again with --seed 5) · this process" in english
    assert re.search(r"games +rate +95% interval", english) and "seat 2 (random) wins" in english
    assert re.search(r"points per deal +play +hand +crib +heels +total", english)
    refused = run_in_process("simulate", "2", "--players", "human", "--lang", "es").stderr
    assert "tipo de ordenador desconocido 'human': usa computer" in refused


def test_a_partnership_and_the_backend_are_named_in_spanish() -> None:
    from cribcore.cli.simulate import _backend, _side_label
    from cribcore.i18n import current_language, set_language
    from cribcore.profiles import load_profile
    from cribcore.simulate import simulate

    result = simulate(1, ["random"] * 4, profile=load_profile("partners"), seed=1, jobs=1)
    before = current_language()
    try:
        set_language("es")
        assert _side_label(result, 0) == "puestos 1+3 (random, random)"
        assert _backend("2 processes") == "2 procesos" and _backend("this process") == "este proceso"
        set_language("en")
        assert _side_label(result, 0) == result.side_label(0) == "seats 1+3 (random, random)"
        assert _backend("2 processes") == "2 processes" and _backend("dask tcp://h:1") == "dask tcp://h:1"
    finally:
        set_language(before)


def test_stats_speaks_spanish() -> None:
    argv = ("stats", "--hand-size", "1", "--crib-size", "1")
    out = run_in_process(*argv, "--lang", "es").stdout
    assert out.startswith(
        "Puntos de la cuenta sobre cada combinación de cartas y carta inicial\nPerfil standard\n"
    )
    assert "  manos: 1 cartas + carta inicial" in out and "color solo con la carta inicial" in out
    assert re.search(r"puntos +manos +% +cunas +%", out) and "desv. típica" in out and "moda" in out
    assert "Histograma (una barra completa es el " in out
    english = run_in_process(*argv).stdout
    assert english.startswith("Show scores over every combination of cards and a starter\nProfile standard\n")
    assert "std dev" in english and "Histogram (a full bar is " in english
    refused = run_in_process("stats", "--hand-size", "9", "--lang", "es").stderr
    assert "elige de 1 a 6 cartas, no 9" in refused


def test_plugins_list_check_and_new_speak_spanish(tmp_path: Path) -> None:
    listed = run_in_process("plugins", "--lang", "es").stdout
    assert "  hooks: check_rules, game_start" in listed
    assert "  opción target (int, por defecto 61)" in listed
    assert "  option target (int, default 61)" in run_in_process("plugins").stdout
    checked = run_in_process("plugins", "--check", "standard", "--lang", "es").stdout
    assert checked.startswith(
        f"complemento 'standard' {VERSION}: se carga, y una partida de prueba con él (semilla 0)"
    )
    assert run_in_process("plugins", "--check", "standard").stdout.startswith(
        f"plugin 'standard' {VERSION}: loads, and a trial game with it (seed 0) played to the end, "
    )
    unknown = run_in_process("plugins", "--check", "nosuch", "--lang", "es").stderr
    assert "complemento desconocido 'nosuch' (instalados: " in unknown
    target = tmp_path / "pkg"
    made = run_in_process("plugins", "new", "mine", "--output", str(target), "--lang", "es").stdout
    assert made.startswith(f"Escrito el paquete de complemento {target}. Instálalo con: pip install {target}")
    again = run_in_process("plugins", "new", "mine", "--output", str(target), "--lang", "es").stderr
    assert again == f"cribbage: error: {target} ya existe; elige otra --output\n"
    bad = run_in_process("plugins", "new", "Bad Name", "--lang", "es").stderr
    assert "'Bad Name' no es un nombre de complemento" in bad


def test_profiles_show_validate_and_new_speak_spanish(tmp_path: Path) -> None:
    shown = run_in_process("profiles", "show", "standard", "--lang", "es").stdout
    assert shown.startswith("# standard (bloqueado)\n# Cribbage de seis cartas para dos jugadores")
    assert 'description = "Six-card cribbage for two players' in shown  # the file's own words
    assert run_in_process("profiles", "show", "standard").stdout.startswith(
        '# standard (locked)\nname = "standard"\n'
    )
    made = run_in_process(
        "profiles", "new", "house", "--output", str(tmp_path / "house.toml"), "--lang", "es"
    )
    assert made.stdout.startswith(f"Escrito {tmp_path / 'house.toml'}: 2 jugadores, 6 cartas, a 121.")
    valid = run_in_process("profiles", "validate", str(tmp_path / "house.toml"), "--lang", "es").stdout
    assert (
        "perfil válido 'house': 2 jugadores, 6 cartas, a 121; complementos: ninguno aparte de standard"
        in valid
    )
    english = run_in_process("profiles", "validate", str(tmp_path / "house.toml")).stdout
    assert "valid profile 'house': 2 players, 6 cards, to 121; plugins: none beyond standard" in english
    missing = run_in_process("profiles", "validate", str(tmp_path / "none.toml"), "--lang", "es").stderr
    assert missing == f"cribbage: error: {tmp_path / 'none.toml'}: no existe ese archivo de perfil\n"


def test_a_profiles_pydantic_error_is_said_in_spanish(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD_PROFILE, encoding="utf-8")
    spanish = run_in_process("profiles", "validate", str(bad), "--lang", "es").stderr
    assert spanish == f"cribbage: error: {bad}: target: no se admite esta clave aquí\n"
    english = run_in_process("profiles", "validate", str(bad)).stderr
    assert english == f"cribbage: error: {bad}: target: Extra inputs are not permitted\n"
    bad.write_text('name = "bad"\nextends = "standard"\n[rules]\nseats = 9\n', encoding="utf-8")
    option = run_in_process(
        "score", "5H", "5D", "5C", "JS", "--starter", "5S", "--profile", str(bad), "--lang", "es"
    )
    assert f"--profile: {bad}: rules.seats: debe ser menor o igual que 4 (véase" in option.stderr
    out = tmp_path / "x.toml"
    refused = run_in_process(
        "profiles", "new", "x", "--set", "rules.target=true", "--output", str(out), "--lang", "es"
    )
    assert refused.stderr == f"cribbage: error: {out}: rules.target: debe ser un número entero\n"
    assert not out.exists()


class _Every(BaseModel):
    """A model that fails with each pydantic error type `VALIDATION_TYPES` knows."""

    model_config = ConfigDict(extra="forbid", strict=True)
    n: int = Field(1, ge=1, le=4)
    r: float = Field(1.0, gt=0, lt=5)
    s: str = Field("a", min_length=1, max_length=3, pattern=r"^[a-z]+$")
    k: Literal["computer", "same-device"] = "computer"
    t: tuple[int, ...] = Field((1,), min_length=1, max_length=2)
    b: bool = False
    d: dict[str, int] = Field(default_factory=dict)
    li: list[int] = Field(default_factory=list)
    m: _Inner | None = None
    req: int
    lax: int = Field(0, strict=False)


class _Inner(BaseModel):
    x: int = 0


_Every.model_rebuild()

_FAILURES: list[dict[str, Any]] = [
    {"zz": 1},
    {"n": "x"},
    {"n": 9},
    {"n": 0},
    {"r": 9.0},
    {"r": -1.0},
    {"r": "x"},
    {"s": ""},
    {"s": "abcd"},
    {"s": "A"},
    {"s": 1},
    {"k": "z"},
    {"t": (1, 2, 3)},
    {"t": ()},
    {"t": "x"},
    {"b": "yes"},
    {"d": [1]},
    {"li": "x"},
    {"m": 3},
    {"lax": 1.5},
    {"lax": "x"},
]


def _errors() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for data in _FAILURES:
        with pytest.raises(ValidationError) as caught:
            _Every.model_validate({"req": 1, **data})
        found.extend(dict(error) for error in caught.value.errors())
    with pytest.raises(ValidationError) as missing:
        _Every.model_validate({})
    found.extend(dict(error) for error in missing.value.errors())
    with pytest.raises(ValidationError) as invalid:
        _Every.model_validate_json("{bad")
    found.extend(dict(error) for error in invalid.value.errors())
    return found


def test_every_known_pydantic_error_type_is_said_in_spanish_and_english_is_pydantics() -> None:
    errors = _errors()
    assert {error["type"] for error in errors} == set(VALIDATION_TYPES) - {"enum"}
    for error in errors:
        assert validation_reason(error, "en") == error["msg"]
        spanish = validation_reason(error, "es")
        assert spanish != error["msg"] and not spanish.startswith(("Input", "String")), (
            error["type"],
            spanish,
        )
        # The catalog's English is pydantic's wording: filled in, it is the message pydantic wrote.
        message = VALIDATION_TYPES[error["type"]]
        ctx = {
            key: str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)
            for key, v in (error.get("ctx") or {}).items()
        }
        if isinstance(message, tuple):
            n = int(ctx.get("min_length", ctx.get("max_length", "0")))
            assert message[n != 1].format(**ctx) == error["msg"]
        else:
            assert message.format(**ctx) == error["msg"]
    literal = next(error for error in errors if error["type"] == "literal_error")
    assert validation_reason(literal, "es") == "debe ser 'computer' o 'same-device'"


def _save_errors(tmp_path: Path) -> list[SaveError]:
    """A save file's faults as `read_save` raises them (nothing else is needed to produce them)."""
    contents = {
        "empty.json": "",
        "short.json": '{"format": ',
        "junk.json": "{bad",
        "list.json": "[1]",
        "other.json": '{"format": "something"}',
        "newer.json": json.dumps({"format": FORMAT, "version": 99}),
        "fields.json": json.dumps({"format": FORMAT, "version": 1}),
        "latin.json": "\xff",
    }
    found: list[SaveError] = []
    for name, text in contents.items():
        path = tmp_path / name
        path.write_bytes(text.encode("latin-1"))
        with pytest.raises(SaveError) as caught:
            read_save(path)
        found.append(caught.value)
    (tmp_path / "folder.json").mkdir()
    for name in ("folder.json", "none.json"):
        with pytest.raises(SaveError) as caught:
            read_save(tmp_path / name)
        found.append(caught.value)
    return found


def test_a_save_files_faults_are_said_in_spanish_and_english_is_unchanged(tmp_path: Path) -> None:
    for error in _save_errors(tmp_path):
        assert say_error(error, "en") == str(error)
        spanish = say_error(error, "es")
        assert spanish != str(error), str(error)
        assert spanish.startswith(f"{tmp_path}/"), spanish  # the file stays first (`saves list` cuts it)


def test_a_broken_save_at_resume_and_in_the_list_is_in_spanish(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "computer.json").write_text("", encoding="utf-8")
    resumed = run_in_process("resume", "computer", "--lang", "es", data=tmp_path)
    assert resumed.returncode == 1
    assert resumed.stderr == f"cribbage: error: {saves / 'computer.json'}: el archivo está vacío (truncado)\n"
    english = run_in_process("resume", "computer", data=tmp_path)
    assert english.stderr == f"cribbage: error: {saves / 'computer.json'}: the file is empty (truncated)\n"
    listed = run_in_process("saves", "list", "--lang", "es", data=tmp_path).stdout
    assert "  computer      no se puede reanudar: el archivo está vacío (truncado)\n" in listed
    played = run_in_process("play", "--seed", "1", "--lang", "es", stdin="quit\n", data=tmp_path)
    assert played.returncode == 1
    assert "el archivo está vacío (truncado). El archivo se queda como está: bórralo con" in played.stderr


def test_analyze_speaks_spanish() -> None:
    hand = ("analyze", "5H", "5D", "JC", "QS", "4H", "6C")
    out = run_in_process(*hand, "--lang", "es").stdout
    assert out.startswith(
        "Mano 4H 5D 5H 6C JC QS (six-card, dos jugadores), descartando a tu cuna: medias sobre las 46 "
        "cartas iniciales posibles\n"
    )
    assert re.search(r"te quedas +descarte +mano +cuna +neto +mín +máx", out)
    assert "la cuna del rival" in run_in_process(*hand, "--pone", "--lang", "es").stdout
    assert run_in_process(*hand).stdout.startswith(
        "Hand 4H 5D 5H 6C JC QS (six-card, two players), laying away"
    )
    refused = run_in_process("analyze", "5H", "5D", "JC", "--lang", "es").stderr
    assert refused.startswith("cribbage: error: no se pueden analizar 3 cartas descartando 2: usa 5 cartas")
    assert run_in_process("analyze", "5H", "5D", "JC").stderr.startswith(
        "cribbage: error: cannot analyze 3 cards laying away 2: use 5 cards laying away 2, "
    )


def test_serve_help_and_start_up_line_in_spanish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    helped = run_in_process("serve", "--help", "--lang", "es").stdout
    assert "Sirve el tablero del navegador en http://HOST:PORT/" in helped
    assert "dirección en la que escuchar (por defecto 127.0.0.1)" in helped
    assert "address to listen on (default 127.0.0.1)" in run_in_process("serve", "--help").stdout
    from cribcore.cli import serve_cmd

    monkeypatch.setattr(serve_cmd, "_run", lambda uvicorn, app, sock: None)  # bound, then not served
    db = tmp_path / "rooms.sqlite3"
    spanish = run_in_process("serve", "--port", "0", "--db", str(db), "--lang", "es")
    assert spanish.returncode == 0, spanish.stderr
    assert re.fullmatch(
        rf"Sirviendo cribbage en http://127\.0\.0\.1:\d+/ \(salas en {re.escape(str(db))}\); "
        r"Ctrl-C lo detiene\.\n",
        spanish.stdout,
    )
    english = run_in_process("serve", "--port", "0", "--db", str(db)).stdout
    assert re.fullmatch(
        rf"Serving cribbage on http://127\.0\.0\.1:\d+/ \(rooms in {re.escape(str(db))}\); Ctrl-C stops\.\n",
        english,
    )
    assert (
        "--workers: debe ser al menos 1" in run_in_process("serve", "--workers", "0", "--lang", "es").stderr
    )


class _InterruptOn:
    """Ctrl-C while ``name`` is imported: the command line has not loaded yet."""

    def __init__(self, name: str) -> None:
        self.name = name

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> None:
        if fullname == self.name:
            raise KeyboardInterrupt
        return None


@pytest.mark.parametrize(
    ("argv", "env", "said"),
    [
        (["score", "5H", "--lang", "es"], {}, "interrumpido"),
        (["score", "5H"], {"CRIBCORE_LANG": "es"}, "interrumpido"),
        (
            ["score", "5H"],
            {"CRIBCORE_LANG": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "es_ES.UTF-8"},
            "interrumpido",
        ),
        (["score", "5H", "--lang", "fr"], {"CRIBCORE_LANG": "es"}, "interrupted"),
        (["score", "5H"], {"CRIBCORE_LANG": "", "LC_ALL": "C", "LANG": "es_ES.UTF-8"}, "interrupted"),
    ],
)
def test_ctrl_c_before_the_command_line_loads_is_said_in_the_language(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    env: dict[str, str],
    said: str,
) -> None:
    from cribcore.cli import entry

    for name, value in env.items():
        monkeypatch.setenv(name, value)
    for name in [m for m in sys.modules if m == "cribcore.cli.main"]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [_InterruptOn("cribcore.cli.main"), *sys.meta_path])
    assert entry.main(argv) == 130
    assert capsys.readouterr().err == f"cribbage: error: {said}\n"


def test_the_interrupted_words_are_the_catalogs() -> None:
    from cribcore.cli.entry import INTERRUPTED_WORDS
    from cribcore.i18n import LANGUAGES

    assert set(INTERRUPTED_WORDS) == set(LANGUAGES)
    for lang, word in INTERRUPTED_WORDS.items():
        assert gettext("interrupted", lang) == word


def test_the_built_in_plugins_words_are_in_the_catalog() -> None:
    """``pybabel extract ... cribcore profiles plugins`` (docs/i18n.md) finds each built-in plugin's
    summary and option descriptions, and every one has a Spanish translation."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    from cribcore.pluginmanager import available, describe

    root = Path(__file__).resolve().parents[1]
    with (root / "babel.cfg").open(encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)  # type: ignore[no-untyped-call]
    found = {
        message
        for _name, _line, message, _comments, _context in extract_from_dir(
            str(root / "plugins"), method_map=method_map, options_map=options_map, keywords={}
        )
    }
    for name in available():
        info = describe(name)
        words = [info.summary, *(text for _kind, _default, text in info.options.values() if text)]
        for text in words:
            assert text in found, (name, text)
            assert gettext(text, "es") != text, (name, text)
    listed = run_in_process("plugins", "--lang", "es").stdout
    assert "  Cribbage de siete cartas para dos: manos de cinco, una cuna de cuatro, a 151." in listed
    assert (
        "  opción target (int, por defecto 151): Puntos que terminan la partida (hay quien juega a 181)."
        in listed
    )
    english = run_in_process("plugins").stdout
    assert "  option target (int, default 151): Points that end the game (some play 181)." in english


def test_a_records_faults_and_the_version_warning_are_in_spanish(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    assert run_in_process("replay", str(missing), "--lang", "es").stderr == (
        f"cribbage: error: {missing}: no existe ese archivo\n"
    )
    assert run_in_process("replay", str(missing)).stderr == f"cribbage: error: {missing}: no such file\n"
    listed = tmp_path / "list.json"
    listed.write_text("[1]", encoding="utf-8")
    assert run_in_process("replay", str(listed), "--lang", "es").stderr == (
        f"cribbage: error: {listed}: un registro es un objeto JSON\n"
    )
    fields = tmp_path / "fields.json"
    fields.write_text('{"version": 1}', encoding="utf-8")
    assert (
        run_in_process("replay", str(fields), "--lang", "es").stderr
        == "cribbage: error: format: falta este campo\n"
    )
    assert run_in_process("replay", str(fields)).stderr == "cribbage: error: format: Field required\n"
    record = tmp_path / "game.json"
    assert (
        run_in_process(
            "play",
            "--players",
            "computer,computer",
            "--level",
            "easy",
            "--seed",
            "3",
            "--no-save",
            "--record",
            str(record),
        ).returncode
        == 0
    )
    data = json.loads(record.read_text(encoding="utf-8"))
    data["plugin_versions"] = {"standard": "0.0.1"}
    record.write_text(json.dumps(data), encoding="utf-8")
    spanish = run_in_process("replay", str(record), "--lang", "es").stderr
    assert spanish == (
        "cribbage: aviso: el registro se jugó con otras versiones de complementos: standard 0.0.1 "
        "(instalada: desconocida); se reproduce igualmente\n"
    )
    assert run_in_process("replay", str(record)).stderr == (
        "cribbage: warning: the record was played with other plugin versions: standard 0.0.1 "
        "(installed: unknown); replaying anyway\n"
    )


def test_cards_links_options_and_the_language_choice_are_refused_in_spanish(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bad_card = run_in_process("score", "XX", "5H", "--starter", "5S", "--lang", "es").stderr
    assert bad_card.startswith(
        "cribbage: error: no es una carta: XX (escribe un valor A 2-9 T J Q K y un palo"
    )
    assert run_in_process("score", "XX", "5H", "--starter", "5S").stderr == (
        "cribbage: error: not a card: XX (write a rank A 2-9 T J Q K and a suit C D H S, "
        "e.g. 5H, TS, 10s, J♣)\n"
    )
    assert (
        run_in_process("peg", "5H", "5H", "--lang", "es").stderr == "cribbage: error: 5♥ se juega dos veces\n"
    )
    assert run_in_process("peg", "5H", "5H").stderr == "cribbage: error: 5H is laid twice\n"
    unknown = run_in_process("score", "5H", "--starter", "5S", "--profile", "nosuch", "--lang", "es").stderr
    assert unknown.startswith(
        "cribbage score: error: --profile: perfil desconocido 'nosuch' (incluidos: standard"
    )
    link = run_in_process("join", "nonsense", "--lang", "es").stderr
    assert link.startswith(
        "cribbage: error: no es un enlace de servidor: 'nonsense'; se espera http://HOST:PORT/"
    )
    assert run_in_process("join", "nonsense").stderr.startswith(
        "cribbage: error: not a server link: 'nonsense'; expected http://HOST:PORT/#join=CODE"
    )
    monkeypatch.setenv("CRIBCORE_LANG", "es")
    assert run_in_process("score", "5H", "--lang", "fr").stderr == (
        "cribbage: error: no existe el idioma 'fr' (elige en o es) (véase 'cribbage --help')\n"
    )
    monkeypatch.setenv("CRIBCORE_LANG", "en")
    assert run_in_process("score", "5H", "--lang", "fr").stderr == (
        "cribbage: error: no such language: 'fr' (choose en or es) (see 'cribbage --help')\n"
    )
