"""``cribbage serve`` offers the profiles installed packages ship (the ``cribcore.profiles``
entry-point group) besides the built-in ones and the ``--profile`` ones: the browser's chooser lists
them, a room plays under one, and one that cannot be used is left out with one warning line.

Packages are installed the way tests/test_packaged_profiles.py installs them: a ``*.dist-info`` folder
in a folder put on ``sys.path``, next to the modules it names."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from cribcore.cli import serve_cmd
from cribcore.cli.commands import UsageError
from cribcore.cli.serve_cmd import offered_profiles
from cribcore.packaged_profiles import ENTRY_POINT_GROUP
from cribcore.problems import PackagedProfileWarning
from cribcore.profiles import builtin_names
from cribcore.server.app import create_app

from .server_client import connect
from .terminal import run_in_process
from .test_packaged_profiles import Site
from .test_server import FAST, drain, friend_room, play_out, room_of

HOUSE_PLUGIN = """from cribcore.hookspecs import hookimpl


class HouseRule:
    @hookimpl
    def cribcore_rules(self):
        return {"target": 31}


PROFILE = {
    "name": "house",
    "description": "Quick games to 31 under the house rule.",
    "extends": "standard",
    "plugins": ["house-rule"],
}
"""
"""A package shipping a plugin and the profile that plays it (its rules come from the plugin)."""
HOUSE_WORDS = "Quick games to 31 under the house rule."

BROKEN = {
    # how the package breaks: (its profile's entry, its module, the reason the warning gives)
    "not-a-profile": ("broken = serve_shipped_broken:PROFILE", "PROFILE = 42\n", "is not a profile"),
    "import-error": (
        "broken = serve_shipped_broken:PROFILE",
        "raise ImportError('no luck')\n",
        "failed to load serve_shipped_broken:PROFILE: ImportError: no luck",
    ),
    "unknown-plugin": (
        "broken = serve_shipped_broken:PROFILE",
        "PROFILE = {'name': 'broken', 'plugins': ['nosuch']}\n",
        "plugins: unknown plugin 'nosuch'",
    ),
    "built-in-name": (
        "five-card = serve_shipped_broken:PROFILE",
        "PROFILE = {'name': 'five-card', 'extends': 'standard'}\n",
        "a built-in profile has that name",
    ),
}


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    """A folder on ``sys.path`` with the house package installed in it."""
    for installed in Site.on_path(tmp_path, monkeypatch):
        installed.install(
            "cribcore-house",
            "[cribcore.plugins]\nhouse-rule = serve_shipped_house:HouseRule\n"
            f"[{ENTRY_POINT_GROUP}]\nhouse = serve_shipped_house:PROFILE\n",
            {"serve_shipped_house": HOUSE_PLUGIN},
        )
        yield installed


def install_broken(site: Site, how: str) -> str:
    """Install a package whose profile cannot be used; returns the reason its warning gives."""
    entry, module, reason = BROKEN[how]
    site.install("cribcore-broken", f"[{ENTRY_POINT_GROUP}]\n{entry}\n", {"serve_shipped_broken": module})
    return reason


def test_the_built_in_then_the_packaged_then_the_named_profiles_are_offered(
    site: Site, tmp_path: Path
) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text('name = "mine"\nextends = "standard"\n\n[rules]\ntarget = 61\n', encoding="utf-8")
    offered = offered_profiles([str(mine)])
    assert list(offered) == [*builtin_names(), "house", "mine"]
    assert offered["house"].rules.target == 31 and offered["house"].plugins[-1] == "house-rule"


def test_without_packaged_profiles_only_a_named_one_is_offered(site: Site) -> None:
    assert list(offered_profiles((), packaged=False)) == list(builtin_names())
    assert list(offered_profiles(["house"], packaged=False)) == [*builtin_names(), "house"]


def test_a_named_profile_that_does_not_load_is_refused_before_any_package_is_read(site: Site) -> None:
    install_broken(site, "not-a-profile")
    with pytest.raises(UsageError, match=r"^--profile: unknown profile 'nosuch' "):
        offered_profiles(["nosuch"])


@pytest.mark.parametrize("how", sorted(BROKEN))
def test_a_packaged_profile_that_cannot_be_used_is_left_out_with_a_warning(site: Site, how: str) -> None:
    reason = install_broken(site, how)
    with pytest.warns(PackagedProfileWarning) as warned:
        offered = offered_profiles(())
    assert len(warned) == 1 and reason in str(warned[0].message)
    assert list(offered) == [*builtin_names(), "house"]
    if how == "built-in-name":
        assert offered["five-card"].rules.cards_dealt == 5  # the built-in profile


def serve(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *argv: str) -> tuple[Any, list[Starlette]]:
    """``cribbage serve ARGV`` in this process, bound but not served: its result and the app built."""
    apps: list[Starlette] = []
    monkeypatch.setattr(serve_cmd, "_run", lambda uvicorn, app, sock: apps.append(app))
    result = run_in_process("serve", "--port", "0", "--db", str(tmp_path / "rooms.sqlite3"), *argv)
    return result, apps


def chooser(app: Starlette) -> dict[str, dict[str, Any]]:
    """What the browser's profile chooser reads (``GET /api/profiles``), by profile name."""
    with TestClient(app) as client:
        profiles: list[dict[str, Any]] = client.get("/api/profiles").json()["profiles"]
    return {profile["name"]: profile for profile in profiles}


def test_serve_offers_a_packaged_profile_to_the_browser(
    site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result, apps = serve(monkeypatch, tmp_path)
    assert result.returncode == 0 and result.stderr == ""
    offered = chooser(apps[0])
    assert list(offered) == [*builtin_names(), "house"]
    assert offered["house"] == {
        "name": "house",
        "description": HOUSE_WORDS,
        # A package's own words, in every language (the catalog translates only the built-in ones).
        "descriptions": {"en": HOUSE_WORDS, "es": HOUSE_WORDS},
        "seats": 2,
    }


@pytest.mark.parametrize("how", sorted(BROKEN))
def test_serve_starts_without_a_broken_packaged_profile_saying_so_in_one_line(
    site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    reason = install_broken(site, how)
    result, apps = serve(monkeypatch, tmp_path)
    assert result.returncode == 0 and result.stdout.startswith("Serving cribbage on http://127.0.0.1:")
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cribbage: warning: profile ") and reason in lines[0]
    assert "cribcore-broken" in lines[0]
    assert list(chooser(apps[0])) == [*builtin_names(), "house"]


def test_serve_warns_in_spanish(site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install_broken(site, "built-in-name")
    result, _ = serve(monkeypatch, tmp_path, "--lang", "es")
    assert result.returncode == 0
    assert result.stderr.startswith("cribbage: aviso: ") and len(result.stderr.splitlines()) == 1


def test_serve_without_packaged_profiles_reads_no_package(
    site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_broken(site, "not-a-profile")
    result, apps = serve(monkeypatch, tmp_path, "--no-packaged-profiles")
    assert result.returncode == 0 and result.stderr == ""
    assert list(chooser(apps[0])) == list(builtin_names())
    result, apps = serve(monkeypatch, tmp_path, "--no-packaged-profiles", "--profile", "house")
    assert result.returncode == 0 and result.stderr == ""
    assert list(chooser(apps[0])) == [*builtin_names(), "house"]


@pytest.mark.parametrize(
    ("named", "error"),
    [
        ("nosuch", "cribbage serve: error: --profile: unknown profile 'nosuch' (built-in: standard, "),
        ("missing.toml", "cribbage serve: error: --profile: missing.toml: no such profile file"),
    ],
)
def test_serve_refuses_an_unknown_profile_name_or_file_in_one_line(
    site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, named: str, error: str
) -> None:
    result, apps = serve(monkeypatch, tmp_path, "--profile", named)
    assert result.returncode == 2 and not apps
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(error)


def test_serve_help_names_both_kinds_of_profile() -> None:
    helped = " ".join(run_in_process("serve", "--help").stdout.split())
    assert "--profile NAME|FILE" in helped
    assert "one an installed package ships (see 'cribbage profiles list') or a profile file" in helped
    assert "--no-packaged-profiles" in helped
    spanish = " ".join(run_in_process("serve", "--help", "--lang", "es").stdout.split())
    assert "--no-packaged-profiles" in spanish and "one an installed package ships" not in spanish


def test_a_room_plays_a_whole_game_under_a_packaged_profile(site: Site, tmp_path: Path) -> None:
    app = create_app(tmp_path / "rooms.sqlite3", limits=FAST, profiles=offered_profiles(()))
    with TestClient(app) as client:
        room, keys = friend_room(client, profile="house", seed=7)
        assert room["profile"] == "house"
        with connect(client, keys[0]) as ann, connect(client, keys[1]) as bob:
            drain([ann])  # Bob's arrival
            assert ann.room["profile"]["name"] == "house"
            play_out(client, room["room"], [ann, bob])
        game = room_of(client, room["room"]).game
    assert game.is_over and max(game.scores) >= 31 and game.profile.rules.target == 31
    assert game.profile.plugins[-1] == "house-rule"
