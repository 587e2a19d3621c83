"""The ``play`` and ``resume`` commands: choosing the seats, the profile, the computer level and a match;
finding the game's save slot and what is already in it; then handing the table to a `Session`.

A new game never silently replaces a saved one. With a readable save in the slot, a person at a
terminal is asked whether to resume it, start a new game in its place, or quit; without a terminal the
command stops and says how to go on. A save that cannot be read is refused and left in place: only
``cribbage saves delete`` removes it. Games with no human seat are never saved.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text

from ..engine import Game
from ..files import check_writable
from ..i18n import N_, _, language_asked, ngettext, set_language
from ..players import COMPUTER_KINDS, LEVELS
from ..profile_titles import profile_title
from ..profiles import Profile, load_profile
from ..records import FORMAT as RECORD_FORMAT
from ..records import read_record
from ..saves import (
    HUMAN,
    MODES,
    MatchState,
    NoSave,
    SavedGame,
    SaveError,
    SavesFolderUnusable,
    SaveSlot,
    folder_problem,
    mode_for,
    read_save,
    save_path,
)
from ..speech_messages import say_error
from .errors import report
from .prompt import QuitGame, Reader
from .saves_cmd import describe_save
from .session import INTERRUPTED, Seating, Session

__all__ = [
    "INTERRUPTED",
    "PlayOptions",
    "SaveInTheWay",
    "default_kinds",
    "levels",
    "play",
    "resume",
    "seat_kind_names",
    "seat_kinds",
    "seat_names",
]


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """What the command line chose: the seed (``None`` for a random one), one kind per seat, the
    names of the human seats in order, where to write the game record, the profile (a name or a
    file), the kind plain ``computer`` seats play as, how many games make the match, and whether the
    game is saved."""

    seed: int | None = None
    kinds: tuple[str, ...] = (HUMAN, "computer")
    human_names: tuple[str, ...] = ()
    record: Path | None = None
    profile: str = "standard"
    level: str = "computer"
    games: int = 1
    save: bool = True
    keep: bool = True
    """Whether the finished game is kept for ``cribbage history`` (`cribcore.history`)."""


class SaveInTheWay(ValueError):
    """A new game cannot start in its slot: a save is there (and nobody at a terminal to ask), or the
    save there cannot be read. The message says how to go on."""


def seat_kind_names() -> tuple[str, ...]:
    """Every seat kind: ``human`` and each computer kind the players provide."""
    return (HUMAN, *COMPUTER_KINDS)


def levels() -> tuple[str, ...]:
    """The computer levels ``--level`` may choose (`cribcore.players.LEVELS`)."""
    return LEVELS


def seat_kinds(text: str) -> tuple[str, ...]:
    """Parse ``human,computer``; raise `ValueError` naming an unknown kind."""
    known = seat_kind_names()
    kinds = tuple(part.strip().lower() for part in text.split(","))
    for kind in kinds:
        if kind not in known:
            shown = kind or "(empty)"
            raise ValueError(
                _("unknown seat kind {kind}: use {kinds}").format(kind=repr(shown), kinds=", ".join(known))
            )
    return kinds


def default_kinds(seats: int) -> tuple[str, ...]:
    """One human and computers in the other seats."""
    return (HUMAN, *(["computer"] * (seats - 1)))


def seat_names(kinds: Sequence[str], human_names: Sequence[str] = ()) -> tuple[str, ...]:
    """Display names, one per seat: humans take ``human_names`` in order (a lone human is "You" by
    default, several are "Player N"); computers are "Computer", or "Computer 1", "Computer 2", ….
    Raises `ValueError` when names are left over, empty, or two seats would share a name."""
    humans = sum(1 for kind in kinds if kind == HUMAN)
    computers = len(kinds) - humans
    if len(human_names) > humans:
        seats = ngettext("there is {n} human seat", "there are {n} human seats", humans).format(n=humans)
        raise ValueError(_("--name is given {n} times but {seats}").format(n=len(human_names), seats=seats))
    names: list[str] = []
    h = c = 0
    for kind in kinds:
        if kind == HUMAN:
            default = _("You") if humans == 1 else _("Player {number}").format(number=h + 1)
            name = human_names[h].strip() if h < len(human_names) else default
            h += 1
            if not name:
                raise ValueError(_("--name cannot be empty"))
        else:
            c += 1
            name = _("Computer") if computers == 1 else _("Computer {number}").format(number=c)
        if name in names:
            raise ValueError(
                _("two seats would both be called {name}: choose another --name").format(name=repr(name))
            )
        names.append(name)
    return tuple(names)


def _reader(kinds: Sequence[str], console: Console) -> Reader | None:
    if HUMAN not in kinds:
        return None
    if sys.stdin is None:
        raise ValueError(_("a human seat needs standard input, and it is closed"))
    return Reader(console, interactive=sys.stdin.isatty())


def play(options: PlayOptions, console: Console) -> int:
    """Play a game (or a match) as ``options`` say; return the exit status (see `Session.run`)."""
    profile = load_profile(options.profile)
    names = seat_names(options.kinds, options.human_names)
    reader = _reader(options.kinds, console)
    mode = mode_for(options.kinds) if options.save else None
    slot: SaveSlot | None = None
    if mode is not None:
        try:
            found = _slot_for_new_game(save_path(mode), mode, reader, console, profile)
        except QuitGame:
            return 0
        if isinstance(found, SavedGame):
            return _continue(found, reader, console, options.record)
        slot = found
    match = None
    seed = options.seed
    if options.games > 1:
        base = options.seed if options.seed is not None else random.SystemRandom().randrange(2**32)
        match = MatchState(games=options.games, seed=base)
        seed = match.seed_of(0)
    seating = Seating(options.kinds, names, profile, options.profile, options.level)
    session = Session(
        console, seating, reader=reader, slot=slot, mode=mode, match=match, record=options.record
    )
    session.keep = options.keep
    return session.run(Game(profile, seed=seed, players=names))


def _same_profile(one: Profile, other: Profile) -> bool:
    return (one.name, one.plugins, one.rules, one.options) == (
        other.name,
        other.plugins,
        other.rules,
        other.options,
    )


def _slot_for_new_game(
    path: Path, mode: str, reader: Reader | None, console: Console, profile: Profile
) -> SaveSlot | SavedGame:
    """The slot for a new game, or the saved game to resume instead (the person chose it).

    When the saved game is played under another profile than ``profile`` (the one asked for), the
    question names both and Enter means a new game under the asked profile (after the usual
    confirmation): resuming would drop the ``--profile`` the player just gave."""
    try:
        saved = read_save(path, mode)
    except NoSave:
        return SaveSlot(path)
    except SavesFolderUnusable as exc:
        raise SaveInTheWay(_("{problem}; or play with --no-save").format(problem=say_error(exc))) from None
    except SaveError as exc:
        raise SaveInTheWay(
            _(
                "{problem}. The file is left as it is: delete it with 'cribbage saves delete {mode}' "
                "to start a new game here, or play with --no-save"
            ).format(problem=say_error(exc), mode=mode)
        ) from None
    theirs = saved.game.profile
    differs = not _same_profile(theirs, profile)
    asked = profile_title(profile.name)
    if theirs.name != profile.name:
        saved_rules = profile_title(theirs.name)
    else:
        saved_rules = _("{name} as it was then").format(name=profile_title(theirs.name))
    other = (
        _(" (under the {saved} rules, not {asked})").format(saved=saved_rules, asked=asked) if differs else ""
    )
    described = describe_save(saved)
    if reader is None or not reader.interactive:
        raise SaveInTheWay(_(_SAVED_IN_THE_WAY[mode]).format(saved=described, other=other, mode=mode))
    console.print(Text(_(_YOU_HAVE_A_SAVE[mode]).format(saved=described), style="bold"))
    if differs:
        console.print(
            Text(
                _("It is played under the {saved} rules; you asked for {asked}.").format(
                    saved=saved_rules, asked=asked
                )
            )
        )
        question = _(
            "Start a new {asked} game in its place (n), resume the saved {saved} game (r), "
            "or quit (q)? [N/r/q] "
        ).format(asked=asked, saved=saved_rules)
    else:
        question = _("Resume it (r), start a new game in its place (n), or quit (q)? [R/n/q] ")
    while True:
        answer = reader.line(question).lower() or ("n" if differs else "r")
        if answer in ("r", "resume"):
            return saved
        if answer in ("q", "quit"):
            raise QuitGame(_("you quit"))
        if answer in ("n", "new"):
            if reader.confirm(_("The saved game will be lost. Start a new game?")):
                return SaveSlot(path, current=saved.raw)
            continue
        reader.problem(_("Type r to resume the saved game, n for a new game, or q to quit."))


# Whole sentences per save slot, so that each language words them its own way.
_SAVED_IN_THE_WAY = {
    "computer": N_(
        "a game against the computer is saved ({saved}){other}: continue it with 'cribbage resume {mode}', "
        "delete it with 'cribbage saves delete {mode}', or play with --no-save"
    ),
    "same-device": N_(
        "a game on this device is saved ({saved}){other}: continue it with 'cribbage resume {mode}', "
        "delete it with 'cribbage saves delete {mode}', or play with --no-save"
    ),
}
_NOTHING_TO_RESUME = {
    "computer": N_("there is no saved game against the computer to resume"),
    "same-device": N_("there is no saved game on this device to resume"),
}
_YOU_HAVE_A_SAVE = {
    "computer": N_("You have a saved game against the computer: {saved}."),
    "same-device": N_("You have a saved game on this device: {saved}."),
}


def _continue(saved: SavedGame, reader: Reader | None, console: Console, record: Path | None = None) -> int:
    """Go on with ``saved``; its game record is written where the save says (``--record`` when the game
    began) unless ``record`` names another file."""
    envelope = saved.envelope
    if record is None and envelope.record is not None:
        record = _still_writable(Path(envelope.record))
    seating = Seating(saved.kinds, saved.names, saved.game.profile, envelope.profile, envelope.level)
    session = Session(
        console,
        seating,
        reader=reader,
        slot=SaveSlot(saved.path, current=saved.raw),
        mode=envelope.mode,
        match=envelope.match,
        record=record,
    )
    return session.run(saved.game, resumed=True)


_RECORD_MOST = 32 * 1024 * 1024
"""The largest file a save's ``--record`` may name and still be written over (a record is far smaller)."""


def _still_writable(record: Path) -> Path | None:
    """The saved ``--record`` file, or ``None`` (said in one line) when it can no longer be written:
    the game goes on without it rather than failing at its end. A file already there is written over
    only when it is a game record (the one this game wrote when it stopped): a save names the path,
    and a save passed around must not overwrite whatever file it names."""
    if record.exists() and not _is_a_record(record):
        report(
            _(
                "{path} is not a game record: it is left as it is, and the game goes on without --record"
            ).format(path=record)
        )
        return None
    try:
        check_writable(record)
    except OSError as exc:
        report(
            _("the game record cannot be written to {path} ({why}); the game goes on without it").format(
                path=record, why=exc.strerror or exc
            )
        )
        return None
    return record


def resume(mode: str | None, console: Console, record: Path | None = None) -> int:
    """Continue the game saved in ``mode``'s slot (or in the only slot that holds one) exactly where
    it stopped, in the language it was played in unless ``--lang`` named one, writing its record to
    ``record`` (default: the ``--record`` file the game began with). Raises `ValueError` (a
    `SaveError` for a save that cannot be resumed, which is left as it is) with a one-line message."""
    problem = folder_problem(save_path(MODES[0]))
    if problem is not None:
        raise ValueError(problem)
    if mode is None:
        held = [m for m in MODES if save_path(m).exists()]
        if not held:
            raise ValueError(
                _("there is no saved game to resume (saves are kept in {folder})").format(
                    folder=save_path(MODES[0]).parent
                )
            )
        if len(held) > 1:
            raise ValueError(
                _(
                    "two games are saved: choose one with 'cribbage resume computer' or "
                    "'cribbage resume same-device' ('cribbage saves list' shows both)"
                )
            )
        mode = held[0]
    try:
        saved = read_save(save_path(mode), mode)
    except NoSave:
        raise ValueError(_(_NOTHING_TO_RESUME[mode])) from None
    if saved.envelope.lang is not None and not language_asked():
        set_language(saved.envelope.lang)
    reader = _reader(saved.kinds, console)
    return _continue(saved, reader, console, record)


def _is_a_record(path: Path) -> bool:
    """Whether ``path`` is a regular file holding a cribcore game record."""
    try:
        if not path.is_file() or path.stat().st_size > _RECORD_MOST:
            return False
        return read_record(path).get("format") == RECORD_FORMAT
    except (OSError, ValueError):
        return False
