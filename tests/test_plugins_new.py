"""``cribbage plugins new NAME`` writes a package that installs and passes its own test as it is."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cribcore.cli.main import main

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
    assert "2 passed" in done.stdout
    # Issue 35, item 17: no PytestAssertRewriteWarning (nor any other) on every run.
    assert "Warning" not in done.stdout + done.stderr and "warning" not in done.stdout, done.stdout
    checked = subprocess.run(
        [sys.executable, "-m", "cribcore.cli", "profiles", "validate", str(package / "lucky-seven.toml")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr


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
    assert "Wrote the plugin package" in capsys.readouterr().out
    assert [p.name for p in tmp_path.iterdir()] == ["pkg"]  # no staging folder left
    text = (tmp_path / "pkg" / "pyproject.toml").read_text(encoding="utf-8")
    assert 'no-kings = "cribcore_no_kings:NoKings"' in text
