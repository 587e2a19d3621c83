"""A plugin whose hook raises or returns the wrong type stops a game with one line (exit 1), never a
traceback, and leaves a record and a save that load to the last completed action; a misspelt or
unmarked hook is refused at load; ``profiles validate`` and ``plugins --check`` find all of it first."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import ClassVar

import pexpect
import pytest

from cribcore import Game, format_cards
from cribcore.cli.main import main
from cribcore.hookspecs import hookimpl
from cribcore.pluginmanager import HOOK_NAMES, PluginError
from cribcore.profiles import ProfileError, load_profile, resolved_profile
from cribcore.records import PluginVersionWarning, game_record, read_record, replay
from cribcore.saves import read_save
from cribcore.testing import one_plugin_profile, play_out, record_hooks, registered

from .conftest import PluginSite
from .plugin_boom.cribcore_test_boom import Boom
from .terminal import cribbage_pty

PACKAGE = Path(__file__).resolve().parent / "plugin_boom"
SEED = "3"

AFTER = {
    # On which call the hook fails in the seeded unattended game: in the middle of it where the hook
    # is called during the game, at once where it is called only when the game is set up.
    "cribcore_check_discard": 200,
    "cribcore_play_items": 40,
    "cribcore_winner": 30,
    "cribcore_show_items": 14,
    "cribcore_play_continues": 6,
    "cribcore_starter_items": 5,
    "cribcore_counting_order": 5,
}
AT_LOAD = {
    "cribcore_rules",
    "cribcore_check_rules",
    "cribcore_declared",
    "cribcore_flush_rules",
    "cribcore_game_start",
    "cribcore_pack",
    "cribcore_score_kinds",
    "cribcore_show_suits_as_standard",
    "cribcore_skunk_lines",
    "cribcore_wild_cards",
}
ONE_CALL_PER_EVENT = {"cribcore_play_items", "cribcore_starter_items", "cribcore_counting_order"}


class Calm(Boom):
    """The same plugin (same options) that never fails: for replaying what a failing game left."""

    def _answer(self, hook: str) -> object:
        return None


@contextlib.contextmanager
def calm() -> Iterator[None]:
    with registered("boom", Calm):
        yield


def profile_file(folder: Path, hook: str, *, after: int = 1, wrong: bool = False) -> Path:
    plugins = '["muggins", "boom"]' if hook == "cribcore_muggins" else '["boom"]'
    path = folder / "boom.toml"
    path.write_text(
        f'name = "boom"\nplugins = {plugins}\n\n[options.boom]\nhook = "{hook}"\nafter = {after}\n'
        f"wrong = {str(wrong).lower()}\n",
        encoding="utf-8",
    )
    return path


def one_error_line(err: str) -> str:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize("hook", sorted(HOOK_NAMES))
def test_a_hook_that_raises_stops_an_unattended_game_in_one_line(
    hook: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    after = AFTER.get(hook, 1)
    profile = profile_file(tmp_path, hook, after=after)
    record = tmp_path / "game.json"
    # Random players consult no hook, so every call of the failing hook is the engine's own; only the
    # computer levels ask a phase's plugin to choose for them.
    players = "computer,computer" if hook == "cribcore_phase_choose" else "random,random"
    argv = ["play", "--players", players, "--seed", SEED, "--profile", str(profile)]
    with registered("boom", Boom):
        status = main([*argv, "--record", str(record)])
    line = one_error_line(capsys.readouterr().err)
    assert status == 1
    assert f"plugin 'boom': {hook} raised BoomError: boom in {hook}" in line
    if hook in AT_LOAD:
        assert not record.exists()  # no action was completed
        return
    data = read_record(record)
    assert "result" not in data or hook == "cribcore_game_points"
    with calm(), record_hooks(one_plugin_profile("boom", data["profile"]["options"]["boom"])) as calls:
        game = replay(data)
    assert game.deal_number >= 0
    if hook in ONE_CALL_PER_EVENT:  # the record stops just before the action that failed
        assert len(calls.getcalls(hook)) == after - 1


def test_a_hook_returning_the_wrong_type_is_named_with_what_it_returned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = profile_file(tmp_path, "cribcore_show_items", after=3, wrong=True)
    with registered("boom", Boom):
        status = main(["play", "--players", "computer,computer", "--seed", SEED, "--profile", str(profile)])
    line = one_error_line(capsys.readouterr().err)
    assert status == 1
    assert "plugin 'boom': cribcore_show_items returned <object object" in line
    assert "not Sequence[ScoreItem] | None" in line


class Wrapper:
    """Rewrites the flushes: its wrapper sees the inner exception and must let it pass unchanged."""

    seen: ClassVar[list[BaseException]] = []

    @hookimpl(wrapper=True)
    def cribcore_show_items(self) -> Generator[None, object, object]:
        try:
            return (yield)
        except Exception as exc:
            Wrapper.seen.append(exc)
            raise


class BadWrapper:
    @hookimpl(wrapper=True)
    def cribcore_show_items(self) -> Generator[None, object, object]:
        yield
        return 7


def test_a_wrapper_lets_an_inner_failure_through_unchanged() -> None:
    with registered("boom", Boom), registered("wrapper", Wrapper):
        data = {
            "name": "both",
            "plugins": ["boom", "wrapper"],
            "options": {"boom": {"hook": "cribcore_show_items"}},
        }
        with pytest.raises(PluginError, match="plugin 'boom': cribcore_show_items raised") as caught:
            play_out(Game(resolved_profile(data), seed=1))
    assert Wrapper.seen and Wrapper.seen[-1] is caught.value


def test_a_wrapper_returning_the_wrong_type_is_named() -> None:
    with (
        registered("bad", BadWrapper),
        pytest.raises(PluginError, match="plugin 'bad': cribcore_show_items returned 7"),
    ):
        play_out(Game(one_plugin_profile("bad"), seed=1))


class Misspelt:
    @hookimpl
    def cribcore_show_item(self) -> None:
        return None


class Unmarked:
    def cribcore_show_items(self) -> None:
        return None


def test_a_misspelt_hook_is_refused_with_the_closest_name() -> None:
    with registered("x", Misspelt), pytest.raises(ProfileError) as caught:
        one_plugin_profile("x")
    assert "plugin 'x': cribcore_show_item is not a cribcore hook (did you mean cribcore_show_items?)" in str(
        caught.value
    )


def test_an_unmarked_hook_is_refused() -> None:
    with registered("x", Unmarked), pytest.raises(ProfileError, match="not marked with @hookimpl"):
        one_plugin_profile("x")


def test_profiles_validate_plays_a_trial_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    profile = profile_file(tmp_path, "cribcore_show_items", after=5)
    with registered("boom", Boom):
        assert main(["profiles", "validate", str(profile)]) == 1
    line = one_error_line(capsys.readouterr().err)
    assert f"{profile}: in a trial game (seed 0): plugin 'boom': cribcore_show_items raised" in line
    with calm():
        assert main(["profiles", "validate", str(profile)]) == 0
    assert "a trial game played to the end" in capsys.readouterr().out


def test_plugins_check_names_the_failure(capsys: pytest.CaptureFixture[str]) -> None:
    with registered("boom", Boom):
        assert main(["plugins", "--check", "boom"]) == 1
    line = one_error_line(capsys.readouterr().err)
    assert (
        "plugin 'boom': cribcore_play_items raised BoomError: boom in cribcore_play_items (in a trial game"
        in line
    )
    with registered("x", Misspelt):
        assert main(["plugins", "--check", "x"]) == 1
    assert "did you mean cribcore_show_items?" in one_error_line(capsys.readouterr().err)
    assert main(["plugins", "--check", "muggins"]) == 0
    assert "played to the end" in capsys.readouterr().out


# ---------------------------------------------------------------- the real program, plugin installed


@pytest.fixture
def boom_installed(plugin_site: PluginSite) -> Path:
    """The failing plugin, installed with pip (put the folder on PYTHONPATH)."""
    return plugin_site.site


@pytest.mark.filterwarnings("ignore::cribcore.records.PluginVersionWarning")  # read back in-process
def test_a_failing_hook_in_a_human_game_leaves_a_loadable_save_and_record(
    boom_installed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(boom_installed))
    profile = profile_file(tmp_path, "cribcore_starter_items")
    record = tmp_path / "game.json"
    data = tmp_path / "data"
    with calm():
        hand = Game(load_profile(profile), seed=int(SEED), players=("You", "Computer")).view(0).hand
    argv = ["play", "--profile", str(profile), "--seed", SEED, "--record", str(record)]
    with cribbage_pty(data, *argv) as (child, log):
        child.expect(r"Choose 2 cards for (your|Computer's) crib: ")
        child.sendline(format_cards(hand[:2]))
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 1
    assert "cribbage: error: plugin 'boom': cribcore_starter_items raised BoomError" in log.getvalue()
    with calm():
        saved = read_save(data / "saves" / "computer.json")
        replayed = replay(read_record(record))
    # The discard that turned the starter never completed: the save and the record stop before it.
    assert saved.game.deal_number == 0 and replayed.deal_number == 0
    assert game_record(saved.game)["deals"] == game_record(replayed)["deals"]
    assert any(not d for d in game_record(replayed)["deals"][0]["discards"])
    # Resuming goes as far as the plugin lets it, and stops again in one line.
    with cribbage_pty(data, "resume") as (child, log):
        child.expect(r"Choose 2 cards for (your|Computer's) crib: |cribbage: error: ")
        if "Choose" in child.after:
            child.sendline(format_cards(hand[:2]))
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 1
    assert "plugin 'boom': cribcore_starter_items raised" in log.getvalue()


def test_a_record_replayed_under_another_plugin_version_warns_once(
    boom_installed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = profile_file(tmp_path, "cribcore_starter_items", after=10**6)
    env = {"PYTHONPATH": str(boom_installed), "NO_COLOR": "1", "PATH": "/usr/bin:/bin"}
    record = tmp_path / "game.json"
    run = [sys.executable, "-m", "cribcore.cli"]
    done = subprocess.run(
        [
            *run,
            "play",
            "--players",
            "computer,computer",
            "--seed",
            SEED,
            "--profile",
            str(profile),
            "--record",
            str(record),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["plugin_versions"] == {"boom": "0.3.0"}
    data["plugin_versions"]["boom"] = "0.2.0"
    record.write_text(json.dumps(data), encoding="utf-8")
    done = subprocess.run([*run, "replay", str(record)], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert done.stderr.strip().splitlines() == [
        "cribbage: warning: the record was played with other plugin versions: boom 0.2.0 (installed: 0.3.0); "
        "replaying anyway"
    ]
    with calm(), pytest.warns(PluginVersionWarning, match="boom 0.2.0"):
        replay(data)
