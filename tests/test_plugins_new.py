"""``cribbage plugins new NAME`` writes a package that installs and passes its own test as it is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from cribcore import pluginmanager
from cribcore.cli.main import main
from cribcore.packaged_profiles import packaged_profiles
from cribcore.profiles import load_profile

from .conftest import PluginSite


def test_the_generated_package_installs_and_passes_its_own_test(
    plugin_site: PluginSite, tmp_path: Path
) -> None:
    package = plugin_site.generated
    assert sorted(
        p.relative_to(package).as_posix()
        for p in package.rglob("*")
        if p.is_file() and "egg-info" not in str(p) and "build/" not in p.as_posix()
    ) == [
        "cribcore_lucky_seven.py",
        "lucky-seven.toml",
        "pyproject.toml",
        "tests/conftest.py",
        "tests/test_lucky_seven.py",
    ]
    env = {**os.environ, "PYTHONPATH": str(plugin_site.site), "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(package / "tests")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 passed" in done.stdout  # its shipped profile's tests among them
    # Issue 35, item 17: no PytestAssertRewriteWarning (nor any other) on every run.
    assert "Warning" not in done.stdout + done.stderr and "warning" not in done.stdout, done.stdout

    def cribbage(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "cribcore.cli", *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )

    checked = cribbage("profiles", "validate", str(package / "lucky-seven.toml"))
    assert checked.returncode == 0, checked.stderr
    listed = cribbage("profiles", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    packages = {entry["name"]: entry["package"] for entry in json.loads(listed.stdout)}
    assert packages["lucky-seven"] == "cribcore-lucky-seven"


@pytest.fixture
def installed_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``cribbage plugins new no-kings`` written, then seen as pip would leave it installed: its module on
    ``sys.path`` beside a ``*.dist-info`` holding the entry points of its pyproject.toml."""
    package = tmp_path / "cribcore-no-kings"
    assert main(["plugins", "new", "no-kings", "--output", str(package)]) == 0
    groups = tomllib.loads((package / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "entry-points"
    ]
    info = package / "cribcore_no_kings-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: cribcore-no-kings\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(
        "".join(
            f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in entries.items())
            for group, entries in groups.items()
        )
    )
    monkeypatch.syspath_prepend(str(package))
    pluginmanager.clear_caches()
    yield package
    sys.modules.pop("cribcore_no_kings", None)
    pluginmanager.clear_caches()


def test_the_generated_package_ships_its_profile_under_its_name(installed_in_process: Path) -> None:
    pyproject = (installed_in_process / "pyproject.toml").read_text(encoding="utf-8")
    assert '[project.entry-points."cribcore.profiles"]\nno-kings = "cribcore_no_kings:PROFILE"\n' in pyproject
    (shipped,) = packaged_profiles()["no-kings"]
    assert shipped.package == "cribcore-no-kings"
    assert tomllib.loads(str(shipped.source())) == tomllib.loads(
        (installed_in_process / "no-kings.toml").read_text(encoding="utf-8")
    )
    by_name = load_profile("no-kings")
    assert by_name == load_profile(installed_in_process / "no-kings.toml")
    assert by_name.plugins[-1] == "no-kings" and by_name.options["no-kings"] == {"rank": "7", "points": 1}


def test_profiles_list_shows_the_generated_packages_profile(
    installed_in_process: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["profiles", "list"]) == 0
    assert "no-kings (from cribcore-no-kings)" in capsys.readouterr().out


def test_the_name_of_a_built_in_profile_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["plugins", "new", "muggins", "--output", str(tmp_path / "pkg")]) == 1
    assert capsys.readouterr().err == (
        "cribbage: error: 'muggins' is a built-in profile's name, which a package's profile cannot take; "
        "choose another\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["Bad_Name", "1up", "no--kings", "cribcore-x", ""])
def test_a_bad_name_is_one_line_and_writes_nothing(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["plugins", "new", name, "--output", str(tmp_path / "pkg")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a plugin name" in err
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pkg").mkdir()
    assert main(["plugins", "new", "no-kings", "--output", str(tmp_path / "pkg")]) == 1
    assert "exists; choose another --output" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [tmp_path / "pkg"]
    assert list((tmp_path / "pkg").iterdir()) == []


def test_a_new_package_is_written_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plugins", "new", "no-kings", "--output", str(tmp_path / "pkg")]) == 0
    out = capsys.readouterr().out
    assert "Wrote the plugin package" in out
    assert out.rstrip().endswith("Once installed, play its profile with: cribbage play --profile no-kings")
    assert [p.name for p in tmp_path.iterdir()] == ["pkg"]  # no staging folder left
    text = (tmp_path / "pkg" / "pyproject.toml").read_text(encoding="utf-8")
    assert 'no-kings = "cribcore_no_kings:NoKings"' in text
