"""Bounds on data read from files (records, saves, profiles): how deeply it may nest, and JSON parsing
that reports a too-deep or too-long input as one clear `DataTooLarge` instead of Python's own errors.

Every cribcore file nests only a few levels (a save holds a record, which holds a profile, which holds
each plugin's options); anything much deeper is not one of ours, and refusing it early keeps every later
step (validation, checksums, replay) far from Python's recursion limit.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["MAX_DEPTH", "DataTooLarge", "check_depth", "parse_json"]

MAX_DEPTH = 32
"""The deepest nesting of lists and objects (tables) accepted in a file."""


class DataTooLarge(ValueError):
    """The data nests too deeply, or holds a number too long to read; the message says which."""


def check_depth(data: Any, limit: int = MAX_DEPTH) -> None:
    """Raise `DataTooLarge` when ``data`` (JSON or TOML values) nests lists and dicts more than
    ``limit`` deep. Walks without recursion, so any depth is measured safely."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list | tuple):
            children = value
        else:
            continue
        if depth > limit:
            raise DataTooLarge(f"nested more than {limit} levels deep")
        stack.extend((child, depth + 1) for child in children)


def parse_json(text: str | bytes) -> Any:
    """``json.loads(text)``, checked with `check_depth`. Raises `json.JSONDecodeError` for text that is
    not JSON, and `DataTooLarge` for JSON nested too deeply or with a number of thousands of digits."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise DataTooLarge(f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError:
        # The one other ValueError json raises: an integer past Python's limit on digits.
        raise DataTooLarge("a number has too many digits") from None
    check_depth(data)
    return data
