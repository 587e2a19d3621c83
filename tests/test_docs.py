"""The plugin guide documents every hook with its exact argument list."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from cribcore import hookspecs

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "plugins.md"
HOOKS = [
    (name, fn)
    for name, fn in inspect.getmembers(hookspecs, inspect.isfunction)
    if name.startswith("cribcore_")
]


def test_there_are_hooks() -> None:
    assert len(HOOKS) >= 5


@pytest.mark.parametrize(("name", "spec"), HOOKS, ids=[name for name, _ in HOOKS])
def test_guide_documents_hook(name: str, spec: object) -> None:
    arguments = ", ".join(inspect.signature(spec).parameters)  # type: ignore[arg-type]
    heading = f"### `{name}({arguments})`"
    assert heading in GUIDE.read_text(encoding="utf-8"), f"docs/plugins.md lacks {heading}"


@pytest.mark.parametrize(("name", "spec"), HOOKS, ids=[name for name, _ in HOOKS])
def test_hookspec_states_its_contract(name: str, spec: object) -> None:
    doc = inspect.getdoc(spec) or ""
    assert "Called" in doc, f"{name}'s docstring must say when it is called"


def _guide_entry(name: str) -> str:
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(f"### `{name}(")
    end = text.find("\n### ", start + 1)
    return text[start : end if end != -1 else len(text)]


@pytest.mark.parametrize(("name", "spec"), HOOKS, ids=[name for name, _ in HOOKS])
def test_hook_history_agrees_with_the_guide(name: str, spec: object) -> None:
    """A hook's *New in* / *Changed in* note names the same version in its spec and in the guide."""
    doc = " ".join((inspect.getdoc(spec) or "").split())
    entry = " ".join(_guide_entry(name).split())
    for note in ("New in", "Changed in"):
        in_spec = re.findall(rf"\*{note} cribcore ([0-9.]+?)\.?[:*]", doc)
        in_guide = re.findall(rf"\*{note} ([0-9.]+?)\.?[:*]", entry)
        assert in_spec == in_guide, f"{name}: {note} {in_spec} in hookspecs.py, {in_guide} in docs/plugins.md"
