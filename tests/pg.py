"""A real PostgreSQL for the tests, started from the machine's own server binaries.

`PostgresServer` runs ``initdb`` and ``postgres`` in a temporary directory on a free loopback port.
PostgreSQL refuses to run as root, so under root it runs as the unprivileged ``postgres`` user (the
directory is handed to that user). Where no binaries are found the tests that need one are skipped with
one line, unless ``CRIBCORE_REQUIRE_POSTGRES=1`` (as in CI), when they fail.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from cribcore.server.rooms import Room

__all__ = ["PostgresServer", "pg_binaries", "postgres_server", "postgres_url"]

_SEARCHED = ("/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin")


def pg_binaries() -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl`` (``CRIBCORE_PG_BIN`` first), or ``None``."""
    for place in (os.environ.get("CRIBCORE_PG_BIN", ""), *_SEARCHED):
        if place and (Path(place) / "initdb").exists() and (Path(place) / "pg_ctl").exists():
            return Path(place)
    found = shutil.which("pg_ctl")
    return Path(found).parent if found and (Path(found).parent / "initdb").exists() else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """One PostgreSQL cluster in a temporary directory; `url` reaches its ``cribcore`` database."""

    def __init__(self, binaries: Path) -> None:
        self.bin = binaries
        self.dir = Path(tempfile.mkdtemp(prefix="cribcore-pg-"))
        self.data = self.dir / "data"
        self.port = _free_port()
        self.url = f"postgresql://cribcore@127.0.0.1:{self.port}/cribcore"
        self._as: Callable[[], None] | None = None
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.dir, user.pw_uid, user.pw_gid)

            def become() -> None:
                os.setgid(user.pw_gid)
                os.setuid(user.pw_uid)

            self._as = become

    def _run(self, *command: str) -> None:
        result = subprocess.run(
            [str(self.bin / command[0]), *command[1:]],
            capture_output=True,
            text=True,
            preexec_fn=self._as,
            cwd=self.dir,
            check=False,
        )
        if result.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {(result.stderr or result.stdout).strip()[-2000:]}")

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "cribcore", "--no-sync", "-E", "UTF8")
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "cribcore", "cribcore")

    def start(self) -> None:
        # Durability is not what these tests are about: no fsync keeps them fast.
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.dir} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-o", options, "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def destroy(self) -> None:
        try:
            self.stop("immediate")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The session's PostgreSQL (skipped in one line where the machine has none, failed in CI)."""
    binaries = pg_binaries()
    if binaries is None:
        reason = "no PostgreSQL server binaries (initdb, pg_ctl) on this machine"
        if os.environ.get("CRIBCORE_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"CRIBCORE_REQUIRE_POSTGRES=1 but {reason}")
        pytest.skip(reason)
    try:
        import psycopg  # noqa: F401
    except ImportError:
        reason = "psycopg is not installed (pip install 'cribcore[postgres]')"
        if os.environ.get("CRIBCORE_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"CRIBCORE_REQUIRE_POSTGRES=1 but {reason}")
        pytest.skip(reason)
    server = PostgresServer(binaries)
    try:
        server.init()
        yield server
    finally:
        server.destroy()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The session's database, emptied of rooms (and of the per-address counts) for this test."""
    import psycopg

    with psycopg.connect(postgres_server.url, autocommit=True) as conn:
        conn.execute(
            "DO $$ BEGIN IF to_regclass('rooms') IS NOT NULL THEN "
            "TRUNCATE rooms, expired, presence; END IF; "
            "IF to_regclass('uses') IS NOT NULL THEN TRUNCATE uses; END IF; END $$"
        )
    return postgres_server.url


def ann_and_bob(seed: int) -> Room:
    """A new same-device room of the standard game for Ann and Bob (easy computer level), seeded
    ``seed``: what the tests of two processes sharing a database store and move on."""
    from cribcore.profiles import load_profile
    from cribcore.server.rooms import Room

    return Room.create(
        mode="same-device", profile=load_profile(), names=["Ann", "Bob"], level="easy", seed=seed, now=1.0
    )[0]
