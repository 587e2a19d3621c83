"""The ``stats`` command: the distribution of show scores over every hand (and crib) of a profile, as a
table with a text histogram, or as JSON: exact where the profile's rules allow, otherwise sampled, each
sampled figure with its 95 % interval. The counting is `cribcore.stats_any_rule`."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.text import Text

from ..i18n import _
from ..rulebook import rulebook_for
from ..stats import MAX_CARDS, Distribution, FlushRules, flush_rules
from ..stats_any_rule import DEFAULT_SAMPLES, SampledDistribution, show_statistics
from ..written_numbers import count_text, decimal_text, percent_text
from .profile_arg import load_profile_option
from .render import columns, print_json
from .simulate import _whole

__all__ = ["StatsOptions", "add_stats_parser", "stats_command"]

_BAR_WIDTH = 30
_EIGHTHS = " ▏▎▍▌▋▊▉█"

Figures = Distribution | SampledDistribution


@dataclass(frozen=True, slots=True)
class StatsOptions:
    """What the command line chose: the profile (name or file), hand and crib sizes (``None``: the
    profile's), whether to count hands and cribs, JSON output, and the samples and seed used when the
    profile's show cannot be counted exactly."""

    profile: str = "standard"
    hand_size: int | None = None
    crib_size: int | None = None
    hands: bool = True
    cribs: bool = True
    as_json: bool = False
    samples: int = DEFAULT_SAMPLES
    seed: int = 0


def add_stats_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``stats`` to the ``cribbage`` parser."""
    parser = commands.add_parser(
        "stats",
        help=_("the distribution of show scores"),
        description=_(
            "Count every hand (and crib) with every starter by its show score under a profile's rules: "
            "a table, a histogram, the mean and the standard deviation. The count is exact where the "
            "rules allow: the standard show and its flush rules, rules that see suits only through "
            "flushes and nobs, and any rules when there are no more combinations than samples. Otherwise "
            "(rules that tell suits apart in other ways, a pack with extra cards) it draws --samples "
            "combinations at random from --seed and labels every figure as sampled, with its 95 percent "
            "interval."
        ),
        epilog=_(
            "JSON (--json): {profile, flush, hand, crib}; hand and crib hold method (exact or sampled), "
            "cards, combinations, counts (counts[p] combinations score p points), mean, std, median, mode, "
            "max. A sampled one adds sampled_because (suits or pack), samples, seed, counts of draws, "
            "share_ci95, mean_ci95, std_ci95, median_ci95, mode_candidates and above_max_at_most. "
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
    parser.add_argument(
        "--samples",
        type=_whole(1),
        default=DEFAULT_SAMPLES,
        metavar="N",
        help=_("combinations to draw when the rules cannot be counted exactly (default {n})").format(
            n=DEFAULT_SAMPLES
        ),
    )
    parser.add_argument(
        "--seed",
        type=_whole(0),
        default=0,
        metavar="S",
        help=_("the seed of the draws: the same seed, the same sampled table (default 0)"),
    )
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
        samples=args.samples,
        seed=args.seed,
    )
    return stats_command(options, console)


def stats_command(options: StatsOptions, console: Console) -> int:
    """Print the distributions, exact or sampled (never refused for the profile's rules). Raises
    `UsageError` for an unknown or bad profile, and `ValueError` for a profile whose hand or crib is
    larger than the statistics cover."""
    profile = load_profile_option(options.profile, "stats")
    book = rulebook_for(profile)
    rules = flush_rules(profile)
    kinds: list[tuple[str, Figures]] = []
    draws = {"samples": options.samples, "seed": options.seed}
    if options.hands:
        size = options.hand_size if options.hand_size is not None else profile.rules.hand_size
        hands = show_statistics(book, _checked(size, "hand"), crib=False, rules=rules, **draws)
        kinds.append(("hands", hands))
    if options.cribs:
        size = options.crib_size if options.crib_size is not None else profile.rules.crib_size
        cribs = show_statistics(book, _checked(size, "crib"), crib=True, rules=rules, **draws)
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


def _print_tables(console: Console, name: str, rules: FlushRules, kinds: list[tuple[str, Figures]]) -> None:
    sampled = any(isinstance(figures, SampledDistribution) for _kind, figures in kinds)
    title = (
        _("Show scores of combinations of cards and a starter, sampled where they cannot be counted")
        if sampled
        else _("Show scores over every combination of cards and a starter")
    )
    console.print(Text(title, style="bold"))
    console.print(_("Profile {name}").format(name=name))
    for kind, figures in kinds:
        console.print(_kind_line(kind, figures, rules))
    if sampled:
        console.print(
            _(
                "Sampled figures are estimates, each with its {level} interval (in brackets in the "
                "summary); a score never drawn may still occur."
            ).format(level="95%")
        )
    console.print()
    dists = [(kind, _tally(figures)) for kind, figures in kinds]
    top = max(dist.maximum for _kind, dist in dists)
    header: list[Text | str] = [Text(_("points"), style="bold")]
    for kind, figures in kinds:
        header += [Text(_heading(kind, figures), style="bold"), Text("%", style="bold")]
        if isinstance(figures, SampledDistribution):
            header.append(Text(_("{level} interval").format(level="95%"), style="bold"))
    rows: list[list[Text | str]] = [header]
    for points in range(top + 1):
        row: list[Text | str] = [str(points)]
        for _kind, figures in kinds:
            row += _cells(figures, points)
        rows.append(row)
    for line in columns(rows, right=range(len(header)), gap=3):
        console.print(line)
    console.print()
    summary: list[list[Text | str]] = [["", *(Text(_heading(kind, f), style="bold") for kind, f in kinds)]]
    summary += [
        [Text(_("mean"), style="bold"), *(_mean_cell(f) for _k, f in kinds)],
        [Text(_("std dev"), style="bold"), *(_std_cell(f) for _k, f in kinds)],
        [Text(_("median"), style="bold"), *(_median_cell(f) for _k, f in kinds)],
        [Text(_("most common"), style="bold"), *(_mode_cell(f) for _k, f in kinds)],
    ]
    if sampled:
        summary.append([Text(_("highest drawn"), style="bold"), *(_highest_cell(f) for _k, f in kinds)])
    for line in columns(summary, right=range(1, len(kinds) + 1), gap=3):
        console.print(line)
    console.print()
    _print_histogram(console, kinds, top)


def _tally(figures: Figures) -> Distribution:
    """The counts behind ``figures``: every combination's, or the draws'."""
    return figures.sample if isinstance(figures, SampledDistribution) else figures


def _kind_line(kind: str, figures: Figures, rules: FlushRules) -> str:
    if isinstance(figures, SampledDistribution):
        why = (
            _("the pack has cards beyond the standard 52")
            if figures.reason == "pack"
            else _("the rules tell suits apart beyond flushes and nobs")
        )
        return _(
            "  {kind}: {cards} cards + starter, {samples} of {combinations} combinations sampled "
            "(seed {seed}): {why}"
        ).format(
            kind=_kind_words(kind),
            cards=figures.cards,
            samples=count_text(figures.samples),
            combinations=count_text(figures.combinations),
            seed=figures.seed,
            why=why,
        )
    return _("  {kind}: {cards} cards + starter, {combinations} combinations; {flush}; nobs 1").format(
        kind=_kind_words(kind),
        cards=figures.cards,
        combinations=count_text(figures.combinations),
        flush=_flush_words(figures.cards, rules.needs_starter(crib=figures.crib)),
    )


def _heading(kind: str, figures: Figures) -> str:
    if isinstance(figures, SampledDistribution):
        return _("{kind} (sampled)").format(kind=_kind_words(kind))
    return _kind_words(kind)


def _cells(figures: Figures, points: int) -> list[Text | str]:
    dist = _tally(figures)
    count = dist.counts[points] if points < len(dist.counts) else 0
    if not isinstance(figures, SampledDistribution):
        return [count_text(count), _percent(dist.share(points)) if count else Text(_("never"), style="dim")]
    low, high = figures.share_interval(points)
    shown: Text | str = _percent(dist.share(points)) if count else Text(_("none drawn"), style="dim")
    return [count_text(count), shown, f"{_percent(low)} – {_percent(high)}"]


def _within(value: str, low: str, high: str) -> str:
    return f"{value} ({low} – {high})"


def _mean_cell(figures: Figures) -> str:
    if not isinstance(figures, SampledDistribution):
        return decimal_text(figures.mean, 4)
    low, high = figures.mean_interval
    return _within(decimal_text(figures.sample.mean, 4), decimal_text(low, 4), decimal_text(high, 4))


def _std_cell(figures: Figures) -> str:
    if not isinstance(figures, SampledDistribution):
        return decimal_text(figures.std, 4)
    low, high = figures.std_interval
    return _within(decimal_text(figures.sample.std, 4), decimal_text(low, 4), decimal_text(high, 4))


def _median_cell(figures: Figures) -> str:
    if not isinstance(figures, SampledDistribution):
        return str(figures.median)
    low, high = figures.median_interval
    return _within(str(figures.sample.median), str(low), str(high))


def _mode_cell(figures: Figures) -> str:
    if not isinstance(figures, SampledDistribution):
        return str(figures.mode)
    candidates = ", ".join(str(points) for points in figures.mode_candidates)
    return f"{figures.sample.mode} ({candidates})"


def _highest_cell(figures: Figures) -> str:
    if not isinstance(figures, SampledDistribution):
        return str(figures.maximum)
    return _("{points} (more: under {share})").format(
        points=figures.sample.maximum, share=percent_text(figures.above_maximum * 100, 3)
    )


def _kind_words(kind: str) -> str:
    """``hands`` or ``cribs`` (the JSON's own words) as a heading in the language."""
    return _("hands") if kind == "hands" else _("cribs")


def _percent(share: float) -> str:
    percent = share * 100
    if percent == 0:
        return "0"
    return decimal_text(percent, 3) if percent >= 0.001 else f"<{decimal_text(0.001, 3)}"


def _print_histogram(console: Console, kinds: list[tuple[str, Figures]], top: int) -> None:
    unicode = console.encoding.lower().replace("-", "").startswith("utf")
    dists = [_tally(figures) for _kind, figures in kinds]
    peak = max(dist.share(p) for dist in dists for p in range(top + 1))
    console.print(
        Text(
            _("Histogram (a full bar is {share} of combinations)").format(share=percent_text(peak * 100)),
            style="bold",
        )
    )
    header: list[Text | str] = [_("points"), *(_heading(kind, figures) for kind, figures in kinds)]
    rows: list[list[Text | str]] = [header]
    for points in range(top + 1):
        rows.append([str(points), *(_bar(dist.share(points) / peak, unicode) for dist in dists)])
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
