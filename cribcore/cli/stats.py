"""The ``stats`` command: the exact distribution of show scores over every hand (and crib) of a
profile, as a table with a text histogram, or as JSON. The counting is `cribcore.stats`."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.text import Text

from ..i18n import _
from ..profiles import load_profile
from ..rulebook import rulebook_for
from ..stats import MAX_CARDS, Distribution, FlushRules, flush_rules, show_distribution
from ..written_numbers import count_text, decimal_text, percent_text
from .render import columns, print_json

__all__ = ["StatsOptions", "add_stats_parser", "stats_command"]

_BAR_WIDTH = 30
_EIGHTHS = " ▏▎▍▌▋▊▉█"


@dataclass(frozen=True, slots=True)
class StatsOptions:
    """What the command line chose: the profile (name or file), hand and crib sizes (``None``: the
    profile's), whether to count hands and cribs, and JSON output."""

    profile: str = "standard"
    hand_size: int | None = None
    crib_size: int | None = None
    hands: bool = True
    cribs: bool = True
    as_json: bool = False


def add_stats_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``stats`` to the ``cribbage`` parser."""
    parser = commands.add_parser(
        "stats",
        help=_("the exact distribution of show scores"),
        description=_(
            "Count every hand (and crib) with every starter by its show score, exactly, under a "
            "profile's rules: a table, a histogram, the mean and the standard deviation."
        ),
        epilog=_(
            "JSON (--json): {profile, flush, hand, crib}; hand and crib hold cards, combinations, "
            "counts (counts[p] combinations score p points), mean, std, median, mode, max. "
            "Example: cribbage stats --profile seven-card --hand"
        ),
    )
    parser.add_argument(
        "--profile", default="standard", metavar="NAME|FILE", help=_("whose rules (default standard)")
    )
    parser.add_argument(
        "--hand-size",
        type=_size,
        metavar="N",
        help=_("cards in a hand, 1 to {most} (default: the profile's)").format(most=MAX_CARDS),
    )
    parser.add_argument(
        "--crib-size",
        type=_size,
        metavar="N",
        help=_("cards in the crib, 1 to {most} (default: the profile's)").format(most=MAX_CARDS),
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--hand", action="store_true", help=_("hands only"))
    which.add_argument("--crib", action="store_true", help=_("cribs only"))
    parser.add_argument("--json", action="store_true", help=_("print the distributions as JSON"))
    parser.set_defaults(handler=_handle)


def _size(text: str) -> int:
    try:
        size = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a whole number: {text}").format(text=repr(text))) from None
    if not 1 <= size <= MAX_CARDS:
        raise argparse.ArgumentTypeError(
            _("choose 1 to {most} cards, not {size}").format(most=MAX_CARDS, size=size)
        )
    return size


def _handle(args: argparse.Namespace, console: Console) -> int:
    options = StatsOptions(
        profile=args.profile,
        hand_size=args.hand_size,
        crib_size=args.crib_size,
        hands=not args.crib,
        cribs=not args.hand,
        as_json=args.json,
    )
    return stats_command(options, console)


def stats_command(options: StatsOptions, console: Console) -> int:
    """Print the distributions. Raises `ValueError` for an unknown or bad profile, or a profile whose
    hand or crib is larger than the statistics cover."""
    profile = load_profile(options.profile)
    book = rulebook_for(profile)
    rules = flush_rules(profile)
    kinds: list[tuple[str, Distribution]] = []
    if options.hands:
        size = options.hand_size if options.hand_size is not None else profile.rules.hand_size
        hands = show_distribution(_checked(size, "hand"), rules=rules, rulebook=book)
        kinds.append(("hands", hands))
    if options.cribs:
        size = options.crib_size if options.crib_size is not None else profile.rules.crib_size
        cribs = show_distribution(_checked(size, "crib"), crib=True, rules=rules, rulebook=book)
        kinds.append(("cribs", cribs))
    if options.as_json:
        data: dict[str, object] = {"profile": profile.name, "flush": rules.to_json()}
        data.update({name[:-1]: dist.to_json() for name, dist in kinds})
        print_json(data)
        return 0
    _print_tables(console, profile.name, rules, kinds)
    return 0


def _checked(size: int, what: str) -> int:
    if not 1 <= size <= MAX_CARDS:
        message = (
            _(
                "the statistics cover a hand of 1 to {most} cards; this one has {size} "
                "(choose one with --hand-size)"
            )
            if what == "hand"
            else _(
                "the statistics cover a crib of 1 to {most} cards; this one has {size} "
                "(choose one with --crib-size)"
            )
        )
        raise ValueError(message.format(most=MAX_CARDS, size=size))
    return size


def _flush_words(cards: int, needs_starter: bool) -> str:
    if needs_starter:
        return _("flush only with the starter ({n} of a suit: {n})").format(n=cards + 1)
    return _("flush {n} of a suit: {n}, {m} with the starter").format(n=cards, m=cards + 1)


def _print_tables(
    console: Console, name: str, rules: FlushRules, kinds: list[tuple[str, Distribution]]
) -> None:
    console.print(Text(_("Show scores over every combination of cards and a starter"), style="bold"))
    console.print(_("Profile {name}").format(name=name))
    for kind, dist in kinds:
        console.print(
            _("  {kind}: {cards} cards + starter, {combinations} combinations; {flush}; nobs 1").format(
                kind=_kind_words(kind),
                cards=dist.cards,
                combinations=count_text(dist.combinations),
                flush=_flush_words(dist.cards, rules.needs_starter(crib=dist.crib)),
            )
        )
    console.print()
    top = max(dist.maximum for _kind, dist in kinds)
    header: list[Text | str] = [Text(_("points"), style="bold")]
    for kind, _dist in kinds:
        header += [Text(_kind_words(kind), style="bold"), Text("%", style="bold")]
    rows: list[list[Text | str]] = [header]
    for points in range(top + 1):
        row: list[Text | str] = [str(points)]
        for _kind, dist in kinds:
            count = dist.counts[points] if points < len(dist.counts) else 0
            row += [
                count_text(count),
                _percent(dist.share(points)) if count else Text(_("never"), style="dim"),
            ]
        rows.append(row)
    for line in columns(rows, right=range(len(header)), gap=3):
        console.print(line)
    console.print()
    summary: list[list[Text | str]] = [["", *(Text(_kind_words(kind), style="bold") for kind, _d in kinds)]]
    summary += [
        [Text(_("mean"), style="bold"), *(decimal_text(dist.mean, 4) for _k, dist in kinds)],
        [Text(_("std dev"), style="bold"), *(decimal_text(dist.std, 4) for _k, dist in kinds)],
        [Text(_("median"), style="bold"), *(str(dist.median) for _k, dist in kinds)],
        [Text(_("most common"), style="bold"), *(str(dist.mode) for _k, dist in kinds)],
    ]
    for line in columns(summary, right=range(1, len(kinds) + 1), gap=3):
        console.print(line)
    console.print()
    _print_histogram(console, kinds, top)


def _kind_words(kind: str) -> str:
    """``hands`` or ``cribs`` (the JSON's own words) as a heading in the language."""
    return _("hands") if kind == "hands" else _("cribs")


def _percent(share: float) -> str:
    percent = share * 100
    return decimal_text(percent, 3) if percent >= 0.001 else f"<{decimal_text(0.001, 3)}"


def _print_histogram(console: Console, kinds: list[tuple[str, Distribution]], top: int) -> None:
    unicode = console.encoding.lower().replace("-", "").startswith("utf")
    peak = max(dist.share(p) for _, dist in kinds for p in range(top + 1))
    console.print(
        Text(
            _("Histogram (a full bar is {share} of combinations)").format(share=percent_text(peak * 100)),
            style="bold",
        )
    )
    header: list[Text | str] = [_("points"), *(_kind_words(kind) for kind, _d in kinds)]
    rows: list[list[Text | str]] = [header]
    for points in range(top + 1):
        rows.append([str(points), *(_bar(dist.share(points) / peak, unicode) for _, dist in kinds)])
    for line in columns(rows, right=(0,), gap=2):
        console.print(line)


def _bar(fraction: float, unicode: bool) -> str:
    """A bar ``fraction`` of `_BAR_WIDTH` long, in eighths of a cell with block characters, else ``#``;
    padded to the full width so that the next column lines up. Any nonzero share shows at least a sliver."""
    if not unicode:
        cells = round(fraction * _BAR_WIDTH)
        return ("#" * max(cells, 1 if fraction > 0 else 0)).ljust(_BAR_WIDTH)
    eighths = round(fraction * _BAR_WIDTH * 8)
    if fraction > 0:
        eighths = max(eighths, 1)
    full, part = divmod(eighths, 8)
    return ("█" * full + (_EIGHTHS[part] if part else "")).ljust(_BAR_WIDTH)
