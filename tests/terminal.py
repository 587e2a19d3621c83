"""Running the real ``cribbage`` program, for the end-to-end tests: with its output piped (not a
terminal), or in a pseudo-terminal."""

from __future__ import annotations

import io
import os
import subprocess
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import pexpect

TIMEOUT = 30

END_QUESTION = r"\? \[[ys]/N\] "
"""A yes/no question asked at a terminal when a game is over ("Play again? [y/N] ", in Spanish
"[s/N]"); Enter answers no."""


def run_cribbage(
    *argv: str, stdin: str | None = None, data: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The installed console script as a user runs it from a script: output piped, so not a terminal
    (plain output), standard input ``stdin`` or nothing, saves under ``data`` when given."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE")}
    if data is not None:
        env["CRIBCORE_DATA_DIR"] = str(data)
    return subprocess.run(
        ["cribbage", *argv],
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=120,
        check=False,
    )


@contextmanager
def cribbage_pty(
    data: Path,
    *argv: str,
    term: str = "dumb",
    columns: int = 120,
    env_changes: Mapping[str, str | None] | None = None,
) -> Iterator[tuple[pexpect.spawn, io.StringIO]]:
    """``cribbage ARGV`` in a pseudo-terminal 40 rows high, plain (``NO_COLOR``), saving under
    ``data``; yields the child and everything it printed. Fails the test if it printed a traceback.
    ``env_changes`` sets variables (``None`` removes one), e.g. a locale."""
    env = dict(os.environ, NO_COLOR="1", TERM=term, CRIBCORE_DATA_DIR=str(data))
    # pytest-xdist's workers export COLUMNS and LINES (80 x 24), which would win over the pty's size.
    for name in ("FORCE_COLOR", "COLUMNS", "LINES"):
        env.pop(name, None)
    for name, value in (env_changes or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
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


def leave_table(child: pexpect.spawn) -> None:
    """After a game at a terminal: answer no (Enter) to every end-of-game question and wait until the
    program has ended (its output is read to the end)."""
    while child.expect([END_QUESTION, pexpect.EOF]) == 0:
        child.sendline("")


def run_in_process(*argv: str, stdin: str = "", data: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`cribcore.cli.main.main` in this process (much cheaper than `run_cribbage`), with standard
    input ``stdin``, output captured and saves under ``data`` when given; the same result shape. An
    exception that escaped ``main`` (what would be a traceback) fails the calling test."""
    import contextlib
    import sys

    from cribcore.cli.main import main
    from cribcore.i18n import current_language, set_language

    out, err = io.StringIO(), io.StringIO()
    lang = current_language()  # `--lang es` must not leave the next test speaking Spanish
    old_env, old_stdin = os.environ.get("CRIBCORE_DATA_DIR"), sys.stdin
    if data is not None:
        os.environ["CRIBCORE_DATA_DIR"] = str(data)
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(list(argv))
    finally:
        set_language(lang)
        sys.stdin = old_stdin
        if old_env is None:
            os.environ.pop("CRIBCORE_DATA_DIR", None)
        else:
            os.environ["CRIBCORE_DATA_DIR"] = old_env
    return subprocess.CompletedProcess(["cribbage", *argv], status, out.getvalue(), err.getvalue())
