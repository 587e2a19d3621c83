"""One-line error reporting: every failure the user sees is a single line on standard error.

Anything untrusted that reaches a terminal (a name from a record, an argument echoed in an error) goes
through `visible`, so that escape sequences and other control characters are shown escaped (``\\x1b``)
rather than obeyed; error lines shorten whatever they echo with `shorten`.
"""

from __future__ import annotations

import codecs
import io
import sys
import unicodedata

__all__ = [
    "PLAIN_ERRORS",
    "PROG",
    "error_line",
    "os_error_text",
    "plain_streams",
    "report",
    "shorten",
    "visible",
]

PROG = "cribbage"

_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Controls (escape sequences start with one), format characters (such as the bidirectional overrides
that reorder a line), lone surrogates (undecodable bytes of an argument) and line separators."""
_JOINERS = frozenset("\u200c\u200d")
"""Format characters that only join or part letters and emoji: harmless, and part of some names."""

_TOKEN_LIMIT = 200
"""The longest word of an error line kept whole: longer ones (an echoed argument) are shortened."""
_LINE_LIMIT = 600
"""The longest error line kept whole."""


def _escaped(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def visible(text: str, keep: str = "") -> str:
    """``text`` with every control, format or separator character (except those in ``keep``) written
    as a visible escape such as ``\\x1b`` or ``\\u202e``: safe to print to a terminal."""
    if text.isprintable():
        return text
    return "".join(
        _escaped(ch)
        if ch not in keep and ch not in _JOINERS and unicodedata.category(ch) in _UNSAFE_CATEGORIES
        else ch
        for ch in text
    )


def shorten(text: str, limit: int = _TOKEN_LIMIT) -> str:
    """``text`` if it has at most ``limit`` characters, else its start and end around ``…``."""
    if len(text) <= limit:
        return text
    tail = max(limit // 4, 1)
    return f"{text[: limit - tail - 1]}…{text[-tail:]}"


def error_line(message: str, prog: str = PROG) -> str:
    """``cribbage: error: <message>`` on one line: line breaks folded to spaces, control characters
    escaped (`visible`), overlong words and the line itself shortened (`shorten`)."""
    words = [shorten(word) for word in visible(" ".join(message.split())).split(" ")]
    return f"{prog}: error: {shorten(' '.join(words), _LINE_LIMIT)}"


def report(message: str, prog: str = PROG) -> None:
    """Write `error_line` to standard error."""
    print(error_line(message, prog), file=sys.stderr, flush=True)


def os_error_text(exc: OSError) -> str:
    """An `OSError` as the user should read it: ``<file>: <reason>`` when it names a file."""
    if exc.strerror:
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror}"
    return str(exc)


_PLAIN = {
    "—": "-",
    "–": "-",
    "·": "|",
    "─": "-",
    "…": "...",
    "●": "@",
    "○": "o",
    "“": '"',
    "”": '"',
    "’": "'",
    "¿": "?",
    "¡": "!",
    "«": '"',
    "»": '"',
    "♣": "C",
    "♦": "D",
    "♥": "H",
    "♠": "S",
}
PLAIN_ERRORS = "cribcore-plain"
"""The codec error handler that writes what an ASCII stream cannot encode plainly: dashes and bars for
the marks the commands use, letters for suits, a letter without its accent (Spanish "línea" as
"linea"), ``?`` for anything else."""


def _plain_char(ch: str) -> str:
    if ch in _PLAIN:
        return _PLAIN[ch]
    base = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii")
    return base or "?"


def _plain(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    bad = exc.object[exc.start : exc.end]
    return "".join(_plain_char(ch) for ch in bad), exc.end


codecs.register_error(PLAIN_ERRORS, _plain)


def plain_streams() -> None:
    """Make standard output and standard error write what their encoding cannot (an ASCII locale, or
    ``PYTHONIOENCODING=ascii``) plainly (see `PLAIN_ERRORS`) rather than fail: help, errors and
    everything else printed, in any language."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "utf-8").lower().replace("-", "")
        if not encoding.startswith("utf") and isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors=PLAIN_ERRORS)
