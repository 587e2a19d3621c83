"""The ``play`` command: seats humans and computers at a game on the locked standard profile and runs
it to the end (or until a human quits), announcing everything that happens.

The loop holds no rules: it asks the engine who may act (`Game.to_act`), gives that seat its `SeatView`,
and applies what the seat's player chose, a computer's choice or a human's answer checked by
`Game.check`. Narration comes from one seat's view (the human's, or a spectator's when there is not
exactly one human), so hidden cards are never shown.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text

from ..engine import Game, Phase
from ..players import Player, RandomPlayer, SimplePlayer
from ..records import game_record, write_record
from .describe import Voice
from .errors import report
from .narrate import Narrator
from .prompt import QuitGame, Reader, ask_action
from .render import Painter, seat_table

__all__ = ["SEAT_KINDS", "PlayOptions", "play", "seat_kinds", "seat_names"]

SEAT_KINDS = ("human", "computer", "random")
"""``human`` answers prompts; ``computer`` is `SimplePlayer`; ``random`` is `RandomPlayer`."""

INTERRUPTED = 130
"""Exit status after Ctrl-C outside a prompt (128 + SIGINT), as shells report it."""


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """What the command line chose: the seed (``None`` for a random one), one kind per seat, the
    names of the human seats in order, and where to write the game record."""

    seed: int | None = None
    kinds: tuple[str, ...] = ("human", "computer")
    human_names: tuple[str, ...] = ()
    record: Path | None = None


def seat_kinds(text: str) -> tuple[str, ...]:
    """Parse ``human,computer``; raise `ValueError` naming an unknown kind."""
    kinds = tuple(part.strip().lower() for part in text.split(","))
    for kind in kinds:
        if kind not in SEAT_KINDS:
            shown = kind or "(empty)"
            raise ValueError(f"unknown seat kind {shown!r}: use {', '.join(SEAT_KINDS)}")
    return kinds


def seat_names(kinds: Sequence[str], human_names: Sequence[str] = ()) -> tuple[str, ...]:
    """Display names, one per seat: humans take ``human_names`` in order (a lone human is "You" by
    default, several are "Player N"); computers are "Computer", or "Computer 1", "Computer 2", ….
    Raises `ValueError` when names are left over, empty, or two seats would share a name."""
    humans = sum(1 for kind in kinds if kind == "human")
    computers = len(kinds) - humans
    if len(human_names) > humans:
        raise ValueError(
            f"--name is given {len(human_names)} times but there "
            f"{'is' if humans == 1 else 'are'} {humans} human seat{'' if humans == 1 else 's'}"
        )
    names: list[str] = []
    h = c = 0
    for kind in kinds:
        if kind == "human":
            default = "You" if humans == 1 else f"Player {h + 1}"
            name = human_names[h].strip() if h < len(human_names) else default
            h += 1
            if not name:
                raise ValueError("--name cannot be empty")
        else:
            c += 1
            name = "Computer" if computers == 1 else f"Computer {c}"
        if name in names:
            raise ValueError(f"two seats would both be called {name!r}: choose another --name")
        names.append(name)
    return tuple(names)


def play(options: PlayOptions, console: Console) -> int:
    """Play one game; return the exit status (0 at the end or when a human quits, 1 when input ended
    with no one to answer, 130 after Ctrl-C outside a prompt). The record, when asked for, is written
    at the end and also when the game stops early (an unfinished record)."""
    names = seat_names(options.kinds, options.human_names)
    humans = [seat for seat, kind in enumerate(options.kinds) if kind == "human"]
    if humans and sys.stdin is None:
        raise ValueError("a human seat needs standard input, and it is closed")
    game = Game(seed=options.seed, players=names)
    computers: dict[int, Player] = {
        seat: RandomPlayer(None if game.seed is None else game.seed + seat)
        if kind == "random"
        else SimplePlayer()
        for seat, kind in enumerate(options.kinds)
        if kind != "human"
    }
    voice = Voice.for_game(names, game.rules, you=humans[0] if len(humans) == 1 else None)
    painter = Painter.for_console(console)
    reader = Reader(console, interactive=sys.stdin.isatty()) if humans else None
    narrator = Narrator(
        console,
        painter,
        voice,
        discards=game.rules.discards,
        pause=reader.pause if reader else None,
    )

    console.print(Text(f"{' vs '.join(names)}, first to {game.rules.target}.", style="bold"))
    console.print(f"Game seed {game.seed} — replay it with --seed {game.seed}")
    if reader is not None:
        console.print(Text("Type help at any prompt to see how to name cards.", style="dim"))
    try:
        _run(game, computers, reader, narrator, voice, painter, console)
    except QuitGame as stop:
        _stopped(game, voice, options.record, console)
        if stop.code:
            report(f"{stop.reason}; game stopped (seed {game.seed})")
        return stop.code
    except KeyboardInterrupt:
        console.print()
        _stopped(game, voice, options.record, console)
        return INTERRUPTED
    _save(game, options.record, console)
    return 0


def _run(
    game: Game,
    computers: dict[int, Player],
    reader: Reader | None,
    narrator: Narrator,
    voice: Voice,
    painter: Painter,
    console: Console,
) -> None:
    audience = voice.you if voice.you is not None else 0
    seen = 0
    while True:
        events = game.view(audience).new_events(seen)
        seen += len(events)
        narrator.tell(events)
        if game.is_over or game.phase is Phase.WAITING:
            return
        seat = game.to_act[0]
        view = game.view(seat)
        computer = computers.get(seat)
        if computer is not None:
            action = computer.choose(view)
        else:
            assert reader is not None  # a seat without a computer is a human's
            console.print()
            console.print(seat_table(view, voice, painter))
            action = ask_action(reader, view, voice, painter, functools.partial(game.check, seat))
        game.apply(seat, action)


def _stopped(game: Game, voice: Voice, record: Path | None, console: Console) -> None:
    where = f"in deal {game.deal_number + 1}" if game.deal_number >= 0 else "before the first deal"
    console.print(Text(f"Game stopped {where}: {voice.scores(game.scores)}.", style="bold"))
    console.print(f"Game seed {game.seed} — play it again with --seed {game.seed}")
    _save(game, record, console, unfinished=True)


def _save(game: Game, record: Path | None, console: Console, *, unfinished: bool = False) -> None:
    if record is None:
        return
    write_record(record, game_record(game))
    console.print(Text(f"{'Unfinished record' if unfinished else 'Record'} written to {record}", "dim"))
