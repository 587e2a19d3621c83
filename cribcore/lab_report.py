"""Words and numbers for the variant lab's figures (`cribcore.lab`), shared by the terminal summary and
the HTML page, in the current language."""

from __future__ import annotations

from .i18n import N_, _
from .lab import RATES, Estimate, Figure, LabResult
from .written_numbers import decimal_text, percent_text

__all__ = ["LABELS", "estimate_text", "figure_label", "levels_text", "value_text"]

LABELS = {
    "deals_per_game": N_("deals per game"),
    "first_dealer_wins": N_("the first dealer's share of wins"),
    "winning_margin": N_("average winning margin"),
    "skunk_rate": N_("skunks"),
    "double_skunk_rate": N_("double skunks"),
    "points_per_deal": N_("points per deal"),
    "play_per_deal": N_("the play, per deal"),
    "play_dealer_per_deal": N_("the play, dealer, per deal"),
    "play_pone_per_deal": N_("the play, pone, per deal"),
    "hands_per_deal": N_("the hands, per deal"),
    "hand_dealer_per_deal": N_("the dealer's hand, per deal"),
    "hand_pone_per_deal": N_("the pone's hand, per deal"),
    "crib_per_deal": N_("the crib, per deal"),
    "heels_per_deal": N_("his heels, per deal"),
    "other_per_deal": N_("other points, per deal"),
    "dealt_hand": N_("a random hand (four of six dealt)"),
    "dealt_crib": N_("a random crib (four of six dealt)"),
    "skill": N_("skill: the stronger level's wins"),
    "knowing_the_rule": N_("knowing the rule: wins"),
}
"""Each figure of `cribcore.lab.FIGURES` as a reader sees it (translated where shown)."""


def figure_label(name: str) -> str:
    """The figure's words; a plugin kind ``kind:NAME`` is "NAME, per deal"."""
    if name.startswith("kind:"):
        return _("{kind}, per deal").format(kind=name.removeprefix("kind:"))
    return _(LABELS.get(name, name))


def is_share(name: str) -> bool:
    """Whether the figure is a share of games (shown in percent)."""
    return name in RATES or name == "knowing_the_rule"


def value_text(name: str, value: float, *, sign: bool = False) -> str:
    """A figure's value: a share in percent (a difference in points of percentage), else 2 decimals."""
    if is_share(name):
        text = percent_text(value * 100)
        return ("+" + text) if sign and value >= 0 else text
    return decimal_text(value, 2, sign=sign)


def estimate_text(name: str, estimate: Estimate, *, sign: bool = False) -> str:
    """``value (low – high)``."""
    value, low, high = (value_text(name, v, sign=sign) for v in (estimate.value, estimate.low, estimate.high))
    return f"{value} ({low} – {high})"


def levels_text(result: LabResult) -> str:
    """What the intervals are: 95 % for each side, simultaneous (Bonferroni) for the differences."""
    return _(
        "Intervals: 95 percent for each side; {level} for each difference, so that the {figures} "
        "differences hold together with 95 percent confidence. In bold, differences that leave out 0."
    ).format(level=percent_text(result.difference_level * 100, 2), figures=len(result.names()))


def excludes_zero(figure: Figure) -> bool:
    """Whether the difference's interval leaves out 0 (the rule changed this figure, by its interval)."""
    return figure.difference.low > 0 or figure.difference.high < 0
