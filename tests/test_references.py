"""Nothing in the repository points outside it for the rules: docs/rules.md states them."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Spelt in pieces so that this file does not match itself.
OUTSIDE = re.compile("|".join([re.escape("RULES" + ".md"), r"\bseed\s+0\d\d\b", "\u00a7", r"\bseeds/"]))


def _files() -> list[Path]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: every file but the tools'
        skip = {".git", ".venv", "__pycache__", "build", "node_modules"}
        return [p for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]
    return [ROOT / name for name in listed if name]


def test_no_file_points_to_the_outside_rules_or_seed_documents() -> None:
    found = []
    for path in _files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary, or removed since it was listed
        for number, line in enumerate(text.splitlines(), start=1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "point to docs/rules.md instead:\n" + "\n".join(found)


def test_the_rules_page_covers_the_game_and_every_shipped_variant() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for topic in ("his heels", "his nobs", "Fifteen", "Thirty-one", "go", "flush", "crib", "121"):
        assert topic in text, topic
    for profile in sorted((ROOT / "profiles").glob("*.toml")):
        if profile.stem != "standard":
            assert f"`{profile.stem}`" in text, f"docs/rules.md does not describe the {profile.stem} profile"
