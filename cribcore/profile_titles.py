"""The built-in profiles' names as words of a language: ``five-card`` is "cinco cartas" in a Spanish
sentence. The name itself stays the profile's identifier (``--profile five-card``, records, saves);
only where it is shown among other words is it said in the language. A profile of a user's own keeps
the name it was given."""

from __future__ import annotations

from .i18n import N_, gettext

__all__ = ["profile_title"]

_TITLES = {
    "standard": N_("standard"),
    "five-card": N_("five-card"),
    "five-card-muggins": N_("five-card-muggins"),
    "flush-with-starter": N_("flush-with-starter"),
    "four-players": N_("four-players"),
    "lowball": N_("lowball"),
    "muggins": N_("muggins"),
    "partners": N_("partners"),
    "seven-card": N_("seven-card"),
    "skunk-match": N_("skunk-match"),
    "three-players": N_("three-players"),
}


def profile_title(name: str, lang: str | None = None) -> str:
    """``name`` as said in ``lang`` (default: the current language) when it is a built-in profile's."""
    title = _TITLES.get(name)
    return name if title is None else gettext(title, lang)
