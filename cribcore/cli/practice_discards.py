"""``cribbage practice discards``: the discard trainer (`cribcore.practice_discards`). Deals six cards,
reads two to lay away (by position or by name), and shows where the choice ranks among the fifteen,
its expected hand, crib and net beside the best (``analyze``'s figures), the expert's choice when it
differs with its reason, and the running score; the long-run totals are kept in the data directory.

With ``--json`` every line printed is one JSON object: ``{"type": "deal", ...}`` before each hand,
``{"type": "result", ...}`` after its answer, ``{"type": "error", ...}`` for an answer that is not two
of the hand's cards (the hand is asked again), and ``{"type": "summary", ...}`` at the end. Answers are
read one a line from standard input, so a script can pipe them in.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.console import Console
from rich.text import Text

from ..i18n import _, current_language
from ..practice_discards import (
    Answer,
    Score,
    Trial,
    accuracy_path,
    deal_trials,
    judge,
    load_accuracy,
    parse_answer,
    save_accuracy,
)
from ..profiles import Profile
from ..written_numbers import decimal_text
from .commands import UsageError
from .errors import report
from .play_cmd import seed_argument
from .profile_arg import PROFILE_HELP, add_profile_argument, load_profile_option
from .prompt import QuitGame, Reader
from .render import Painter, columns, fill, print_json

__all__ = ["add_discards_parser", "practice_discards"]

_QUIT = frozenset({"q", "quit", "salir"})


def _hands(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a whole number: {text}").format(text=repr(text))) from None
    if not 1 <= n <= 1000:
        raise argparse.ArgumentTypeError(_("choose 1 to 1000 hands, not {n}").format(n=n))
    return n


def add_discards_parser(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``discards`` to ``practice``'s subcommands."""
    parser = sub.add_parser(
        "discards",
        help=_("six cards dealt, you lay two away: how your choice ranks among the fifteen"),
        description=_(
            "The discard trainer: six cards are dealt and you choose two to lay away (by position, "
            "1 2, or by name, 5H 5D; q quits). Each answer is ranked among the fifteen ways by its net, "
            "with its expected hand, crib and net beside the best (the figures of 'cribbage analyze'), "
            "and the expert's choice when it differs, with its reason. The running score is the share "
            "of best choices and the average points lost; the long-run totals are kept in the data "
            "directory."
        ),
        epilog=_(
            "JSON (--json): one object a line: {type: deal, hand, cards, dealer}; {type: result, hand, "
            "cards, dealer, choice: {discard, keep, expected_hand, expected_crib, crib, net, min_hand, "
            "max_hand, rank}, best: {...}, points_lost, expert: {discard, keep, agrees, reason}, score: "
            "{hands, best, share_best, average_lost}}; {type: error, hand, message}; {type: summary, "
            "score, long_run}."
        ),
    )
    parser.add_argument(
        "--hands", type=_hands, default=10, metavar="N", help=_("how many hands (default 10)")
    )
    parser.add_argument(
        "--seed", type=seed_argument, metavar="S", help=_("the same seed deals the same cards")
    )
    role = parser.add_mutually_exclusive_group()
    role.add_argument("--dealer", action="store_true", help=_("you always deal: the crib is yours"))
    role.add_argument("--pone", action="store_true", help=_("you never deal: the crib is the opponent's"))
    parser.add_argument("--json", action="store_true", help=_("one JSON object a line (for scripts)"))
    parser.add_argument("--ascii", action="store_true", help=_("plain ASCII: cards as 5H TD"))
    add_profile_argument(
        parser, help=_("{profile}: the hand is counted by its rules").format(profile=_(PROFILE_HELP))
    )
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace, console: Console) -> int:
    profile = load_profile_option(args.profile, "practice discards")
    rules = profile.rules
    if rules.seats != 2 or rules.cards_dealt != 6 or rules.discards != 2:
        raise UsageError(
            _("--profile: {name!r} does not deal six cards to two players laying away two").format(
                name=profile.name
            ),
            "practice discards",
        )
    role = "dealer" if args.dealer else "pone" if args.pone else None
    if args.ascii:
        from .render import make_console

        console = make_console(ascii_only=True)
    return practice_discards(
        deal_trials(args.seed, args.hands, role), profile, console=console, as_json=args.json
    )


def practice_discards(trials: list[Trial], profile: Profile, *, console: Console, as_json: bool) -> int:
    """Run the trainer over ``trials``; return the exit status (1 when input ended before the last
    hand, after the summary)."""
    lang = current_language()
    painter = Painter.for_console(console)
    reader = Reader(console, interactive=sys.stdin.isatty())
    score = Score()
    ended = False
    if not as_json:
        console.print(
            Text(
                _(
                    "Discard practice: {n} hands. Lay away two cards by position (1 2) or by name "
                    "(5H 5D); q quits."
                ).format(n=len(trials)),
                style="bold",
            )
        )
    for trial in trials:
        answer = _ask(trial, profile, lang, console, painter, reader, as_json)
        if answer is None:
            ended = True
            break
        if answer == "quit":
            break
        assert isinstance(answer, Answer)
        score = score.add(answer)
        if as_json:
            print_json({"type": "result", **answer.to_json(), "score": score.to_json()})
        else:
            _print_result(answer, score, console, painter)
    long_run = _keep(score, console, as_json)
    if as_json:
        print_json(
            {
                "type": "summary",
                "score": score.to_json(),
                "long_run": long_run.to_json() if long_run else None,
            }
        )
    else:
        _print_summary(score, long_run, console)
    if ended and score.hands < len(trials):
        report(_("input ended after {done} of {n} hands").format(done=score.hands, n=len(trials)))
        return 1
    return 0


def _ask(
    trial: Trial,
    profile: Profile,
    lang: str,
    console: Console,
    painter: Painter,
    reader: Reader,
    as_json: bool,
) -> Answer | str | None:
    """The judged answer for ``trial``, ``"quit"`` when the player quits, ``None`` when input ended."""
    if as_json:
        print_json({"type": "deal", **trial.to_json()})
    else:
        console.print()
        role = (
            _("you deal: the crib is yours") if trial.dealer else _("the opponent deals: the crib is theirs")
        )
        console.print(Text(_("Hand {n}: {role}").format(n=trial.number, role=role), style="bold"))
        line = Text(" ")
        for position, card in enumerate(trial.hand, start=1):
            line.append(f" {position}) ", style="dim").append_text(painter.card(card))
        console.print(line)
    while True:
        if as_json:
            text = sys.stdin.readline()
            if not text:
                return None
            text = text.strip()
        else:
            try:
                text = reader.line(_("Lay away: "))
            except QuitGame:
                return None
        if text.lower() in _QUIT:
            return "quit"
        try:
            chosen = parse_answer(text, trial.hand)
        except ValueError as exc:
            if as_json:
                print_json({"type": "error", "hand": trial.number, "message": str(exc)})
            else:
                console.print(Text(str(exc), style="yellow"))
            continue
        return judge(trial, chosen, profile, lang)


def _figures(label: str, option: Any, rank: int, painter: Painter) -> list[Text | str]:
    sign = "+" if option.own_crib else "-"
    return [
        Text(label, style="bold"),
        painter.cards(option.kept),
        painter.cards(option.discard),
        decimal_text(option.expected_hand, 2),
        sign + decimal_text(option.expected_crib, 2),
        decimal_text(option.net, 2),
        str(rank),
    ]


def _print_result(answer: Answer, score: Score, console: Console, painter: Painter) -> None:
    if answer.is_best:
        verdict = Text(_("The best net: rank 1 of {n}.").format(n=len(answer.options)), style="green")
    else:
        verdict = Text(
            _("Rank {rank} of {n}: {points} points below the best net.").format(
                rank=answer.rank, n=len(answer.options), points=decimal_text(answer.points_lost, 2)
            ),
            style="yellow",
        )
    console.print(Text("  ").append_text(verdict))
    headings = ["", _("keep"), _("discard"), _("hand"), _("crib"), _("net"), _("rank")]
    rows: list[list[Text | str]] = [[Text(h, style="bold") for h in headings]]
    rows.append(_figures(_("yours"), answer.chosen, answer.rank, painter))
    if not answer.is_best:
        rows.append(_figures(_("best"), answer.best, 1, painter))
    for line in columns(rows, right=(3, 4, 5, 6), gap=2):
        line.pad_left(4)
        console.print(line)
    if answer.expert_agrees:
        console.print(Text("  " + _("The expert lays away the same cards."), style="dim"))
    else:
        line = Text("  ").append_text(
            fill(_("The expert lays away {cards}"), cards=painter.cards(answer.expert))
        )
        if answer.reason:
            line.append(": " + answer.reason, style="dim")
        console.print(line)
    console.print(Text("  " + _score_words(score)))


def _score_words(score: Score) -> str:
    return _("Score: {best} of {hands} best ({share}), {lost} points lost a hand on average").format(
        best=score.best,
        hands=score.hands,
        share=f"{round(100 * score.share_best)}%",
        lost=decimal_text(score.average_lost, 2),
    )


def _keep(score: Score, console: Console, as_json: bool) -> Score | None:
    """Add ``score`` to the long-run totals in the data directory and return them (``None``, after one
    line, when they cannot be read or written: the file is then left as it was)."""
    try:
        path = accuracy_path()
        total = load_accuracy(path).plus(score)
        if score.hands:
            save_accuracy(total, path)
        return total
    except (OSError, RuntimeError, ValueError) as exc:
        report(_("the long-run score is not kept: {reason}").format(reason=exc))
        return None


def _print_summary(score: Score, long_run: Score | None, console: Console) -> None:
    console.print()
    console.print(Text(_score_words(score), style="bold"))
    if long_run is not None and long_run.hands:
        console.print(
            _(
                "Over all your practice: {best} of {hands} best ({share}), {lost} points lost a hand "
                "on average"
            ).format(
                best=long_run.best,
                hands=long_run.hands,
                share=f"{round(100 * long_run.share_best)}%",
                lost=decimal_text(long_run.average_lost, 2),
            )
        )
