"""The table of ``cribbage join LINK``: take a seat at a game on a cribbage server (``cribbage serve``)
and play it from the terminal, against a browser or another terminal.

LINK is an invitation (``http://HOST:PORT/#join=CODE``) or a seat's own link
(``http://HOST:PORT/#key=KEY``). Joining by invitation asks the server for a seat (``--name``, or the
name asked at a prompt) and keeps the seat key it answers in the data directory (``seats.json``, see
`cribcore.cli.seat_book`), under the server and the invitation; the same command run again goes back
to that seat, since an invitation is used up once every seat is taken.

`NetTable` is the network transport of the terminal's one table driver (`cribcore.cli.table_driver`,
the protocol in `cribcore.cli.transport`), which runs the turn loop; the table is the terminal's usual
one: the `Narrator` tells the events the server sends this seat (which
never hold another seat's hidden cards), `seat_table` draws the seat's view before each decision, and
`ask_action` reads the decision, checked against the view's legal actions before it is sent (the server
checks it again and has the last word; a refusal is one line and the question is asked again). The
client decides nothing: it shows who the play waits for, the pause between hands (Enter sends ``next``),
the end of a game (Enter starts a new one), the other side's proposal of a new game (agree or decline),
and each refusal from the server as one line. Leaving (``quit``, Ctrl-C, Ctrl-D) keeps the seat. A
connection that drops is opened again, a few times, before the command gives up.
"""

from __future__ import annotations

import argparse
import os
import select
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from ..actions import Action, parse_action
from ..i18n import N_, _, ngettext
from ..netclient import (
    Dropped,
    NetError,
    Refusal,
    Refused,
    SeatClient,
    State,
    parse_link,
    printable,
)
from ..server.messages import CLOSE_CODES, clean_name
from ..speech_messages import say
from ..views import SeatView
from .commands import UsageError
from .describe import Voice, number_words
from .errors import report
from .join_seat import refusal_line, rejoin_command, take_seat
from .narrate import Narrator
from .prompt import QuitGame, Reader, command_word, prompt_help
from .render import Painter, make_console
from .seat_book import SEATS_FILE, SeatBook, seats_path
from .table_driver import TableDriver, arrive, show_board
from .table_steps import print_heading, print_help_hint, table_title, tell_events, where_in_game
from .transport import Turn

if TYPE_CHECKING:
    from ..players.hints import Hint

# The seat book lives in seat_book; its names are still importable from here, as they were.
__all__ = ["SEATS_FILE", "NetTable", "SeatBook", "join_command", "seats_path"]

POLL = 0.15
"""Seconds between looks at the keyboard while the table waits for the server."""

_QUIT_WORDS = frozenset({"q", "quit", "exit"})

_WAITING_HELP = N_("""\
It is not your turn: the table is waiting for the server (another player, or a connection).
You may type: board (the pegging board), new (propose a new game), quit or q (leave; your seat is kept).
Ctrl-C also leaves.""")


# ----------------------------------------------------------------------------- the command


def join_command(args: argparse.Namespace, console: Console) -> int:
    """``cribbage join``: see `cribcore.cli.join_cmd`."""
    name: str | None = None
    if args.name is not None:
        try:
            name = clean_name(args.name)
        except ValueError as exc:
            raise UsageError(f"--name: {exc}", "join") from None
    link = parse_link(args.link)
    if args.ascii:
        console = make_console(ascii_only=True)
    if sys.stdin is None:
        raise ValueError(_("playing needs standard input, and it is closed"))
    reader = Reader(console, interactive=sys.stdin.isatty())
    try:
        client, rejoined = take_seat(link, name, reader)
    except QuitGame as stop:
        if stop.code:
            report(_("{reason}: no name was given (use --name NAME)").format(reason=stop.reason))
        return stop.code
    table = NetTable(console, reader, client, rejoin_command(link), rejoined=rejoined)
    return table.run()


# ----------------------------------------------------------------------------- checking against a view


def _server_decides(action: Action) -> None:
    """The check `ask_action` runs before an action is sent: none here. The server checks every action
    with the engine and has the last word; its refusal is shown as one line and the question asked
    again, so the rules' reasons live in the engine alone."""
    del action


# ----------------------------------------------------------------------------- the table


class NetTable:
    """Plays one seat of a server's room at this terminal; see the module docstring."""

    def __init__(
        self, console: Console, reader: Reader, client: SeatClient, rejoin: str, *, rejoined: bool
    ) -> None:
        self.console = console
        self.reader = reader
        self.client = client
        self.rejoin = rejoin
        self.rejoined = rejoined
        self.painter = Painter.for_console(console)
        self.narrator: Narrator | None = None
        self.voice: Voice | None = None
        self.names: tuple[str, ...] = ()
        self.game: int | None = None
        self.told = 0
        self.pending: tuple[Any, ...] | None = None
        """What the seat's turn looked like when its action was sent (no asking again until it changes)."""
        self.next_sent: tuple[int, Any] | None = None
        self.over_seen: int | None = None
        self.proposal_seen: Mapping[str, Any] | None = None
        self.proposal_answered = False
        self.idle: str | None = None
        """What the table waits for, said once the wait lasts."""
        self.said: str | None = None
        self.invite_shown = False
        self.missing: tuple[str, ...] = ()
        """The players the play was last said to wait for."""
        self.asked: tuple[Any, ...] | None = None
        """What the seat's turn looked like when it was asked for the action being sent."""
        self.wait_next = False
        """Whether to wait for the server before deciding again."""

    # ------------------------------------------------------------------ the loop

    def run(self) -> int:
        """Play until the person leaves, at the terminal's table
        (`cribcore.cli.table_driver.TableDriver`, with this table as its transport); return the exit
        status (0 on leaving, 1 when piped input ended, 130 after Ctrl-C away from a prompt). A
        connection that cannot be had back raises `NetError`."""
        return TableDriver(self.console, self.reader, self.painter, self).run()

    # ------------------------------------------------------------------ the transport

    def begin(self) -> None:
        state = self.client.state
        assert state is not None
        self._take(state)

    def advance(self) -> Turn | None:
        while True:
            try:
                if self.wait_next:
                    self.wait_next = False
                    self._wait()
                step = self._act()
                if step is None or isinstance(step, Turn):
                    return step
                if not step:
                    self._wait()
            except Dropped as exc:
                self._recover(exc)

    def send(self, turn: Turn, action: Action) -> None:
        del turn  # what was asked is `asked`, the turn's key
        try:
            self._send(action)
            self.wait_next = True
        except Dropped as exc:
            self._recover(exc)

    def game_over(self) -> bool:
        state = self.client.state
        assert state is not None
        try:
            self.wait_next = not self._game_over(state)
        except Dropped as exc:
            self._recover(exc)
        return True

    def restart(self) -> None:
        """Never asked for: at a server, ``new`` proposes a new game to the other players."""

    def leave(self) -> None:
        self._leave()

    def stop_line(self, reason: str) -> str:
        return _("{reason}; the seat is kept").format(reason=reason)

    def close(self) -> None:
        self.client.close()

    # ------------------------------------------------------------------ the connection

    def _wait(self) -> None:
        """Wait for the server, reading what is typed meanwhile; then take every message there is."""
        while True:
            got = self.client.receive(timeout=POLL)
            if got is not None:
                self._take(got)
                break
            if self.idle is not None and self.idle != self.said:
                self.console.print(Text(self.idle, style="dim"))
                self.said = self.idle
            if self._typed():
                self._typed_while_waiting()
        self._drain()

    def _drain(self) -> None:
        while (got := self.client.receive(timeout=0)) is not None:
            self._take(got)

    def _recover(self, exc: Dropped) -> None:
        """Connect again after ``exc`` (a few attempts), and take the seat's full state; raise
        `NetError` when the connection cannot be had back."""
        while True:
            if exc.permanent:
                if exc.code == CLOSE_CODES["replaced"]:
                    raise NetError(
                        _("{why}: this window stops (the seat is played from the other one)").format(
                            why=say(str(exc))
                        )
                    )
                raise NetError(_("the server closed the connection: {why}").format(why=say(str(exc))))
            self.console.print(
                Text(
                    _("Lost the connection to the server ({why}). Connecting again…").format(why=exc),
                    "yellow",
                )
            )
            try:
                state = self.client.reconnect()
            except Refused as refused:
                raise NetError(refusal_line(refused, self.client.link)) from None
            except NetError as failure:
                raise NetError(
                    _(
                        "the connection to the server was lost and could not be made again: {why}. "
                        "Your seat is kept: rejoin with '{rejoin}'"
                    ).format(why=failure, rejoin=self.rejoin)
                ) from None
            self.console.print(Text(_("Connected again."), style="dim"))
            # What was sent just before the connection went may never have arrived: the new state
            # says what is still to do, and it is asked for again.
            self.pending = self.next_sent = self.over_seen = None
            self.proposal_answered = False
            try:
                self._take(state)  # (it may pause between hands, and send)
                return
            except Dropped as again:
                exc = again

    # ------------------------------------------------------------------ messages

    def _take(self, got: State | Refusal) -> None:
        if isinstance(got, Refusal):
            self.pending = None  # what was refused is asked for again
            self.next_sent = None
            said = say(got.message, card=self.painter.plain)
            self.reader.problem(
                _("The server says: {message}").format(message=f"{said[:1].upper()}{said[1:]}")
            )
            return
        view = got.view
        if got.game != self.game:
            self._new_game(got)
        elif self._names(view) != self.names:
            self._rebuild_narrator(view)
        if self.pending is not None and self.pending != self._turn_key(got):
            self.pending = None
        self._narrate(got)

    def _names(self, view: SeatView) -> tuple[str, ...]:
        return tuple(printable(name, 40) for name in view.players)

    def _new_game(self, state: State) -> None:
        view = state.view
        first = self.game is None
        self.game = state.game
        self.told = 0
        self.next_sent = None
        self.proposal_seen = None
        self.proposal_answered = False
        self.pending = None
        self._rebuild_narrator(view)
        assert self.voice is not None
        console = self.console
        rules = view.rules
        profile = printable(view.profile, 40)
        console.print()
        if not first:
            console.print(
                Text(_("A new game: game {number} at this table.").format(number=state.game), style="bold")
            )
        goal = Voice.for_game(self.names, rules).goal(rules)
        print_heading(console, table_title(self.names, profile), goal)
        if first:
            you = self.names[view.seat]
            seated = _("Back at {server} as {name}.") if self.rejoined else _("Seated at {server} as {name}.")
            console.print(seated.format(server=self.client.link.base, name=you))
            console.print(
                Text(
                    _("Leaving keeps your seat; rejoin with: {rejoin}").format(rejoin=self.rejoin),
                    style="dim",
                )
            )
            print_help_hint(console)

    def _rebuild_narrator(self, view: SeatView) -> None:
        self.names = self._names(view)
        self.voice = Voice.for_game(self.names, view.rules, you=view.seat)
        self.narrator = Narrator(
            self.console, self.painter, self.voice, rules=view.rules, pause=self._pause_between_hands
        )
        self.narrator.absorb(view.events[: self.told])

    def _narrate(self, state: State) -> None:
        assert self.narrator is not None and self.voice is not None
        events = state.view.events
        if self.told > len(events):  # the log was replaced by a shorter one: tell it again
            self.told = 0
            self._rebuild_narrator(state.view)
        if self.told == 0:
            between = state.between_hands is not None and state.view.seat not in state.ready
            # Between hands, the show before the pause is told again; in the first deal, the cut too.
            arrive(
                self.console,
                self.narrator,
                self.voice,
                events,
                sides=state.view.rules.sides,
                show_before=between,
                with_cut=True,
                say_from=True,
            )
        else:
            tell_events(self.narrator, events[self.told :], arriving=False)
        self.told = len(events)

    # ------------------------------------------------------------------ deciding

    def _act(self) -> Turn | bool | None:
        """Do what the latest state asks of this seat: the `Turn` when it is this seat's to decide,
        ``None`` when a game has just ended, else whether to decide again at once (``False``: wait
        for the server first)."""
        state = self.client.state
        assert state is not None
        view = state.view
        me = view.seat
        self.idle = None
        self._notices(state)
        proposal = state.new_game
        if proposal is not None and me not in state.agreed and not self.proposal_answered:
            self.proposal_answered = True
            self._answer_proposal(proposal)
            return False
        if view.phase == "over":
            if self.over_seen != state.game:
                self.over_seen = state.game
                return None
            self.idle = _("Waiting for a new game (or type q to leave).")
            return False
        if state.between_hands is not None:
            if me not in state.ready:
                return self._between_hands(state)
            others = [self.names[s] for s in self._humans(state) if s not in state.ready]
            self.idle = _("Waiting for {names} to be ready for the next hand.").format(
                names=_and_list(others) or _("the others")
            )
            return False
        if state.waiting_for:
            return False  # said by _notices
        if self.pending is not None:
            return False
        if view.my_turn:
            return self._turn(state)
        movers = [self.names[s] for s in view.to_act if s != me]
        if movers:
            self.idle = _waiting_for_move(view).format(names=_and_list(movers))
        return False

    def _turn_key(self, state: State) -> tuple[Any, ...]:
        view = state.view
        return (state.game, view.deal, view.phase, view.legal_actions, view.hand, view.claim_stage)

    def _turn(self, state: State) -> Turn:
        assert self.narrator is not None and self.voice is not None
        self.said = None  # what the table waited for is said again after this turn
        self.asked = self._turn_key(state)
        return Turn(
            state.view.seat,
            state.view,
            self.voice,
            self.narrator,
            _server_decides,
            commands=self._commands(),
            help_text=self._help(),
            held_here=False,
            hints=state.room.get("mode") != "friend",
            hinter=self._server_hint,
        )

    def _send(self, action: Action) -> None:
        key = self.asked
        try:
            self.client.act(action)
        except Dropped as exc:
            self._recover(exc)
            latest = self.client.state
            if latest is None or self._turn_key(latest) != key:
                return  # the table moved on meanwhile: decide again from where it is
            self.client.act(action)  # it never left this terminal: send it on the new connection
        self.pending = key

    def _server_hint(self, view: SeatView) -> Hint:
        """The server's hint, as the board asks for it: the server knows the table's house rules
        (a profile of its own) and the true count, which this terminal may not."""
        from ..players.hints import Hint

        del view  # the server judges its own view of this seat
        answer = self.client.hint()
        return Hint(parse_action(answer.action), answer.reason)

    def _help(self) -> str:
        friend = self.client.state is not None and self.client.state.room.get("mode") == "friend"
        return f"{prompt_help(hints=not friend)}\n" + _(
            "Leaving (quit) keeps your seat at the server; '{rejoin}' rejoins it. "
            "Your seat's own link, to take it to another computer (a secret: whoever has it holds "
            "the seat): {link}"
        ).format(rejoin=self.rejoin, link=self.client.link.rejoin(self.client.key))

    def _between_hands(self, state: State) -> bool:
        between = state.between_hands
        assert between is not None
        key = (state.game, between.get("deal"))
        if self.next_sent == key:
            return False
        self.reader.pause(
            _("Press Enter for the next hand (q to quit, new for a new game) "), self._commands()
        )
        self.said = None
        self.client.ready()
        self.next_sent = key
        return False

    def _pause_between_hands(self) -> None:
        """The narrator's pause before a new deal: the show stays on the screen until Enter."""
        state = self.client.state
        if state is not None and state.between_hands is not None and state.view.seat not in state.ready:
            self._between_hands(state)

    def _game_over(self, state: State) -> bool:
        history = [h for h in state.room.get("history") or () if isinstance(h, Mapping)]
        voice = self.voice
        if history and voice is not None:
            wins = [0] * len(voice.side_names)
            for winner in [h.get("winner") for h in history if h.get("finished", True)] + [state.view.winner]:
                if isinstance(winner, int) and 0 <= winner < len(wins):
                    wins[winner] += 1
            tally = " · ".join(f"{name} {n}" for name, n in zip(voice.side_names, wins, strict=True))
            self.console.print(Text(_("Games won at this table: {tally}").format(tally=tally), style="dim"))
        self.reader.pause(_("Press Enter for a new game (q to quit) "))
        self._drain()
        latest = self.client.state
        if latest is not None and latest.game != state.game:
            return True  # the other side started one meanwhile
        self.client.propose_new_game()
        return False

    def _answer_proposal(self, proposal: Mapping[str, Any]) -> None:
        by = proposal.get("proposed_by")
        who = self.names[by] if isinstance(by, int) and 0 <= by < len(self.names) else _("Another player")
        question = _("{name} proposes a new game: this game and its score would be dropped. Agree?").format(
            name=who
        )
        if self.reader.confirm(question):
            self.client.propose_new_game()
        else:
            self.client.decline()
            self.console.print(Text(_("  You declined: this game goes on."), style="dim"))

    def _notices(self, state: State) -> None:
        """One line for each change worth telling: a proposal made or dropped, an invitation to pass on."""
        proposal = state.new_game
        if proposal is None:
            if self.proposal_seen is not None and state.view.phase != "over":
                self.console.print(Text(_("No new game: this game goes on."), style="dim"))
            self.proposal_seen = None
            self.proposal_answered = False
        elif self.proposal_seen is None:
            self.proposal_seen = proposal
            if state.view.seat in state.agreed:
                others = [self.names[s] for s in self._humans(state) if s not in state.agreed]
                self.console.print(
                    Text(
                        _("New game proposed: waiting for {names} to agree.").format(
                            names=_and_list(others) or _("the others")
                        ),
                        "dim",
                    )
                )
        invite = state.invite
        if invite is not None and not self.invite_shown:
            self.invite_shown = True
            self.console.print(
                Text(
                    _("Invite a friend to the free seat: {link}").format(
                        link=f"{self.client.link.base}/#join={invite}"
                    )
                )
            )
        missing = state.waiting_for
        if missing != self.missing:
            if missing:
                self.console.print(Text(self._missing_words(state), style="dim"))
            else:
                self.console.print(Text(_("Everyone is connected: play goes on."), style="dim"))
            self.missing = missing

    def _missing_words(self, state: State) -> str:
        """``Waiting for Bob to connect.``, ``Waiting for Seat 3 to join.``, or both."""
        seats = [s for s in state.room.get("seats") or () if isinstance(s, Mapping)]
        unjoined = {printable(s.get("name"), 40) for s in seats if s.get("joined") is False}
        joining = [name for name in state.waiting_for if name in unjoined]
        away = [name for name in state.waiting_for if name not in unjoined]
        if joining and away:
            line = _("Waiting for {joining} to join and {away} to connect.")
        elif joining:
            line = _("Waiting for {joining} to join.")
        else:
            line = _("Waiting for {away} to connect.")
        return line.format(joining=_and_list(joining), away=_and_list(away))

    def _humans(self, state: State) -> list[int]:
        seats = state.room.get("seats") or ()
        return [
            s["seat"]
            for s in seats
            if isinstance(s, Mapping)
            and s.get("kind") == "human"
            and isinstance(s.get("seat"), int)
            and 0 <= s["seat"] < len(self.names)
        ]

    # ------------------------------------------------------------------ typed words

    def _commands(self) -> Mapping[str, Callable[[], None]]:
        return {"board": self._board, "new": self._propose}

    def _board(self) -> None:
        if self.narrator is not None:
            show_board(self.console, self.narrator)

    def _propose(self) -> None:
        state = self.client.state
        if state is not None and state.view.phase == "over":
            self.client.propose_new_game()
            return
        question = _("Propose a new game? If everyone agrees, this game and its score are dropped.")
        if self.reader.confirm(question):
            self.client.propose_new_game()
        else:
            self.console.print(Text(_("  The game goes on."), style="dim"))

    def _typed(self) -> bool:
        """Whether a line is waiting on a terminal's standard input (never for piped input)."""
        if not self.reader.interactive or os.name == "nt":
            return False
        try:
            ready, _writable, _failed = select.select([sys.stdin], [], [], 0)
        except (OSError, ValueError):
            return False
        return bool(ready)

    def _typed_while_waiting(self) -> None:
        word = command_word(self.reader.line("").lower())
        if not word:
            return
        if word in _QUIT_WORDS:
            raise QuitGame(_("you quit"))
        if word in ("help", "h", "?"):
            self.console.print(Text(_(_WAITING_HELP), style="dim"))
        elif word in self._commands():
            self._commands()[word]()
        else:
            self.reader.problem(
                _("It is not your turn. {waiting}").format(waiting=self.idle or self.said or "").strip()
            )

    # ------------------------------------------------------------------ leaving

    def _leave(self) -> None:
        state = self.client.state
        if state is not None and self.voice is not None and state.view.phase != "over":
            left = _("You left the table {where}: {scores}.").format(
                where=where_in_game(deal_on_the_table(state)), scores=self.voice.scores(state.view.scores)
            )
            self.console.print(Text(left, "bold"))
        self.console.print(
            Text(_("Your seat is kept. Rejoin with: {rejoin}").format(rejoin=self.rejoin), style="bold"),
            soft_wrap=True,
        )


def deal_on_the_table(state: State) -> int:
    """The deal the players are looking at (from 0): between hands, the one whose show is on the table
    (the server has already dealt the next one)."""
    between = state.between_hands
    shown = between.get("deal") if between is not None else None
    return shown if isinstance(shown, int) and not isinstance(shown, bool) else state.view.deal


def _and_list(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def _waiting_for_move(view: SeatView) -> str:
    """The line while others move, with ``{names}`` to fill: whole sentences per move."""
    if view.claim_stage == "count":
        return _("Waiting for {names} to count.")
    if view.claim_stage == "call":
        return _("Waiting for {names} to call muggins or let the count stand.")
    if view.phase == "discard":
        n = view.rules.discards
        line = ngettext(
            "Waiting for {{names}} to lay away {n} card.", "Waiting for {{names}} to lay away {n} cards.", n
        )
        return line.format(n=number_words(n) if n > 2 else n)
    return _("Waiting for {names} to play.")
