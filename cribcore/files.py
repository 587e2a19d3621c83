"""Writing files atomically: a reader (or a crash) sees the old file or the whole new one, never half;
and removing the temporary files that a writer killed mid-write (``kill -9``) leaves behind.

Only ordinary files are replaced: a device, a FIFO or a socket at the path is refused, never renamed
over (as root, replacing ``/dev/null`` would break the system). Errors name the caller's path, never
the temporary file.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
import time
from pathlib import Path

__all__ = [
    "STALE_AFTER",
    "FileTooLarge",
    "NotAFile",
    "atomic_write_text",
    "check_writable",
    "read_bounded",
    "remove_stale_temps",
]


def _refusal(target: Path) -> OSError | None:
    """Why ``target`` may not be replaced by an ordinary file, or ``None`` when it may."""
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return OSError(exc.errno, exc.strerror, str(target))
    if stat.S_ISDIR(mode):
        return IsADirectoryError(f"{target}: is a folder; name a file")
    if not stat.S_ISREG(mode):
        return OSError(f"{target}: not an ordinary file (a device, pipe or socket); name a file")
    return None


def _in_terms_of(target: Path, exc: OSError) -> OSError:
    """``exc`` (raised for a temporary file beside ``target``) restated for ``target`` itself."""
    return type(exc)(exc.errno, exc.strerror or str(exc), str(target))


def check_writable(path: str | Path) -> None:
    """Raise `OSError` naming ``path`` unless `atomic_write_text` could write it now: ``path`` is absent
    or an ordinary file, and its folder exists and takes a new file (tried with an empty temporary
    file, removed at once). For checking an output path before any work is done."""
    target = Path(path)
    refusal = _refusal(target)
    if refusal is not None:
        raise refusal
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        folder = target.parent
        raise type(exc)(
            exc.errno, f"cannot create a file in the folder {str(folder)!r} ({exc.strerror})", str(target)
        ) from None
    os.close(fd)
    os.unlink(tmp)


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file in the same folder, flushed to disk
    and renamed over ``path``. The file keeps the mode it had, or gets an ordinary new file's mode.
    Raises `OSError` naming ``path`` when it is not an ordinary file or cannot be written; ``path`` is
    then as it was."""
    target = Path(path)
    refusal = _refusal(target)
    if refusal is not None:
        raise refusal
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise _in_terms_of(target, exc) from None
    try:
        # mkstemp makes the file private; the result gets the mode an ordinary new file would.
        os.chmod(tmp, target.stat().st_mode & 0o777 if target.exists() else _new_file_mode())
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise _in_terms_of(target, exc) from None
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


class NotAFile(OSError):
    """The path names a device, a pipe or a socket, not an ordinary file."""


class FileTooLarge(OSError):
    """The file holds more bytes than the reader accepts."""


def read_bounded(path: str | Path, limit: int) -> bytes:
    """The bytes of the ordinary file ``path``, refused unread when it is something else or larger
    than ``limit`` bytes.

    The file is opened without blocking (a named pipe with no writer would otherwise wait forever)
    and checked through its open descriptor, so what is checked is what is read; no more than
    ``limit`` bytes are ever held (``/dev/zero`` is refused, never read). Raises `NotAFile`,
    `FileTooLarge`, or the `OSError` of opening (`FileNotFoundError`, `IsADirectoryError`, …).
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(f"{path}: is a folder; name a file")
        if not stat.S_ISREG(info.st_mode):
            raise NotAFile(f"{path}: not an ordinary file (a device, pipe or socket)")
        if info.st_size > limit:
            raise FileTooLarge(f"{path}: too large ({info.st_size} bytes; at most {limit})")
        # The file may grow while it is read: never take more than the limit and one byte.
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise FileTooLarge(f"{path}: too large (more than {limit} bytes)")
    return data
