"""The computer's table files in the data directory: one header line, then the table; checked on read.

The crib table, the pegging table and the win table of a profile that is not the standard one are
computed once and kept in the data directory (``crib-tables/``, ``peg-tables/``, ``win-tables/``, one
file per profile fingerprint). Each file is a header line (JSON: the kind, the format version, the
profile's fingerprint and name, when it was built, and the SHA-256 of the table's text) followed by the
table's text. `read_table` gives the table's text back only when the header matches and the checksum
holds; a file that is damaged, or was made for another version or another profile, is reported in one
line on standard error and computed again by the caller (never silently).

`build_notice` and `build_progress` are what a game shows while a table it needs is computed: one
line saying so, then a progress bar with the time left (on a terminal).
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..datadir import table_dir
from ..files import atomic_write_text
from ..i18n import _

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "KINDS",
    "Progress",
    "TableFile",
    "build_notice",
    "build_progress",
    "kept_tables",
    "kind_name",
    "on_terminal",
    "read_table",
    "table_dir",
    "table_path",
    "write_table",
]

KINDS = ("crib", "peg", "win")
"""The kinds of table kept, each in its own folder of the data directory (``KIND-tables/``)."""

Progress = Callable[[int], None]
"""``progress(done)``: how much of a build is done so far (in the build's own units)."""


def kind_name(kind: str) -> str:
    """The kind of table in words, for messages."""
    return {"crib": _("crib table"), "peg": _("pegging table"), "win": _("win table")}[kind]


def table_path(kind: str, fingerprint: str) -> Path:
    """Where the table of this kind for the profile with this fingerprint is kept."""
    return table_dir(kind) / f"{fingerprint}.json"


def _checksum(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def write_table(
    path: Path, kind: str, version: int, fingerprint: str, profile: str, body: str, seconds: float = 0.0
) -> bool:
    """Keep ``body`` at ``path`` with its header; ``False`` (nothing written) when the data directory
    cannot be written (the table then lives in this process only)."""
    header = {
        "kind": kind,
        "version": version,
        "fingerprint": fingerprint,
        "profile": profile,
        "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "seconds": round(seconds, 1),
        "sha256": _checksum(body),
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(header, sort_keys=True) + "\n" + body)
    except OSError:
        return False
    return True


def _header(text: str) -> tuple[dict[str, object], str]:
    """The header and body of a table file's text; `ValueError` when it has no header line."""
    line, sep, body = text.partition("\n")
    header = json.loads(line) if sep else None
    if not isinstance(header, dict):
        raise ValueError("no header line")
    return header, body


def _whole_json(text: str) -> bool:
    """Whether ``text`` is one JSON object: a table file of the versions before the header line."""
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def read_table(path: Path, kind: str, version: int, fingerprint: str, profile: str) -> str | None:
    """The table's text kept at ``path`` for this kind, version and profile, or ``None`` when there is
    none to use: missing (silently), or damaged, stale or another profile's (after a one-line notice
    on standard error; the caller computes it again)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError):
        text = ""
    why = None
    try:
        header, body = _header(text)
        if header.get("kind") != kind or header.get("fingerprint") != fingerprint:
            why = _("it was made for another profile")
        elif header.get("version") != version:
            why = _("it was made by another version of cribcore")
        elif header.get("sha256") != _checksum(body):
            why = _("it is damaged")
    except ValueError:
        why = _("it was made by another version of cribcore") if _whole_json(text) else _("it is damaged")
    if why is not None:
        print(
            _(
                "cribcore: the {table} of {profile!r} at {path} cannot be used ({why}); building it again"
            ).format(table=kind_name(kind), profile=profile, path=str(path), why=why),
            file=sys.stderr,
        )
        return None
    return body


def on_terminal() -> bool:
    """Whether standard error is a terminal (a game's notice and progress bar show only there)."""
    return sys.stderr.isatty()


def build_notice(kind: str, profile: str) -> None:
    """The one line a game shows before it computes a table it needs (on a terminal)."""
    if on_terminal():
        text = _(
            "cribcore: building the {table} for {profile!r} (once; 'cribbage tables build' builds it ahead)"
        )
        print(text.format(table=kind_name(kind), profile=profile), file=sys.stderr)


@contextmanager
def build_progress(
    description: str, total: int, *, show: bool = True, console: Console | None = None
) -> Iterator[Progress]:
    """A progress bar with the time left on ``console`` (default standard error) while ``total`` units
    are done (nothing when ``show`` is false or that console is not a terminal); yields the `Progress`
    to call."""
    if not (show and (console.is_terminal if console is not None else on_terminal())):
        yield lambda done: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.progress import Progress as Bar

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn(_("left")),
        TimeRemainingColumn(),
    )
    with Bar(*columns, console=console or Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda done: bar.update(task, completed=done)


@dataclass(frozen=True, slots=True)
class TableFile:
    """A table kept in the data directory, as `kept_tables` lists it."""

    kind: str
    fingerprint: str
    profile: str
    built: str
    size: int
    path: Path
    state: str
    """``"ready"`` when its header reads (the checksum is checked when it is used), ``"old"`` for a file
    of a version before the header line, ``"damaged"`` otherwise."""


def kept_tables() -> list[TableFile]:
    """Every table file in the data directory, by kind then profile."""
    found = []
    for kind in KINDS:
        folder = table_dir(kind)
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.json")):
            try:
                with path.open(encoding="utf-8") as file:
                    header, _body = _header(file.readline() + "\n")
                size = path.stat().st_size
                found.append(
                    TableFile(
                        kind,
                        str(header.get("fingerprint", path.stem)),
                        str(header.get("profile", "?")),
                        str(header.get("built", "?")),
                        size,
                        path,
                        "ready" if header.get("kind") == kind else "damaged",
                    )
                )
            except (OSError, ValueError, UnicodeDecodeError):
                try:
                    size = path.stat().st_size
                    state = "old" if _whole_json(path.read_text(encoding="utf-8")) else "damaged"
                except (OSError, UnicodeDecodeError):
                    size, state = 0, "damaged"
                found.append(TableFile(kind, path.stem, "?", "?", size, path, state))
    return found
