"""The plugin guide documents every hook with its exact argument list."""

from __future__ import annotations

import inspect
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
