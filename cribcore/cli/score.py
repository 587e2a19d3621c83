"""The ``score`` and ``peg`` commands: the count of a hand in the show, and the points each card scores
when laid in order on one count, under a profile's rules (standard by default). Both only parse, ask the
profile's `cribcore.rulebook.Rulebook`, and print the result as text or JSON."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from ..cards import Card, format_cards, parse_card
from ..cards_es import from_spanish
from ..i18n import _
from ..scoring import Score, ScoreItem, check_show, peg_sequence, show_items
from .commands import UsageError
from .describe import reasons, spoken_show
from .profile_arg import PROFILE_HELP, add_profile_argument, load_profile_option
from .render import Painter, columns, items_lines, print_json

if TYPE_CHECKING:  # the rulebook (plugins, profiles) loads only when a profile is named
    from ..rulebook import Rulebook

__all__ = ["HAND_SIZES", "add_peg_parser", "add_score_parser", "peg_command", "score_command"]


HAND_SIZES = range(1, 7)
"""Hands of 1 to 6 cards: variants keep 3 (five-card), 4 (six-card) or 5 (seven-card)."""


def add_score_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``score`` to the ``cribbage`` parser."""
    score = commands.add_parser(
        "score",
        help=_("count a hand or crib in the show"),
        description=_("Count a hand (or crib) with the starter, item by item."),
        epilog=_("Cards: rank A 2-9 T J Q K (or 10) and suit C D H S (or ♣ ♦ ♥ ♠), e.g. 5H, 10s, J♣."),
    )
    score.add_argument("cards", nargs="+", metavar="CARD", help=_("the hand: 1 to 6 cards"))
    score.add_argument("--starter", metavar="CARD", help=_("the starter (cut) card; required"))
    score.add_argument("--crib", action="store_true", help=_("count as the crib (flush needs all five)"))
    score.add_argument("--json", action="store_true", help=_("print the score as JSON"))
    add_profile_argument(
        score,
        default=None,
        help=_("{profile} (default standard; JSON then names it)").format(profile=_(PROFILE_HELP)),
    )
    score.set_defaults(handler=_score)


def add_peg_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``peg`` to the ``cribbage`` parser."""
    peg = commands.add_parser(
        "peg",
        help=_("score cards laid in order on one count"),
        description=_("Points each card scores when laid in this order on one count (the play)."),
    )
    peg.add_argument("cards", nargs="+", metavar="CARD", help=_("cards in the order laid"))
    peg.add_argument(
        "--last",
        action="store_true",
        help=_("nobody can play on: the final card also scores 1 for the go (unless it made 31)"),
    )
    peg.add_argument("--json", action="store_true", help=_("print one JSON object per card"))
    add_profile_argument(
        peg,
        default=None,
        help=_("{profile} (default standard; JSON then names it)").format(profile=_(PROFILE_HELP)),
    )
    peg.set_defaults(handler=_peg)


def _score(args: argparse.Namespace, console: Console) -> int:
    if args.starter is None:
        raise UsageError(_("the starter is missing: add --starter CARD, e.g. --starter 5S"), "score")
    return score_command(
        args.cards,
        args.starter,
        crib=args.crib,
        as_json=args.json,
        console=console,
        rulebook=_rulebook_option(args.profile, "score"),
    )


def _peg(args: argparse.Namespace, console: Console) -> int:
    return peg_command(
        args.cards,
        last=args.last,
        as_json=args.json,
        console=console,
        rulebook=_rulebook_option(args.profile, "peg"),
    )


def _rulebook_option(profile: str | None, command: str) -> Rulebook | None:
    """The rulebook of the ``--profile`` given, or ``None`` when none was (the standard rules)."""
    if profile is None:
        return None
    from ..rulebook import rulebook_for

    return rulebook_for(load_profile_option(profile, command))


def _parse_all(texts: Sequence[str]) -> list[Card]:
    # Spanish cards may span arguments ("7 de picas"): read the line whole, then token by token.
    return [parse_card(text) for text in from_spanish(" ".join(texts)).split()]


def score_command(
    hand_texts: Sequence[str],
    starter_text: str,
    *,
    crib: bool,
    as_json: bool,
    console: Console,
    rulebook: Rulebook | None = None,
) -> int:
    """Print the show count of the hand (or crib) with the starter under ``rulebook`` (standard by
    default; the JSON names the profile when a rulebook is given). Raises `ValueError` for a token that
    is not a card, a card named twice, or a hand size outside `HAND_SIZES`."""
    hand = _parse_all(hand_texts)
    starter = parse_card(from_spanish(starter_text))
    if len(hand) not in HAND_SIZES:
        raise ValueError(
            _("a hand has {least} to {most} cards, not {given}").format(
                least=HAND_SIZES.start, most=HAND_SIZES.stop - 1, given=len(hand)
            )
        )
    check_show(hand, starter)
    if rulebook is None:
        # The standard profile counts with the standard plugin alone, which is the standard scorer:
        # counted directly, without loading plugins and profiles (the command starts at once).
        score = Score(show_items(tuple(sorted(hand)), starter, crib=crib))
    else:
        score = Score(rulebook.show_items(hand, starter, crib=crib))
    if as_json:
        named: dict[str, object] = {"profile": rulebook.profile_name} if rulebook is not None else {}
        standing = rulebook.wild_standing(hand, starter, crib=crib) if rulebook is not None else ()
        if standing:
            # What each wild card stood for in the count, as its items say too.
            named["wild"] = {str(card): str(stood) for card, stood in standing}
        print_json({**score.to_json(), **named})
        return 0
    painter = Painter.for_console(console)
    title = Text((_("Crib") if crib else _("Hand")) + " ", style="bold")
    title.append_text(painter.cards(hand)).append(_(" with starter ")).append_text(painter.card(starter))
    console.print(title)
    for line in items_lines(score.items, painter, total=score.total):
        console.print(line)
    console.print(spoken_show(score.items))
    return 0


def peg_command(
    card_texts: Sequence[str],
    *,
    last: bool,
    as_json: bool,
    console: Console,
    rulebook: Rulebook | None = None,
) -> int:
    """Print what each card scores when laid in order on one count under ``rulebook`` (standard by
    default; the JSON names the profile in each entry when a rulebook is given). The seats take turns,
    seat 1 leading and seat 0 dealing. With ``last``, nobody can play on after the final card. Raises
    `ValueError` for a bad token, a repeated card, or a count past 31."""
    if rulebook is None:
        from ..rulebook import standard_rulebook

        book = standard_rulebook()
    else:
        book = rulebook
    cards = _parse_all(card_texts)
    seats = book.rules.seats

    def items(pile: Sequence[Card]) -> Sequence[ScoreItem]:
        # The pone leads and the seats take turns: what a plugin that asks who laid a card is told.
        return book.play_items(pile, seat=len(pile) % seats, dealer=0)

    scores = peg_sequence(cards, last=last, items=items)
    counts = _running_counts(cards)
    if as_json:
        named = {"profile": book.profile_name} if rulebook is not None else {}
        print_json(
            [
                {"card": str(card), "count": count, "points": score.total, **_items(score), **named}
                for card, count, score in zip(cards, counts, scores, strict=True)
            ]
        )
        return 0
    painter = Painter.for_console(console)
    rows: list[list[Text | str]] = [
        [painter.card(card), _("count"), str(count), str(score.total), reasons(score.items, last_card=last)]
        for card, count, score in zip(cards, counts, scores, strict=True)
    ]
    console.print(Text(_("Laid in order: {cards}").format(cards=format_cards(cards)), style="bold"))
    for line in columns(rows, right=(2, 3), gap=2):
        line.pad_left(2)
        console.print(line)
    return 0


def _running_counts(cards: Sequence[Card]) -> list[int]:
    counts = []
    total = 0
    for card in cards:
        total += card.value
        counts.append(total)
    return counts


def _items(score: Score) -> dict[str, object]:
    return {"items": score.to_json()["items"]}
