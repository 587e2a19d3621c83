"""Profiles: the locked standard profile, profile files that extend it, and error messages that name the
file and the key."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from cribcore import Game, Profile, ProfileError, RuleSet, load_profile
from cribcore import profiles as profiles_module
from cribcore.profiles import BUILTIN_DIRECTORY

STANDARD_FILE = BUILTIN_DIRECTORY / "standard.toml"


def write(tmp_path: Path, text: str, name: str = "house.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(path: Path | str) -> str:
    with pytest.raises(ProfileError) as excinfo:
        load_profile(path)
    return str(excinfo.value)


# ----------------------------------------------------------------------------- the standard profile


def test_default_profile_is_the_standard_game() -> None:
    profile = load_profile()
    assert profile.name == "standard"
    assert profile.locked
    assert profile.plugins == ("standard",)
    assert profile.rules == RuleSet()
    rules = profile.rules
    assert (rules.seats, rules.cards_dealt, rules.discards, rules.target) == (2, 6, 2, 121)
    assert (rules.crib_from_pack, rules.partnerships) == (0, False)
    assert (rules.hand_size, rules.crib_size, rules.sides) == (4, 4, 2)


def test_standard_by_name_is_the_default() -> None:
    assert load_profile("standard") == load_profile()


def test_game_uses_the_standard_profile_by_default() -> None:
    game = Game(seed=1)
    assert game.profile == load_profile()
    assert game.rules == RuleSet()


def test_copy_of_the_standard_file_elsewhere_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "standard.toml"
    shutil.copy(STANDARD_FILE, path)
    message = load_error(path)
    assert message.startswith(f"{path}: name: ")
    assert "locked" in message


def test_another_file_named_standard_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "standard"\n[rules]\ntarget = 61\n', "mine.toml")
    message = load_error(path)
    assert message.startswith(f"{path}: name: the standard profile is locked")


def test_profile_that_says_it_is_locked_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "mine"\nextends = "standard"\nlocked = true\n')
    assert load_error(path) == f"{path}: locked: only the built-in standard profile is locked"


def test_edited_built_in_standard_profile_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    edited = STANDARD_FILE.read_text(encoding="utf-8").replace("target = 121", "target = 61")
    assert "target = 61" in edited
    write(tmp_path, edited, "standard.toml")
    monkeypatch.setattr(profiles_module, "BUILTIN_DIRECTORY", tmp_path)
    message = load_error("standard")
    assert message.startswith(str(tmp_path / "standard.toml"))
    assert "edited" in message


# ----------------------------------------------------------------------------- profiles that extend it


def test_profile_extending_standard_with_its_own_name_and_target(tmp_path: Path) -> None:
    path = write(
        tmp_path, 'name = "short"\ndescription = "To 61."\nextends = "standard"\n[rules]\ntarget = 61\n'
    )
    profile = load_profile(path)
    assert profile.name == "short"
    assert profile.description == "To 61."
    assert not profile.locked
    assert profile.plugins == ("standard",)
    assert profile.rules == RuleSet(target=61)


def test_game_under_a_profile_to_61_ends_at_61(tmp_path: Path) -> None:
    profile = load_profile(write(tmp_path, 'name = "short"\nextends = "standard"\n[rules]\ntarget = 61\n'))
    game = Game(profile, seed=9)
    rng = random.Random(9)
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert game.winner is not None
    assert game.scores[game.winner] >= 61
    assert min(game.scores) < 61
    assert game.view(0).profile == "short"


def test_profile_path_may_be_given_as_text(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "short"\nextends = "standard"\n[rules]\ntarget = 61\n')
    assert load_profile(str(path)).rules.target == 61


def test_profile_extends_another_file_relative_to_itself(tmp_path: Path) -> None:
    write(tmp_path, 'name = "base"\nextends = "standard"\n[rules]\ntarget = 91\n', "base.toml")
    path = write(tmp_path, 'name = "child"\nextends = "base.toml"\n[rules]\ndiscards = 1\ncards_dealt = 5\n')
    profile = load_profile(path)
    assert profile.name == "child"
    assert profile.rules == RuleSet(target=91, discards=1, cards_dealt=5)


def test_profile_without_extends_starts_from_the_defaults(tmp_path: Path) -> None:
    profile = load_profile(write(tmp_path, 'name = "plain"\n'))
    assert profile.rules == RuleSet()
    assert profile.plugins == ("standard",)


def test_profiles_that_extend_each_other_are_refused(tmp_path: Path) -> None:
    first = write(tmp_path, 'name = "a"\nextends = "b.toml"\n', "a.toml")
    write(tmp_path, 'name = "b"\nextends = "a.toml"\n', "b.toml")
    message = load_error(first)
    assert message.startswith(f"{first}: extends: ")
    assert "loop" in message


def test_profile_built_in_code_takes_custom_rules() -> None:
    profile = Profile(name="t", rules=RuleSet(target=5))
    assert profile.plugins == ("standard",)
    assert Game(profile, seed=1).rules.target == 5


# ----------------------------------------------------------------------------- errors name the file and key


def test_unknown_plugin_is_refused_naming_it(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "mine"\nplugins = ["no-such-plugin"]\n')
    message = load_error(path)
    assert message.startswith(f"{path}: plugins: ")
    assert "'no-such-plugin'" in message


def test_toml_syntax_error_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "mine\n[rules\n')
    message = load_error(path)
    assert message.startswith(f"{path}: TOML syntax error")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('name = "mine"\ncolour = "red"\n', "colour"),
        ('name = "mine"\n[rules]\ncolour = "red"\n', "rules.colour"),
        ('name = "mine"\n[rules]\ntarget = "x"\n', "rules.target"),
        ('name = "mine"\n[rules]\ntarget = 0\n', "rules.target"),
        ('name = "mine"\n[rules]\ntarget = 61.5\n', "rules.target"),
        ('name = "mine"\n[rules]\nseats = 9\n', "rules.seats"),
        ('name = "mine"\n[rules]\ndiscards = -1\n', "rules.discards"),
        ('name = "mine"\n[rules]\npartnerships = "maybe"\n', "rules.partnerships"),
        ('name = "mine"\nplugins = "standard"\n', "plugins"),
        ('name = "bad name!"\n', "name"),
        ('description = "no name"\n', "name"),
        ('name = "mine"\n[options.nothing]\nx = 1\n', "options.nothing"),
    ],
)
def test_bad_value_is_refused_naming_the_file_and_key(tmp_path: Path, text: str, key: str) -> None:
    path = write(tmp_path, text)
    assert load_error(path).startswith(f"{path}: {key}: ")


def test_inconsistent_rules_are_refused_naming_the_rules(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "mine"\n[rules]\ncards_dealt = 4\ndiscards = 4\n')
    message = load_error(path)
    assert message.startswith(f"{path}: rules: ")
    assert "at least one card" in message


def test_partnerships_need_four_seats(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "mine"\n[rules]\npartnerships = true\n')
    message = load_error(path)
    assert message.startswith(f"{path}: rules: ")
    assert "four seats" in message


def test_error_in_an_extended_file_names_that_file(tmp_path: Path) -> None:
    base = write(tmp_path, 'name = "base"\n[rules]\nseats = 9\n', "base.toml")
    path = write(tmp_path, 'name = "child"\nextends = "base.toml"\n')
    assert load_error(path).startswith(f"{base}: rules.seats: ")


def test_missing_profile_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "missing.toml"
    assert load_error(path) == f"{path}: no such profile file"


def test_unknown_built_in_profile_is_named() -> None:
    message = load_error("no-such-profile")
    assert "'no-such-profile'" in message
    assert "standard" in message


@pytest.mark.parametrize("base", ["no-such-profile", "missing.toml"])
def test_bad_extends_names_the_file_and_key(tmp_path: Path, base: str) -> None:
    path = write(tmp_path, f'name = "mine"\nextends = "{base}"\n')
    assert load_error(path).startswith(f"{path}: extends: ")


@pytest.mark.parametrize(("key", "value"), [("target", '"61"'), ("target", "true"), ("seats", '"3"')])
def test_rule_of_the_wrong_type_is_refused(tmp_path: Path, key: str, value: str) -> None:
    path = write(tmp_path, f'name = "mine"\n[rules]\n{key} = {value}\n')
    assert load_error(path).startswith(f"{path}: rules.{key}: ")
