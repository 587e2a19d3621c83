"""The ``serve`` command: run the game server (browser board, API and WebSockets) with uvicorn.

The listening socket is opened before uvicorn starts, so a port in use or a bad address is one line on
standard error (exit status 1) rather than a server log.
"""

from __future__ import annotations

import argparse
import socket
from pathlib import Path
from typing import Any

from rich.console import Console

from ..saves import data_dir

__all__ = ["add_serve_parser", "serve_command"]

DB_NAME = "server.sqlite3"


def add_serve_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``serve`` to the ``cribbage`` parser."""
    parser = commands.add_parser(
        "serve",
        help="run the game server: a browser board and play with friends online",
        description="Serve the browser board at http://HOST:PORT/ and the API its games use. Rooms are "
        "kept in a SQLite database, so a restarted server continues every game; rooms unused for seven "
        "days are removed. Share a room's invitation link to play a friend (in a browser, or with "
        "'cribbage join LINK').",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument(
        "--db", type=Path, default=None, help=f"the room database (default {DB_NAME} in the data directory)"
    )
    parser.add_argument(
        "--profile",
        dest="profiles",
        action="append",
        default=[],
        metavar="FILE",
        help="offer a house-rule profile file besides the built-in ones (repeatable)",
    )
    parser.add_argument(
        "--rooms-per-minute",
        type=int,
        default=30,
        metavar="N",
        help="rooms one address may create in a minute (default 30)",
    )
    # For tests and load runs only: with a chosen seed a friend room's creator knows every hand.
    parser.add_argument("--allow-seeds", action="store_true", help=argparse.SUPPRESS)
    parser.set_defaults(handler=lambda args, console: serve_command(args, console))


def serve_command(args: argparse.Namespace, console: Console) -> int:
    # Imported here so that the other commands start without the web stack.
    import uvicorn

    from ..server.app import Limits, create_app, default_profiles
    from ..server.store import lock_database

    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port: {args.port} is not a port number (0 to 65535)")
    if args.rooms_per_minute < 1:
        raise ValueError("--rooms-per-minute: must be at least 1")
    profiles = default_profiles(tuple(args.profiles))
    db = args.db if args.db is not None else data_dir() / DB_NAME
    # A second server on the same database would accept moves the first never sees.
    lock = lock_database(db)
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    # With the protocol named, asyncio turns Nagle's algorithm off on every accepted connection;
    # otherwise a second message in quick succession waits for the client's delayed ACK (~40 ms).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    sock.listen(512)
    port = sock.getsockname()[1]
    limits = Limits(rooms_per_minute=args.rooms_per_minute, friend_seeds=args.allow_seeds)
    app = create_app(db, limits=limits, profiles=profiles)
    shown = f"[{args.host}]" if family == socket.AF_INET6 else args.host
    console.print(
        f"Serving cribbage on http://{shown}:{port}/ (rooms in {db}); Ctrl-C stops.", highlight=False
    )
    config = uvicorn.Config(app, log_level="warning", access_log=False, ws_max_size=65536, lifespan="on")
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        if lock is not None:
            lock.release()
    return 0
