"""The browser board's own words in each language, from the project's gettext catalogs.

The board's messages are the ``board`` domain of the catalogs the terminal's come from
(``cribcore/locale/LANG/LC_MESSAGES/board.po``, managed with Babel): English is the message id, so an
English page needs no catalog, and the server hands the board every other language as JSON
(``GET /api/i18n/LANG``). The board looks each message up by its English text and falls back to it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

from ..i18n import LANGUAGES, LOCALE_DIR

__all__ = ["DOMAIN", "LANGS", "board_catalog_path", "board_messages"]

DOMAIN = "board"
LANGS = LANGUAGES
"""The languages the board speaks (cribcore's); English is the catalogs' message ids."""


def board_catalog_path(lang: str) -> Path:
    """Where the board's catalog for ``lang`` (not English) is kept."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def board_messages(lang: str) -> dict[str, str]:
    """The board's translations into ``lang``, English message id to text (empty for English).

    Untranslated and fuzzy entries are left out: the board shows their English rather than a guess.
    Raises `ValueError` for a language the board does not speak.
    """
    if lang not in LANGS:
        raise ValueError(f"no board messages in {lang!r} (there are: {', '.join(LANGS)})")
    if lang == "en":
        return {}
    with board_catalog_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    return {
        str(message.id): str(message.string)
        for message in catalog
        if message.id and message.string and not message.fuzzy and isinstance(message.id, str)
    }
