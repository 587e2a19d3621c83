"""argparse's own words (``usage:``, ``options``, its usage errors) in the language of the command
line: `speak_argparse` makes argparse look its messages up in cribcore's catalog, and `WORDS` marks
them for the extractor so that the catalog keeps them (the message ids are argparse's, exactly)."""

from __future__ import annotations

import argparse

from ..i18n import N_, Nn_, _, ngettext

__all__ = ["WORDS", "speak_argparse"]

WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("expected at most one argument"),
    Nn_("expected %s argument", "expected %s arguments"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ignored explicit argument %r"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)
"""The messages of argparse a ``cribbage`` user can meet (its other ones are for programmers)."""


def speak_argparse() -> None:
    """Make argparse say its words through cribcore's catalog, in the current language. argparse
    looks its messages up through the module's own ``_`` and ``ngettext`` (the standard library's
    global gettext domain, which cannot follow ``--lang``), so those two names are pointed at ours;
    English is unchanged, since English messages are their own ids."""
    vars(argparse)["_"] = _
    vars(argparse)["ngettext"] = ngettext
