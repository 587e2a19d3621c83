"""Profiles: named rule sets in TOML, validated by pydantic, with the locked ``standard`` default.

A profile file names the plugins it enables, their options and any rule parameters, and may extend
another profile. Loading resolves it to a `Profile` whose `rules` is a complete `RuleSet`. Every problem
is reported as one `ProfileError` naming the file, the key and the reason, before any card is dealt.
"""

from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .pluginmanager import BASE_PLUGIN, UnknownPlugin, plugin_manager
from .rules import RuleSet

__all__ = ["BUILTIN_DIRECTORY", "STANDARD", "Profile", "ProfileError", "ProfileFile", "load_profile"]

STANDARD = "standard"

BUILTIN_DIRECTORY = Path(str(files("cribcore_profiles")))
"""Where the built-in profile files are installed (the ``profiles/`` folder of a checkout)."""


class ProfileError(ValueError):
    """A profile cannot be used; the message names the file, the key and the reason."""


class ProfileFile(BaseModel):
    """The schema of a profile TOML file, exactly as written."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    description: str = ""
    locked: bool = False
    extends: str | None = None
    plugins: list[str] = Field(default_factory=list)
    rules: dict[str, Any] = Field(default_factory=dict)
    options: dict[str, dict[str, Any]] = Field(default_factory=dict)


class Profile(BaseModel):
    """A resolved profile: the complete rules and the plugins to load, in order."""

    model_config = ConfigDict(frozen=True)

    name: str
    description: str = ""
    locked: bool = False
    plugins: tuple[str, ...] = (BASE_PLUGIN,)
    rules: RuleSet = RuleSet()
    options: dict[str, dict[str, Any]] = Field(default_factory=dict)


def _where(path: Path, loc: tuple[int | str, ...]) -> str:
    key = ".".join(str(part) for part in loc)
    return f"{path}: {key}" if key else str(path)


def _read(path: Path) -> ProfileFile:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ProfileError(f"{path}: no such profile file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ProfileError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{path}: TOML syntax error: {exc}") from None
    try:
        return ProfileFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ProfileError(f"{_where(path, first['loc'])}: {first['msg']}") from None


def _locate(name_or_path: str | Path, relative_to: Path | None = None) -> Path:
    text = str(name_or_path)
    if isinstance(name_or_path, Path) or text.endswith(".toml") or "/" in text:
        path = Path(text)
        if relative_to is not None and not path.is_absolute():
            path = relative_to / path
        return path
    builtin = BUILTIN_DIRECTORY / f"{text}.toml"
    if not builtin.is_file():
        known = ", ".join(sorted(p.stem for p in BUILTIN_DIRECTORY.glob("*.toml")))
        raise ProfileError(f"unknown profile {text!r} (built-in: {known}; or give a .toml file)")
    return builtin


def _resolve(path: Path, seen: tuple[Path, ...]) -> Profile:
    if path.resolve() in seen:
        raise ProfileError(f"{path}: extends: profiles extend each other in a loop")
    spec = _read(path)
    is_builtin_standard = path.resolve() == (BUILTIN_DIRECTORY / f"{STANDARD}.toml").resolve()
    if spec.name == STANDARD and not is_builtin_standard:
        raise ProfileError(
            f"{path}: name: the standard profile is locked; give your profile another name and "
            f'extends = "standard"'
        )
    if spec.locked and not is_builtin_standard:
        raise ProfileError(f"{path}: locked: only the built-in standard profile is locked")
    if spec.extends is not None:
        try:
            base_path = _locate(spec.extends, path.parent)
            if not base_path.is_file():
                raise ProfileError(f"no such profile file {base_path}")
        except ProfileError as exc:
            raise ProfileError(f"{path}: extends: {exc}") from None
        base = _resolve(base_path, (*seen, path.resolve()))
    else:
        base = Profile(name=spec.name, plugins=(BASE_PLUGIN,))
    plugins = tuple(dict.fromkeys((BASE_PLUGIN, *base.plugins, *spec.plugins)))
    options = {k: dict(v) for k, v in base.options.items()}
    for plugin, values in spec.options.items():
        if plugin not in plugins:
            raise ProfileError(f"{path}: options.{plugin}: plugin {plugin!r} is not enabled here")
        options.setdefault(plugin, {}).update(values)
    try:
        rules = RuleSet.model_validate({**base.rules.model_dump(), **spec.rules})
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ProfileError(f"{_where(path, ('rules', *first['loc']))}: {first['msg']}") from None
    return Profile(
        name=spec.name,
        description=spec.description,
        locked=spec.locked,
        plugins=plugins,
        rules=rules,
        options=options,
    )


def _check_plugins(profile: Profile, path: Path) -> None:
    try:
        pm = plugin_manager(profile.plugins)
    except UnknownPlugin as exc:
        raise ProfileError(f"{path}: plugins: {exc}") from None
    for reason in pm.hook.cribcore_check_rules(rules=profile.rules):
        if reason:
            raise ProfileError(f"{path}: rules: {reason}")


def load_profile(name_or_path: str | Path = STANDARD) -> Profile:
    """Load and fully check a built-in profile by name or a profile file by path.

    The built-in standard profile must be exactly the rules of RULES.md §2: an edited copy is refused.
    Raises `ProfileError` with one message naming the file, the key and the reason.
    """
    path = _locate(name_or_path)
    profile = _resolve(path, ())
    if profile.name == STANDARD and (profile.rules != RuleSet() or profile.plugins != (BASE_PLUGIN,)):
        raise ProfileError(f"{path}: the standard profile is locked and has been edited; reinstall")
    _check_plugins(profile, path)
    return profile
