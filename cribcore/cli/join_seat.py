"""Taking a seat at a server for ``cribbage join`` (the table itself is `cribcore.cli.join_table`): by
a seat's own link (its key), by the key kept for an invitation in the seat book
(`cribcore.cli.seat_book`), or by asking the server for a new seat with the invitation; and the one
line said when the server refuses.
"""

from __future__ import annotations

import datetime as _dt

from ..i18n import _
from ..netclient import Link, NetError, Refused, SeatClient, join
from ..server.messages import clean_name
from ..speech_messages import say
from .prompt import Reader
from .seat_book import SeatBook

__all__ = ["refusal_line", "rejoin_command", "take_seat"]


def rejoin_command(link: Link) -> str:
    """The command that goes back to the seat ``link`` took: ``cribbage join`` with the same secret."""
    secret = f"#join={link.invite}" if link.invite is not None else f"#key={link.key}"
    return f"cribbage join {link.base}/{secret}"


def take_seat(link: Link, name: str | None, reader: Reader) -> tuple[SeatClient, bool]:
    """Connect to the seat ``link`` gives: its key, the key kept for its invitation, or a new seat
    taken with the invitation. Returns the connected client and whether the seat was held before."""
    if link.key is not None:
        client = SeatClient(link, link.key)
        _connect(client, link)
        return client, True
    assert link.invite is not None
    book = SeatBook.load()
    kept = book.find(link.base, link.invite)
    if kept is not None:
        client = SeatClient(link, kept["key"])
        try:
            client.connect()
            return client, True
        except Refused as exc:
            if exc.code not in ("bad-key", "no-room"):
                raise NetError(refusal_line(exc, link)) from None
            # The key kept is no good any more (the room is gone, or was made again): forget it,
            # and ask for a seat with the invitation, which says whether it is still good.
            book.remove(link.base, link.invite)
    if name is None:
        name = _ask_name(reader)
    try:
        joined = join(link, name)
    except Refused as exc:
        raise NetError(refusal_line(exc, link)) from None
    book.put(
        {
            "server": link.base,
            "invite": link.invite,
            "key": joined.key,
            "room": joined.room,
            "seat": joined.seat,
            "name": name,
            "joined": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        }
    )
    client = SeatClient(link, joined.key)
    _connect(client, link)
    return client, False


def _connect(client: SeatClient, link: Link) -> None:
    try:
        client.connect()
    except Refused as exc:
        raise NetError(refusal_line(exc, link)) from None


def refusal_line(exc: Refused, link: Link) -> str:
    """The one line said when the server at ``link`` refused (``exc``): what it said, and what to do."""
    where = link.base
    why = say(str(exc))
    if exc.code == "expired":
        return _("the room at {where} has expired: {why}").format(where=where, why=why)
    if exc.code == "full":
        return _(
            "the room at {where} is full: {why}. If a seat is yours, rejoin where you joined, or with "
            "the seat's own link (#key=KEY; 'help' at a prompt there shows it)"
        ).format(where=where, why=why)
    if exc.code in ("no-room", "bad-key"):
        if link.invite is not None:
            line = _("{where} refused the invitation: {why}. Check the link, or ask for a new one")
        else:
            line = _("{where} refused the seat link: {why}. Check the link, or ask for a new one")
        return line.format(where=where, why=why)
    return _("{where} refused: {why}").format(where=where, why=why)


def _ask_name(reader: Reader) -> str:
    while True:
        text = reader.line(_("Your name at the table: "))
        try:
            return clean_name(text)
        except ValueError as exc:
            said = say(str(exc))
            reader.problem(f"{said[:1].upper()}{said[1:]}.")
