"""The variant lab's page: one self-contained HTML file with inline SVG charts, no request to any host.

The charts are drawn as SVG here rather than with a plotting library: they are three simple kinds
(bars side by side, bars by source, points with interval whiskers), a library would add a heavy
dependency and, in its HTML output, scripts or fonts fetched from elsewhere. Every text is escaped;
the page scales to a phone's width (the SVGs have a ``viewBox`` and no fixed width).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from .i18n import _, current_language
from .lab import LabResult, exact_means
from .lab_report import estimate_text, excludes_zero, figure_label, levels_text, value_text

__all__ = ["lab_html"]

PROFILE_COLOUR = "#b4451f"
REFERENCE_COLOUR = "#3465a4"
_SOURCES = (
    "play_dealer_per_deal",
    "play_pone_per_deal",
    "hand_dealer_per_deal",
    "hand_pone_per_deal",
    "crib_per_deal",
    "heels_per_deal",
    "other_per_deal",
)
_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
"""Nothing but the page's own style: a page that is opened from a file makes no request anywhere."""
_RATES = ("first_dealer_wins", "skunk_rate", "double_skunk_rate", "skill", "knowing_the_rule")


def _svg(width: int, height: int, body: list[str], title: str) -> str:
    return (
        f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(title)}</title>{''.join(body)}</svg>"
    )


def _text(x: float, y: float, text: str, anchor: str = "start", size: int = 12) -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}">{escape(text)}</text>'


def _histogram(title: str, profile: dict[int, int], reference: dict[int, int]) -> str:
    """Bars side by side: the share of each score under each rule."""
    width, height, left, bottom = 420, 200, 30, 22
    top = max([*profile, *reference, 0]) + 1
    totals = sum(profile.values()) or 1, sum(reference.values()) or 1
    shares = [
        [profile.get(k, 0) / totals[0] for k in range(top)],
        [reference.get(k, 0) / totals[1] for k in range(top)],
    ]
    highest = max(max(s) for s in shares) or 1.0
    slot = (width - left - 10) / top
    plot = height - bottom - 10
    body = [
        f'<line x1="{left}" y1="{height - bottom}" x2="{width - 10}" y2="{height - bottom}" stroke="#555"/>'
    ]
    for k in range(top):
        for side, colour in enumerate((PROFILE_COLOUR, REFERENCE_COLOUR)):
            h = shares[side][k] / highest * plot
            x = left + k * slot + side * slot / 2
            body.append(
                f'<rect x="{x:.1f}" y="{height - bottom - h:.1f}" width="{max(slot / 2 - 1, 0.5):.1f}" '
                f'height="{h:.1f}" fill="{colour}"><title>{k}: {shares[side][k]:.1%}</title></rect>'
            )
        if top <= 16 or k % 2 == 0:
            body.append(_text(left + (k + 0.5) * slot, height - bottom + 15, str(k), "middle", 11))
    body.append(_text(2, 12, value_text("skill", highest), size=11))
    return _svg(width, height, body, title)


def _bars(result: LabResult, names: Sequence[str], title: str) -> str:
    """Horizontal bars by figure, its words above, the profile above the reference, with interval
    whiskers (narrow enough that the words stay legible on a phone)."""
    figures = [result.figure(name) for name in names]
    row, left, width = 56, 8, 420
    height = row * len(figures) + 6
    highest = max([f.profile.high for f in figures] + [f.reference.high for f in figures] + [1e-9])
    scale = (width - left - 70) / highest
    body: list[str] = []
    for i, figure in enumerate(figures):
        y = 4 + i * row
        body.append(_text(left, y + 13, figure_label(figure.name), size=13))
        for side, (estimate, colour) in enumerate(
            ((figure.profile, PROFILE_COLOUR), (figure.reference, REFERENCE_COLOUR))
        ):
            yy = y + 18 + side * 16
            body.append(
                f'<rect x="{left}" y="{yy:.1f}" width="{max(estimate.value, 0) * scale:.1f}" height="13" '
                f'fill="{colour}"/>'
            )
            body.append(
                f'<line x1="{left + max(estimate.low, 0) * scale:.1f}" y1="{yy + 6.5:.1f}" '
                f'x2="{left + max(estimate.high, 0) * scale:.1f}" y2="{yy + 6.5:.1f}" stroke="#111"/>'
            )
            end = left + max(estimate.high, estimate.value, 0) * scale + 4
            body.append(_text(end, yy + 11, value_text(figure.name, estimate.value), size=12))
    return _svg(width, height, body, title)


def _legend(result: LabResult) -> str:
    profile, reference = escape(result.setup.profile.name), escape(result.setup.reference.name)
    return (
        f'<p class="legend"><span style="color:{PROFILE_COLOUR}">■</span> {profile} '
        f'&nbsp; <span style="color:{REFERENCE_COLOUR}">■</span> {reference}</p>'
    )


def lab_html(result: LabResult) -> str:
    """The whole page for ``result``, in the current language."""
    setup = result.setup
    title = _("The variant lab: {profile} against {reference}").format(
        profile=setup.profile.name, reference=setup.reference.name
    )
    rows = []
    for figure in result.by_size():
        mark = ' class="changed"' if excludes_zero(figure) else ""
        rows.append(
            f"<tr{mark}><th>{escape(figure_label(figure.name))}</th>"
            f"<td>{escape(estimate_text(figure.name, figure.profile))}</td>"
            f"<td>{escape(estimate_text(figure.name, figure.reference))}</td>"
            f"<td>{escape(estimate_text(figure.name, figure.difference, sign=True))}</td></tr>"
        )
    rates, sources, spreads = _("Win rates"), _("Points per deal by source"), _("Distributions")
    charts = [
        f"<h2>{escape(rates)}</h2>",
        _legend(result),
        _bars(result, _RATES, rates),
        f"<h2>{escape(sources)}</h2>",
        _legend(result),
        _bars(result, _SOURCES, sources),
        f"<h2>{escape(spreads)}</h2>",
        _legend(result),
    ]
    for name, words in (
        ("hand", _("Hands as shown")),
        ("crib", _("Cribs as shown")),
        ("play", _("Play points per seat and deal")),
    ):
        profile, reference = result.distribution(name)
        charts.append(f"<h3>{escape(words)}</h3>")
        charts.append(_histogram(words, profile, reference))
    exact = exact_means(setup)
    for name, words in (
        ("hand", _("Every hand with every starter")),
        ("crib", _("Every crib with every starter")),
    ):
        sides = [exact[side][name] for side in ("profile", "reference")]
        counts = [dict(enumerate(side["counts"])) for side in sides]
        if any(side["method"] != "exact" for side in sides):
            words = _("{chart} (sampled)").format(chart=words)
        charts.append(f"<h3>{escape(words)}</h3>")
        charts.append(_histogram(words, counts[0], counts[1]))
    stopped = _("Partial: the run was stopped; these figures cover the games finished.")
    partial = f'<p class="partial">{escape(stopped)}</p>' if result.partial else ""
    how, levels = _("The largest differences first."), levels_text(result)
    figure_word, difference_word = _("figure"), _("difference")
    summary = _(
        "{games} paired games (seed {seed}), both seats at the {level} level; "
        "skill: {level} against {weaker}."
    ).format(games=result.tally.games, seed=setup.seed, level=setup.level, weaker=setup.weaker)
    head = (
        f"<tr><th>{escape(figure_word)}</th><th>{escape(setup.profile.name)}</th>"
        f"<th>{escape(setup.reference.name)}</th><th>{escape(difference_word)}</th></tr>"
    )
    return f"""<!DOCTYPE html>
<html lang="{current_language()}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{_POLICY}">
<title>{escape(title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 0.5rem; }}
table {{ border-collapse: collapse; width: 100%; font-size: 0.9rem; }}
th, td {{ border-bottom: 1px solid #ddd; padding: 0.25rem; text-align: left; }}
tr.changed th {{ font-weight: bold; }}
.scroll {{ overflow-x: auto; }}
svg.chart {{ width: 100%; height: auto; display: block; }}
.partial {{ color: #a00; font-weight: bold; }}
</style>
</head>
<body>
<h1>{escape(title)}</h1>
{partial}
<p>{escape(summary)}</p>
<p>{escape(how)}</p>
<p class="levels">{escape(levels)}</p>
<div class="scroll"><table>{head}{"".join(rows)}</table></div>
{"".join(charts)}
</body>
</html>
"""
