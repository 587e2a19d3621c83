"""Profiles that installed packages ship: the ``cribcore.profiles`` entry-point group.

A plugin package registers each profile it ships under the profile's name, next to its plugin::

    [project.entry-points."cribcore.profiles"]
    joker-cribbage = "cribcore_joker_cribbage:PROFILE"

The object the entry point names is the profile: the text of a profile file (a ``str`` of TOML), that
text parsed (a mapping), or a TOML file (a `pathlib.Path`, or a file of `importlib.resources`). Nothing
is imported until the profile is listed or loaded. Once the package is installed, ``cribbage profiles
list`` shows the profile marked with its package, and ``--profile NAME`` (`cribcore.profiles.load_profile`)
loads it by name, checked as any profile file is. Its ``name`` must be the name it is registered under,
and it may extend a built-in or another packaged profile by name (not a file).

A built-in profile's name always means the built-in profile: a package's profile of that name is never
loaded, and ``profiles list`` (or ``--profile NAME``) says so in one warning line. A name two packages
register is refused when it is loaded, naming both packages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

__all__ = ["ENTRY_POINT_GROUP", "PackagedProfile", "find_packaged", "packaged_profiles"]

ENTRY_POINT_GROUP = "cribcore.profiles"
"""The entry-point group of the profiles packages ship."""


@dataclass(frozen=True, slots=True)
class PackagedProfile:
    """One profile an installed package registers: its name, the package (distribution) that
    provides it, and the entry point naming it."""

    name: str
    package: str
    entry: EntryPoint

    @property
    def where(self) -> Path:
        """How messages name the profile, where a file's path would stand."""
        return Path(f"{self.name} (from {self.package})")

    def source(self) -> str | Mapping[str, Any]:
        """The profile as the package gives it: TOML text, or its parsed form. Raises `ValueError`
        with a one-line reason when the entry point fails to load or names something else."""
        try:
            found: object = self.entry.load()
        except Exception as exc:  # a broken third-party package must not crash the program
            raise ValueError(f"failed to load {self.entry.value}: {type(exc).__name__}: {exc}") from exc
        if isinstance(found, str | Mapping):
            return found
        read_text = getattr(found, "read_text", None)
        if callable(read_text):
            try:
                text = read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise ValueError(f"cannot read {self.entry.value}: {exc}") from None
            if isinstance(text, str):
                return text
        raise ValueError(
            f"{self.entry.value} is not a profile (TOML text, a mapping or a TOML file), "
            f"but {type(found).__name__}"
        )


def packaged_profiles() -> dict[str, tuple[PackagedProfile, ...]]:
    """Every profile the installed packages register, by name, in name order: usually one per name,
    more when packages clash. Reads only the packages' metadata."""
    found: dict[str, list[PackagedProfile]] = {}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        dist = entry.dist
        package = dist.metadata["Name"] if dist is not None else entry.module
        found.setdefault(entry.name, []).append(PackagedProfile(entry.name, package, entry))
    return {
        name: tuple(sorted(profiles, key=lambda profile: profile.package))
        for name, profiles in sorted(found.items())
    }


def find_packaged(name: str) -> PackagedProfile | None:
    """The installed packages' profile ``name``, or ``None`` when no package registers it. Raises
    `ValueError` when several packages do."""
    profiles = packaged_profiles().get(name, ())
    if len(profiles) > 1:
        packages = ", ".join(profile.package for profile in profiles)
        raise ValueError(
            f"profile {name!r} is registered by several packages ({packages}); uninstall all but one"
        )
    return profiles[0] if profiles else None
