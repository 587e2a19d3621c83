"""Running the real ``cribbage`` program in a pseudo-terminal, for the end-to-end tests."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pexpect

TIMEOUT = 30


@contextmanager
def cribbage_pty(
    data: Path, *argv: str, term: str = "dumb", columns: int = 120
) -> Iterator[tuple[pexpect.spawn, io.StringIO]]:
    """``cribbage ARGV`` in a pseudo-terminal 40 rows high, plain (``NO_COLOR``), saving under
    ``data``; yields the child and everything it printed. Fails the test if it printed a traceback."""
    env = dict(os.environ, NO_COLOR="1", TERM=term, CRIBCORE_DATA_DIR=str(data))
    env.pop("FORCE_COLOR", None)
    log = io.StringIO()
    child = pexpect.spawn(
        "cribbage", list(argv), encoding="utf-8", dimensions=(40, columns), env=env, timeout=TIMEOUT
    )
    child.logfile_read = log
    child.delaybeforesend = None  # the prompts are awaited before every answer
    try:
        yield child, log
    finally:
        if child.isalive():
            child.terminate(force=True)
        assert "Traceback" not in log.getvalue(), log.getvalue()[-3000:]
