"""Messages the engine and the server compose in English, said in the player's language.

The engine's refusals (`IllegalAction`) and the server's errors are English sentences built where they
are raised, and they stay English there: records, logs, the protocol's tests and any program reading
them see the same text in every language. Where such a message is shown to a person, `say` finds its
shape among `SHAPES` (a pattern with named fields, paired with the catalog entry that has the same
named placeholders) and returns that entry in the language asked for, its fields filled in. A field
named ``card`` or ``cards`` holds cards, drawn as the caller draws them; a field named ``reason`` is
itself a message, said in turn; a field named ``changed`` lists plugin versions, ``(installed: …)``
said in the language. A message of no known shape (a plugin's own reason, a validation
detail) is returned as it is, so nothing is ever lost in translation.

English is the message itself, always: `say` never rewrites an English message.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .cards import Card, CardParseError, parse_card
from .i18n import DEFAULT_LANGUAGE, N_, Nn_, current_language, gettext, ngettext

__all__ = ["SHAPES", "VALIDATION_TYPES", "Shape", "say", "say_error", "validation_reason"]


@dataclass(frozen=True, slots=True)
class Shape:
    """One English message shape: ``pattern`` matches the whole message and names its fields; the
    catalog entry is ``message`` (or, with ``plural``, the form ``ngettext`` picks for the whole
    number in field ``n``)."""

    pattern: re.Pattern[str]
    message: str
    plural: str | None = None


def _shape(pattern: str, message: str | tuple[str, str]) -> Shape:
    if isinstance(message, tuple):
        return Shape(re.compile(pattern), message[0], message[1])
    return Shape(re.compile(pattern), message)


_NAME = r"(?P<name>.+)"
_LINKS = "http://HOST:PORT/#join=CODE (an invitation) or http://HOST:PORT/#key=KEY (your seat)"
_EXPECTED = re.escape(f"expected {_LINKS}")
"""The links `cribbage join` takes, as `cribcore.netclient` names them in its refusals."""
_WHERE = r"(?P<where>.+)"
"""The file a message names first (a save's or a profile's path)."""

SHAPES: tuple[Shape, ...] = (
    # The engine's refusals (cribcore.engine, cribcore.actions).
    _shape(r"you do not hold (?P<cards>.+)", N_("you do not hold {cards}")),
    _shape(
        r"(?P<card>\S+) would take the count to (?P<count>\d+), past (?P<limit>\d+)",
        N_("{card} would take the count to {count}, past {limit}"),
    ),
    _shape(
        r"discard exactly (?P<n>\d+) cards?, not (?P<given>\d+)",
        Nn_("discard exactly {n} card, not {given}", "discard exactly {n} cards, not {given}"),
    ),
    _shape(r"a card is named twice in (?P<cards>.+)", N_("a card is named twice in {cards}")),
    _shape(r"you have already discarded", N_("you have already discarded")),
    _shape(r"the discard is over; play a card", N_("the discard is over; play a card")),
    _shape(r"it is time to discard, not to play", N_("it is time to discard, not to play")),
    _shape(rf"it is {_NAME}'s turn to play", N_("it is {name}'s turn to play")),
    _shape(rf"it is {_NAME}'s turn", N_("it is {name}'s turn")),
    _shape(r"the game is over", N_("the game is over")),
    _shape(r"no deal is in progress", N_("no deal is in progress")),
    _shape(rf"{_NAME}'s count must be settled first", N_("{name}'s count must be settled first")),
    _shape(
        r"there is no count to declare or call muggins on",
        N_("there is no count to declare or call muggins on"),
    ),
    _shape(r"declare your count first, e\.g\. 'count 6'", N_("declare your count first, e.g. 'count 6'")),
    _shape(
        r"the count is declared; call 'muggins N' or 'pass'",
        N_("the count is declared; call 'muggins N' or 'pass'"),
    ),
    _shape(
        r"a count is 0 to (?P<limit>\d+), not (?P<points>-?\d+)", N_("a count is 0 to {limit}, not {points}")
    ),
    _shape(
        r"muggins claims 1 to (?P<limit>\d+) points, not (?P<points>-?\d+)",
        N_("muggins claims 1 to {limit} points, not {points}"),
    ),
    _shape(r"the (?P<phase>.+) comes first: (?P<actions>.+)", N_("the {phase} comes first: {actions}")),
    _shape(r"there is no (?P<phase>.+) phase now", N_("there is no {phase} phase now")),
    _shape(
        r"'(?P<text>.*)' is not allowed now: (?P<actions>.+)", N_("'{text}' is not allowed now: {actions}")
    ),
    # Cards typed wrong (cribcore.cards, cribcore.scoring).
    _shape(
        r"not a card: (?P<token>.+) \(write a rank A 2-9 T J Q K and a suit C D H S, "
        r"e\.g\. 5H, TS, 10s, J♣\)",
        N_("not a card: {token} (write a rank A 2-9 T J Q K and a suit C D H S, e.g. 5H, TS, 10s, J♣)"),
    ),
    _shape(r"(?P<card>\S+) is laid twice", N_("{card} is laid twice")),
    _shape(
        r"(?P<card>\S+) is named twice: a pack has one of each card",
        N_("{card} is named twice: a pack has one of each card"),
    ),
    # Parsing an action's text (cribcore.actions.parse_action).
    _shape(r"discard needs cards, e\.g\. 'discard JC QS'", N_("discard needs cards, e.g. 'discard JC QS'")),
    _shape(
        r"play takes exactly one card, e\.g\. 'play 7S'", N_("play takes exactly one card, e.g. 'play 7S'")
    ),
    # The server's errors (cribcore.server), as the board and `cribbage join` show them.
    _shape(r"action: (?P<reason>.+)", N_("action: {reason}")),
    _shape(r"that is not a seat key or invitation", N_("that is not a seat key or invitation")),
    _shape(r"that is not a seat key of this room", N_("that is not a seat key of this room")),
    _shape(
        r"that invitation is not valid \(ask for a new link\)",
        N_("that invitation is not valid (ask for a new link)"),
    ),
    _shape(
        r"there is no such invitation \(it may have expired\)",
        N_("there is no such invitation (it may have expired)"),
    ),
    _shape(r"this room is full: every seat is taken", N_("this room is full: every seat is taken")),
    _shape(
        r"this room expired after (?P<days>\d+) days without play",
        N_("this room expired after {days} days without play"),
    ),
    _shape(
        r"name: (?P<name>'.*') is already at this table: choose another",
        N_("name: {name} is already at this table: choose another"),
    ),
    _shape(
        r"names: give only your own name \(the other seats are filled in\)",
        N_("names: give only your own name (the other seats are filled in)"),
    ),
    _shape(
        r"names: (?P<profile>\S+) seats (?P<n>\d+) players, so give (?P<m>\d+) names",
        N_("names: {profile} seats {n} players, so give {m} names"),
    ),
    _shape(
        r"profile: unknown profile (?P<profile>'.*') \(use (?P<names>.+)\)",
        N_("profile: unknown profile {profile} (use {names})"),
    ),
    _shape(r"only a friend room's seats can be reopened", N_("only a friend room's seats can be reopened")),
    _shape(r"seat: reopen another player's seat", N_("seat: reopen another player's seat")),
    _shape(r"seat: that seat is not held by a player", N_("seat: that seat is not held by a player")),
    _shape(
        rf"{_NAME} is connected: only an absent seat can be reopened",
        N_("{name} is connected: only an absent seat can be reopened"),
    ),
    _shape(
        r"there is no hand to move on from: play goes on",
        N_("there is no hand to move on from: play goes on"),
    ),
    _shape(
        r"game (?P<old>\d+) has already been replaced: this is game (?P<new>\d+)",
        N_("game {old} has already been replaced: this is game {new}"),
    ),
    _shape(r"no new game has been proposed", N_("no new game has been proposed")),
    _shape(
        r"hints are for games against the computer or on one device",
        N_("hints are for games against the computer or on one device"),
    ),
    _shape(
        r"it is not your turn: there is nothing to hint", N_("it is not your turn: there is nothing to hint")
    ),
    _shape(
        rf"waiting for {_NAME} to connect: both players must be connected",
        N_("waiting for {name} to connect: both players must be connected"),
    ),
    _shape(
        rf"waiting for {_NAME} to connect: every player must be connected",
        N_("waiting for {name} to connect: every player must be connected"),
    ),
    _shape(
        r"the next hand starts when every player has pressed Next hand",
        N_("the next hand starts when every player has pressed Next hand"),
    ),
    _shape(
        r"this room's stored game cannot be read back \((?P<why>.*)\)",
        N_("this room's stored game cannot be read back ({why})"),
    ),
    _shape(
        r"the server lost its room database: reconnecting…",
        N_("the server lost its room database: reconnecting…"),
    ),
    _shape(r"the request body is over (?P<n>\d+) bytes", N_("the request body is over {n} bytes")),
    _shape(r"a message is at most (?P<n>\d+) bytes", N_("a message is at most {n} bytes")),
    _shape(
        r"too many rooms created from this address: wait a minute",
        N_("too many rooms created from this address: wait a minute"),
    ),
    _shape(
        r"nothing was sent for a long time: the connection is closed",
        N_("nothing was sent for a long time: the connection is closed"),
    ),
    _shape(
        r"too many reviews asked for from this address: wait a minute",
        N_("too many reviews asked for from this address: wait a minute"),
    ),
    _shape(
        r"too many reads of a room's state from this address: slow down",
        N_("too many reads of a room's state from this address: slow down"),
    ),
    _shape(r"too many messages: slow down", N_("too many messages: slow down")),
    _shape(r"too many messages: the connection is closed", N_("too many messages: the connection is closed")),
    _shape(r"messages are JSON text, not binary", N_("messages are JSON text, not binary")),
    _shape(r"the message is not JSON", N_("the message is not JSON")),
    _shape(r"say hello with your seat key first", N_("say hello with your seat key first")),
    _shape(
        r"the first message must be hello with your seat key",
        N_("the first message must be hello with your seat key"),
    ),
    _shape(r"this connection already holds a seat", N_("this connection already holds a seat")),
    _shape(r"this seat was opened elsewhere", N_("this seat was opened elsewhere")),
    _shape(
        r"seed: a friend room's cards cannot be chosen \(only a test server allows it\)",
        N_("seed: a friend room's cards cannot be chosen (only a test server allows it)"),
    ),
    _shape(
        r"Content-Type: the body must be JSON \(application/json\)",
        N_("Content-Type: the body must be JSON (application/json)"),
    ),
    _shape(
        r"this server answers only its own pages \(the Origin is another site\)",
        N_("this server answers only its own pages (the Origin is another site)"),
    ),
    # A name refused (cribcore.server.messages.clean_name), alone or after its field.
    _shape(r"a name must not be empty", N_("a name must not be empty")),
    _shape(r"a name has at most (?P<n>\d+) characters", N_("a name has at most {n} characters")),
    _shape(
        r"a name must be printable text \(no control characters\)",
        N_("a name must be printable text (no control characters)"),
    ),
    _shape(
        r"a name has at most (?P<n>\d+) accents on one letter",
        N_("a name has at most {n} accents on one letter"),
    ),
    _shape(r"a name must not look like a computer seat's", N_("a name must not look like a computer seat's")),
    _shape(r"a name must not look like an empty seat's", N_("a name must not look like an empty seat's")),
    _shape(
        r"the server could not do that, and nothing changed: (?P<reason>.+)",
        N_("the server could not do that, and nothing changed: {reason}"),
    ),
    # A profile file's value refused (cribcore.profiles), after its file and key.
    _shape(r"(?P<name>'.*') is named twice", N_("{name} is named twice")),
    _shape(
        r"must be one line of printable text \(no control characters\)",
        N_("must be one line of printable text (no control characters)"),
    ),
    # A save file that cannot be used (cribcore.saves), after the file it names.
    _shape(rf"{_WHERE}: no saved game", N_("{where}: no saved game")),
    _shape(rf"{_WHERE}: the file is empty \(truncated\)", N_("{where}: the file is empty (truncated)")),
    _shape(
        rf"{_WHERE}: the file ends too soon \(truncated\)", N_("{where}: the file ends too soon (truncated)")
    ),
    _shape(
        rf"{_WHERE}: not valid JSON \((?P<why>.+) at line (?P<line>\d+)\)",
        N_("{where}: not valid JSON ({why} at line {line})"),
    ),
    _shape(
        rf"{_WHERE}: not a cribcore save \(a save is a JSON object\)",
        N_("{where}: not a cribcore save (a save is a JSON object)"),
    ),
    _shape(
        rf"{_WHERE}: not a cribcore save \(not UTF-8 text\)",
        N_("{where}: not a cribcore save (not UTF-8 text)"),
    ),
    _shape(
        rf"{_WHERE}: not a cribcore save \(format (?P<format>.+)\)",
        N_("{where}: not a cribcore save (format {format})"),
    ),
    _shape(rf"{_WHERE}: not a cribcore save \((?P<why>.+)\)", N_("{where}: not a cribcore save ({why})")),
    _shape(
        rf"{_WHERE}: saved by a newer cribcore \(save format version (?P<version>\d+); this one reads "
        r"version (?P<current>\d+)\): update cribcore to resume it",
        N_(
            "{where}: saved by a newer cribcore (save format version {version}; this one reads version "
            "{current}): update cribcore to resume it"
        ),
    ),
    _shape(
        rf"{_WHERE}: version: must be (?P<version>\d+), not (?P<given>.+)",
        N_("{where}: version: must be {version}, not {given}"),
    ),
    _shape(
        rf"{_WHERE}: seats\.(?P<number>\d+): computer kind (?P<kind>.+) is not available here",
        N_("{where}: seats.{number}: computer kind {kind} is not available here"),
    ),
    _shape(
        rf"{_WHERE}: level: computer level (?P<level>.+) is not available here",
        N_("{where}: level: computer level {level} is not available here"),
    ),
    _shape(
        rf"{_WHERE}: mode: a save of a game against the computer, in the slot for games on this device",
        N_("{where}: mode: a save of a game against the computer, in the slot for games on this device"),
    ),
    _shape(
        rf"{_WHERE}: mode: a save of a game on this device, in the slot for games against the computer",
        N_("{where}: mode: a save of a game on this device, in the slot for games against the computer"),
    ),
    _shape(
        rf"{_WHERE}: mode: (?P<mode>'.*') does not fit seats (?P<kinds>.+)",
        N_("{where}: mode: {mode} does not fit seats {kinds}"),
    ),
    _shape(
        rf"{_WHERE}: the saved game cannot be replayed: (?P<why>.+)",
        N_("{where}: the saved game cannot be replayed: {why}"),
    ),
    _shape(
        rf"{_WHERE}: seats: the names (?P<names>\[.*\]) are not the game's players (?P<players>\[.*\])",
        N_("{where}: seats: the names {names} are not the game's players {players}"),
    ),
    _shape(
        rf"{_WHERE}: scores: (?P<points>\d+) for side (?P<side>\d+) is at or above the target "
        r"(?P<target>\d+), yet the game is not over",
        N_(
            "{where}: scores: {points} for side {side} is at or above the target {target}, "
            "yet the game is not over"
        ),
    ),
    _shape(
        rf"{_WHERE}: scores: the save says (?P<saved>\[.*\]) but its cards give (?P<given>\[.*\])",
        N_("{where}: scores: the save says {saved} but its cards give {given}"),
    ),
    _shape(
        rf"{_WHERE}: game: the record has no seed to deal the cards to come",
        N_("{where}: game: the record has no seed to deal the cards to come"),
    ),
    _shape(
        rf"{_WHERE}: match\.results\.(?P<number>\d+): does not fit a game of (?P<sides>\d+) sides",
        N_("{where}: match.results.{number}: does not fit a game of {sides} sides"),
    ),
    _shape(
        rf"{_WHERE}: match\.results\.(?P<number>\d+): a score is below 0",
        N_("{where}: match.results.{number}: a score is below 0"),
    ),
    _shape(
        rf"{_WHERE}: match: all (?P<games>\d+) games are already played",
        N_("{where}: match: all {games} games are already played"),
    ),
    _shape(
        rf"{_WHERE}: match: game (?P<number>\d+) should have seed (?P<seed>\d+)",
        N_("{where}: match: game {number} should have seed {seed}"),
    ),
    # The coach's refusals of a record it cannot review (cribcore.review).
    _shape(
        r"seat (?P<seat>\d+): the record has seats 0 to (?P<last>\d+)",
        N_("seat {seat}: the record has seats 0 to {last}"),
    ),
    _shape(
        r"profile (?P<profile>.+): the coach judges games of the standard pack only",
        N_("profile {profile}: the coach judges games of the standard pack only"),
    ),
    _shape(r"the review comes when the game is over", N_("the review comes when the game is over")),
    _shape(r"no review: (?P<reason>.+)", N_("no review: {reason}")),
    _shape(
        r"cannot keep saves in (?P<folder>.+): (?P<file>.+) is a file, not a folder \(move it away, or set "
        r"(?P<variable>\w+) to a folder\)",
        N_(
            "cannot keep saves in {folder}: {file} is a file, not a folder (move it away, or set {variable} "
            "to a folder)"
        ),
    ),
    _shape(rf"{_WHERE}: cannot read: not a folder", N_("{where}: cannot read: not a folder")),
    _shape(rf"{_WHERE}: is a folder, not a save", N_("{where}: is a folder, not a save")),
    _shape(
        rf"{_WHERE}: the save was changed after cribcore wrote it \(its checksum does not match\)",
        N_("{where}: the save was changed after cribcore wrote it (its checksum does not match)"),
    ),
    _shape(
        rf"{_WHERE}: the save file was changed by something else",
        N_("{where}: the save file was changed by something else"),
    ),
    _shape(rf"{_WHERE}: cannot read: (?P<why>.+)", N_("{where}: cannot read: {why}")),
    _shape(
        r"unknown save mode (?P<mode>'.*'): use (?P<modes>.+)", N_("unknown save mode {mode}: use {modes}")
    ),
    # An option's value refused, after the option (the option's name is the command line's own).
    _shape(r"(?P<option>--[a-z][\w-]*): (?P<reason>.+)", N_("{option}: {reason}")),
    # Choosing the language (cribcore.i18n).
    _shape(
        r"no such language: (?P<lang>'.*') \(choose (?P<first>\w+) or (?P<second>\w+)\)",
        N_("no such language: {lang} (choose {first} or {second})"),
    ),
    _shape(
        r"--lang needs a value: (?P<first>\w+) or (?P<second>\w+)",
        N_("--lang needs a value: {first} or {second}"),
    ),
    # A game record that cannot be read (cribcore.records), in the words most met.
    _shape(rf"{_WHERE}: no such file", N_("{where}: no such file")),
    _shape(rf"{_WHERE}: is a folder, not a file", N_("{where}: is a folder, not a file")),
    _shape(
        rf"{_WHERE}: not an ordinary file \(a device, pipe or socket\)",
        N_("{where}: not an ordinary file (a device, pipe or socket)"),
    ),
    _shape(
        rf"{_WHERE}: too large to be a record \(over (?P<limit>\d+) MB\)",
        N_("{where}: too large to be a record (over {limit} MB)"),
    ),
    _shape(
        rf"{_WHERE}: too large to be a save \(over (?P<limit>\d+) MB\)",
        N_("{where}: too large to be a save (over {limit} MB)"),
    ),
    _shape(
        r"deals: (?P<n>\d+) deals, more than a game can have \(at most (?P<limit>\d+)\)",
        N_("deals: {n} deals, more than a game can have (at most {limit})"),
    ),
    _shape(rf"{_WHERE}: a record is a JSON object", N_("{where}: a record is a JSON object")),
    _shape(r"a record is a JSON object", N_("a record is a JSON object")),
    _shape(rf"{_WHERE}: not a record: (?P<why>.+)", N_("{where}: not a record: {why}")),
    _shape(r"not a record: (?P<why>.+)", N_("not a record: {why}")),
    _shape(
        r"record version (?P<version>\d+) is newer than this cribcore reads \((?P<current>\d+)\)",
        N_("record version {version} is newer than this cribcore reads ({current})"),
    ),
    _shape(
        r"version: must be 1 to (?P<current>\d+), not (?P<version>.+)",
        N_("version: must be 1 to {current}, not {version}"),
    ),
    _shape(
        r"this profile seats (?P<n>\d+) players, not (?P<given>\d+)",
        N_("this profile seats {n} players, not {given}"),
    ),
    _shape(
        r"the record was played with other plugin versions: (?P<changed>.+); replaying anyway",
        N_("the record was played with other plugin versions: {changed}; replaying anyway"),
    ),
    # A profile that cannot be used (cribcore.profiles), in the words most met.
    _shape(rf"{_WHERE}: no such profile file", N_("{where}: no such profile file")),
    _shape(rf"{_WHERE}: not a profile file", N_("{where}: not a profile file")),
    _shape(rf"{_WHERE}: TOML syntax error: (?P<why>.+)", N_("{where}: TOML syntax error: {why}")),
    _shape(
        r"unknown profile (?P<name>'.*') \(built-in: (?P<names>[^;]+); from packages: (?P<shipped>.+); "
        r"or a \.toml file\)",
        N_("unknown profile {name} (built-in: {names}; from packages: {shipped}; or a .toml file)"),
    ),
    _shape(
        r"unknown profile (?P<name>'.*') \(built-in: (?P<names>.+); or a \.toml file\)",
        N_("unknown profile {name} (built-in: {names}; or a .toml file)"),
    ),
    # Profiles installed packages ship (cribcore.packaged_profiles).
    _shape(
        r"profile (?P<name>'.*') is registered by several packages \((?P<names>.+)\); uninstall all but one",
        N_("profile {name} is registered by several packages ({names}); uninstall all but one"),
    ),
    _shape(
        r"profile (?P<name>'.*') of (?P<names>.+) is not used: a built-in profile has that name",
        N_("profile {name} of {names} is not used: a built-in profile has that name"),
    ),
    _shape(
        r"profile (?P<name>'.*') of (?P<names>.+?) cannot be used: (?P<reason>.+)",
        N_("profile {name} of {names} cannot be used: {reason}"),
    ),
    _shape(
        rf"{_WHERE}: name: must be (?P<name>'.*'), the name its package registers",
        N_("{where}: name: must be {name}, the name its package registers"),
    ),
    _shape(
        rf"{_WHERE}: extends: a packaged profile extends a profile by name, not a file",
        N_("{where}: extends: a packaged profile extends a profile by name, not a file"),
    ),
    _shape(
        r"unknown built-in profile (?P<name>'.*') \(built-in: (?P<names>.+)\)",
        N_("unknown built-in profile {name} (built-in: {names})"),
    ),
    _shape(
        r"unknown plugin (?P<name>'.*') \(installed: (?P<names>.+)\)",
        N_("unknown plugin {name} (installed: {names})"),
    ),
    _shape(rf"{_WHERE}: plugins: (?P<reason>.+)", N_("{where}: plugins: {reason}")),
    # A link `cribbage join` cannot use (cribcore.netclient).
    _shape(
        r"not a server link: (?P<link>'.*') \((?P<why>.+)\); " + _EXPECTED,
        N_(
            "not a server link: {link} ({why}); "
            "expected http://HOST:PORT/#join=CODE (an invitation) or "
            "http://HOST:PORT/#key=KEY (your seat)"
        ),
    ),
    _shape(
        r"not a server link: (?P<link>'.*'); " + _EXPECTED,
        N_(
            "not a server link: {link}; "
            "expected http://HOST:PORT/#join=CODE (an invitation) or "
            "http://HOST:PORT/#key=KEY (your seat)"
        ),
    ),
    _shape(
        r"the link (?P<link>'.*') has both an invitation and a key; " + _EXPECTED,
        N_(
            "the link {link} has both an invitation and a key; "
            "expected http://HOST:PORT/#join=CODE (an invitation) or "
            "http://HOST:PORT/#key=KEY (your seat)"
        ),
    ),
    _shape(
        r"the link (?P<link>'.*') has no invitation \(#join=CODE\); " + _EXPECTED,
        N_(
            "the link {link} has no invitation (#join=CODE); "
            "expected http://HOST:PORT/#join=CODE (an invitation) or "
            "http://HOST:PORT/#key=KEY (your seat)"
        ),
    ),
    _shape(
        r"the invitation in (?P<link>'.*') is not one; " + _EXPECTED,
        N_(
            "the invitation in {link} is not one; "
            "expected http://HOST:PORT/#join=CODE (an invitation) or "
            "http://HOST:PORT/#key=KEY (your seat)"
        ),
    ),
    _shape(
        r"the key in (?P<link>'.*') is not one; " + _EXPECTED,
        N_(
            "the key in {link} is not one; "
            "expected http://HOST:PORT/#join=CODE (an invitation) or "
            "http://HOST:PORT/#key=KEY (your seat)"
        ),
    ),
    # Last: a request's field and what is wrong with it (the field's name is the protocol's own).
    _shape(r"(?P<field>[a-z_][\w.]*): (?P<reason>.+)", N_("{field}: {reason}")),
)
"""Every message shape `say` translates, the engine's refusals first. The first whose pattern matches
the whole message is taken."""

_CARD_FIELDS = frozenset({"card", "cards"})


def _symbols(card: Card) -> str:
    """A card as the boards draw it: ``10♥``, ``Q♠`` (a plugin's extra card as its own text)."""
    if not card.standard:
        return str(card)
    rank = "10" if card.rank.symbol == "T" else card.rank.symbol
    return rank + card.suit.symbol


def _cards(text: str, card: Callable[[Card], str]) -> str:
    try:
        return " ".join(card(parse_card(token)) for token in text.split())
    except CardParseError:
        return text


_INSTALLED = re.compile(r"\(installed: ([^)]*)\)")
"""A plugin's installed version in the list of changed versions (cribcore.records)."""


def _installed(version: str, lang: str) -> str:
    shown = gettext(N_("unknown"), lang) if version == "unknown" else version
    return gettext(N_("(installed: {version})"), lang).format(version=shown)


def say(message: str, lang: str | None = None, *, card: Callable[[Card], str] = _symbols) -> str:
    """``message`` (an English message of the engine or the server) in ``lang`` (default: the current
    language): its shape's catalog entry with the fields filled in, cards drawn with ``card``. English,
    and a message of no known shape, come back unchanged."""
    code = current_language() if lang is None else lang
    if code == DEFAULT_LANGUAGE:
        return message
    for shape in SHAPES:
        found = shape.pattern.fullmatch(message)
        if found is None:
            continue
        fields = found.groupdict()
        for key, value in fields.items():
            if key in _CARD_FIELDS:
                fields[key] = _cards(value, card)
            elif key == "reason":
                fields[key] = say(value, code, card=card)
            elif key == "changed":
                fields[key] = _INSTALLED.sub(lambda m: _installed(m[1], code), value)
        if shape.plural is not None:
            template = ngettext(shape.message, shape.plural, int(fields["n"]), code)
        else:
            template = gettext(shape.message, code)
        return template.format(**fields)
    return message


VALIDATION_TYPES: dict[str, str | tuple[str, str]] = {
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "missing": N_("Field required"),
    "int_type": N_("Input should be a valid integer"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "float_type": N_("Input should be a valid number"),
    "string_type": N_("Input should be a valid string"),
    "bool_type": N_("Input should be a valid boolean"),
    "dict_type": N_("Input should be a valid dictionary"),
    "list_type": N_("Input should be a valid list"),
    "tuple_type": N_("Input should be a valid tuple"),
    "model_type": N_("Input should be a valid dictionary or instance of {class_name}"),
    "literal_error": N_("Input should be {expected}"),
    "enum": N_("Input should be {expected}"),
    "greater_than": N_("Input should be greater than {gt}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than": N_("Input should be less than {lt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "string_too_short": Nn_(
        "String should have at least {min_length} character",
        "String should have at least {min_length} characters",
    ),
    "string_too_long": Nn_(
        "String should have at most {max_length} character",
        "String should have at most {max_length} characters",
    ),
    "string_pattern_mismatch": N_("String should match pattern '{pattern}'"),
    "too_short": Nn_(
        "{field_type} should have at least {min_length} item after validation, not {actual_length}",
        "{field_type} should have at least {min_length} items after validation, not {actual_length}",
    ),
    "too_long": Nn_(
        "{field_type} should have at most {max_length} item after validation, not {actual_length}",
        "{field_type} should have at most {max_length} items after validation, not {actual_length}",
    ),
    "json_invalid": N_("Invalid JSON: {error}"),
}
"""pydantic's error messages a user can meet in a profile, a save or a record, by their ``type`` code,
each with pydantic's English wording and its context's fields as placeholders (a plural's number is
the first field of its kind, ``min_length`` or ``max_length``)."""

_PLURAL_FIELDS = ("min_length", "max_length")
_VALUE_ERROR = "Value error, "


def _context_value(value: object) -> str:
    # pydantic writes a whole float bound without its ".0" (le=4.0 reads "less than or equal to 4").
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def validation_reason(error: Mapping[str, Any], lang: str | None = None) -> str:
    """One pydantic error (an item of ``ValidationError.errors()``) as a user reads it in ``lang``
    (default: the current language): its ``type`` code's catalog entry with the context filled in; a
    validator's own reason (``value_error``) said as `say` says it. English, and a type of no known
    message, are pydantic's own words (without its ``Value error,`` prefix)."""
    code = current_language() if lang is None else lang
    english = str(error.get("msg", "")).removeprefix(_VALUE_ERROR)
    if code == DEFAULT_LANGUAGE:
        return english
    kind = error.get("type")
    if kind == "value_error":
        return say(english, code)
    message = VALIDATION_TYPES.get(str(kind))
    if message is None:
        return english
    fields = {key: _context_value(value) for key, value in (error.get("ctx") or {}).items()}
    if kind in ("literal_error", "enum") and "expected" in fields:
        fields["expected"] = fields["expected"].replace("' or '", "' " + gettext("or", code) + " '")
    try:
        if isinstance(message, tuple):
            n = next(int(fields[key]) for key in _PLURAL_FIELDS if key in fields)
            return ngettext(*message, n, code).format(**fields)
        return gettext(message, code).format(**fields)
    except (KeyError, ValueError, StopIteration, IndexError):  # a context pydantic changed: its words
        return english


def _validation_error(exc: BaseException) -> Any | None:
    """The pydantic `ValidationError` an exception was raised from (its cause or context), if any."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if type(current).__name__ == "ValidationError" and hasattr(current, "errors"):
            return current
        current = current.__cause__ or current.__context__
    return None


def say_error(exc: BaseException, lang: str | None = None, *, card: Callable[[Card], str] = _symbols) -> str:
    """An error's message as a person reads it in ``lang`` (default: the current language): raised
    from a pydantic `ValidationError` (a profile's, a save's), the message's closing reason is that
    error's, said by its ``type`` (`validation_reason`); any other message is said by `say`. English
    is ``str(exc)``, always."""
    message = str(exc)
    code = current_language() if lang is None else lang
    if code == DEFAULT_LANGUAGE:
        return message
    found = _validation_error(exc)
    if found is not None:
        errors = found.errors()
        english = str(errors[0].get("msg", "")).removeprefix(_VALUE_ERROR) if errors else ""
        if english and message.endswith(english):
            return message[: len(message) - len(english)] + validation_reason(errors[0], code)
    return say(message, code, card=card)
