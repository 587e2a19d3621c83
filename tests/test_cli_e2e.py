"""`cribbage play` driven through a pseudo-terminal, as a person plays it: a whole game against the
computer, every kind of bad input at a prompt, and quitting mid-game.

The test keeps a mirror game with the same seed, making the human's choices and the computer's
(`SimplePlayer` is deterministic), so it knows the human's hand, the count and the scores without
reading cards off the screen, and can check the program against them.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pexpect
import pytest

from cribcore import FULL_DECK, Discard, Game, Play, SeatView
from cribcore.players import SimplePlayer
from cribcore.records import read_record, replay

HUMAN = 0
TIMEOUT = 20

DISCARD = r"Choose 2 cards for (your|Computer's) crib: "
PLAY = r"Play a card \(count (\d+)\): "
PAUSE = r"Press Enter for the next deal"
OVER = r"Game over: "
CONFIRM = r"Quit this game\? \[y/N\] "


class Mirror:
    """The same game as the program's, advanced by the same choices."""

    def __init__(self, seed: int) -> None:
        self.game = Game(seed=seed, players=("You", "Computer"))
        self._computer = SimplePlayer()
        self._advance()

    def _advance(self) -> None:
        game = self.game
        while game.to_act and game.to_act[0] != HUMAN:
            seat = game.to_act[0]
            game.apply(seat, self._computer.choose(game.view(seat)))

    @property
    def view(self) -> SeatView:
        return self.game.view(HUMAN)

    def answer(self) -> str:
        """The human's usual choice as typed, positions only: the two first cards to discard, the
        first card to play (cards are sorted by rank, so the first is playable when any is)."""
        view = self.view
        if isinstance(view.legal_actions[0], Discard):
            self.game.apply(HUMAN, Discard(view.hand[:2]))
            self._advance()
            return "1 2"
        self.game.apply(HUMAN, Play(view.hand[0]))
        self._advance()
        return "1"

    def too_big(self) -> str | None:
        """A held card that would pass 31 now, when the human is to play and also has a legal card."""
        view = self.view
        if view.phase != "play" or not view.legal_actions:
            return None
        return next((str(c) for c in view.hand if view.count + c.value > 31), None)


@contextmanager
def cribbage_play(*args: str) -> Iterator[tuple[pexpect.spawn, io.StringIO]]:
    env = dict(os.environ, NO_COLOR="1", TERM="dumb")
    env.pop("FORCE_COLOR", None)
    log = io.StringIO()
    child = pexpect.spawn(
        "cribbage",
        ["play", *args],
        encoding="utf-8",
        dimensions=(40, 120),
        env=env,
        timeout=TIMEOUT,
    )
    child.logfile_read = log
    try:
        yield child, log
    finally:
        if child.isalive():
            child.terminate(force=True)
        assert "Traceback" not in log.getvalue(), log.getvalue()[-3000:]


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus is not None
    return int(child.exitstatus)


def test_full_game_against_the_computer() -> None:
    seed = 7
    mirror = Mirror(seed)
    with cribbage_play("--seed", str(seed)) as (child, log):
        child.expect_exact(f"Game seed {seed} — replay it with --seed {seed}")
        paused = False
        while True:
            which = child.expect([DISCARD, PLAY, PAUSE, OVER])
            if which == 0:
                assert mirror.view.phase == "discard"
                child.sendline(mirror.answer())
            elif which == 1:
                assert int(child.match.group(1)) == mirror.view.count
                child.sendline(mirror.answer())
            elif which == 2:
                if not paused:
                    # Ctrl-C at the pause, then "n": the pause is asked again.
                    paused = True
                    child.sendintr()
                    child.expect(CONFIRM)
                    child.sendline("n")
                    child.expect(PAUSE)
                child.sendline("")
            else:
                break
        game = mirror.game
        assert game.is_over
        child.expect(r"Final scores: You (\d+) · Computer (\d+)")
        assert (int(child.match.group(1)), int(child.match.group(2))) == game.scores
        assert finish(child) == 0
    assert paused
    out = log.getvalue()
    winner = "You win" if game.winner == HUMAN else "Computer wins"
    assert f"Game over: {winner}" in out
    assert "Your hand" in out and "Computer plays" in out and "You play" in out


def _seed_with_a_card_past_31() -> int:
    for seed in range(1, 200):
        mirror = Mirror(seed)
        while not mirror.game.is_over and mirror.game.deal_number < 2:
            if mirror.too_big() is not None:
                return seed
            mirror.answer()
    raise AssertionError("no seed found where the human holds a card past 31")


def test_bad_input_is_explained_and_asked_again() -> None:
    seed = _seed_with_a_card_past_31()
    mirror = Mirror(seed)
    hand = mirror.view.hand
    not_held = next(str(card) for card in FULL_DECK if card not in hand)
    with cribbage_play("--seed", str(seed)) as (child, _):
        child.expect(DISCARD)
        for text, explanation in [
            ("xyzzy", "'xyzzy' is not a card"),
            (f"1 {not_held}", f"You do not hold {not_held}."),
            ("", "Type 2 cards"),
            ("1", "Discard exactly 2 cards, not 1."),
            ("1 2 3", "Discard exactly 2 cards, not 3."),
            ("8", "There is no card 8 in your hand"),
            ("go", "is not a card"),
        ]:
            child.sendline(text)
            child.expect_exact(explanation)
            child.expect(DISCARD)
        # Ctrl-D, then "n": the same prompt again.
        child.sendeof()
        child.expect(CONFIRM)
        child.sendline("n")
        child.expect(DISCARD)
        # Ctrl-C, then "n": likewise.
        child.sendintr()
        child.expect(CONFIRM)
        child.sendline("no")
        child.expect(DISCARD)
        child.sendline(mirror.answer())
        # Play on until a held card would pass 31, then try it.
        while True:
            if child.expect([PLAY, DISCARD, PAUSE]) == 2:
                child.sendline("")
                continue
            card = mirror.too_big()
            if card is not None:
                break
            child.sendline(mirror.answer())
        count = int(child.match.group(1))
        assert count == mirror.view.count
        total = count + next(c for c in mirror.view.hand if str(c) == card).value
        child.sendline(card.lower())
        child.expect_exact(f"{card} would take the count to {total}, past 31.")
        child.expect(PLAY)
        assert int(child.match.group(1)) == count
        child.sendline("")
        child.expect_exact("Type a card")
        child.expect(PLAY)
        child.sendline("q")
        child.expect_exact(f"Game seed {seed} — play it again with --seed {seed}")
        assert finish(child) == 0


def test_quit_with_ctrl_c_writes_an_unfinished_record(tmp_path: Path) -> None:
    seed = 12
    record = tmp_path / "game.json"
    mirror = Mirror(seed)
    with cribbage_play("--seed", str(seed), "--name", "Ann", "--record", str(record)) as (child, _):
        child.expect(DISCARD)
        child.sendline(mirror.answer())
        child.expect(PLAY)
        child.sendline(mirror.answer())
        child.expect([PLAY, PAUSE])
        child.sendintr()
        child.expect(CONFIRM)
        child.sendline("y")
        child.expect(r"Game stopped in deal 1: Ann (\d+) · Computer (\d+)\.")
        assert (int(child.match.group(1)), int(child.match.group(2))) == mirror.game.scores
        child.expect_exact(f"--seed {seed}")
        child.expect_exact(f"Unfinished record written to {record}")
        assert finish(child) == 0
    data = read_record(record)
    assert "result" not in data and data["seed"] == seed and data["players"] == ["Ann", "Computer"]
    game = replay(data)
    assert not game.is_over
    assert game.scores == mirror.game.scores
    assert game.deal_logs()[-1].plays == mirror.game.deal_logs()[-1].plays


@pytest.mark.parametrize("second", ["eof", "intr"])
def test_ctrl_d_or_c_at_the_question_quits(second: str) -> None:
    with cribbage_play("--seed", "5") as (child, _):
        child.expect(DISCARD)
        child.sendeof()
        child.expect(CONFIRM)
        if second == "eof":
            child.sendeof()
        else:
            child.sendintr()
        child.expect(re.escape("Game seed 5 — play it again with --seed 5"))
        assert finish(child) == 0
