"""The ``--profile`` option every command takes: a built-in profile's name or a profile file, loaded
the one way (`cribcore.profiles.load_profile`); a profile that does not load is a usage error."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..i18n import N_, _
from .commands import UsageError

if TYPE_CHECKING:
    from ..profiles import Profile

__all__ = ["PROFILE_HELP", "add_profile_argument", "load_profile_option"]

PROFILE_HELP = N_("the rules: a built-in profile (see 'cribbage profiles list') or a profile file")
"""The option's help, in English (translated where it is shown; the catalog holds it)."""

STANDARD = "standard"
"""`cribcore.profiles.STANDARD`, named here so that adding the option loads no profiles (the profiles
need pydantic, which ``cribbage score`` never does); a test keeps the two equal."""


def add_profile_argument(
    parser: argparse.ArgumentParser, *, default: str | None = STANDARD, help: str | None = None
) -> None:
    """Add ``--profile NAME|FILE`` to ``parser`` (default standard; ``None`` tells a command that no
    profile was named); ``help`` is the option's help in the current language (default: `PROFILE_HELP`)."""
    parser.add_argument("--profile", default=default, metavar="NAME|FILE", help=help or _(PROFILE_HELP))


def load_profile_option(text: str, command: str, option: str | None = "--profile") -> Profile:
    """The profile ``--profile`` (or ``option``; ``None`` for a positional argument) names; raises
    `UsageError` (exit status 2) with the one-line reason naming the option, the file and the key when
    it does not load."""
    from ..profiles import ProfileError, builtin_names, load_profile

    try:
        profile = load_profile(text)
    except ProfileError as exc:
        raise UsageError(f"{option}: {exc}" if option else str(exc), command) from None
    if text != STANDARD and text in builtin_names():
        _warn_if_shadowed(text)
    return profile


def _warn_if_shadowed(name: str) -> None:
    """A built-in profile named on the command line that a package also ships: the built-in one is
    played, and one warning line says so (`cribcore.packaged_profiles`)."""
    import warnings

    from ..packaged_profiles import packaged_profiles
    from ..problems import PackagedProfileWarning

    shipped = packaged_profiles().get(name, ())
    if shipped:
        packages = ", ".join(profile.package for profile in shipped)
        warnings.warn(
            f"profile {name!r} of {packages} is not used: a built-in profile has that name",
            PackagedProfileWarning,
            stacklevel=2,
        )
