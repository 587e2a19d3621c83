"""Profiles: named rule sets in TOML, validated by pydantic, with the locked ``standard`` default.

A profile file names the plugins it enables, their options and any rule parameters, and may extend
another profile. Loading resolves it to a `Profile` whose `rules` is a complete `RuleSet`. Every problem
is reported as one `ProfileError` naming the file, the key and the reason, before any card is dealt.
"""

from __future__ import annotations

import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any, cast

import pluggy
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .cards import FULL_DECK, Card
from .nesting import DataTooLarge, check_depth
from .packaged_profiles import PackagedProfile, find_packaged, packaged_profiles
from .pluginmanager import (
    BASE_PLUGIN,
    UnknownPlugin,
    available,
    each_plugin,
    load_plugin,
    options_model,
    plugin_manager,
)
from .rules import RuleSet
from .speech import ScoreKind, register_kinds
from .validation import first_problem, one_line

__all__ = [
    "BUILTIN_DIRECTORY",
    "MAX_EXTENDS",
    "STANDARD",
    "Profile",
    "ProfileError",
    "ProfileFile",
    "builtin_names",
    "builtin_profile",
    "load_profile",
    "profile_schema",
    "resolved_profile",
]

STANDARD = "standard"
"""The name of the locked standard profile, the default of every command."""

MAX_EXTENDS = 16
"""The longest chain of profile files extending one another (the file itself included)."""
MAX_DESCRIPTION = 500
"""The longest description a profile file may give, in characters."""

BUILTIN_DIRECTORY = Path(str(files("cribcore_profiles")))
"""Where the built-in profile files are installed (the ``profiles/`` folder of a checkout)."""


class ProfileError(ValueError):
    """A profile cannot be used; the message names the file, the key and the reason.
    The message is always one printable line (see `cribcore.validation.one_line`)."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


class ProfileFile(BaseModel):
    """The schema of a profile TOML file, exactly as written. Types are strict: ``locked = "no"`` is
    refused, not read as false."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    name: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    description: str = Field("", max_length=MAX_DESCRIPTION)
    locked: bool = False
    extends: str | None = Field(None, min_length=1)
    plugins: list[str] = Field(default_factory=list)

    @field_validator("description")
    @classmethod
    def _printable(cls, text: str) -> str:
        # Shown on terminals and boards: a control character could rewrite the screen.
        if any(unicodedata.category(ch) == "Cc" for ch in text):
            raise ValueError("must be one line of printable text (no control characters)")
        return text

    @field_validator("plugins")
    @classmethod
    def _once_each(cls, plugins: list[str]) -> list[str]:
        for index, name in enumerate(plugins):
            if name in plugins[:index]:
                raise ValueError(f"{name!r} is named twice")
        return plugins

    rules: dict[str, Any] = Field(default_factory=dict)
    options: dict[str, dict[str, Any]] = Field(default_factory=dict)


class Profile(BaseModel):
    """A resolved profile: the complete rules, the plugins to load in order, and each plugin's options
    (validated, with every default filled in)."""

    model_config = ConfigDict(frozen=True)

    name: str
    description: str = ""
    locked: bool = False
    plugins: tuple[str, ...] = (BASE_PLUGIN,)
    rules: RuleSet = RuleSet()
    options: dict[str, dict[str, Any]] = Field(default_factory=dict)


@dataclass
class _Layers:
    """A profile file merged with the files it extends, before plugins and rules are checked."""

    name: str
    description: str
    locked: bool
    plugins: tuple[str, ...]
    options: dict[str, dict[str, Any]]
    layers: list[tuple[tuple[str, ...], dict[str, Any]]]
    """Base first: the plugins each file added and its own ``[rules]``, applied in that order (a
    variant enabled by a later file overrides an earlier file's rule values)."""
    sources: dict[str, Path]
    """The file that set each ``rules.<key>`` and ``options.<plugin>.<key>``, for error messages."""


def _first_error(
    path: Path, exc: ValidationError, *prefix: str, sources: dict[str, Path] | None = None
) -> ProfileError:
    key, message = first_problem(exc, *prefix)
    if sources is not None and key.count(".") >= len(prefix):
        path = sources.get(".".join(key.split(".")[: len(prefix) + 1]), path)
    return ProfileError(f"{path}: {key}: {message}" if key else f"{path}: {message}")


def _read(path: Path, packaged: PackagedProfile | None = None) -> ProfileFile:
    source: str | Mapping[str, Any] | None = None
    if packaged is not None:
        try:
            source = packaged.source()
        except ValueError as exc:
            raise ProfileError(f"{path}: {exc}") from None
    # A device or a pipe (/dev/zero, /dev/stdin) would never end, or never come: only a file is read.
    elif path.exists() and not path.is_file():
        raise ProfileError(f"{path}: not a profile file")
    try:
        if source is None:
            source = path.read_text(encoding="utf-8")
        data = tomllib.loads(source) if isinstance(source, str) else dict(source)
        check_depth(data)
    except FileNotFoundError:
        raise ProfileError(f"{path}: no such profile file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ProfileError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{path}: TOML syntax error: {exc}") from None
    except RecursionError:
        raise ProfileError(f"{path}: not a profile: nested too deeply") from None
    except DataTooLarge as exc:
        raise ProfileError(f"{path}: not a profile: {exc}") from None
    try:
        return ProfileFile.model_validate(data)
    except ValidationError as exc:
        raise _first_error(path, exc) from None


def _locate(name_or_path: str | Path, relative_to: Path | None = None) -> tuple[Path, PackagedProfile | None]:
    """Where a profile is: a file, a built-in profile, or one an installed package ships (then also the
    package's profile; its path only names it in messages)."""
    text = str(name_or_path)
    if isinstance(name_or_path, Path) or text.endswith(".toml") or "/" in text:
        path = Path(text)
        if relative_to is not None and not path.is_absolute():
            path = relative_to / path
        return path, None
    builtin = BUILTIN_DIRECTORY / f"{text}.toml"
    if builtin.is_file():
        return builtin, None
    try:
        packaged = find_packaged(text)
    except ValueError as exc:
        raise ProfileError(str(exc)) from None
    if packaged is None:
        builtins = builtin_names()
        shipped = [name for name in packaged_profiles() if name not in builtins]
        installed = f"; from packages: {', '.join(shipped)}" if shipped else ""
        raise ProfileError(
            f"unknown profile {text!r} (built-in: {', '.join(builtins)}{installed}; or a .toml file)"
        )
    return packaged.where, packaged


def builtin_profile(name: str) -> Profile:
    """The built-in profile called ``name``; never a file path, whatever ``name`` holds (for names
    that come from files, such as a record's). Raises `ProfileError` for any other name."""
    if name not in builtin_names():
        raise ProfileError(f"unknown built-in profile {name[:64]!r} (built-in: {', '.join(builtin_names())})")
    return load_profile(name)


def builtin_names() -> tuple[str, ...]:
    """The names of the built-in profiles, standard first."""
    names = sorted(p.stem for p in BUILTIN_DIRECTORY.glob("*.toml"))
    return tuple(sorted(names, key=lambda n: n != STANDARD))


def _collect(path: Path, seen: tuple[Path, ...], packaged: PackagedProfile | None = None) -> _Layers:
    if path.resolve() in seen:
        raise ProfileError(f"{path}: extends: profiles extend each other in a loop")
    if len(seen) >= MAX_EXTENDS:
        raise ProfileError(f"{path}: extends: more than {MAX_EXTENDS} profiles extend one another")
    spec = _read(path, packaged)
    if packaged is not None and spec.name != packaged.name:
        raise ProfileError(f"{path}: name: must be {packaged.name!r}, the name its package registers")
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
            base_path, base_packaged = _locate(spec.extends, None if packaged else path.parent)
            if (
                packaged is not None
                and base_packaged is None
                and not base_path.is_relative_to(BUILTIN_DIRECTORY)
            ):
                raise ProfileError("a packaged profile extends a profile by name, not a file")
            if base_packaged is None and not base_path.is_file():
                raise ProfileError(f"no such profile file {base_path}")
        except ProfileError as exc:
            raise ProfileError(f"{path}: extends: {exc}") from None
        base = _collect(base_path, (*seen, path.resolve()), base_packaged)
    else:
        base = _Layers(spec.name, "", False, (BASE_PLUGIN,), {}, [], {})
    plugins = tuple(dict.fromkeys((BASE_PLUGIN, *base.plugins, *spec.plugins)))
    options = {k: dict(v) for k, v in base.options.items()}
    for plugin, values in spec.options.items():
        if plugin not in plugins:
            raise ProfileError(f"{path}: options.{plugin}: plugin {plugin!r} is not enabled here")
        options.setdefault(plugin, {}).update(values)
    return _Layers(
        name=spec.name,
        description=spec.description,
        locked=spec.locked,
        plugins=plugins,
        options=options,
        layers=[*base.layers, (tuple(p for p in plugins if p not in base.plugins), spec.rules)],
        sources={
            **base.sources,
            **{f"rules.{key}": path for key in spec.rules},
            **{f"options.{plugin}.{key}": path for plugin, values in spec.options.items() for key in values},
        },
    )


def _plugin_options(layers: _Layers, path: Path) -> dict[str, dict[str, Any]]:
    resolved: dict[str, dict[str, Any]] = {}
    for name in layers.plugins:
        try:
            plugin = load_plugin(name)
        except UnknownPlugin as exc:
            raise ProfileError(f"{path}: plugins: {exc}") from None
        given = layers.options.get(name, {})
        model = options_model(plugin)
        if model is None:
            if given:
                raise ProfileError(f"{path}: options.{name}: plugin {name!r} takes no options")
            continue
        try:
            resolved[name] = model.model_validate(given).model_dump(mode="json")
        except ValidationError as exc:
            raise _first_error(path, exc, "options", name, sources=layers.sources) from None
    return resolved


def _plugin_rules(pm: pluggy.PluginManager, path: Path) -> dict[str, Mapping[str, Any]]:
    """Each plugin's rule values; two plugins setting one rule differently cannot be combined."""
    answers: dict[str, Mapping[str, Any]] = {}
    setter: dict[str, tuple[str, Any]] = {}
    # In registration order, so a conflict names the plugins in the profile's order.
    for plugin, results in each_plugin(pm, "cribcore_rules"):
        answer: dict[str, Any] = {}
        for result in results:
            answer.update(cast("Mapping[str, Any] | None", result) or {})
        for key, value in answer.items():
            if key in setter and setter[key][1] != value:
                raise ProfileError(
                    f"{path}: plugins: {setter[key][0]} and {plugin} cannot be combined "
                    f"({key} {setter[key][1]!r} and {value!r})"
                )
            setter[key] = (plugin, value)
        answers[plugin] = answer
    return answers


def _pack(pm: pluggy.PluginManager, rules: RuleSet, path: Path) -> tuple[Card, ...]:
    """The profile's pack (``cribcore_pack``), checked: distinct cards, enough for a cut."""
    try:
        answer = pm.hook.cribcore_pack(rules=rules)
    except ValueError as exc:  # Card.extra refuses a text or a redefinition
        raise ProfileError(f"{path}: plugins: the pack: {exc}") from None
    pack = tuple(answer) if answer is not None else FULL_DECK
    if not all(isinstance(card, Card) for card in pack):
        raise ProfileError(f"{path}: plugins: the pack must hold cards only")
    if len(set(pack)) != len(pack):
        raise ProfileError(f"{path}: plugins: the pack holds a card twice")
    if sum(1 for card in pack if card.standard) < rules.seats:
        raise ProfileError(f"{path}: plugins: the pack has too few standard cards to cut for deal")
    return pack


def _score_kinds(pm: pluggy.PluginManager, path: Path) -> None:
    """Register the words of the plugins' own score kinds (``cribcore_score_kinds``)."""
    for plugin, results in each_plugin(pm, "cribcore_score_kinds"):
        for result in results:
            kinds = cast("Mapping[str, ScoreKind] | None", result) or {}
            try:
                if not all(isinstance(words, ScoreKind) for words in kinds.values()):
                    raise ValueError("each kind's words must be a ScoreKind")
                register_kinds(kinds)
            except ValueError as exc:
                raise ProfileError(f"{path}: {plugin}: {exc}") from None


def _finish(layers: _Layers, path: Path) -> Profile:
    options = _plugin_options(layers, path)
    try:
        pm = plugin_manager(layers.plugins, options)
    except UnknownPlugin as exc:
        raise ProfileError(f"{path}: plugins: {exc}") from None
    try:
        values = _plugin_rules(pm, path)
        merged: dict[str, Any] = {}
        for added, own in layers.layers:
            for name in added:
                merged.update(values.get(name, {}))
            merged.update(own)
        rules = RuleSet.model_validate(merged, context={"pack_size": None})
        pack = _pack(pm, rules, path)
        # Validated again with the pack's size, so that a deal too big for it is reported as a rule.
        rules = RuleSet.model_validate(merged, context={"pack_size": len(pack)})
    except ValidationError as exc:
        raise _first_error(path, exc, "rules", sources=layers.sources) from None
    _score_kinds(pm, path)
    for plugin, reasons in each_plugin(pm, "cribcore_check_rules", rules=rules):
        reason = next((reason for reason in reasons if reason), None)
        if reason:
            raise ProfileError(f"{path}: {plugin}: {reason}")
    return Profile(
        name=layers.name,
        description=layers.description,
        locked=layers.locked,
        plugins=layers.plugins,
        rules=rules,
        options=options,
    )


def resolved_profile(data: Mapping[str, Any], source: str = "profile") -> Profile:
    """Rebuild a resolved profile from its JSON form (``Profile.model_dump(mode="json")``, as game
    records carry it), checking it as a profile file is checked: the plugins must be installed, their
    options valid, the rules consistent. Raises `ProfileError` naming ``source`` and the key.
    """
    path = Path(source)
    try:
        spec = ProfileFile.model_validate(
            {key: data[key] for key in ("name", "description", "plugins", "rules", "options") if key in data}
        )
    except ValidationError as exc:
        raise _first_error(path, exc) from None
    plugins = tuple(dict.fromkeys((BASE_PLUGIN, *spec.plugins)))
    unknown = next((name for name in spec.options if name not in plugins), None)
    if unknown is not None:
        raise ProfileError(f"{source}: options.{unknown}: plugin {unknown!r} is not enabled here")
    layers = _Layers(spec.name, spec.description, False, plugins, spec.options, [(plugins, spec.rules)], {})
    profile = _finish(layers, path)
    if profile.name == STANDARD:
        standard = load_profile()
        if (profile.plugins, profile.rules, profile.options) != (
            standard.plugins,
            standard.rules,
            standard.options,
        ):
            raise ProfileError(f"{source}: rules: the standard profile is locked, and these are other rules")
        return standard
    return profile


def profile_schema() -> dict[str, Any]:
    """The JSON Schema of a profile file, with the rules' fields and each installed plugin's options
    (importing every installed plugin to read its options model)."""
    schema = ProfileFile.model_json_schema()
    properties = schema["properties"]
    rules = RuleSet.model_json_schema()
    rules.pop("required", None)
    properties["rules"] = {**rules, "additionalProperties": False}
    plugin_options: dict[str, Any] = {}
    for name in sorted(available()):
        try:
            model = options_model(load_plugin(name))
        except UnknownPlugin:
            continue
        plugin_options[name] = (
            model.model_json_schema() if model is not None else {"type": "object", "maxProperties": 0}
        )
    properties["options"] = {
        "title": "Options",
        "description": "Each enabled plugin's options, as a table named after the plugin.",
        "type": "object",
        "properties": plugin_options,
        "additionalProperties": False,
    }
    properties["plugins"]["items"] = {"type": "string", "examples": sorted(available())}
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "cribcore profile"
    return schema


def load_profile(name_or_path: str | Path = STANDARD) -> Profile:
    """Load and fully check a built-in profile by name, a profile an installed package ships by name
    (`cribcore.packaged_profiles`; a built-in name always means the built-in profile), or a profile file
    by path.

    The built-in standard profile must be exactly the standard rules (docs/rules.md): an edited
    copy is refused.
    Raises `ProfileError` with one message naming the file, the key and the reason.
    """
    path, packaged = _locate(name_or_path)
    profile = _finish(_collect(path, (), packaged), path)
    if profile.name == STANDARD and (
        profile.rules != RuleSet() or profile.plugins != (BASE_PLUGIN,) or profile.options
    ):
        raise ProfileError(f"{path}: the standard profile is locked and has been edited; reinstall")
    return profile
