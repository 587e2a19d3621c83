"""Writing files atomically: a reader (or a crash) sees the old file or the whole new one, never half;
and removing the temporary files that a writer killed mid-write (``kill -9``) leaves behind."""

from __future__ import annotations

import os
import re
import stat
import tempfile
import time
from pathlib import Path

__all__ = ["STALE_AFTER", "atomic_write_text", "remove_stale_temps"]


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file in the same folder, flushed to disk
    and renamed over ``path``. The file keeps the mode it had, or gets an ordinary new file's mode."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
    try:
        # mkstemp makes the file private; the result gets the mode an ordinary new file would.
        os.chmod(tmp, target.stat().st_mode & 0o777 if target.exists() else _new_file_mode())
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


STALE_AFTER = 60.0
"""Seconds after which a temporary file of `atomic_write_text` is taken to be left over from a writer
that was killed (a write takes milliseconds; a younger one may be another program's write under way)."""


def remove_stale_temps(path: str | Path, *, older_than: float = STALE_AFTER) -> None:
    """Remove the temporary files that `atomic_write_text` makes for ``path`` and that a killed writer
    left behind: only regular files named as it names them, last changed more than ``older_than``
    seconds ago. Anything that cannot be removed is left; nothing else in the folder is touched."""
    target = Path(path)
    pattern = re.compile(rf"\.{re.escape(target.name)}\.[a-z0-9_]{{8}}\.tmp")
    now = time.time()
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > older_than:
                os.unlink(entry.path)
        except OSError:
            continue
