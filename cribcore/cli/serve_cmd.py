"""The ``serve`` command: run the game server (browser board, API and WebSockets) with uvicorn.

The listening socket is opened before uvicorn starts, so a port in use or a bad address is one line on
standard error (exit status 1) rather than a server log. With ``--workers N`` (PostgreSQL only) the
socket is opened once and N forked processes accept connections on it, each a whole server over the
same database; a worker that dies is started again. ``--migrate-from FILE`` copies the rooms of a
SQLite file into ``--db`` and exits.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import signal
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from rich.console import Console

from ..i18n import _
from ..saves import data_dir
from .commands import UsageError

if TYPE_CHECKING:
    from ..profiles import Profile

__all__ = ["add_serve_parser", "offered_profiles", "serve_command"]

DB_NAME = "server.sqlite3"


def add_serve_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``serve`` to the ``cribbage`` parser."""
    parser = commands.add_parser(
        "serve",
        help=_("run the game server: a browser board and play with friends online"),
        description=_(
            "Serve the browser board at http://HOST:PORT/ and the API its games use. Rooms are "
            "kept in a SQLite database, so a restarted server continues every game; rooms unused for seven "
            "days are removed. Share a room's invitation link to play a friend (in a browser, or with "
            "'cribbage join LINK')."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help=_("address to listen on (default 127.0.0.1)"))
    parser.add_argument("--port", type=int, default=8000, help=_("port to listen on (default 8000)"))
    parser.add_argument(
        "--db",
        default=None,
        help=_(
            "the room database: a SQLite file (default {name} in the data directory) or a "
            "PostgreSQL URL, postgresql://USER@HOST/DB (needs pip install 'cribcore[postgres]')"
        ).format(name=DB_NAME),
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help=_("serve from N processes on one port (default 1; more than 1 needs a PostgreSQL --db)"),
    )
    parser.add_argument(
        "--migrate-from",
        type=Path,
        default=None,
        metavar="FILE",
        help=_(
            "copy the rooms of the SQLite database FILE into --db (rooms already there are kept), then exit"
        ),
    )
    parser.add_argument(
        "--profile",
        dest="profiles",
        action="append",
        default=[],
        metavar="NAME|FILE",
        help=_(
            "offer this profile too: one an installed package ships (see 'cribbage profiles list') or "
            "a profile file (repeatable)"
        ),
    )
    parser.add_argument(
        "--no-packaged-profiles",
        dest="packaged_profiles",
        action="store_false",
        help=_(
            "offer only the built-in profiles and the --profile ones, not every profile installed "
            "packages ship"
        ),
    )
    parser.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help=_(
            "the address players reach the server at (https://cribbage.example.org), for invitation "
            "links (default: the Host a trusted proxy passes on, else the address connected to)"
        ),
    )
    parser.add_argument(
        "--rooms-per-minute",
        type=int,
        default=30,
        metavar="N",
        help=_("rooms one address may create in a minute (default 30)"),
    )
    # For tests and load runs only: with a chosen seed a friend room's creator knows every hand.
    parser.add_argument("--allow-seeds", action="store_true", help=argparse.SUPPRESS)
    # For tests and load runs only: no rate limits.
    parser.add_argument("--unlimited", action="store_true", help=argparse.SUPPRESS)
    parser.set_defaults(handler=lambda args, console: serve_command(args, console))


def serve_command(args: argparse.Namespace, console: Console) -> int:
    # Imported here so that the other commands start without the web stack.
    import uvicorn

    from ..server.app import Limits, create_app
    from ..server.store import lock_database

    if not 0 <= args.port <= 65535:
        raise ValueError(_("--port: {port} is not a port number (0 to 65535)").format(port=args.port))
    if args.rooms_per_minute < 1:
        raise ValueError(_("--rooms-per-minute: must be at least 1"))
    public_url = _public_url(args.public_url)
    from ..server.store import is_postgres

    if args.workers < 1:
        raise UsageError(_("--workers: must be at least 1"), "serve")
    db: str | Path = args.db if args.db is not None else data_dir() / DB_NAME
    if args.workers > 1 and not is_postgres(db):
        raise UsageError(_("--workers: several processes need a PostgreSQL --db (postgresql://…)"), "serve")
    if args.migrate_from is not None:
        return migrate(args.migrate_from, db, console)
    profiles = offered_profiles(args.profiles, packaged=args.packaged_profiles)
    if not is_postgres(db):
        db = Path(db)
    # A second server on the same SQLite file would accept moves the first never sees (PostgreSQL
    # servers share their database safely).
    lock = None if is_postgres(db) else lock_database(db)
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    # With the protocol named, asyncio turns Nagle's algorithm off on every accepted connection;
    # otherwise a second message in quick succession waits for the client's delayed ACK (~40 ms).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        sock.close()
        raise OSError(
            _("cannot listen on {host}:{port}: {why}").format(
                host=args.host, port=args.port, why=exc.strerror or exc
            )
        ) from None
    sock.listen(512)
    port = sock.getsockname()[1]
    limits = Limits(rooms_per_minute=args.rooms_per_minute, friend_seeds=args.allow_seeds)
    if args.unlimited:
        limits = Limits(
            rooms_per_minute=10**6,
            state_reads_per_minute=10**6,
            reviews_per_minute=10**6,
            friend_seeds=args.allow_seeds,
            messages_per_second=1e6,
            burst=10**6,
        )
    shown = f"[{args.host}]" if family == socket.AF_INET6 else args.host
    where = _without_password(str(db))
    if args.workers == 1:
        app = create_app(db, limits=limits, profiles=profiles, public_url=public_url)
        serving = _("Serving cribbage on {url} (rooms in {where}); Ctrl-C stops.")
    else:
        serving = _("Serving cribbage on {url} (rooms in {where}, {workers} processes); Ctrl-C stops.")
    console.print(
        serving.format(url=f"http://{shown}:{port}/", where=where, workers=args.workers), highlight=False
    )
    try:
        if args.workers == 1:
            _run(uvicorn, app, sock)
        else:
            _supervise(
                args.workers,
                lambda: _run(
                    uvicorn, create_app(db, limits=limits, profiles=profiles, public_url=public_url), sock
                ),
            )
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        if lock is not None:
            lock.release()
    return 0


def offered_profiles(named: Sequence[str], *, packaged: bool = True) -> dict[str, Profile]:
    """The profiles ``serve`` offers, by name: every built-in one, then (when ``packaged``) every one
    an installed package ships, then the ones ``--profile`` names (a profile's name or a file; a later
    profile of a name replaces the earlier). A packaged profile that cannot be used is left out with
    one `PackagedProfileWarning` saying why, as ``profiles list`` leaves it out (`packaged_rows`).
    Raises `UsageError` (as every command's ``--profile`` does) when one of ``named`` does not load,
    before any package's profile is loaded."""
    from ..profiles import builtin_names
    from ..server.app import default_profiles
    from .packaged_rows import packaged_rows
    from .profile_arg import load_profile_option

    chosen = [load_profile_option(text, "serve") for text in named]
    offered = default_profiles()
    if packaged:
        offered.update(
            (profile.name, profile) for profile, _package in packaged_rows(frozenset(builtin_names()))
        )
    offered.update((profile.name, profile) for profile in chosen)
    return offered


def _public_url(text: str | None) -> str | None:
    """``--public-url`` checked: an http or https address with a host, no query or fragment."""
    if text is None:
        return None
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(
            _("--public-url: {url} is not an address such as https://cribbage.example.org").format(
                url=repr(text)
            )
        )
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


GC_THRESHOLDS = (10_000, 20, 20)
"""The collector's thresholds while serving (Python's default is 700, 10, 10); see `_run`."""


def _run(uvicorn: Any, app: Any, sock: socket.socket) -> None:
    # Every move allocates thousands of short-lived containers (views, events, JSON data): with the
    # default thresholds the cyclic collector ran about fifty times a second under load, each time
    # scanning the modules, schemas and profiles loaded at start as well, about a tenth of the CPU.
    # Those are frozen out of its sight, and it runs less often (what it collects is the same).
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    # No per-message compression: states carry only what changed (a few hundred bytes), and deflating
    # every frame costs more CPU than it saves bytes (and a compressor's memory per connection).
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        ws_max_size=65536,
        ws_per_message_deflate=False,
        lifespan="on",
        proxy_headers=False,  # the application reads them itself, from trusted proxies only
    )
    uvicorn.Server(config).run(sockets=[sock])


def _supervise(count: int, serve: Any) -> None:
    """Fork ``count`` workers that each run ``serve`` (the listening socket is inherited: the kernel
    hands each new connection to one of them); start a worker again when one dies, until stopped."""
    children: set[int] = set()
    stopping = False

    def spawn() -> None:
        pid = os.fork()
        if pid == 0:  # the worker: its own database connections, made after the fork
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            try:
                serve()
            except KeyboardInterrupt:
                pass
            finally:
                sys.stdout.flush()
                os._exit(0)
        children.add(pid)

    def stop(signum: int, frame: object) -> None:
        del frame
        nonlocal stopping
        stopping = True
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for _worker in range(count):
        spawn()
    while children:
        try:
            pid, _status = os.wait()
        except ChildProcessError:
            break
        children.discard(pid)
        if not stopping:
            spawn()


def _without_password(db: str) -> str:
    head, at, tail = db.rpartition("@")
    if not at or "://" not in head:
        return db
    scheme, _sep, credentials = head.partition("://")
    return f"{scheme}://{credentials.partition(':')[0]}@{tail}"


def migrate(source: Path, db: str | Path, console: Console) -> int:
    """Copy every room and tombstone of the SQLite file ``source`` into ``db``; rooms whose stored game
    cannot be read back are left behind (and counted)."""
    from ..server.rooms import Room, RoomError
    from ..server.store import RoomStore
    from ..server.stores import open_store

    if not source.is_file():
        raise OSError(_("{source}: no such room database").format(source=source))
    if Path(str(db)) == source:
        raise UsageError(_("--migrate-from: the file is already --db"), "serve")
    old = RoomStore(source)
    new = open_store(db)
    try:
        rows, damaged = [], 0
        for row in old.rows():
            try:
                Room.from_json(row[2])
            except RoomError:
                damaged += 1
                continue
            rows.append(row)
        added = new.put_rows(rows, list(old.tombstones()))
    finally:
        old.close()
        new.close()
    kept = len(rows) - added
    moved = _("Moved {added} rooms from {source} into {db}").format(
        added=added, source=source, db=_without_password(str(db))
    )
    if kept:
        moved += _("; {kept} were there already").format(kept=kept)
    if damaged:
        moved += _("; {damaged} could not be read back and were left behind").format(damaged=damaged)
    console.print(moved + ".", highlight=False)
    return 0
