"""The real ``cribbage serve`` in a child process on loopback, for tests that need a live server
(the browser, ``cribbage join``, the load run)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_SERVING = re.compile(r"Serving cribbage on (http://\S+?)/? ")


@contextmanager
def live_server(db: Path, *args: str) -> Iterator[str]:
    """``cribbage serve --port 0 --db DB ARGS`` running; yields its base URL (no trailing slash).
    The server is stopped on exit, and a test fails if it printed a traceback."""
    env = dict(os.environ, NO_COLOR="1", PYTHONUNBUFFERED="1")
    child = subprocess.Popen(
        [sys.executable, "-m", "cribcore.cli", "serve", "--port", "0", "--db", str(db), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        found = _SERVING.search(line)
        if found is None:
            child.kill()
            _, err = child.communicate(timeout=30)
            raise AssertionError(f"the server did not start: {line!r} {err[-2000:]!r}")
        yield found.group(1)
    finally:
        child.terminate()
        try:
            _, err = child.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            child.kill()
            _, err = child.communicate()
        assert "Traceback" not in err, err[-3000:]
