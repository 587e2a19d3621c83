"""Compact JSON text for what the server sends and stores, written by orjson when it is installed.

`compact` is ``json.dumps(data, separators=(",", ":"))`` in meaning: the same data read back. orjson
is one of cribcore's dependencies (a platform without its wheels runs without it); it writes the same
JSON several times faster, which counts because the server writes a state to every seat after every move.
Its text may differ in spelling only: it writes non-ASCII characters as they are where `json` writes
``\\u`` escapes. Whatever orjson refuses (an integer beyond 64 bits, such as a room's 256-bit seed, or
a key that is not a string) is written by `json`, so the result never depends on which is installed.
Our data never holds NaN or infinities (orjson would write ``null``): stored floats are checked finite.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

__all__ = ["FAST", "compact", "compact_json"]

_encoder = json.JSONEncoder(separators=(",", ":"), check_circular=False)


def _with_c_encoder() -> Callable[[Any], str] | None:
    # `JSONEncoder.encode` makes a new C encoder for every call, which costs about as much as writing
    # a small message: one is made here, with `json.dumps`'s settings, and called directly.
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # a Python without json's C speedups
        return None
    encoder = _encoder
    chunks = make(
        None,  # no cycles to look for: our data has none
        encoder.default,
        json.encoder.encode_basestring_ascii,
        None,
        encoder.key_separator,
        encoder.item_separator,
        encoder.sort_keys,
        encoder.skipkeys,
        encoder.allow_nan,
    )
    join = "".join

    def compact_json(data: Any) -> str:
        return join(chunks(data, 0))

    return compact_json


compact_json: Callable[[Any], str] = _with_c_encoder() or _encoder.encode
"""``json.dumps(data, separators=(",", ":"))``: the writer without orjson."""


def _with_orjson() -> Callable[[Any], str] | None:
    try:
        import orjson
    except ImportError:  # the plain install
        return None
    dumps, refused = orjson.dumps, orjson.JSONEncodeError

    def compact(data: Any) -> str:
        try:
            text: str = dumps(data).decode()  # typed here: without orjson installed mypy sees Any
        except refused:
            return compact_json(data)
        return text

    return compact


_fast = _with_orjson()
FAST = _fast is not None
"""Whether orjson writes the text."""
compact: Callable[[Any], str] = _fast if _fast is not None else compact_json
"""``data`` as compact JSON text (see the module's docstring)."""
