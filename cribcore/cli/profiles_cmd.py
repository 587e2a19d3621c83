"""The ``profiles`` command: list, show, validate and create profiles, and print their JSON Schema.

``new`` writes a profile that extends another, with ``--set`` changes, as a TOML file a user can then
edit; it is checked exactly as ``play --profile`` would load it before the file is written, and written
atomically, so a bad ``--set`` never leaves a file behind.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import tomli_w
from pydantic import ValidationError
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..files import atomic_write_text, check_writable
from ..i18n import _, gettext
from ..packaged_profiles import packaged_profiles
from ..plugincheck import CHECK_SEED, try_profile
from ..pluginmanager import PluginError
from ..profiles import (
    STANDARD,
    Profile,
    ProfileError,
    ProfileFile,
    builtin_names,
    load_profile,
    profile_schema,
)
from ..speech_messages import validation_reason
from ..validation import first_problem
from .commands import UsageError
from .errors import os_error_text
from .packaged_rows import packaged_rows
from .render import print_json

__all__ = ["add_profiles_parser", "parse_setting"]


def add_profiles_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``profiles`` and its subcommands to the ``cribbage`` parser."""
    parser = commands.add_parser(
        "profiles",
        help=_("list, show, check and create rule profiles"),
        description=_(
            "Profiles are TOML files naming the variant plugins a game uses, their options and "
            "any rule values. 'standard' is locked; make a new profile that extends it for house rules."
        ),
    )
    sub = parser.add_subparsers(dest="profiles_command", metavar="ACTION", title=_("actions"))
    sub.required = True

    listing = sub.add_parser(
        "list", help=_("the built-in profiles"), description=_("List the built-in profiles.")
    )
    listing.add_argument("--json", action="store_true", help=_("print them as JSON"))
    listing.set_defaults(handler=_list)

    show = sub.add_parser(
        "show",
        help=_("a profile fully resolved"),
        description=_("Show a profile as the game sees it: every plugin, option and rule value."),
    )
    show.add_argument("profile", metavar="NAME|FILE")
    show.add_argument("--json", action="store_true", help=_("print it as JSON"))
    show.set_defaults(handler=_show)

    validate = sub.add_parser(
        "validate",
        help=_("check a profile file"),
        description=_(
            "Load a profile file as 'play --profile' would, then play one short seeded game on it "
            "with computer players, so that a plugin that fails shows here; say what is wrong, if anything."
        ),
    )
    validate.add_argument("file", metavar="FILE")
    validate.set_defaults(handler=_validate)

    new = sub.add_parser(
        "new",
        help=_("write a new profile extending another"),
        description=_(
            "Write NAME.toml (or --output FILE): a profile that extends --from, with --set changes."
        ),
        epilog=_(
            "Example: cribbage profiles new quick --from five-card --set five-card.target=31 "
            "--plugin muggins --set muggins.apply_to_play=false"
        ),
    )
    new.add_argument("name", type=_profile_name, metavar="NAME")
    new.add_argument("--from", dest="base", default=STANDARD, metavar="PROFILE", help=_("default: standard"))
    new.add_argument(
        "--plugin", action="append", default=[], metavar="PLUGIN", help=_("enable a plugin (repeatable)")
    )
    new.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        type=_setting,
        metavar="KEY=VALUE",
        help=_('PLUGIN.OPTION=VALUE or rules.RULE=VALUE (TOML values: 61, true, "text"); repeatable'),
    )
    new.add_argument("--description", default=None, metavar="TEXT")
    new.add_argument("--output", type=Path, metavar="FILE", help=_("default: NAME.toml here"))
    new.add_argument("--force", action="store_true", help=_("replace FILE if it exists"))
    new.set_defaults(handler=_new)

    schema = sub.add_parser(
        "schema",
        help=_("the JSON Schema of a profile file"),
        description=_("Print the JSON Schema of profile files (for editors that validate TOML)."),
    )
    schema.set_defaults(handler=_schema)


def parse_setting(text: str) -> tuple[str, str, Any]:
    """``section.key=value`` → (section, key, value); the value is read as TOML, or as a bare string.

    Raises `ValueError` for anything not of that shape.
    """
    key, sep, raw = text.partition("=")
    section, dot, name = key.strip().partition(".")
    if not sep or not dot or not section or not name or "." in name:
        raise ValueError(_("{text} is not PLUGIN.OPTION=VALUE or rules.RULE=VALUE").format(text=repr(text)))
    raw = raw.strip()
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        if not raw or any(c in raw for c in "\"'[]{}=\n"):
            raise ValueError(
                _('{text}: {raw} is not a value (use 61, true or "text")').format(
                    text=repr(text), raw=repr(raw)
                )
            ) from None
        value = raw
    return section, name, value


def _setting(text: str) -> tuple[str, str, Any]:
    try:
        return parse_setting(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _profile_name(text: str) -> str:
    """``profiles new NAME``: checked against the profile file's own rule for names."""
    try:
        ProfileFile.model_validate({"name": text})
    except ValidationError as exc:
        if first_problem(exc)[0] == "name":
            raise argparse.ArgumentTypeError(
                _(
                    "a profile name is 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or "
                    "digit, not {text}"
                ).format(text=repr(text))
            ) from None
    return text


def _summary(profile: Profile) -> dict[str, Any]:
    return profile.model_dump(mode="json")


def _list(args: argparse.Namespace, console: Console) -> int:
    profiles: list[tuple[Profile, str | None]] = [(load_profile(name), None) for name in builtin_names()]
    profiles += packaged_rows(frozenset(builtin_names()))
    if args.json:
        print_json([{**_summary(p), "package": package} for p, package in profiles])
        return 0
    table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
    table.add_column(_("profile"), no_wrap=True)
    table.add_column(_("players"), justify="right")
    table.add_column(_("to"), justify="right")
    table.add_column(_("description"))
    for profile, package in profiles:
        name = profile.name + (_(" (locked, default)") if profile.locked else "")
        if package is not None:
            name = _("{profile} (from {package})").format(profile=profile.name, package=package)
        # A built-in profile's description is in the catalog (babel.cfg extracts it).
        described = gettext(profile.description) if profile.description else ""
        table.add_row(name, str(profile.rules.seats), str(profile.rules.target), described)
    console.print(table)
    console.print(
        Text(_("Play one with: cribbage play --profile NAME   Details: cribbage profiles show NAME"))
    )
    return 0


def _show(args: argparse.Namespace, console: Console) -> int:
    profile = load_profile(args.profile)
    if args.json:
        print_json(_summary(profile))
        return 0
    data = _summary(profile)
    data.pop("locked", None)
    locked = _(" (locked)") if profile.locked else ""
    console.print(Text(f"# {profile.name}{locked}", style="bold"))
    described = gettext(profile.description) if profile.description else ""
    if described != profile.description:
        # The file's own words stay below as written; a built-in profile's description is in the catalog.
        console.print(Text(f"# {described}", style="bold"))
    console.print(tomli_w.dumps(_without_unset(data)), markup=False, highlight=False, end="")
    return 0


def _without_unset(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` without the options left unset (``None``, such as a skunk line that follows the
    target): TOML has no null."""
    return {
        key: _without_unset(value) if isinstance(value, dict) else value
        for key, value in data.items()
        if value is not None
    }


def _validate(args: argparse.Namespace, console: Console) -> int:
    path = Path(args.file)
    if not path.is_file():
        raise ProfileError(f"{path}: no such profile file")
    profile = load_profile(path)
    try:
        try_profile(profile)
    except PluginError as exc:
        raise ProfileError(
            _("{path}: in a trial game (seed {seed}): {error}").format(path=path, seed=CHECK_SEED, error=exc)
        ) from None
    extras = [p for p in profile.plugins if p != STANDARD]
    rules = profile.rules
    console.print(
        _(
            "{path}: valid profile {name}: {seats} players, {cards} cards, to {target}; plugins: {plugins}; "
            "a trial game played to the end"
        ).format(
            path=path,
            name=repr(profile.name),
            seats=rules.seats,
            cards=rules.cards_dealt,
            target=rules.target,
            plugins=", ".join(extras) or _("none beyond standard"),
        ),
        markup=False,
        highlight=False,
    )
    return 0


def _new(args: argparse.Namespace, console: Console) -> int:
    name: str = args.name
    if name == STANDARD:
        raise ProfileError(_("the standard profile is locked; give your profile another name"))
    output: Path = args.output if args.output is not None else Path(f"{name}.toml")
    if output.exists() and not args.force:
        raise UsageError(
            _("{output} exists; choose another --output or add --force").format(output=output), "profiles new"
        )
    if not output.resolve().parent.is_dir():
        raise UsageError(
            _("--output: the folder {folder} does not exist").format(folder=repr(str(output.parent))),
            "profiles new",
        )
    try:
        check_writable(output)
    except OSError as exc:
        raise UsageError(f"--output: {os_error_text(exc)}", "profiles new") from None
    base = load_profile(args.base)
    # A name (built in, or shipped by a package) stays a name; a file is linked relative to the new one.
    named = args.base in builtin_names() or args.base in packaged_profiles()
    extends = args.base if named else os.path.relpath(Path(args.base), output.parent)
    plugins = [p for p in args.plugin if p not in base.plugins]
    rules: dict[str, Any] = {}
    options: dict[str, dict[str, Any]] = {}
    for section, key, value in args.settings:
        if section == "rules":
            rules[key] = value
            continue
        if section not in base.plugins and section not in plugins:
            plugins.append(section)
        options.setdefault(section, {})[key] = value
    data: dict[str, Any] = {
        "name": name,
        "description": args.description if args.description is not None else f"{base.description} (edited)",
        "extends": extends,
    }
    if plugins:
        data["plugins"] = plugins
    if rules:
        data["rules"] = rules
    if options:
        data["options"] = options
    try:
        ProfileFile.model_validate(data)
    except ValidationError as exc:
        key, _reason = first_problem(exc)
        raise UsageError(f"{key}: {validation_reason(exc.errors()[0])}", "profiles new") from None
    text = f"# Made with: cribbage profiles new {name} --from {args.base}\n" + tomli_w.dumps(data)
    profile = _write_checked(output, text)
    console.print(
        _(
            "Wrote {output}: {seats} players, {cards} cards, to {target}. Play it with: "
            "cribbage play --profile {output}"
        ).format(
            output=output,
            seats=profile.rules.seats,
            cards=profile.rules.cards_dealt,
            target=profile.rules.target,
        ),
        markup=False,
        highlight=False,
    )
    return 0


def _write_checked(output: Path, text: str) -> Profile:
    """Write ``text`` to ``output`` only if it loads as a valid profile, checked from a temporary copy
    in the same folder (so a relative ``extends`` resolves the same); nothing is left behind on error."""
    fd, tmp = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".toml", dir=output.resolve().parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        profile = load_profile(Path(tmp))
    except ProfileError as exc:
        raise ProfileError(str(exc).replace(tmp, str(output))) from None
    finally:
        Path(tmp).unlink(missing_ok=True)
    atomic_write_text(output, text)
    return profile


def _schema(args: argparse.Namespace, console: Console) -> int:
    print(json.dumps(profile_schema(), indent=2))
    return 0
