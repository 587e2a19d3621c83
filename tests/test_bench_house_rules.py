"""benchmarks/bench_house_rules.py measures a house rule given as a profile file, loaded by its path as a
user's would be, even one naming a test plugin registered in the script's own process."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from .house_rules import FIFTEENS_FOUR_PROFILE

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_house_rules.py"


def bench(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CRIBCORE_DATA_DIR": str(tmp_path / "data")}
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=600
    )


def test_a_profile_file_naming_a_test_rule_is_played_in_duplicate(tmp_path: Path) -> None:
    done = bench(
        tmp_path,
        *("--profile", str(FIFTEENS_FOUR_PROFILE), "--level", "hard", "--games", "2"),
        *("--standard-games", "0", "--workers", "1"),
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "fifteens-four's crib count" in out
    assert re.search(
        r"fifteens-four\.toml: the hard level that knows the rule, against itself told the standard "
        r"rules: wins [0-2] of 2 games",
        out,
    )
    assert re.search(r"hard discard: median [\d.]+ ms, .* 99th percentile [\d.]+ ms", out)


def test_a_bad_profile_file_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "missing.toml"
    done = bench(tmp_path, "--profile", str(missing), "--games", "2")
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.splitlines() == [f"bench_house_rules: {missing}: no such profile file"]
