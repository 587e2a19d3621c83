"""The ``plugins`` command: every installed plugin with its version, summary, hooks and options;
``--check NAME`` tries one plugin in a short game; ``new NAME`` writes a new plugin package.

Listing imports each plugin to read its hooks and options (nothing else does: a game imports only the
plugins its profile names). A plugin that fails to import is listed with the reason, not a crash.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from ..i18n import _, gettext
from ..plugincheck import CHECK_SEED, plugin_profile, try_profile
from ..pluginmanager import PluginError, UnknownPlugin, available, describe
from ..speech_messages import say
from .plugin_new import write_plugin_package
from .render import print_json

__all__ = ["add_plugins_parser"]


def add_plugins_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``plugins`` to the ``cribbage`` parser."""
    parser = commands.add_parser(
        "plugins",
        help=_("list the installed variant plugins"),
        description=_(
            "List each installed plugin: version, summary, the hooks it implements, its options. "
            "A plugin changes a game only when that game's profile names it."
        ),
    )
    parser.add_argument("--json", action="store_true", help=_("print the list as JSON"))
    parser.add_argument(
        "--check",
        metavar="NAME",
        help=_(
            "load the plugin NAME and play one short seeded game with it (computer players); "
            "say what fails, if anything"
        ),
    )
    parser.set_defaults(handler=_plugins)
    sub = parser.add_subparsers(dest="plugins_command", metavar="ACTION", title=_("actions"))
    new = sub.add_parser(
        "new",
        help=_("write a new plugin package to start from"),
        description=_(
            "Write a ready plugin package: pyproject.toml with the entry points, a module with one "
            "hook, a profile naming it that the package ships, and pytest tests. It installs with "
            "'pip install DIR' as it is; then 'cribbage profiles list' shows its profile NAME and "
            "'--profile NAME' plays it."
        ),
    )
    new.add_argument("name", metavar="NAME", help=_("the plugin's name: lower-case words joined by dashes"))
    new.add_argument("--output", type=Path, metavar="DIR", help=_("default: cribcore-NAME here"))
    new.set_defaults(handler=_new)


def _plugins(args: argparse.Namespace, console: Console) -> int:
    if args.check is not None:
        return _check(args.check, console)
    entries: list[dict[str, Any]] = []
    for name in sorted(available(), key=lambda n: (n != "standard", n)):
        try:
            info = describe(name)
        except UnknownPlugin as exc:
            entries.append({"name": name, "error": str(exc)})
            continue
        entries.append(
            {
                "name": info.name,
                "version": info.version,
                "distribution": info.distribution,
                "summary": info.summary,
                "hooks": list(info.hooks),
                "options": {
                    key: {"type": kind, "default": default, "description": text}
                    for key, (kind, default, text) in info.options.items()
                },
            }
        )
    if args.json:
        print_json(entries)
        return 0
    for entry in entries:
        title = Text(entry["name"], style="bold")
        if "error" in entry:
            why = say(entry["error"])
            console.print(title, Text(_("  cannot be loaded: {error}").format(error=why), style="red"))
            continue
        title.append(f"  {entry['version']} ({entry['distribution']})", style="dim")
        console.print(title)
        # A built-in plugin's words are in the catalog (babel.cfg extracts them); others as written.
        console.print(Text(f"  {_words(entry['summary'])}"))
        hooks = ", ".join(hook.removeprefix("cribcore_") for hook in entry["hooks"])
        console.print(Text(_("  hooks: {hooks}").format(hooks=hooks), style="dim"))
        for key, option in entry["options"].items():
            line = _("  option {key} ({type}, default {default})").format(
                key=key, type=option["type"], default=repr(option["default"])
            )
            described = _words(option["description"])
            console.print(Text(line + (f": {described}" if described else "")))
    return 0


def _words(text: str) -> str:
    """``text`` in the language when the catalog holds it (gettext of "" would be the catalog's header)."""
    return gettext(text) if text else text


def _check(name: str, console: Console) -> int:
    """Load ``name`` at its default options and play a trial game; a failure is one line (exit 1)."""
    profile = plugin_profile(name)  # a ProfileError names an unknown plugin or a refused hook
    try:
        game = try_profile(profile)
    except PluginError as exc:
        raise PluginError(
            exc.plugin,
            exc.hook,
            _("{error} (in a trial game, seed {seed})").format(error=exc.error, seed=CHECK_SEED),
        ) from None
    info = describe(name)
    scores = _(" to ").join(str(score) for score in sorted(game.scores, reverse=True))
    console.print(
        _(
            "plugin {name} {version}: loads, and a trial game with it (seed {seed}) played to the "
            "end, {scores}"
        ).format(name=repr(name), version=info.version, seed=CHECK_SEED, scores=scores),
        markup=False,
        highlight=False,
    )
    return 0


def _new(args: argparse.Namespace, console: Console) -> int:
    folder = write_plugin_package(args.name, args.output)
    console.print(
        _(
            "Wrote the plugin package {folder}. Install it with: pip install {folder}  "
            "Test it with: pytest {tests}  Once installed, play its profile with: "
            "cribbage play --profile {name}"
        ).format(folder=folder, tests=folder / "tests", name=args.name),
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    return 0
