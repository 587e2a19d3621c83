"""Profiles: the locked standard profile, profile files that extend it, and error messages that name the
file and the key."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from cribcore import Game, Profile, ProfileError, RuleSet, load_profile
from cribcore import profiles as profiles_module
from cribcore.profiles import BUILTIN_DIRECTORY, builtin_names, profile_schema, resolved_profile

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


# ----------------------------------------------------------------------------- variant profiles


def test_every_built_in_profile_loads_and_standard_comes_first() -> None:
    names = builtin_names()
    assert names[0] == "standard"
    expected = {"five-card", "seven-card", "three-players", "four-players", "partners", "muggins"}
    assert expected | {"lowball", "skunk-match", "five-card-muggins"} <= set(names)
    for name in names:
        assert load_profile(name).name == name


def test_options_are_validated_and_filled_in(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "m"\nplugins = ["muggins"]\n[options.muggins]\napply_to_play = false\n')
    assert load_profile(path).options == {"muggins": {"penalty_for_false_call": True, "apply_to_play": False}}


@pytest.mark.parametrize(
    ("text", "key", "reason"),
    [
        (
            'name = "m"\nplugins = ["muggins"]\n[options.muggins]\npenalty = true\n',
            "options.muggins.penalty",
            "Extra inputs are not permitted",
        ),
        (
            'name = "m"\nplugins = ["muggins"]\n[options.muggins]\napply_to_play = "often"\n',
            "options.muggins.apply_to_play",
            "valid boolean",
        ),
        (
            'name = "m"\nplugins = ["hand-flush"]\n[options.hand-flush]\nhand_min = 3\n',
            "options.hand-flush.hand_min",
            "Input should be 4 or 5",
        ),
        (
            'name = "m"\nplugins = ["five-card"]\n[options.five-card]\ntarget = "61"\n',
            "options.five-card.target",
            "valid integer",
        ),
        (
            'name = "m"\nplugins = ["lowball"]\n[options.lowball]\nx = 1\n',
            "options.lowball",
            "takes no options",
        ),
        ('name = "m"\n[options.muggins]\napply_to_play = true\n', "options.muggins", "is not enabled here"),
    ],
)
def test_bad_plugin_options_are_refused(tmp_path: Path, text: str, key: str, reason: str) -> None:
    path = write(tmp_path, text)
    message = load_error(path)
    assert message.startswith(f"{path}: {key}: ")
    assert reason in message


def test_five_card_with_seven_card_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "both"\nplugins = ["five-card", "seven-card"]\n')
    message = load_error(path)
    assert message == f"{path}: plugins: five-card and seven-card cannot be combined (cards_dealt 5 and 7)"


def test_a_variant_extending_an_incompatible_one_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "both"\nextends = "five-card"\nplugins = ["three-players"]\n')
    message = load_error(path)
    assert message.startswith(
        f"{path}: plugins: five-card and three-players cannot be combined (seats 2 and 3)"
    )


def test_partnerships_with_three_players_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "p3"\nextends = "three-players"\n[rules]\npartnerships = true\n')
    message = load_error(path)
    assert message == f"{path}: rules: partnerships need four seats, not 3"


def test_partners_with_three_players_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "p3"\nplugins = ["three-players", "four-players"]\n')
    assert load_error(path).startswith(f"{path}: plugins: three-players and four-players cannot be combined")


def test_rules_a_variant_cannot_accept_are_refused_naming_the_variant(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "odd"\nextends = "five-card"\n[rules]\ncards_dealt = 6\n')
    message = load_error(path)
    assert message == f"{path}: five-card: five-card cribbage is two players dealt five cards, discarding two"


def test_a_later_profile_may_change_a_variants_target(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "short"\nextends = "five-card"\n[options.five-card]\ntarget = 31\n')
    assert load_profile(path).rules.target == 31


def test_a_variant_overrides_rules_of_the_file_it_extends(tmp_path: Path) -> None:
    write(tmp_path, 'name = "base"\n[rules]\ncards_dealt = 6\ntarget = 91\n', "base.toml")
    path = write(tmp_path, 'name = "child"\nextends = "base.toml"\nplugins = ["five-card"]\n')
    rules = load_profile(path).rules
    assert (rules.cards_dealt, rules.target) == (5, 61)


def test_extending_the_locked_profile_makes_a_new_one(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "mine"\nextends = "standard"\nplugins = ["muggins"]\n')
    assert load_profile(path).plugins == ("standard", "muggins")
    assert load_profile("standard").plugins == ("standard",)
    assert load_profile("standard").options == {}


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"rules": {"target": 61}}, "the standard profile is locked"),
        ({"plugins": ["standard", "muggins"]}, "the standard profile is locked"),
    ],
)
def test_a_record_cannot_pass_other_rules_off_as_standard(change: dict[str, object], reason: str) -> None:
    data = load_profile("standard").model_dump(mode="json")
    data.update(change)
    if "rules" in change:
        data["rules"] = {**load_profile("standard").rules.model_dump(), **change["rules"]}  # type: ignore[dict-item]
    with pytest.raises(ProfileError, match=reason):
        resolved_profile(data, "record")


def test_schema_describes_rules_and_every_plugins_options() -> None:
    schema = profile_schema()
    properties = schema["properties"]
    assert {"name", "description", "extends", "plugins", "rules", "options"} <= set(properties)
    assert properties["rules"]["additionalProperties"] is False
    assert "target" in properties["rules"]["properties"]
    assert "apply_to_play" in properties["options"]["properties"]["muggins"]["properties"]
    assert properties["options"]["properties"]["muggins"]["additionalProperties"] is False


# ----------------------------------------------------------------------------- hardening (issue 13)


def test_toml_nested_five_hundred_deep_is_one_error(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "deep"\n[rules]\nx = ' + "[" * 500 + "]" * 500 + "\n")
    assert load_error(path).startswith(f"{path}: not a profile: nested")


def test_toml_nested_within_the_parser_but_too_deep_for_us(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "deep"\n[options.standard]\nx = ' + "[" * 40 + "]" * 40 + "\n")
    assert load_error(path) == f"{path}: not a profile: nested more than 32 levels deep"


def test_an_extends_chain_of_a_thousand_files_is_one_error(tmp_path: Path) -> None:
    write(tmp_path, 'name = "p0"\nextends = "standard"\n', "p0.toml")
    for number in range(1, 1000):
        write(tmp_path, f'name = "p{number}"\nextends = "p{number - 1}.toml"\n', f"p{number}.toml")
    message = load_error(tmp_path / "p999.toml")
    assert "extends: more than 16 profiles extend one another" in message
    assert "\n" not in message


def test_an_extends_chain_within_the_bound_loads(tmp_path: Path) -> None:
    write(tmp_path, 'name = "p0"\nextends = "standard"\n[rules]\ntarget = 61\n', "p0.toml")
    for number in range(1, 15):
        write(tmp_path, f'name = "p{number}"\nextends = "p{number - 1}.toml"\n', f"p{number}.toml")
    assert load_profile(tmp_path / "p14.toml").rules.target == 61


@pytest.mark.parametrize(
    ("line", "key"),
    [('locked = "no"', "locked"), ("locked = 0", "locked"), ("description = 3", "description")],
)
def test_profile_values_are_checked_strictly(tmp_path: Path, line: str, key: str) -> None:
    path = write(tmp_path, f'name = "house"\n{line}\n')
    assert load_error(path).startswith(f"{path}: {key}: Input should be a valid")


def test_a_device_is_not_read_as_a_profile() -> None:
    assert load_error("/dev/zero") == "/dev/zero: not a profile file"
