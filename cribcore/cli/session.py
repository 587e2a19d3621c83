"""A table at which games are played: seats humans and computers, runs each game to its end (or until a
human quits), announces everything, keeps the game saved, hands the device over between humans who
share it, and plays the games of a match one after another.

`Session` is the local transport of the terminal's one table driver (`cribcore.cli.table_driver`,
the protocol in `cribcore.cli.transport`): the driver runs the turn loop and asks the humans; the
session tells the game, plays the computers and applies every action to a `Game` on this device. It
holds no rules: it asks the engine who may act (`Game.to_act`), gives that seat its `SeatView`, and
applies what the seat's player chose, a computer's choice or a human's answer checked by
`Game.check`. Narration comes from one seat's view (the human's, or a spectator's when there is
not exactly one human), so hidden cards are never narrated; a human's own cards appear only on their
table, and when several humans share the device the screen is cleared and the next player must press
Enter before their table is drawn.

When a game (or a match) is over, people at a terminal are asked whether to play again: the same
table on a new seed (`Session._play_again`, the end-of-game step). Piped input and tables without a
human are never asked, so a script never blocks there.

Saves: after every action the game is written to its slot (`cribcore.saves`), atomically; when the
game ends the slot is emptied (or holds the next game of a match). A save that cannot be written, or
whose file was changed by something else, stops the saving with one warning; the game goes on.

A plugin whose hook fails (`PluginError`) stops the table with one line naming the plugin, the hook and
the error, and exit status 1. The engine may be half-way through the failing action, so nothing is
taken from it: the save holds the game as of the last completed action (it is written only after an
action completes), and ``--record`` gets the record taken after that action.
"""

from __future__ import annotations

import contextlib
import functools
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ..actions import Action, Pass
from ..engine import Game, Phase
from ..i18n import _, current_language
from ..players import Player, make_player
from ..players.muggins import declared_so_far
from ..pluginmanager import PluginError
from ..profiles import Profile
from ..records import game_record, write_record
from ..rulebook import KINDS, rulebook_for
from ..saves import HUMAN, GameResult, MatchState, SaveConflict, SaveSlot, build_envelope
from ..speech_messages import say_error
from ..views import SeatView
from .describe import Voice
from .errors import report
from .interrupts import INTERRUPTED
from .keep_games import keep_finished
from .match import match_result, skunk_words, standing
from .narrate import Narrator
from .prompt import NewGame, QuitGame, Reader, prompt_help
from .render import Painter
from .screen import clear_screen
from .table_driver import TableDriver, arrive, show_board
from .table_steps import print_heading, print_help_hint, table_title, where_in_game
from .transport import Turn

__all__ = ["INTERRUPTED", "Seating", "Session"]


_RECAP_LINES = 30
"""At most this many lines of what happened are told again to a player taking the device."""


@dataclass(frozen=True, slots=True)
class Seating:
    """Who plays and under which rules: one kind per seat (``human`` or a computer kind), the display
    names, the kind that ``computer`` seats play as (``level``), the profile and how it was named."""

    kinds: tuple[str, ...]
    names: tuple[str, ...]
    profile: Profile
    profile_label: str = "standard"
    level: str = "computer"

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(seat for seat, kind in enumerate(self.kinds) if kind == HUMAN)

    def computer(self, seat: int, seed: int | None) -> Player:
        """A fresh player for computer ``seat``, seeded from the game so that a seeded game (and a
        resumed one) plays the same."""
        kind = self.kinds[seat]
        return make_player(self.level if kind == "computer" else kind, None if seed is None else seed + seat)


class Session:
    """Plays games at one table; see the module docstring. ``mode`` names the save slot (``None``:
    not saved); ``match`` is the match under way (``None`` for a single game); ``record`` is where to
    write each game's record when it ends or stops."""

    def __init__(
        self,
        console: Console,
        seating: Seating,
        *,
        reader: Reader | None,
        slot: SaveSlot | None = None,
        mode: str | None = None,
        match: MatchState | None = None,
        record: Path | None = None,
    ) -> None:
        self.console = console
        self.seating = seating
        self.reader = reader
        self.slot = slot
        self.mode = mode
        self.match = match
        self.record = record
        self.painter = Painter.for_console(console)
        humans = seating.humans
        self.voice = Voice.for_game(
            seating.names, seating.profile.rules, you=humans[0] if len(humans) == 1 else None
        )
        self.shared = len(humans) > 1
        self._holder: int | None = None
        self._told: dict[int, int] = {}
        self._again = 0
        """How many times the table chose to play again (each game's ``--record`` is kept)."""
        self._completed: dict[str, object] | None = None
        """The record as of the last completed action (kept only when there is a ``--record``)."""
        self._game: Game
        """The game under way (set by `run`)."""
        self._resumed = False
        self._started = False
        """Whether the game under way has been started at the table (its heading said)."""
        self._narrator: Narrator
        self._audience = 0
        """The seat whose view the game is told from."""
        self._computers: dict[int, Player] = {}
        self._seen = 0
        """How many of the audience's events have been told."""
        self.keep = True
        """Whether each finished game is kept for ``cribbage history`` (``play --no-keep``: not)."""

    # ------------------------------------------------------------------ the games

    def run(self, game: Game, *, resumed: bool = False) -> int:
        """Play ``game`` (and, in a match, the games after it) at the terminal's table
        (`cribcore.cli.table_driver.TableDriver`, with this session as its transport); return the
        exit status: 0 at the end or when a human quits, 1 when input ended with no one to answer or
        a plugin failed, 130 after Ctrl-C outside a prompt."""
        self._game = game
        self._resumed = resumed
        self._started = False
        try:
            return TableDriver(self.console, self.reader, self.painter, self).run()
        except _BetweenGames as between:
            raise between.error from None
        except PluginError as exc:
            report(_("{reason}; the game stopped before that move").format(reason=say_error(exc)))
            self._write_completed()
            return 1

    # ------------------------------------------------------------------ the transport

    def begin(self) -> None:
        with _between_games():
            if not self._resumed:
                self._save(self._game)

    def advance(self) -> Turn | None:
        game = self._game
        if not self._started:
            self._start(game, resumed=self._resumed)
            self._started = True
        narrator = self._narrator
        while True:
            events = game.view(self._audience).new_events(self._seen)
            self._seen += len(events)
            narrator.tell(events)
            if game.is_over or game.phase is Phase.WAITING:
                return None
            seat = game.to_act[0]
            computer = self._computers.get(seat)
            if computer is not None:
                action = computer.choose(game.view(seat))
            else:
                turn = self._turn(game, seat, narrator)
                if turn is not None:
                    return turn
                action = Pass()
            self._apply(seat, action)

    def send(self, turn: Turn, action: Action) -> None:
        self._apply(turn.seat, action)

    def _apply(self, seat: int, action: Action) -> None:
        game = self._game
        game.apply(seat, action)
        self._completed_action(game)
        self._save(game)

    def game_over(self) -> bool:
        with _between_games():
            return self._next_game()

    def _next_game(self) -> bool:
        """After a game: the next game of the match (after a pause), or another game if the people
        at the table want one; whether there is a next game."""
        following = self._game_over(self._game)
        self._started = False
        self._resumed = False
        if following is None:
            if not self._play_again():
                return False
            self._again += 1
            self._game = self._fresh_start()
            return True
        self._game = following
        try:
            if self.reader is not None:
                assert self.match is not None
                number = len(self.match.results) + 1
                self.reader.pause(
                    _("Press Enter for game {number} of {games} (q to quit) ").format(
                        number=number, games=self.match.games
                    )
                )
        except QuitGame:
            self._stopped(following)
            return False
        return True

    def restart(self) -> None:
        with _between_games():
            self._game = self._fresh_start()
        self._resumed = False
        self._started = False

    def leave(self) -> None:
        self._stopped(self._game)

    def stop_line(self, reason: str) -> str:
        return _("{reason}; game stopped (seed {seed})").format(reason=reason, seed=self._game.seed)

    def close(self) -> None:
        """Nothing is held open: the save is written after every action."""

    def _start(self, game: Game, *, resumed: bool) -> None:
        """A game's first telling at this table: its heading, and on resuming the deal under way."""
        self._narrator = narrator = Narrator(
            self.console,
            self.painter,
            self.voice,
            rules=game.rules,
            pause=self._between_deals if self.reader is not None else None,
        )
        self._holder = None
        self._told = {}
        self._completed_action(game)
        self._heading(game, resumed=resumed)
        self._audience = self.voice.you if self.voice.you is not None else 0
        self._computers = {
            seat: self.seating.computer(seat, game.seed)
            for seat, kind in enumerate(self.seating.kinds)
            if kind != HUMAN
        }
        self._seen = 0
        if resumed:
            # The deals before this one were told when they were played: take them in silently.
            events = game.view(self._audience).events
            arrive(self.console, narrator, self.voice, events, sides=game.rules.sides)
            self._seen = len(events)

    def _heading(self, game: Game, *, resumed: bool) -> None:
        console = self.console
        names = self.seating.names
        rules = game.rules
        table = table_title(names, game.profile.name)
        if self.match is not None:
            number = len(self.match.results) + 1
            console.print()
            heading = _("Game {number} of {games}").format(number=number, games=self.match.games)
            console.print(Rule(Text(heading, style="bold"), align="left"))
            if self.match.results:
                console.print(
                    Text(_("Match so far: {standing}").format(standing=standing(self.match, self.voice)))
                )
        if resumed:
            if game.deal_number >= 0:
                where = _("deal {number}").format(number=game.deal_number + 1)
            else:
                where = _("the start")
            console.print(
                Text(
                    _("Resuming {table} at {where}: ").format(table=table, where=where), style="bold"
                ).append(f"{self.voice.scores(game.scores)}, {self.voice.goal(rules)}.")
            )
            console.print(_("Game seed {seed} — play it again with --seed {seed}").format(seed=game.seed))
        else:
            print_heading(console, table, self.voice.goal(rules))
            console.print(_("Game seed {seed} — replay it with --seed {seed}").format(seed=game.seed))
        if self.reader is not None:
            print_help_hint(console)

    # ------------------------------------------------------------------ a human's turn

    def _turn(self, game: Game, seat: int, narrator: Narrator) -> Turn | None:
        """A human's turn at ``seat`` (``None``: nothing to ask, the seat lets the count stand)."""
        assert self.reader is not None  # a seat without a computer is a human's
        if _nothing_to_call(game.view(seat)):
            return None
        if self.shared:
            self._hand_over(seat, narrator)
        view = game.view(seat)
        voice = replace(self.voice, you=seat) if self.shared else self.voice
        extra = (
            [Text(_("  Match    {standing}").format(standing=standing(self.match, self.voice)))]
            if self.match is not None
            else []
        )
        return Turn(
            seat,
            view,
            voice,
            narrator,
            functools.partial(game.check, seat),
            commands=self._commands(narrator),
            help_text=self._help(),
            extra=extra,
        )

    def _hand_over(self, seat: int, narrator: Narrator) -> None:
        """Before a human's cards are drawn on a shared device: clear the screen, tell what happened
        since that player last looked (all public), and wait until they have the device."""
        if self._holder == seat:
            return
        assert self.reader is not None
        self._holder = None  # from here on, nobody's cards are on the screen
        clear_screen(self.console)
        narrator.keeper.forget_drawn()
        name = self.seating.names[seat]
        self.console.print(
            Rule(Text(_("Pass the device to {name}").format(name=name), style="bold"), align="left")
        )
        # Told again in the words for this player: "You lay away…", not "Ann lays away…".
        told = narrator.retold(seat, self._told.get(seat, narrator.told_from))
        if told:
            self.console.print(
                Text(_("Since your last turn:") if seat in self._told else _("So far:"), style="dim")
            )
            for line in told[-_RECAP_LINES:]:
                self.console.print(line)
        self.reader.pause(_("{name}, press Enter when you have the device (q to quit) ").format(name=name))
        self._holder = seat
        self._told[seat] = len(narrator.events)

    def _commands(self, narrator: Narrator) -> Mapping[str, Callable[[], None]]:
        return {"board": functools.partial(show_board, self.console, narrator), "new": self._ask_new_game}

    def _ask_new_game(self) -> None:
        assert self.reader is not None
        if self.match is not None:
            question = _("Start a new match? This match and its score will be lost.")
        else:
            question = _("Start a new game? This game and its score will be lost.")
        if self.reader.confirm(question):
            raise NewGame
        self.console.print(Text(_("  The game goes on."), style="dim"))

    def _between_deals(self) -> None:
        assert self.reader is not None
        self.reader.pause(
            _("Press Enter for the next deal (q to quit, new for a new game) "), {"new": self._ask_new_game}
        )
        # Everyone has been looking at the show: the next hand is drawn only after a hand-over.
        self._holder = None

    def _help(self) -> str:
        book = rulebook_for(self.seating.profile)
        text = prompt_help(muggins=any(book.declared(kind) for kind in KINDS))
        if self.slot is None:
            return text
        return f"{text}\n" + _(
            "The game is saved after every move: 'cribbage resume' goes on where you stop."
        )

    # ------------------------------------------------------------------ endings

    def _fresh_start(self) -> Game:
        """A new game (or match) on a new seed, in place of the one dropped."""
        seed = random.SystemRandom().randrange(2**32)
        if self.match is not None:
            self.match = MatchState(games=self.match.games, seed=seed)
        game = Game(self.seating.profile, seed=seed, players=self.seating.names)
        self.console.print()
        self.console.print(Text(_("A new game."), style="bold"))
        self._save(game)
        return game

    def _offer_review(self, game: Game) -> None:
        """After a game against the computer at a terminal (in a match, after its last game, so the
        games follow one another as before): offer the coach's review of the human's decisions in
        ``game`` (`cribcore.review`). Never ends the session: a failure or Ctrl-C only skips it."""
        humans = self.seating.humans
        reader = self.reader
        if reader is None or not reader.interactive or len(humans) != 1 or len(self.seating.kinds) == 1:
            return
        try:
            if not reader.confirm(_("Review this game with the coach?")):
                return
            from ..review import review_game  # the expert loads only when a review is asked for
            from .review import print_review

            review = review_game(game_record(game), humans[0])
            # After a game only what is worth a word: the marked decisions and the summary.
            print_review(review, self.console, self.painter, marked_only=True)
        except (QuitGame, KeyboardInterrupt):
            self.console.print()
        except ValueError as exc:
            self.console.print(Text(_("No review: {reason}").format(reason=exc), style="yellow"))

    def _game_over(self, game: Game) -> Game | None:
        """Announce what the finished game was worth and the match standing; return the next game
        of the match (already saved), or ``None`` when there is none (the save is removed)."""
        self._write_record(game)
        if self.keep:
            keep_finished(game, self.seating.kinds, self.seating.level, self.console)
        # The seed again at the end, where a player looks when they want that game once more.
        self.console.print(_("Game seed {seed} — replay it with --seed {seed}").format(seed=game.seed))
        winner = game.winner if game.winner is not None else 0
        points = game.game_points
        worth = skunk_words(points)
        if worth is not None:
            line = _("{worth}: {name} earns {points} game points for this game.").format(
                worth=f"{worth[:1].upper()}{worth[1:]}", name=self.voice.side_names[winner], points=points
            )
            self.console.print(Text(line, style="bold"))
        if self.match is None:
            self._offer_review(game)
            self._clear_save()
            return None
        result = GameResult(seed=game.seed, scores=list(game.scores), winner=winner, game_points=points)
        self.match = self.match.model_copy(update={"results": [*self.match.results, result]})
        done = len(self.match.results)
        self.console.print(
            Text(
                _("Match after game {done} of {games}: {standing}").format(
                    done=done, games=self.match.games, standing=standing(self.match, self.voice)
                )
            )
        )
        if done >= self.match.games:
            self.console.print(
                Text(
                    _("Match over: {result}.").format(result=match_result(self.match, self.voice)),
                    style="bold",
                )
            )
            self._offer_review(game)
            self._clear_save()
            return None
        following = Game(
            self.seating.profile,
            seed=self.match.seed_of(done),
            players=self.seating.names,
            first_dealer=next_dealer(game),
        )
        self._save(following)
        return following

    def _play_again(self) -> bool:
        """The end-of-game step: whether the people at a terminal want another game (or match) with
        the same settings on a new seed. Only a terminal is asked (Enter, no or Ctrl-D ends); piped
        input and tables without a human end at once, so a script never blocks here."""
        if self.reader is None or not self.reader.interactive:
            return False
        question = _("Play another match?") if self.match is not None else _("Play again?")
        try:
            return self.reader.confirm(question)
        except QuitGame:
            return False

    def _stopped(self, game: Game) -> None:
        self.console.print(
            Text(
                _("Game stopped {where}: {scores}.").format(
                    where=where_in_game(game.deal_number), scores=self.voice.scores(game.scores)
                ),
                style="bold",
            )
        )
        self.console.print(_("Game seed {seed} — play it again with --seed {seed}").format(seed=game.seed))
        if self.slot is not None and self.mode is not None:
            self.console.print(
                Text(
                    _("Saved. Continue it with: cribbage resume {mode}").format(mode=self.mode), style="bold"
                )
            )
        self._write_record(game, unfinished=True)

    # ------------------------------------------------------------------ files

    def _save(self, game: Game) -> None:
        if self.slot is None or self.mode is None:
            return
        seats = list(zip(self.seating.kinds, self.seating.names, strict=True))
        data = build_envelope(
            mode=self.mode,
            seats=seats,
            level=self.seating.level,
            profile=self.seating.profile_label,
            game=game,
            match=self.match,
            lang=current_language(),
            record=self._record_base(),
        )
        try:
            self.slot.write(data)
        except SaveConflict as exc:
            self._stop_saving(_("{reason}; it is left as it is").format(reason=say_error(exc)))
        except OSError as exc:
            self._stop_saving(
                _("cannot save the game to {path}: {why}").format(
                    path=self.slot.path, why=exc.strerror or exc
                )
            )

    def _stop_saving(self, why: str) -> None:
        self.slot = None
        report(_("{why}. The game goes on without being saved.").format(why=why))

    def _clear_save(self) -> None:
        if self.slot is None:
            return
        try:
            self.slot.clear()
        except OSError as exc:
            report(
                _("cannot remove the finished game's save {path}: {why}").format(
                    path=self.slot.path, why=exc.strerror or exc
                )
            )

    def _write_record(self, game: Game, *, unfinished: bool = False) -> None:
        path = self._record_path()
        if path is None:
            return
        write_record(path, game_record(game))
        line = _("Unfinished record written to {path}") if unfinished else _("Record written to {path}")
        self.console.print(Text(line.format(path=path), "dim"), soft_wrap=True)  # a path stays whole

    def _completed_action(self, game: Game) -> None:
        if self.record is not None:
            self._completed = game_record(game)

    def _write_completed(self) -> None:
        """After a plugin failed: the record as of the last completed action, and where the save is."""
        path = self._record_path()
        if path is not None and self._completed is not None:
            write_record(path, self._completed)
            line = _("Unfinished record written to {path}").format(path=path)
            self.console.print(Text(line, "dim"), soft_wrap=True)
        if self.slot is not None and self.mode is not None:
            saved = _("Saved before that move: cribbage resume {mode}").format(mode=self.mode)
            self.console.print(Text(saved, style="bold"))

    def _record_base(self) -> Path | None:
        """``--record`` for this game or match: as given, or ``game-2.json`` after ``game.json`` when the
        table played again (what the save keeps, so that a resumed game never writes over an earlier
        game's record)."""
        record = self.record
        if record is None or not self._again:
            return record
        return record.with_name(f"{record.stem}-{self._again + 1}{record.suffix}")

    def _record_path(self) -> Path | None:
        """``--record`` as given; in a match, one file per game (``game-1.json``, ``game-2.json``, …).
        A game (or match) played again at the table gets its own: ``game-2.json`` after ``game.json``."""
        record = self._record_base()
        if record is None:
            return None
        if self.match is None or self.match.games == 1:
            return record
        number = len(self.match.results) + 1
        return record.with_name(f"{record.stem}-{number}{record.suffix}")


class _BetweenGames(Exception):
    """Ctrl-C (or a quit) while no game is being played here: before the first save, at the end of a
    game, while a new one is set up. It ends the command as it would anywhere outside a table (the
    command line's one line and status), not as leaving a game under way: there is none to leave."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


@contextlib.contextmanager
def _between_games() -> Iterator[None]:
    """Carries Ctrl-C and `QuitGame` past the table driver as `_BetweenGames` (see there)."""
    try:
        yield
    except (KeyboardInterrupt, QuitGame) as exc:
        raise _BetweenGames(exc) from exc


def _nothing_to_call(view: SeatView) -> bool:
    """Muggins: another seat's card in the play scored nothing and it counted nothing, so there is
    nothing to call and no one is asked (what a laid card scores is known from cards all have seen)."""
    return (
        view.claim_stage == "call"
        and view.phase == "play"
        and view.claim_points == 0
        and declared_so_far(view) == 0
        and any(isinstance(action, Pass) for action in view.legal_actions)
    )


def next_dealer(game: Game) -> int | None:
    """Who deals first in a match's next game: the loser of ``game`` (with two sides, the losing side's
    first seat), as players do; ``None`` (a fresh cut) with more sides or no winner."""
    rules = game.rules
    if game.winner is None or rules.sides != 2:
        return None
    return rules.seats_of(1 - game.winner)[0]
