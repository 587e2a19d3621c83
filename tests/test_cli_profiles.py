"""``cribbage profiles`` and ``cribbage plugins``: listing, showing, validating, creating profiles, the
schema, and one-line errors that leave no file behind."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from cribcore import load_profile
from cribcore.cli.main import main
from cribcore.cli.profiles_cmd import parse_setting
from cribcore.profiles import builtin_names

CaptureFixture = pytest.CaptureFixture[str]


def run(capsys: CaptureFixture, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys: CaptureFixture, *argv: str) -> Any:
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    return json.loads(out)


def test_list_names_every_built_in_profile(capsys: CaptureFixture) -> None:
    data = run_json(capsys, "profiles", "list", "--json")
    assert [p["name"] for p in data] == list(builtin_names())
    status, out, _ = run(capsys, "profiles", "list")
    assert status == 0
    assert "standard (locked, default)" in out
    assert "five-card" in out


def test_show_prints_the_resolved_profile_as_toml(capsys: CaptureFixture) -> None:
    status, out, _ = run(capsys, "profiles", "show", "five-card-muggins")
    assert status == 0
    body = tomllib.loads(out.split("\n", 1)[1])
    assert body["plugins"] == ["standard", "five-card", "muggins", "skunk"]
    assert body["rules"]["target"] == 61
    assert body["options"]["skunk"] == {"skunk_line": 31, "double_skunk_line": 0}
    data = run_json(capsys, "profiles", "show", "partners", "--json")
    assert data["rules"]["partnerships"] is True


def test_validate_accepts_a_good_file_and_names_the_problem_in_a_bad_one(
    capsys: CaptureFixture, tmp_path: Path
) -> None:
    good = tmp_path / "good.toml"
    good.write_text('name = "good"\nextends = "five-card"\nplugins = ["muggins"]\n', encoding="utf-8")
    status, out, _ = run(capsys, "profiles", "validate", str(good))
    assert status == 0
    assert "valid profile 'good'" in out
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\nplugins = ["five-card", "seven-card"]\n', encoding="utf-8")
    status, out, err = run(capsys, "profiles", "validate", str(bad))
    assert status == 1
    reason = "plugins: five-card and seven-card cannot be combined (cards_dealt 5 and 7)"
    assert err == f"cribbage: error: {bad}: {reason}\n"
    status, _, err = run(capsys, "profiles", "validate", str(tmp_path / "missing.toml"))
    assert (status, err.count("\n")) == (1, 1)
    assert "no such profile file" in err


def test_new_writes_a_valid_profile_a_user_can_edit(capsys: CaptureFixture, tmp_path: Path) -> None:
    output = tmp_path / "quick.toml"
    status, out, err = run(
        capsys,
        "profiles",
        "new",
        "quick",
        "--from",
        "five-card",
        "--set",
        "five-card.target=31",
        "--set",
        "muggins.apply_to_play=false",
        "--output",
        str(output),
    )
    assert status == 0, err
    assert "Wrote" in out
    written = tomllib.loads(output.read_text(encoding="utf-8"))
    assert written["extends"] == "five-card"
    assert written["plugins"] == ["muggins"]
    assert written["options"] == {"five-card": {"target": 31}, "muggins": {"apply_to_play": False}}
    profile = load_profile(output)
    assert (profile.rules.target, profile.rules.cards_dealt) == (31, 5)
    assert profile.options["muggins"]["apply_to_play"] is False


def test_new_with_a_rule_and_a_file_base(capsys: CaptureFixture, tmp_path: Path) -> None:
    base = tmp_path / "base.toml"
    base.write_text('name = "base"\nextends = "standard"\n[rules]\ntarget = 91\n', encoding="utf-8")
    output = tmp_path / "sub" / "mine.toml"
    output.parent.mkdir()
    status, _, err = run(
        capsys,
        "profiles",
        "new",
        "mine",
        "--from",
        str(base),
        "--set",
        "rules.target=61",
        "--output",
        str(output),
    )
    assert status == 0, err
    assert tomllib.loads(output.read_text(encoding="utf-8"))["extends"] == "../base.toml"
    assert load_profile(output).rules.target == 61


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["--set", "five-card.target=zero"], 1, "options.five-card.target: Input should be a valid integer"),
        (["--set", "muggins.colour=1"], 1, "options.muggins.colour: Extra inputs are not permitted"),
        (["--set", "nothing.x=1"], 1, "plugins: unknown plugin 'nothing'"),
        (["--set", "rules.seats=3"], 1, "five-card: five-card cribbage is two players"),
        (["--set", "target"], 2, "is not PLUGIN.OPTION=VALUE or rules.RULE=VALUE"),
        (["--from", "no-such"], 1, "unknown profile 'no-such'"),
    ],
)
def test_new_refuses_bad_settings_and_writes_nothing(
    capsys: CaptureFixture, tmp_path: Path, args: list[str], status: int, message: str
) -> None:
    output = tmp_path / "x.toml"
    base = [] if "--from" in args else ["--from", "five-card"]
    code, _, err = run(capsys, "profiles", "new", "x", *base, *args, "--output", str(output))
    assert code == status
    assert message in err
    assert err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_new_never_replaces_a_file_unless_forced(capsys: CaptureFixture, tmp_path: Path) -> None:
    output = tmp_path / "x.toml"
    output.write_text("mine\n", encoding="utf-8")
    status, _, err = run(capsys, "profiles", "new", "x", "--output", str(output))
    assert status == 2
    assert "exists" in err
    assert output.read_text(encoding="utf-8") == "mine\n"
    status, _, _ = run(capsys, "profiles", "new", "x", "--output", str(output), "--force")
    assert status == 0
    assert load_profile(output).name == "x"


def test_new_refuses_the_locked_name(capsys: CaptureFixture, tmp_path: Path) -> None:
    status, _, err = run(capsys, "profiles", "new", "standard", "--output", str(tmp_path / "s.toml"))
    assert status == 1
    assert "locked" in err


def test_schema_is_json_schema_with_plugin_options(capsys: CaptureFixture) -> None:
    schema = run_json(capsys, "profiles", "schema")
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert "muggins" in schema["properties"]["options"]["properties"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("muggins.apply_to_play=false", ("muggins", "apply_to_play", False)),
        ("rules.target = 91", ("rules", "target", 91)),
        ('toss-fives.rank="5"', ("toss-fives", "rank", "5")),
        ("toss-fives.rank=K", ("toss-fives", "rank", "K")),
    ],
)
def test_settings_are_read_as_toml_values(text: str, expected: tuple[str, str, object]) -> None:
    assert parse_setting(text) == expected


def test_plugins_lists_every_built_in_variant_with_hooks_and_options(capsys: CaptureFixture) -> None:
    data = run_json(capsys, "plugins", "--json")
    by_name = {p["name"]: p for p in data}
    expected = {
        "standard",
        "five-card",
        "seven-card",
        "three-players",
        "four-players",
        "muggins",
        "hand-flush",
    }
    assert expected | {"skunk", "lowball"} <= set(by_name)
    assert data[0]["name"] == "standard"
    assert by_name["five-card"]["options"]["compensation"]["default"] == 3
    assert "cribcore_game_start" in by_name["five-card"]["hooks"]
    assert by_name["hand-flush"]["options"]["hand_min"]["type"] == "4 or 5"
    status, out, _ = run(capsys, "plugins")
    assert status == 0
    assert "muggins" in out and "option penalty_for_false_call" in out


@pytest.mark.parametrize("name", builtin_names())
def test_an_unattended_game_plays_to_the_end_under_every_profile(capsys: CaptureFixture, name: str) -> None:
    seats = load_profile(name).rules.seats
    kinds = ",".join(["computer"] * seats)
    status, out, err = run(capsys, "play", "--profile", name, "--players", kinds, "--seed", "3", "--no-save")
    assert status == 0, err
    assert "Game over: " in out
    assert err == ""
