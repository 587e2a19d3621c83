"""The real ``cribbage serve`` in a child process on loopback, for tests that need a live server
(the browser, ``cribbage join``, the load run)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

_SERVING = re.compile(r"Serving cribbage on (http://\S+?):(\d+)/? ")


class ServerProcess:
    """``cribbage serve --db DB ARGS`` on loopback, which a test may stop (or kill) and start again
    on the same port: the rooms stay in the database. The first start takes a free port."""

    def __init__(self, db: Path | str, *args: str, env: Mapping[str, str] | None = None) -> None:
        self.db = db
        self.args = args
        self.env = env
        """The server's environment (default: this process's), e.g. one that sees plugin packages."""
        self.port = 0
        self.url = ""
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        env = dict(self.env if self.env is not None else os.environ, NO_COLOR="1", PYTHONUNBUFFERED="1")
        # Tests play known deals: friend rooms may be created with a seed.
        command = [sys.executable, "-m", "cribcore.cli", "serve", "--host", "127.0.0.1", "--allow-seeds"]
        process = subprocess.Popen(
            [*command, "--port", str(self.port), "--db", str(self.db), *self.args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert process.stdout is not None
        line = process.stdout.readline()
        found = _SERVING.search(line)
        if found is None:
            process.kill()
            _, err = process.communicate(timeout=30)
            raise AssertionError(f"the server did not start: {line!r} {err[-2000:]!r}")
        self.process = process
        self.port = int(found.group(2))
        self.url = f"{found.group(1)}:{self.port}"

    def stop(self, *, kill: bool = False) -> None:
        """Stop the server (``kill``: at once, as a crash would); fails the test if it printed a
        traceback."""
        process, self.process = self.process, None
        if process is None:
            return
        if kill:
            process.kill()
        else:
            process.terminate()
        try:
            _, err = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            _, err = process.communicate()
        assert "Traceback" not in err, err[-3000:]


@contextmanager
def live_server(db: Path | str, *args: str) -> Iterator[str]:
    """A `ServerProcess` running for the ``with`` block; yields its base URL (no trailing slash)."""
    server = ServerProcess(db, *args)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()
