"""The API reference (docs/, Sphinx with MyST and autodoc) builds with warnings as errors, and has an
entry, with its signature, for every public name: the names of `cribcore.__all__`, every name in the
``__all__`` of each module it documents, and every hook."""

from __future__ import annotations

import html
import importlib
import inspect
import posixpath
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sphinx", reason="the API reference needs the docs extra: pip install -e '.[docs]'")

from sphinx.util.inventory import InventoryFile

import cribcore
from cribcore.pluginmanager import HOOK_NAMES

ROOT = Path(__file__).resolve().parents[1]

DOCUMENTED = [
    "rulebook",
    "hookspecs",
    "cards",
    "actions",
    "engine",
    "events",
    "views",
    "rules",
    "scoring",
    "profiles",
    "packaged_profiles",
    "records",
    "players",
    "testing",
    "pluginmanager",
    "problems",
    "phases",
    "speech",
]
"""The modules with a page of the reference (docs/api/): their ``__all__`` is public and stable."""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("reference")
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(ROOT / "docs"), str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def entries(built: Path) -> dict[str, str]:
    """Every object of the reference by its full name, with its type (``py:function``…)."""
    with (built / "objects.inv").open("rb") as stream:
        inventory = InventoryFile.load(stream, "", posixpath.join)
    data = getattr(inventory, "data", inventory)
    return {name: kind for kind, objects in data.items() for name in objects}


def _signature_shown(built: Path, page: str, name: str) -> str:
    """The text of the signature the page shows for ``name`` (a full name), or ``""``."""
    text = (built / page).read_text(encoding="utf-8")
    found = re.search(rf'<dt class="sig sig-object py" id="{re.escape(name)}">(.*?)</dt>', text, re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip() if found else ""


@pytest.mark.parametrize(
    ("name", "page", "shown"),
    [
        ("cribcore.rulebook.rulebook_for", "api/rulebook.html", "rulebook_for(profile: Profile) → Rulebook"),
        (
            "cribcore.rulebook.Rulebook.show_items",
            "api/rulebook.html",
            "show_items(cards: Sequence[Card], starter: Card, *, crib: bool, seat: int | None = None, "
            "dealer: int | None = None) → tuple[ScoreItem, ...]",
        ),
        (
            "cribcore.engine.Game",
            "api/engine.html",
            "Game(profile: Profile | None = None, *, seed: int | None",
        ),
        (
            "cribcore.players.HardPlayer",
            "api/players.html",
            "HardPlayer(seed: int | None = None, *, rulebook",
        ),
        (
            "cribcore.players.ExpertPlayer",
            "api/players.html",
            "ExpertPlayer(seed: int | None = None, *, rulebook",
        ),
        ("cribcore.profiles.load_profile", "api/profiles.html", "load_profile(name_or_path: str | Path = "),
        ("cribcore.testing.record_hooks", "api/testing.html", "record_hooks(profile: Profile)"),
    ],
)
def test_the_reference_shows_the_names_plugin_authors_need(
    built: Path, entries: dict[str, str], name: str, page: str, shown: str
) -> None:
    assert name in entries
    assert shown in _signature_shown(built, page, name)


@pytest.mark.parametrize("hook", sorted(HOOK_NAMES))
def test_every_hook_has_an_entry_with_its_signature(built: Path, entries: dict[str, str], hook: str) -> None:
    name = f"cribcore.hookspecs.{hook}"
    assert entries.get(name) == "py:function"
    arguments = ", ".join(
        inspect.signature(getattr(importlib.import_module("cribcore.hookspecs"), hook)).parameters
    )
    signature = _signature_shown(built, "api/hookspecs.html", name)
    assert signature.startswith(f"{name}(") and all(arg in signature for arg in arguments.split(", ") if arg)


@pytest.mark.parametrize("module", DOCUMENTED)
def test_every_exported_name_of_a_documented_module_has_an_entry(
    entries: dict[str, str], module: str
) -> None:
    exported = importlib.import_module(f"cribcore.{module}").__all__
    missing = [name for name in exported if f"cribcore.{module}.{name}" not in entries]
    assert not missing, f"cribcore.{module}: no entry for {missing}"


def test_every_name_of_the_package_is_on_its_page_and_in_its_home_module(
    built: Path, entries: dict[str, str]
) -> None:
    page = (built / "api" / "cribcore.html").read_text(encoding="utf-8")
    for name in cribcore.__all__:
        if name == "__version__":
            assert "cribcore.__version__" in entries
            continue
        assert f'<span class="sig-name descname"><span class="pre">{name}</span>' in page, name
        homes = [entry for entry in entries if entry.startswith("cribcore.") and entry.endswith(f".{name}")]
        assert homes, f"cribcore.{name} has no entry in the module it comes from"


def test_the_reference_declares_what_is_public_and_stable(built: Path) -> None:
    text = (built / "api" / "stability.html").read_text(encoding="utf-8")
    assert "What is public and stable" in text
    for module in DOCUMENTED:
        assert f"cribcore.{module}" in text, module


def test_every_guide_is_a_page_and_the_play_search_keeps_its_own(built: Path) -> None:
    for guide in sorted((ROOT / "docs").glob("*.md")):
        page = "play-search" if guide.stem == "search" else guide.stem
        title = guide.read_text(encoding="utf-8").splitlines()[0].removeprefix("# ")
        if guide.stem == "play-search":
            continue
        text = html.unescape(re.sub(r"<[^>]+>", "", (built / f"{page}.html").read_text(encoding="utf-8")))
        assert title.replace("`", "") in text, guide.name


@pytest.mark.parametrize("module", DOCUMENTED)
def test_every_exported_class_and_function_has_a_docstring(module: str) -> None:
    home = importlib.import_module(f"cribcore.{module}")
    exported = [getattr(home, name) for name in home.__all__]
    undocumented = [
        getattr(obj, "__name__", "?")
        for obj in exported
        if (inspect.isclass(obj) or inspect.isroutine(obj)) and not inspect.getdoc(obj)
    ]
    assert not undocumented, f"cribcore.{module}: no docstring for {undocumented}"
