"""Numbers as each language writes them in the terminal's tables and sentences: English ``2.5``,
``12,345`` and ``4.3%``; Spanish ``2,5``, ``12 345`` and ``4,3 %`` (a decimal comma, digits grouped
by a space from five digits on, a space before the percent sign). Machine output (``--json``, records)
never goes through here."""

from __future__ import annotations

from .i18n import check_language, current_language

__all__ = ["count_text", "decimal_text", "percent_text"]


def _spanish(lang: str | None) -> bool:
    return (current_language() if lang is None else check_language(lang)) == "es"


def decimal_text(value: float, places: int = 1, lang: str | None = None, *, sign: bool = False) -> str:
    """``value`` with ``places`` decimals (with ``sign``, always signed: ``+2.5``), in ``lang``
    (default: the current language)."""
    text = f"{value:+.{places}f}" if sign else f"{value:.{places}f}"
    return text.replace(".", ",") if _spanish(lang) else text


def count_text(count: int, lang: str | None = None) -> str:
    """A whole number with the language's digit grouping (``12,345`` / ``12 345``; Spanish leaves
    four digits ungrouped: ``1000``)."""
    if _spanish(lang):
        return f"{count:,}".replace(",", " ") if abs(count) >= 10_000 else str(count)
    return f"{count:,}"


def percent_text(percent: float, places: int = 1, lang: str | None = None) -> str:
    """``percent`` (already in percentage points) with ``places`` decimals and the sign:
    ``4.3%`` / ``4,3 %``."""
    text = decimal_text(percent, places, lang)
    return f"{text} %" if _spanish(lang) else f"{text}%"
