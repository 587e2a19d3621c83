"""Muggins at the terminal, through a pseudo-terminal: the human declares counts, may call muggins on
the computer's, and bad answers re-prompt with one line."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pexpect

TIMEOUT = 30
DISCARD = r"Choose 2 cards for (your|Computer's) crib: "
PLAY = r"Play a card \(count \d+\): "
COUNT = r"Your count for (the \S+ you laid, with a go or last card|your hand|your crib) \(0 if nothing\): "
CALL = r"Computer counted \d+\. Muggins\? points missed, or Enter to let it stand: "


def spawn(tmp_path: Path) -> pexpect.spawn:
    env = {**os.environ, "CRIBCORE_DATA_DIR": str(tmp_path), "NO_COLOR": "1", "COLUMNS": "100"}
    child = pexpect.spawn(
        "cribbage",
        ["play", "--profile", "muggins", "--seed", "11", "--no-save"],
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 100),
    )
    child.delaybeforesend = None
    return child


def test_counts_and_calls_at_the_prompt(tmp_path: Path) -> None:
    child = spawn(tmp_path)
    seen_count = seen_call = bad_count = bad_call = False
    hand_counted = False
    while not hand_counted:
        which = child.expect([DISCARD, PLAY, COUNT, CALL])
        if which == 0:
            child.sendline("1 2")
        elif which == 1:
            child.sendline("1")
        elif which == 2:
            seen_count = True
            if not bad_count:
                bad_count = True
                child.sendline("lots")
                child.expect(r"Type a number of points, like 6 \(or 'count 6'\)")
                child.expect(COUNT)
            if "your hand" in child.after:
                child.sendline("count 0")
                child.expect(r"You count nothing\.|Muggins! Computer takes \d+ missed points?|Nobody called")
                hand_counted = True
            else:
                child.sendline("0")
        else:
            seen_call = True
            if not bad_call:
                bad_call = True
                child.sendline("maybe")
                child.expect(r"Type a number of points, like 6 \(or 'muggins 6'\)")
                child.expect(CALL)
            child.sendline("")
    assert seen_count and seen_call
    transcript = child.before or ""
    assert "Traceback" not in transcript
    child.expect([CALL, COUNT, r"Press Enter for the next deal"])
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert not re.search(r"Traceback", child.before or "")
