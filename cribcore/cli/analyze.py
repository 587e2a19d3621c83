"""The ``analyze`` command: every way to lay cards away from a dealt hand, with the expected hand, the
expected crib and the net, best first. The numbers are `cribcore.analysis`; this module only parses
and prints them as a table or JSON."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from ..analysis import SHAPES, DiscardOption, analyze
from ..cards import format_cards, parse_card
from ..i18n import _, ngettext
from ..rulebook import Rulebook, rulebook_for, standard_rulebook
from ..written_numbers import decimal_text
from .profile_arg import PROFILE_HELP, add_profile_argument, load_profile_option
from .render import columns, print_json

__all__ = ["add_analyze_parser", "analyze_command"]


def add_analyze_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``analyze`` to the ``cribbage`` parser."""
    parser = commands.add_parser(
        "analyze",
        help=_("the best discard from a dealt hand"),
        description=_(
            "List every way to lay cards away from a dealt hand: the kept hand's expected show "
            "over every possible starter (and its lowest and highest), the crib's expected points from the "
            "crib table, and the net (hand plus your crib, or minus the opponent's), best first."
        ),
        epilog=_(
            "Hands of 6 cards (lay away 2), 5 (lay away 2, five-card; or 1 with --discards 1, three "
            "or four players) or 7 (lay away 2, seven-card). Example: cribbage analyze 5H 5D JC QS 4H 6C "
            "--pone. JSON (--json): {profile, hand, dealer, discards, options: [{discard, keep, "
            "expected_hand, expected_crib, crib, net, min_hand, max_hand}]}."
        ),
    )
    parser.add_argument("cards", nargs="+", metavar="CARD", help=_("the hand as dealt: 5, 6 or 7 cards"))
    role = parser.add_mutually_exclusive_group()
    role.add_argument("--dealer", action="store_true", help=_("the crib is yours (the default)"))
    role.add_argument("--pone", action="store_true", help=_("the crib is your opponent's"))
    parser.add_argument(
        "--discards", type=int, choices=(1, 2), default=2, help=_("cards to lay away (default 2)")
    )
    parser.add_argument("--json", action="store_true", help=_("print the table as JSON"))
    add_profile_argument(
        parser, help=_("{profile}: the hand is counted by its rules").format(profile=_(PROFILE_HELP))
    )
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace, console: Console) -> int:
    book = rulebook_for(load_profile_option(args.profile, "analyze"))
    return analyze_command(
        args.cards,
        dealer=not args.pone,
        discards=args.discards,
        as_json=args.json,
        console=console,
        rulebook=book,
    )


def analyze_command(
    card_texts: Sequence[str],
    *,
    dealer: bool,
    discards: int,
    as_json: bool,
    console: Console,
    rulebook: Rulebook | None = None,
) -> int:
    """Print the discard table under ``rulebook`` (standard by default). Raises `ValueError` for a token
    that is not a card, a card named twice, or a hand size and discard count the analysis does not know
    (see `cribcore.analysis.SHAPES`)."""
    book = rulebook if rulebook is not None else standard_rulebook()
    hand = [parse_card(text) for text in card_texts]
    if (len(hand), discards) not in SHAPES:
        # `analyze` refuses it in English; the refusal is worded here in the language.
        sizes = ", ".join(_("{n} cards laying away {d}").format(n=n, d=d) for n, d in SHAPES)
        raise ValueError(
            ngettext(
                "cannot analyze {n} card laying away {d}: use {sizes}",
                "cannot analyze {n} cards laying away {d}: use {sizes}",
                len(hand),
            ).format(n=len(hand), d=discards, sizes=sizes)
        )
    options = analyze(hand, dealer=dealer, discards=discards, rulebook=book)
    if as_json:
        print_json(
            {
                "profile": book.profile_name,
                "hand": [str(c) for c in sorted(hand)],
                "dealer": dealer,
                "discards": discards,
                "options": [option.to_json() for option in options],
            }
        )
        return 0
    crib = _("your crib") if dealer else _("the opponent's crib")
    starters = 52 - len(hand)
    console.print(
        Text(
            _(
                "Hand {hand} ({game}), laying away to {crib}: averages over the {starters} possible starters"
            ).format(
                hand=format_cards(sorted(hand)),
                game=_(SHAPES[(len(hand), discards)]),
                crib=crib,
                starters=starters,
            ),
            style="bold",
        )
    )
    headings = (_("keep"), _("discard"), _("hand"), _("crib"), _("net"), _("min"), _("max"))
    rows: list[list[Text | str]] = [[Text(h, style="bold") for h in headings]]
    rows.extend(_row(option) for option in options)
    for line in columns(rows, right=(2, 3, 4, 5, 6), gap=2):
        line.pad_left(2)
        console.print(line)
    return 0


def _row(option: DiscardOption) -> list[Text | str]:
    sign = "+" if option.own_crib else "-"
    return [
        format_cards(option.kept),
        format_cards(option.discard),
        decimal_text(option.expected_hand, 2),
        sign + decimal_text(option.expected_crib, 2),
        decimal_text(option.net, 2),
        str(option.min_hand),
        str(option.max_hand),
    ]
