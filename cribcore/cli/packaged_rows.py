"""The rows ``cribbage profiles list`` adds for the profiles installed packages ship
(`cribcore.packaged_profiles`), with a warning line for each that cannot be used."""

from __future__ import annotations

import warnings
from collections.abc import Set

from ..packaged_profiles import packaged_profiles
from ..problems import PackagedProfileWarning
from ..profiles import Profile, ProfileError, load_profile

__all__ = ["packaged_rows"]


def packaged_rows(builtin: Set[str]) -> list[tuple[Profile, str]]:
    """Each usable packaged profile, loaded, with the package that ships it, in name order. A profile
    named like a built-in one, registered by several packages, or that does not load is left out with
    a `PackagedProfileWarning` saying why."""
    rows = []
    for name, profiles in packaged_profiles().items():
        packages = ", ".join(profile.package for profile in profiles)
        if name in builtin:
            warnings.warn(
                f"profile {name!r} of {packages} is not used: a built-in profile has that name",
                PackagedProfileWarning,
                stacklevel=2,
            )
            continue
        if len(profiles) > 1:
            warnings.warn(
                f"profile {name!r} is registered by several packages ({packages}); uninstall all but one",
                PackagedProfileWarning,
                stacklevel=2,
            )
            continue
        try:
            rows.append((load_profile(name), packages))
        except ProfileError as exc:
            warnings.warn(
                f"profile {name!r} of {packages} cannot be used: {exc}", PackagedProfileWarning, stacklevel=2
            )
    return rows
