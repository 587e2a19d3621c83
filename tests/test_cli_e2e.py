"""`cribbage play` and `cribbage resume` driven through a pseudo-terminal, as a person plays: a whole game
against the computer, every kind of bad input at a prompt, quitting mid-hand and resuming to the same
state, a saved game met by a new `play`, and a new game during a hand.

The test keeps a mirror game with the same seed, making the human's choices and the computer's (the
computer seat is `make_player("computer", seed + 1)`, whose choices depend only on its seed and view),
so it knows the human's hand, the count and the scores without reading cards off the screen, and can
check the program against them.
"""

from __future__ import annotations

import io
import re
from contextlib import AbstractContextManager
from pathlib import Path

import pexpect
import pytest

from cribcore import FULL_DECK, Discard, Game, Play, SeatView, parse_card
from cribcore.cli.render import Painter
from cribcore.players import make_player
from cribcore.records import read_record, replay
from cribcore.saves import GameResult, MatchState, SaveSlot, build_envelope, read_save, save_path

from .terminal import cribbage_pty, leave_table

HUMAN = 0
TIMEOUT = 30

DISCARD = r"Choose 2 cards for (your|Computer's) crib: "
PLAY = r"Play a card \(count (\d+)\): "
PAUSE = r"Press Enter for the next deal"
OVER = r"Game over: "
CONFIRM = r"Quit this game\? \[y/N\] "
SAVED = "Saved. Continue it with: cribbage resume computer"


class Mirror:
    """The same game as the program's, advanced by the same choices."""

    def __init__(self, seed: int) -> None:
        self.game = Game(seed=seed, players=("You", "Computer"))
        self._computer = make_player("computer", seed + 1)
        self._advance()

    def _advance(self) -> None:
        game = self.game
        while game.to_act and game.to_act[0] != HUMAN:
            seat = game.to_act[0]
            game.apply(seat, self._computer.choose(game.view(seat)))

    @property
    def view(self) -> SeatView:
        return self.game.view(HUMAN)

    def hand_line(self) -> str:
        """The human's hand as the table numbers it."""
        painter = Painter()
        return "  ".join(f"{i}) {painter.plain(card)}" for i, card in enumerate(self.view.hand, start=1))

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


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


def cribbage(data: Path, *argv: str) -> AbstractContextManager[tuple[pexpect.spawn, io.StringIO]]:
    return cribbage_pty(data, *argv)


def finish(child: pexpect.spawn) -> int:
    leave_table(child)
    child.close()
    assert child.exitstatus is not None
    return int(child.exitstatus)


def play_to_the_end(child: pexpect.spawn, mirror: Mirror) -> None:
    """Answer every prompt with the mirror's choices until the game is over."""
    while True:
        which = child.expect([DISCARD, PLAY, PAUSE, OVER])
        if which == 0:
            assert mirror.view.phase == "discard"
            child.sendline(mirror.answer())
        elif which == 1:
            assert int(child.match.group(1)) == mirror.view.count
            child.sendline(mirror.answer())
        elif which == 2:
            child.sendline("")
        else:
            return


def test_full_game_against_the_computer(data_dir: Path) -> None:
    seed = 7
    mirror = Mirror(seed)
    with cribbage(data_dir, "play", "--seed", str(seed)) as (child, log):
        child.expect_exact(f"Game seed {seed} — replay it with --seed {seed}")
        child.expect(DISCARD)
        # The extras at a prompt: a hint (with its reason) and the board; the prompt comes back.
        child.sendline("?")
        child.expect_exact("Hint: lay away ")
        child.expect(DISCARD)
        child.sendline("board")
        child.expect_exact("You 0")
        child.expect(DISCARD)
        child.sendline(mirror.answer())
        paused = False
        while True:
            which = child.expect([DISCARD, PLAY, PAUSE, OVER])
            if which == 0:
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
    assert "fifteen two" in out  # counts are spoken
    assert "●" in out  # the pegging board
    assert not save_path("computer", data_dir).exists()  # a finished game leaves no save


def _seed_with_a_card_past_31() -> int:
    for seed in range(1, 200):
        mirror = Mirror(seed)
        while not mirror.game.is_over and mirror.game.deal_number < 2:
            if mirror.too_big() is not None:
                return seed
            mirror.answer()
    raise AssertionError("no seed found where the human holds a card past 31")


def test_bad_input_is_explained_and_asked_again(data_dir: Path) -> None:
    seed = _seed_with_a_card_past_31()
    mirror = Mirror(seed)
    hand = mirror.view.hand
    not_held = next(str(card) for card in FULL_DECK if card not in hand)
    with cribbage(data_dir, "play", "--seed", str(seed)) as (child, _):
        child.expect(DISCARD)
        for text, explanation in [
            ("xyzzy", "'xyzzy' is not a card"),
            # Issue 17: the card is named as the screen draws it (A♣ where the game prints ♣).
            (f"1 {not_held}", f"You do not hold {Painter().plain(parse_card(not_held))}."),
            ("", "Type 2 cards"),
            ("1", "Discard exactly 2 cards, not 1."),
            ("1 2 3", "Discard exactly 2 cards, not 3."),
            ("8", "There is no card 8 in your hand"),
            ("go", "is not a card"),
            ("\x1b[A", "is not a card"),
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
        child.sendline("go")
        child.expect_exact("You can still play")
        child.expect(PLAY)
        child.sendline("q")
        child.expect_exact(f"Game seed {seed} — play it again with --seed {seed}")
        child.expect_exact(SAVED)
        assert finish(child) == 0


def test_quit_with_ctrl_c_writes_an_unfinished_record(data_dir: Path, tmp_path: Path) -> None:
    seed = 12
    record = tmp_path / "game.json"
    mirror = Mirror(seed)
    argv = ("play", "--seed", str(seed), "--name", "Ann", "--record", str(record))
    with cribbage(data_dir, *argv) as (child, _):
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
def test_ctrl_d_or_c_at_the_question_quits(data_dir: Path, second: str) -> None:
    with cribbage(data_dir, "play", "--seed", "5") as (child, _):
        child.expect(DISCARD)
        child.sendeof()
        child.expect(CONFIRM)
        if second == "eof":
            child.sendeof()
        else:
            child.sendintr()
        child.expect(re.escape("Game seed 5 — play it again with --seed 5"))
        assert finish(child) == 0


def test_quit_mid_hand_and_resume_to_the_same_state(data_dir: Path) -> None:
    seed = 21
    mirror = Mirror(seed)
    with cribbage(data_dir, "play", "--seed", str(seed), "--name", "Ann") as (child, _):
        # Into the second deal, then quit in the middle of the play.
        plays = 0
        while mirror.game.deal_number < 1 or plays < 2:
            which = child.expect([DISCARD, PLAY, PAUSE])
            if which == 2:
                child.sendline("")
                continue
            if which == 1 and mirror.game.deal_number >= 1:
                plays += 1
            child.sendline(mirror.answer())
        child.expect(PLAY)
        child.sendline("q")
        child.expect_exact(SAVED)
        assert finish(child) == 0
    saved = read_save(save_path("computer", data_dir))
    # The save is the game as it stood, down to the cut for deal (which the record's seed gives back).
    assert saved.game.events == mirror.game.events
    with cribbage(data_dir, "resume") as (child, _):
        child.expect(r"Resuming Ann vs Computer at deal 2: Ann (\d+) · Computer (\d+), first to 121\.")
        assert (int(child.match.group(1)), int(child.match.group(2))) == mirror.game.scores
        child.expect_exact(f"Your hand    {mirror.hand_line()}")
        child.expect(PLAY)
        assert int(child.match.group(1)) == mirror.view.count
        child.sendline(mirror.answer())
        play_to_the_end(child, mirror)  # the same cards to come, to the same result
        child.expect(r"Final scores: Ann (\d+) · Computer (\d+)")
        assert (int(child.match.group(1)), int(child.match.group(2))) == mirror.game.scores
        assert finish(child) == 0
    assert not save_path("computer", data_dir).exists()


def test_play_with_a_saved_game_asks_first(data_dir: Path) -> None:
    with cribbage(data_dir, "play", "--seed", "30") as (child, _):
        child.expect(DISCARD)
        child.sendline("q")
        child.expect_exact(SAVED)
        assert finish(child) == 0
    path = save_path("computer", data_dir)
    before = path.read_bytes()
    with cribbage(data_dir, "play", "--seed", "31") as (child, _):
        child.expect_exact("You have a saved game against the computer: You vs Computer, deal 1")
        child.expect_exact("[R/n/q] ")
        child.sendline("what")
        child.expect_exact("Type r to resume")
        child.sendline("q")
        assert finish(child) == 0
    assert path.read_bytes() == before
    with cribbage(data_dir, "play", "--seed", "31") as (child, _):
        child.expect_exact("[R/n/q] ")
        child.sendline("r")
        child.expect_exact("Resuming You vs Computer at deal 1")
        child.expect(DISCARD)
        child.sendline("q")
        assert finish(child) == 0
    assert read_save(path).game.seed == 30
    with cribbage(data_dir, "play", "--seed", "31") as (child, _):
        child.expect_exact("[R/n/q] ")
        child.sendline("n")
        child.expect_exact("The saved game will be lost. Start a new game? [y/N] ")
        child.sendline("y")
        child.expect_exact("Game seed 31 — replay it with --seed 31")
        child.expect(DISCARD)
        child.sendline("q")
        assert finish(child) == 0
    assert read_save(path).game.seed == 31


def test_new_game_during_a_hand_needs_a_confirmation(data_dir: Path) -> None:
    with cribbage(data_dir, "play", "--seed", "40") as (child, _):
        child.expect(DISCARD)
        child.sendline("new")
        child.expect_exact("Start a new game? This game and its score will be lost. [y/N] ")
        child.sendline("")
        child.expect_exact("The game goes on.")
        child.expect(DISCARD)
        child.sendline("new")
        child.expect_exact("[y/N] ")
        child.sendline("y")
        child.expect_exact("A new game.")
        child.expect(r"Game seed (\d+) — replay it with")
        seed = int(child.match.group(1))
        child.expect(DISCARD)
        child.sendline("q")
        assert finish(child) == 0
    assert read_save(save_path("computer", data_dir)).game.seed == seed


def test_resume_in_the_middle_of_a_match(data_dir: Path) -> None:
    base = 50
    first = GameResult(seed=base, scores=[121, 88], winner=0, game_points=1)
    match = MatchState(games=3, seed=base, results=[first])
    mirror = Mirror(base + 1)
    mirror.answer()  # the discard of game 2's first deal
    data = build_envelope(
        mode="computer",
        seats=[("human", "You"), ("computer", "Computer")],
        level="computer",
        profile="standard",
        game=mirror.game,
        match=match,
    )
    path = save_path("computer", data_dir)
    SaveSlot(path).write(data)
    with cribbage(data_dir, "resume", "computer") as (child, log):
        child.expect_exact("Game 2 of 3")
        child.expect_exact("Resuming You vs Computer at deal 1")
        play_to_the_end(child, mirror)
        child.expect_exact("Press Enter for game 3 of 3 (q to quit)")
        child.sendline("q")
        child.expect_exact("Saved. Continue it with: cribbage resume computer")
        assert finish(child) == 0
    winner = mirror.game.winner
    assert winner is not None
    won = [1 + (winner == 0), int(winner == 1)]
    out = " ".join(log.getvalue().split())  # long lines wrap at the terminal's width
    assert "Match so far: You: 1 game won, 1 game point · Computer: 0 games won, 0 game points" in out
    after = f"Match after game 2 of 3: You: {won[0]} game{'s' * (won[0] != 1)} won"
    assert after in out and f"Computer: {won[1]} game{'s' * (won[1] != 1)} won" in out
    saved = read_save(path)
    assert saved.envelope.match is not None and len(saved.envelope.match.results) == 2
    assert saved.game.seed == base + 2 and saved.game.deal_number == 0


def test_play_with_another_profile_than_the_saved_game_says_so(data_dir: Path) -> None:
    with cribbage(data_dir, "play", "--seed", "30") as (child, _):
        child.expect(DISCARD)
        child.sendline("q")
        child.expect_exact(SAVED)
        assert finish(child) == 0
    path = save_path("computer", data_dir)
    before = path.read_bytes()
    with cribbage(data_dir, "play", "--profile", "five-card", "--seed", "31") as (child, _):
        child.expect_exact("You have a saved game against the computer: You vs Computer, deal 1")
        child.expect_exact("It is played under the standard rules; you asked for five-card.")
        child.expect_exact("Start a new five-card game in its place (n), resume the saved standard game (r)")
        child.expect_exact("[N/r/q] ")
        # Enter is the new game asked for, never the saved game under other rules, and still asks first.
        child.sendline("")
        child.expect_exact("The saved game will be lost. Start a new game? [y/N] ")
        child.sendline("")
        child.expect_exact("[N/r/q] ")
        child.sendline("q")
        assert finish(child) == 0
    assert path.read_bytes() == before
    with cribbage(data_dir, "play", "--profile", "five-card", "--seed", "31") as (child, _):
        child.expect_exact("[N/r/q] ")
        child.sendline("")
        child.expect_exact("[y/N] ")
        child.sendline("y")
        child.expect_exact("You vs Computer (five-card), first to 61.")
        child.expect_exact("Game seed 31")
        child.expect(r"Choose (1 card|2 cards) for (your|Computer's) crib: ")
        child.sendline("q")
        assert finish(child) == 0
    saved = read_save(path)
    assert (saved.game.profile.name, saved.game.seed) == ("five-card", 31)
