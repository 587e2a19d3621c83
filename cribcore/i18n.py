"""The language of every word cribcore says: English (the source strings) or Spanish, from gettext
catalogs in ``cribcore/locale/<lang>/LC_MESSAGES/cribcore.mo``.

The catalogs are managed with Babel (``pybabel extract``/``update``/``compile``, see docs/i18n.md); the
compiled ``.mo`` files are committed and shipped as package data, so running needs nothing but the
standard library's `gettext` (a test checks that each ``.mo`` holds exactly what its ``.po`` says).

One language is current for the process (`set_language`); every function that speaks also takes an
explicit ``lang`` where one process speaks to several people (the server speaks per seat). English
needs no catalog: its messages are the source strings.
"""

from __future__ import annotations

import gettext as _gettext
import io
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "N_",
    "Nn_",
    "_",
    "current_language",
    "extract_profile_description",
    "extract_python_and_plugin_words",
    "gettext",
    "language_asked",
    "language_from_env",
    "language_of_locale",
    "ngettext",
    "set_language",
    "translation",
]

DOMAIN = "cribcore"
LANGUAGES = ("en", "es")
"""The languages cribcore speaks; the first is the source language of the catalogs."""
DEFAULT_LANGUAGE = "en"
LOCALE_DIR = Path(__file__).with_name("locale")

_current = DEFAULT_LANGUAGE
_asked = False
_loaded: dict[str, _gettext.NullTranslations] = {}


def check_language(lang: str) -> str:
    """``lang`` normalized (``ES`` -> ``es``); `ValueError` naming the choices when it is not one."""
    code = lang.strip().lower()
    if code not in LANGUAGES:
        raise ValueError(f"no such language: {lang!r} (choose {' or '.join(LANGUAGES)})")
    return code


def set_language(lang: str, *, asked: bool = False) -> None:
    """Make ``lang`` (``en`` or ``es``) the language of this process; `ValueError` for any other.
    ``asked``: the person named it on the command line (``--lang``), so it wins over the language a
    saved game was played in (`language_asked`)."""
    global _current, _asked
    _current = check_language(lang)
    _asked = asked


def language_asked() -> bool:
    """Whether the current language was named with ``--lang`` (not taken from the environment)."""
    return _asked


def current_language() -> str:
    """The language set by `set_language` (English until then)."""
    return _current


def translation(lang: str | None = None) -> _gettext.NullTranslations:
    """The catalog of ``lang`` (default: the current language), loaded once per process."""
    code = _current if lang is None else check_language(lang)
    found = _loaded.get(code)
    if found is None:
        if code == DEFAULT_LANGUAGE:
            found = _gettext.NullTranslations()
        else:
            # fallback: a missing catalog (a broken install) speaks English rather than failing.
            found = _gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)
        _loaded[code] = found
    return found


def gettext(message: str, lang: str | None = None) -> str:
    """``message`` in ``lang`` (default: the current language)."""
    return translation(lang).gettext(message)


def _(message: str) -> str:
    """``message`` in the current language (the name the extractor looks for)."""
    return translation().gettext(message)


def ngettext(singular: str, plural: str, n: int, lang: str | None = None) -> str:
    """The singular or plural form for ``n`` in ``lang`` (default: the current language)."""
    return translation(lang).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks ``message`` for the catalog without translating it yet (translated where it is shown)."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a message with a plural for the catalog (the extractor's keyword ``Nn_:1,2``); the pair is
    handed to `ngettext` where it is shown."""
    return singular, plural


def language_of_locale(value: str | None) -> str | None:
    """The language of a locale name (``es_ES.UTF-8`` -> ``es``), ``None`` for ``C``/``POSIX``/empty;
    a locale in a language cribcore does not speak means English."""
    if not value:
        return None
    code = value.split(".", 1)[0].split("@", 1)[0].split("_", 1)[0].split("-", 1)[0].lower()
    if code in ("", "c", "posix"):
        return None
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def language_from_env(lang: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language chosen as people expect: ``lang`` (the ``--lang`` option) if given, else
    ``CRIBCORE_LANG``, else the locale (``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``, the first one
    set), else English. Raises `ValueError` when ``lang`` or ``CRIBCORE_LANG`` names no language."""
    env = os.environ if environ is None else environ
    if lang:
        return check_language(lang)
    chosen = env.get("CRIBCORE_LANG", "")
    if chosen:
        return check_language(chosen)
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return language_of_locale(value) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def take_lang_option(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """Split ``--lang X`` / ``--lang=X`` out of a command line (anywhere before ``--``), so that it
    works with every command: returns the value (the last one given, ``None`` if none) and the rest.
    Raises `ValueError` when ``--lang`` ends the line without a value."""
    value: str | None = None
    rest: list[str] = []
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest.extend(args[i:])
            break
        if arg == "--lang":
            if i + 1 >= len(args):
                raise ValueError(f"--lang needs a value: {' or '.join(LANGUAGES)}")
            value = args[i + 1]
            i += 2
            continue
        if arg.startswith("--lang="):
            value = arg.partition("=")[2]
        else:
            rest.append(arg)
        i += 1
    return value, rest


def extract_profile_description(
    fileobj: BinaryIO, keywords: object, comment_tags: object, options: object
) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extractor for a profile file (``babel.cfg``): its ``description``, the words the
    profile lists and the board show, as a message of the catalog (translated where it is shown, with
    `gettext`). A profile file of a user's own has no entry and is shown as written."""
    del keywords, comment_tags, options
    import tomllib

    data = tomllib.loads(fileobj.read().decode("utf-8"))
    description = data.get("description")
    if isinstance(description, str) and description:
        yield 1, None, description, []


def _has_hookimpl(node: object) -> bool:
    import ast

    return any(
        isinstance(item, ast.FunctionDef)
        and any(
            (isinstance(d, ast.Name) and d.id == "hookimpl")
            or (isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "hookimpl")
            for d in item.decorator_list
        )
        for item in getattr(node, "body", ())
    )


def _plugin_words(source: str) -> Iterator[tuple[int, str]]:
    """A plugin module's words that ``cribbage plugins`` shows: the summary (the first line of the
    docstring of a module or class that implements hooks, or of a class with its own ``Options``) and
    each ``Field(description=...)`` of its options."""
    import ast

    tree = ast.parse(source)
    holders: list[ast.Module | ast.ClassDef] = [tree] if _has_hookimpl(tree) else []
    holders += [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        # a plugin class implements hooks itself, or inherits them and has its own options
        and (
            _has_hookimpl(node) or any(isinstance(c, ast.ClassDef) and c.name == "Options" for c in node.body)
        )
    ]
    for holder in holders:
        doc = ast.get_docstring(holder)
        if doc:
            yield getattr(holder, "lineno", 1), doc.splitlines()[0]
        for node in ast.walk(holder):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Field":
                for keyword in node.keywords:
                    value = keyword.value
                    if keyword.arg == "description" and isinstance(value, ast.Constant) and value.value:
                        yield node.lineno, str(value.value)


def extract_python_and_plugin_words(
    fileobj: BinaryIO, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[Any, ...]]:
    """Babel's extractor for Python sources (``babel.cfg``): Babel's own Python extractor's messages,
    and a plugin module's summary and option descriptions (`cribbage plugins` shows them with
    `gettext`; a plugin of one's own, not in the catalog, is shown as written)."""
    from babel.messages.extract import extract_python

    source = fileobj.read()
    yield from extract_python(io.BytesIO(source), keywords, comment_tags, options)
    for line, message in _plugin_words(source.decode("utf-8")):
        yield line, None, message, []
