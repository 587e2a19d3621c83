"""Same-device play through a pseudo-terminal that understands escape codes: players pass the device,
and one player's cards are never on the screen (or in its scrollback) while another is looking.

The output is split where the program clears the screen and its scrollback. Each piece is what one
player had in front of them: it must name that player in "Pass the device to …" before any hand is
drawn, and every hand drawn in it must be that player's own cards for that deal.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path

import pexpect

from cribcore import Discard, Game, Play, load_profile
from cribcore.cards import parse_card
from cribcore.cli.screen import CLEAR
from cribcore.saves import read_save, save_path

from .terminal import cribbage_pty, leave_table

TIMEOUT = 30
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")
HANDOFF = r"([A-Z]\w*), press Enter when you have the device"
DISCARD = r"Choose (\d) cards? for \w+('s)? crib: "
PLAY = r"Play a card \(count (\d+)\): "
PAUSE = r"Press Enter for the next deal"
OVER = r"Game over: "


class Mirror:
    """The same game as the program's; every human lays away its first cards and plays its first."""

    def __init__(self, seed: int, names: Sequence[str], profile: str = "standard") -> None:
        self.game = Game(load_profile(profile), seed=seed, players=tuple(names))

    def answer(self) -> str:
        seat = self.game.to_act[0]
        view = self.game.view(seat)
        if isinstance(view.legal_actions[0], Discard):
            wanted = view.rules.discards
            self.game.apply(seat, Discard(view.hand[:wanted]))
            return " ".join(str(n) for n in range(1, wanted + 1))
        self.game.apply(seat, Play(view.hand[0]))
        return "1"


def shared_device(data: Path, *argv: str) -> AbstractContextManager[tuple[pexpect.spawn, io.StringIO]]:
    return cribbage_pty(data, *argv, term="xterm", columns=100)


def drive(child: pexpect.spawn, mirror: Mirror, *, until_deal: int | None = None) -> list[str]:
    """Answer every prompt until the game is over (or the mirror reaches deal ``until_deal``);
    return the names the device was handed to, in order."""
    handed: list[str] = []
    while until_deal is None or mirror.game.deal_number < until_deal:
        which = child.expect([HANDOFF, DISCARD, PLAY, PAUSE, OVER])
        if which == 0:
            handed.append(child.match.group(1))
            assert handed[-1] == mirror.game.players[mirror.game.to_act[0]]
            child.sendline("")
        elif which in (1, 2):
            child.sendline(mirror.answer())
        elif which == 3:
            child.sendline("")
        else:
            break
    return handed


def check_privacy(output: str, mirror: Mirror) -> int:
    """Check every screenful of ``output`` (see the module docstring); return how many there were."""
    logs = mirror.game.deal_logs()
    names = mirror.game.players
    screens = output.split(CLEAR)
    for screen in screens[1:]:
        text = ANSI.sub("", screen)
        holder = re.search(r"Pass the device to (\w+)", text)
        hands = list(re.finditer(r"turn · deal (\d+).*?Your hand([^\n]*)", text, re.S))
        if not hands:
            continue
        assert holder is not None, text[:500]
        seat = names.index(holder.group(1))
        assert text.index("press Enter when you have the device") < hands[0].start()
        for match in hands:
            dealt = logs[int(match.group(1)) - 1].hands[seat]
            shown = [parse_card(token) for token in re.findall(r"\d\) (\S+)", match.group(2))]
            assert shown and set(shown) <= set(dealt), (holder.group(1), shown, dealt)
    return len(screens) - 1


def test_a_whole_game_for_two_on_one_device(tmp_path: Path) -> None:
    seed = 8
    mirror = Mirror(seed, ("Ann", "Bob"))
    argv = ("play", "--players", "human,human", "--name", "Ann", "--name", "Bob", "--seed", str(seed))
    with shared_device(tmp_path, *argv) as (child, log):
        handed = drive(child, mirror)
        child.expect(r"Final scores: Ann (\d+) · Bob (\d+)")
        assert (int(child.match.group(1)), int(child.match.group(2))) == mirror.game.scores
        leave_table(child)
    assert mirror.game.is_over
    assert {"Ann", "Bob"} <= set(handed)
    assert check_privacy(log.getvalue(), mirror) >= len(handed)
    assert not save_path("same-device", tmp_path).exists()


def test_three_on_one_device_quit_and_resume(tmp_path: Path) -> None:
    seed = 3
    names = ("Ann", "Bob", "Cy")
    mirror = Mirror(seed, names, "three-players")
    argv = ["play", "--profile", "three-players", "--players", "human,human,human", "--seed", str(seed)]
    for name in names:
        argv += ["--name", name]
    with shared_device(tmp_path, *argv) as (child, log):
        handed = drive(child, mirror, until_deal=1)
        assert set(handed) == set(names)
        child.expect(PAUSE)  # the first deal's show is on the screen
        child.sendline("")
        child.expect(HANDOFF)
        child.sendline("q")  # quitting while the device is passed
        child.expect_exact("Saved. Continue it with: cribbage resume same-device")
        child.expect(pexpect.EOF)
    first = log.getvalue()
    assert read_save(save_path("same-device", tmp_path)).game.deal_number == mirror.game.deal_number
    with shared_device(tmp_path, "resume", "same-device") as (child, log):
        child.expect_exact("Resuming Ann vs Bob vs Cy (three-players) at deal 2")
        drive(child, mirror, until_deal=2)
        child.expect(PAUSE)  # the second deal's show
        child.sendintr()
        child.expect_exact("Quit this game? [y/N] ")
        child.sendline("y")
        child.expect(pexpect.EOF)
    check_privacy(first, mirror)
    check_privacy(log.getvalue(), mirror)
