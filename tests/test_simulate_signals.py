"""SIGTERM to a run with local worker processes (`cribbage simulate`, `cribbage lab`) stops it as
Ctrl-C does: the workers are gone, ``lab`` still prints the figures so far marked partial, and the exit
status is Ctrl-C's. The test waits for the workers to exist and to be gone (events), never for a time."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cribcore.cli.interrupts import INTERRUPTED

PROC = Path("/proc")
DEADLINE = 120.0
"""Seconds after which a wait that should have ended long before fails the test instead of hanging."""

pytestmark = pytest.mark.skipif(not (PROC / "self" / "stat").exists(), reason="reads processes from /proc")


def _stat(pid: int) -> list[str] | None:
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()  # after the command's name: state, ppid, ...


def children(pid: int) -> list[int]:
    found = []
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and fields[1] == str(pid) and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def running(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def wait_until(condition: object, what: str) -> None:
    assert callable(condition)
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.05)


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "100000", "--players", "hard,hard", "--seed", "1", "--jobs", "2"],
        ["lab", "standard", "--games", "100000", "--seed", "1", "--jobs", "2", "--json"],
    ],
    ids=["simulate", "lab"],
)
def test_sigterm_stops_the_workers_as_ctrl_c_does(argv: list[str]) -> None:
    code = "import sys; from cribcore.cli.entry import main; sys.exit(main(sys.argv[1:]))"
    environment = {**os.environ, "CRIBCORE_LANG": "en"}
    process = subprocess.Popen(
        [sys.executable, "-c", code, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    try:
        wait_until(lambda: len(children(process.pid)) == 2, "the two workers")
        workers = children(process.pid)
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=DEADLINE)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    wait_until(lambda: not any(running(pid) for pid in workers), "the workers to end")
    assert process.returncode == INTERRUPTED, err
    assert "Traceback" not in err
    if argv[0] == "lab":
        data = json.loads(out)
        assert data["partial"] is True and data["games"] < 100000
    else:
        assert len(err.strip().splitlines()) == 1 and err.strip().endswith("interrupted"), err
