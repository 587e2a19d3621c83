"""The browser board's message ids, as the board looks them up: every ``t("…")`` and ``N_("…")`` of
``app.js`` (Babel's JavaScript extractor, and a plain scan for calls it does not reach, such as one
inside another's arguments or a template string) and every ``data-i18n`` text, placeholder and label
of ``index.html``."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from babel.messages.extract import extract_from_file

STATIC = Path(__file__).resolve().parent.parent / "cribcore" / "server" / "static"

_CALL = re.compile(r'\b(?:t|N_)\("((?:[^"\\]|\\.)*)"')
_VOID = {"meta", "link", "input", "br", "img", "hr", "source", "option"}


class _Marked(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for key in ("data-i18n-placeholder", "data-i18n-label"):
            if found.get(key):
                self.ids.append(str(found[key]))
        if tag not in _VOID:
            self.stack.append("data-i18n" in found)

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if self.stack and self.stack[-1] and data.strip():
            self.ids.append(data.strip())


def board_message_ids() -> list[str]:
    """Every message id of the board, once each, in the order they appear."""
    found: list[str] = []
    script = STATIC / "app.js"
    for _line, message, _comments, _context in extract_from_file(
        "javascript", str(script), keywords={"t": None, "N_": None}
    ):
        found.append(message if isinstance(message, str) else message[0])
    found += [json.loads(f'"{text}"') for text in _CALL.findall(script.read_text(encoding="utf-8"))]
    page = _Marked()
    page.feed((STATIC / "index.html").read_text(encoding="utf-8"))
    found += page.ids
    return list(dict.fromkeys(found))
