"""Every command that takes a profile refuses an unknown one the same way: one line naming the command
and the argument that named it, exit status 2 (a usage error), nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest import CaptureFixture, MonkeyPatch

from cribcore.cli.main import main

BAD = "no-such-profile"


@pytest.mark.parametrize(
    ("argv", "named_by"),
    [
        (["score", "5H", "5D", "5C", "JS", "--starter", "5S", "--profile", BAD], "--profile: "),
        (["analyze", "5H", "5D", "5C", "JS", "2C", "3C", "--profile", BAD], "--profile: "),
        (["simulate", "5", "--profile", BAD], "--profile: "),
        (["stats", "--profile", BAD], "--profile: "),
        (["lab", BAD, "--games", "1"], ""),
        (["lab", "standard", "--against", BAD, "--games", "1"], "--against: "),
        (["tables", "build", BAD], ""),
        (["tables", "clear", BAD], ""),
        (["serve", "--port", "0", "--profile", BAD], "--profile: "),
    ],
)
def test_an_unknown_profile_is_a_usage_error_named_by_its_argument(
    argv: list[str], named_by: str, capsys: CaptureFixture[str], monkeypatch: MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CRIBCORE_DATA_DIR", str(tmp_path))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    command = " ".join(argv[:2] if argv[0] == "tables" else argv[:1])
    assert err.startswith(f"cribbage {command}: error: {named_by}unknown profile '{BAD}'")
    assert list(tmp_path.iterdir()) == []
