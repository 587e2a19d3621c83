"""The ``saves`` command (``saves list``, ``saves delete MODE``) and the words for a saved game.

Listing reads every slot without changing it (it only removes the temporary files that a save killed
mid-write left behind); a save that cannot be resumed is listed with the reason.
Deleting removes one slot's file, whatever is in it (the way to clear a save that is refused).
"""

from __future__ import annotations

import argparse
import datetime as _dt
from typing import Any

from rich.console import Console
from rich.text import Text

from ..files import remove_stale_temps
from ..i18n import N_, _
from ..profile_titles import profile_title
from ..saves import (
    MODE_WORDS,
    MODES,
    NoSave,
    SavedGame,
    SaveError,
    data_dir,
    folder_problem,
    read_save,
    save_path,
)
from ..speech_messages import say_error
from .describe import Voice, local_name
from .render import columns

__all__ = ["MODE_WORDS", "add_saves_parser", "delete_command", "describe_save", "list_command"]


def add_saves_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``saves`` (``list``, ``delete MODE``) to the ``cribbage`` parser."""
    parser = commands.add_parser(
        "saves",
        help=_("list or delete saved games"),
        description=_(
            "Games with a human are saved after every move, one save for games against the "
            "computer and one for games on this device. 'list' shows them; 'delete MODE' removes one, "
            "even one that cannot be resumed."
        ),
    )
    sub = parser.add_subparsers(dest="saves_command", metavar="ACTION", title=_("actions"))
    listing = sub.add_parser("list", help=_("show the saved games"), description=_("Show the saved games."))
    listing.set_defaults(handler=lambda args, console: list_command(console))
    delete = sub.add_parser("delete", help=_("remove a saved game"), description=_("Remove a saved game."))
    delete.add_argument(
        "mode",
        choices=MODES,
        metavar="MODE",
        help=_("which save: {modes}").format(modes=_(" or ").join(MODES)),
    )
    delete.set_defaults(handler=lambda args, console: delete_command(args.mode, console))
    # `cribbage saves` alone lists them.
    parser.set_defaults(handler=lambda args, console: list_command(console))


# Whole sentences per save slot, so that each language words them its own way.
_NO_SAVE = {
    "computer": N_("there is no saved game against the computer ({path})"),
    "same-device": N_("there is no saved game on this device ({path})"),
}
_DELETED = {
    "computer": N_("Deleted the saved game against the computer ({path})."),
    "same-device": N_("Deleted the saved game on this device ({path})."),
}


def local_time(stamp: str) -> str:
    """A save's UTC time stamp (``2026-05-01T18:30:00Z``) in this computer's local time, with its
    zone: ``2026-05-01 20:30:00 CEST``; a stamp that is not one is shown as written."""
    try:
        moment = _dt.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=_dt.UTC)
    except ValueError:
        return stamp
    return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S %Z").rstrip()


def describe_save(saved: SavedGame) -> str:
    """One line about a save: who plays, where the game stands, and when it was saved."""
    game = saved.game
    # A save made in another language: the names the table gave are said in this one.
    names = tuple(local_name(name) for name in game.players)
    voice = Voice.for_game(names, game.rules)
    parts = [_(" vs ").join(names)]
    if saved.envelope.profile != "standard":
        parts.append(_("profile {name}").format(name=profile_title(game.profile.name)))
    match = saved.envelope.match
    if match is not None:
        parts.append(_("game {number} of {games}").format(number=len(match.results) + 1, games=match.games))
    if game.deal_number >= 0:
        # Its own entry (":d"): a save's stand, said without the article that "at deal N" takes.
        parts.append(_("deal {number:d}").format(number=game.deal_number + 1))
    else:
        parts.append(_("not dealt yet"))
    parts.append(voice.scores(game.scores))
    parts.append(_("saved {time}").format(time=local_time(saved.envelope.saved_at)))
    return ", ".join(parts)


def list_command(console: Console) -> int:
    """Print each save slot: its file and what it holds, or why it cannot be resumed."""
    folder = data_dir() / "saves"
    problem = folder_problem(save_path(MODES[0]))
    if problem is not None:
        raise ValueError(problem)
    console.print(Text(_("Saved games (kept in {folder}):").format(folder=folder), style="bold"))
    rows: list[list[Text | str]] = []
    for mode in MODES:
        remove_stale_temps(save_path(mode))
        try:
            state = describe_save(read_save(save_path(mode), mode))
        except NoSave:
            state = _("none")
        except SaveError as exc:
            state = _("cannot be resumed: {reason}").format(reason=_reason(exc))
        rows.append([mode, state])
    for line in columns(rows):
        line.pad_left(2)
        console.print(line)
    console.print(
        Text(
            _("Continue one with: cribbage resume MODE · remove one with: cribbage saves delete MODE"), "dim"
        )
    )
    return 0


def delete_command(mode: str, console: Console) -> int:
    """Remove ``mode``'s save file (readable or not); an empty slot is an error."""
    path = save_path(mode)
    problem = folder_problem(path)
    if problem is not None:
        raise ValueError(problem)
    try:
        path.unlink()
    except FileNotFoundError:
        raise ValueError(_(_NO_SAVE[mode]).format(path=path)) from None
    console.print(_(_DELETED[mode]).format(path=path))
    return 0


def _reason(exc: SaveError) -> str:
    """The message, in the language, without the file name in front (the list already says which
    slot)."""
    text = say_error(exc)
    head, sep, rest = text.partition(": ")
    return rest if sep and head.endswith(".json") else text
