"""The server's JSON writer: the same data with orjson (a dependency) as without it."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from cribcore.server import jsontext

SAMPLES: list[Any] = [
    {"type": "state", "room": {"name": "Zoë «ami»", "seed": 2**255 + 7}, "events": [1, 2.5, None, True]},
    {"seed": 2**64, "nested": [{"a": '\\"quoted\\"'}]},
    {1: "a key that is not a string", "x": [1, 2]},
    [],
    "",
]


@pytest.mark.parametrize("data", SAMPLES)
def test_compact_reads_back_as_json_dumps_would(data: Any) -> None:
    text = jsontext.compact(data)
    assert json.loads(text) == json.loads(json.dumps(data, separators=(",", ":")))
    assert jsontext.compact_json(data) == json.dumps(data, separators=(",", ":"))


def test_without_orjson_the_plain_writer_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "orjson", None)  # an import of it now fails, as when not installed
    assert jsontext._with_orjson() is None
