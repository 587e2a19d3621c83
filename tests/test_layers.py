"""The import contracts of pyproject.toml ([tool.importlinter], docs/architecture.md) hold: no import
circle, no layer importing one above it, the built-in plugins and the engine free of what they must not
use. The same check as CI's ``lint-imports``, so that the default suite catches a regression."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from cribcore import datadir, proportions, saves, seeds, simulate

ROOT = Path(__file__).resolve().parents[1]

CHECK = (
    "import sys\n"
    "from importlinter.cli import lint_imports\n"
    "sys.exit(lint_imports(no_cache=True, no_logo=True))\n"
)


def test_every_import_contract_is_kept() -> None:
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "BROKEN" not in done.stdout


def test_the_contracts_name_the_layers_of_the_architecture_page() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = {c["id"]: c for c in config["tool"]["importlinter"]["contracts"]}
    assert {"no-circles", "layers", "players", "plugins", "pure-core"} <= set(contracts)
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for ident in contracts:
        assert f"`{ident}`" in page, ident
    assert contracts["layers"]["exhaustive"] and contracts["players"]["exhaustive"]


def test_what_moved_down_stays_importable_where_it_was() -> None:
    # The low modules that untangled the circles; their old homes re-export them.
    assert saves.data_dir is datadir.data_dir and saves.DATA_DIR_ENV == datadir.DATA_DIR_ENV
    assert simulate.game_seed is seeds.game_seed and simulate.player_seed is seeds.player_seed
    assert simulate.wilson_interval is proportions.wilson_interval


def test_the_table_caches_are_folders_of_the_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(datadir.DATA_DIR_ENV, str(tmp_path))
    assert datadir.table_dir("win") == tmp_path / "win-tables"
    from cribcore.players.tablefiles import table_path

    assert table_path("peg", "abc") == tmp_path / "peg-tables" / "abc.json"


def test_no_benchmark_puts_its_checkout_before_the_installed_package() -> None:
    for script in sorted((ROOT / "benchmarks").glob("*.py")):
        text = script.read_text(encoding="utf-8")
        assert "sys.path.insert(0" not in text, script.name
        assert "sys.path[:0]" not in text, script.name
